// What only a page that streams needs, its own chunk of pkg/element/, loaded the first time a
// message streams or patches are applied (render.js, streamProse): the streaming healer
// (Streamdown's `remend` and the rules around it) and the grouping of a streaming document's
// finished blocks. Until it has loaded, a streaming message holds back its last block.
import remend from "remend";

/** A table's separator row (`| --- | :-: |`), and the number of columns a row has. */
const SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const columns = (line) => line.trim().replace(/^\||\|$/g, "").split("|").length;

/**
 * Markdown that is still streaming, made safe to show: what is unterminated is completed or held
 * back, so that the reader never sees raw syntax that the next tokens would turn into something
 * else. Streamdown's `remend` closes emphasis, inline code, links and images (a link whose target
 * has not arrived loses its target, an image is held back); here, a table is held back until its
 * separator row is whole (before, its header is only pipes), and a URL still arriving at the end is
 * not auto-linked (it would link to half an address). The text once final is parsed as it is.
 */
export function healStreaming(text) {
  let source = String(text);
  const lines = source.split("\n");
  // Trailing lines that start with a pipe, outside a fence: a table whose separator may not be whole.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  let start = lines.length;
  while (start > 0 && /^\s*\|/.test(lines[start - 1])) start--;
  const fences = lines.slice(0, start).filter((line) => /^\s*(```|~~~)/.test(line)).length;
  if (start < lines.length && fences % 2 === 0) {
    const table = lines.slice(start);
    const whole = table.length >= 2 && SEPARATOR.test(table[1]) && columns(table[1]) === columns(table[0]) &&
      (table.length > 2 || source.endsWith("\n"));
    if (!whole) source = lines.slice(0, start).join("\n");
  }
  // A bare URL still arriving: its scheme's colon escaped, so that GFM does not link it yet.
  source = source.replace(/(^|\s)(https?)(:\/\/\S*)$/i, "$1$2\\$3").replace(/(^|\s)(www)(\.\S*)$/i, "$1$2\\$3");
  // Markers with nothing after them yet (`**`, a fence's first backticks): what they open is unknown.
  source = source.replace(/(^|[^*_~`\\])[*_~`]+$/, "$1");
  // An image whose source has not arrived is held back whole.
  return remend(source).replace(/!\[[^\]]*\]\(streamdown:incomplete-image\)/g, "");
}

/**
 * A streaming document's finished blocks are moved, STREAM_GROUP at a time, into a `div` that the
 * browser skips while it is out of view (`content-visibility: auto`, at its measured height), so
 * that a token's layout, pre-paint and paint cost the blocks in view and the last one, not every
 * block so far: at 20,000 tokens (1,150 blocks), those were most of a frame and grew with the
 * answer (bench/markdown-trace.mjs). Such a `div` is its own formatting context: the margins at its
 * edges no longer collapse with its neighbours', so it is shifted back to where its blocks were,
 * as measured before and after (a negative margin or a padding), and the document shows exactly
 * as it did; the final, non-streamed render has no groups. Only in a document laid out on the page
 * (a row built off the page groups on the next tokens), a group a token.
 */
const STREAM_GROUP = 32;
/** The last blocks, which stay out of groups: the streaming one and two before it (the caret and
 * the last block's margin rules see them where they are). */
const STREAM_OPEN = 3;

const firstElement = (nodes) => nodes.find((node) => node.nodeType === Node.ELEMENT_NODE) ?? null;

/**
 * Moves the next STREAM_GROUP finished blocks of `prose` (a streaming document, on the page) into a
 * group, if there are that many; `state` is its `streamed` state, `grouped` updated. Called before
 * a token changes the document, whose layout is then still the last frame's: the places before
 * cost nothing, those after one layout of the blocks moved.
 */
export function groupBlocks(prose, state) {
  const { blocks } = state;
  if (blocks.length - STREAM_OPEN - state.grouped < STREAM_GROUP) return;
  if (!prose.isConnected || !prose.getClientRects().length) return;
  const from = state.grouped;
  const to = from + STREAM_GROUP;
  const nodes = blocks.slice(from, to).flatMap((block) => block.nodes);
  const first = firstElement(nodes);
  let next = null;
  for (let b = to; !next && b < blocks.length; b++) next = firstElement(blocks[b].nodes);
  if (!first || !next) return;
  const top = first.getBoundingClientRect().top;
  const nextTop = next.getBoundingClientRect().top;
  const group = document.createElement("div");
  group.className = "stream-group";
  nodes[0].before(group);
  group.append(...nodes);
  // The group before this one was shifted against the block that now starts this one.
  const previous = group.previousElementSibling;
  if (previous?.classList.contains("stream-group")) {
    previous.style.marginBlockEnd = "";
    previous.style.paddingBlockEnd = "";
  }
  // Shifting the group's start by `d` moves it and all after it by `d`; its end's shift moves the
  // blocks after it. A negative margin collapses with a neighbour's positive one to their sum; a
  // padding adds.
  const start = top - first.getBoundingClientRect().top;
  const end = nextTop - next.getBoundingClientRect().top - start;
  const height = group.getBoundingClientRect().height;
  const shift = (delta, margin, padding) => {
    if (Math.abs(delta) < 1 / 128) return;
    if (delta < 0) group.style[margin] = `${delta}px`;
    else group.style[padding] = `${delta}px`;
  };
  shift(start, "marginBlockStart", "paddingBlockStart");
  shift(end, "marginBlockEnd", "paddingBlockEnd");
  group.style.containIntrinsicBlockSize = `auto ${height}px`;
  group.classList.add("sealed");
  state.grouped = to;
}

