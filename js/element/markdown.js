// Markdown for model-written text: marked parses it, raw HTML in it is shown as text, and DOMPurify
// sanitizes the result before it reaches the DOM.
//
// - Links keep only http:, https: and mailto: and open with rel="noopener noreferrer".
// - Images never load on their own: a Markdown image in model or tool text can carry data out in
//   its URL (the EchoLeak route, CVE-2025-32711), so each becomes a placeholder naming its host that
//   loads on click, unless its host is one the app allows (`imageHosts`).
// - Task-list checkboxes stay, disabled; every other form control is removed.
// - Code blocks get a header with their language and a copy button, outside the code.
import { Marked } from "marked";
import DOMPurify from "dompurify";
import { imageHost, imageSource, linkAllowed } from "./policy.js";

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Raw HTML blocks and inline tags are text, never markup.
    html(token) {
      return escapeHtml(token.text ?? token.raw ?? "");
    },
  },
});

/** The attribute that holds a Markdown image's source until it is allowed to load. */
const HELD = "data-cd-src";

let purify = null;
function sanitizer() {
  if (purify) return purify;
  purify = DOMPurify(window);
  purify.addHook("uponSanitizeElement", (node, data) => {
    // Only a task list's checkbox survives among form controls.
    if (data.tagName === "input" && node.getAttribute("type") !== "checkbox") node.remove();
  });
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName === "A") {
      if (!linkAllowed(node.getAttribute("href"))) node.removeAttribute("href");
      node.setAttribute("rel", "noopener noreferrer");
      node.setAttribute("target", "_blank");
    } else if (node.nodeName === "IMG") {
      // Sanitizing happens in an inert document; the source is held here so that nothing loads
      // when the fragment joins the page.
      const { src } = imageSource({ url: node.getAttribute("src") });
      node.removeAttribute("src");
      node.removeAttribute("srcset");
      if (src) node.setAttribute(HELD, src);
    } else if (node.nodeName === "INPUT") {
      node.setAttribute("disabled", "");
      node.removeAttribute("name");
    }
  });
  return purify;
}

const CONFIG = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS: ["style", "form", "button", "textarea", "select", "option", "iframe", "frame", "object", "embed", "svg", "math", "link", "meta", "base", "video", "audio", "source", "picture"],
  FORBID_ATTR: ["style", "srcset", "action", "formaction", "xlink:href", "id", "name"],
  ALLOW_DATA_ATTR: false,
};

function loadedImage(src, alt) {
  const img = document.createElement("img");
  img.alt = alt;
  img.referrerPolicy = "no-referrer";
  img.loading = "lazy";
  img.setAttribute("part", "image");
  img.src = src;
  return img;
}

/**
 * A placeholder for an image that waits for the reader: a button naming its host. Pressed, it is
 * replaced by `load()`'s node (null: the app cancelled it, and the placeholder stays).
 */
export function heldImage(src, alt, load = () => loadedImage(src, alt)) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "image-hold";
  button.textContent = `Image from ${imageHost(src)}${alt ? `: ${alt}` : ""} (load)`;
  button.title = src.length > 200 ? `${src.slice(0, 200)}…` : src;
  button.addEventListener("click", () => {
    const node = load();
    if (node) button.replaceWith(node);
  });
  return button;
}

function copyButton(code) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  button.setAttribute("aria-label", "Copy code");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  });
  return button;
}

// ---------------------------------------------------------------------------------------------
// The parts loaded on first need, each its own chunk: the highlighter when a code block with a
// language first shows, the math typesetter when a message first holds math, the streaming part
// (stream.js) when a message first streams. Until one has loaded, code shows plain, math as its
// TeX source and a streaming message without its last block; when it loads, listeners (the
// elements) show it: code highlighted in place, the rows in view built again for math, the
// streaming documents updated in place.

const lazy = { highlight: null, math: null, stream: null };
const loading = { highlight: null, math: null, stream: null };
const failed = { highlight: false, math: false, stream: false };
const listeners = new Set();
const importers = { highlight: () => import("./highlight.js"), math: () => import("./math.js"), stream: () => import("./stream.js") };

/** Calls `listener(name, error)` when a lazily loaded part has loaded (or failed to); returns a
 * function that stops it. */
export function onLazyLoad(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts loading the part `name` ("highlight", "math", "stream") unless it has loaded or is loading. */
export function need(name) {
  if (lazy[name] || loading[name]) return;
  loading[name] = importers[name]().then((module) => {
    lazy[name] = module;
    for (const listener of listeners) listener(name, null);
  }, (error) => {
    // Offline, or a chunk the server does not have: code stays plain, math stays source, streaming
    // text shows as it is, and the elements say why once (cd-error); no retry storm.
    failed[name] = true;
    for (const listener of listeners) listener(name, error);
  });
}

/** The part `name` once loaded; null while it loads (or before it is asked for), false when it
 * could not be loaded. */
export const part = (name) => lazy[name] ?? (failed[name] ? false : null);

/** Private-use characters that stand for a math span in the Markdown source until the rendered
 * fragment has them typeset (taken out of the model's own text first). */
const MATH_OPEN = "\uE002";
const MATH_CLOSE = "\uE003";
const MATH_MARKS = /[\uE002\uE003]/g;
/** Code spans (left as they are), then `$$...$$`, `\[...\]` and `\(...\)`. A single `$` is never
 * math: "$5 and $10" stays text. */
const MATH = /(`+)[\s\S]*?\1|\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g;

/** The source with each math span outside code replaced by a token, and the spans. */
function extractMath(text) {
  const maths = [];
  if (!/\$\$|\\\[|\\\(/.test(text)) return { source: text.replace(MATH_MARKS, ""), maths };
  const replace = (chunk) => chunk.replace(MATH, (match, ticks, dollars, bracket, paren) => {
    if (ticks !== undefined) return match;
    maths.push({ tex: dollars ?? bracket ?? paren, display: paren === undefined, raw: match });
    return `${MATH_OPEN}${maths.length - 1}${MATH_CLOSE}`;
  });
  const out = [];
  let chunk = [];
  let fence = null;
  const flush = () => {
    if (chunk.length) out.push(replace(chunk.join("\n")));
    chunk = [];
  };
  for (const line of text.replace(MATH_MARKS, "").split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (marker) {
      flush();
      fence = marker;
      out.push(line);
    } else {
      chunk.push(line);
    }
  }
  flush();
  return { source: out.join("\n"), maths };
}

const MATH_CONFIG = {
  RETURN_DOM_FRAGMENT: true,
  USE_PROFILES: { mathMl: true },
  FORBID_TAGS: ["annotation-xml", "maction", "style"],
  FORBID_ATTR: ["href", "xlink:href", "src", "style", "id", "class", "action"],
};

/** One math span: MathML once the typesetter has loaded, its TeX source until then or when the TeX
 * cannot be read. */
function mathNode({ tex, display, raw }) {
  const span = document.createElement("span");
  span.className = display ? "math math-display" : "math";
  const math = lazy.math;
  if (!math) {
    need("math");
    span.classList.add("math-pending");
    span.textContent = raw;
    return span;
  }
  const { markup, error } = math.typeset(tex, display);
  if (error) {
    span.classList.add("math-error");
    span.title = error;
    span.textContent = raw;
    return span;
  }
  // Temml sets a few `style` attributes (a CSP's style-src refuses them even while DOMPurify
  // parses, so they go first, as text: its attribute values are escaped).
  span.append(sanitizer().sanitize(markup.replace(/\sstyle="[^"]*"/g, ""), MATH_CONFIG));
  return span;
}

function placeMath(fragment, maths) {
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) if (walker.currentNode.data.includes(MATH_OPEN)) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const parts = node.data.split(/\uE002(\d+)\uE003/);
    node.replaceWith(...parts.map((part, p) => (p % 2 === 0 ? part : maths[Number(part)] ? mathNode(maths[Number(part)]) : "")));
  }
}

const CODE_CONFIG = { RETURN_DOM_FRAGMENT: true, ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"] };
/** Lines in a group of a long highlighted block: highlighter.js's GROUP_LINES, and style.css's
 * height of a group (not imported: highlighter.js is the highlighter's own chunk). */
const GROUP_LINES = 50;

/**
 * Shows `code` (whose text is `text`) with its first `length` characters as `html`, the
 * highlighter's HTML of them, and the rest as plain text; marked `hljs` when that is all of it.
 */
function showHighlighted(code, html, length, text) {
  if (!lazy.highlight.fill(code, html)) code.replaceChildren(sanitizer().sanitize(html, CODE_CONFIG));
  if (length < text.length) code.append(text.slice(length));
  code.classList.toggle("hljs", length === text.length);
  // A long block's groups of lines (highlighter.js, inGroups) are as tall as their lines while the
  // browser skips them: GROUP_LINES, or as many as a group that ran on past a comment, or the
  // last, holds.
  for (const group of code.querySelectorAll(".code-lines")) {
    const lines = group.textContent.split("\n");
    const count = lines.length - (lines[lines.length - 1] === "" ? 1 : 0);
    if (count !== GROUP_LINES) group.style.setProperty("--lines", String(count));
  }
}

/**
 * A code block's text highlighted as `language`: at once when the highlighter has given this text
 * before (a row built again), else the highlight of the longest text it gave that this one starts
 * with (a streaming block's text so far) and the rest plain until the highlighter (a worker: see
 * highlight.js) answers, when `code` still shows the same text. True when it is done (a language
 * the highlighter does not know stays plain).
 */
function highlightCode(code, language) {
  const highlighter = lazy.highlight;
  if (!highlighter) {
    need("highlight");
    return false;
  }
  const text = code.textContent;
  const known = highlighter.known(text, language);
  if (known !== undefined) {
    if (known !== null) showHighlighted(code, known, text.length, text);
    return true;
  }
  const start = highlighter.knownStart(text, language);
  if (start) showHighlighted(code, start.html, start.length, text);
  highlighter.highlight(text, language).then((html) => {
    // Built again meanwhile (a streamed token, a row out of view), or marked by a search: that
    // block has its own answer, or takes this one from the highlighter's store when built again.
    if (typeof html !== "string" || !code.isConnected || code.classList.contains("hljs")) return;
    if (code.textContent !== text || code.querySelector("mark")) return;
    showHighlighted(code, html, text.length, text);
  });
  return false;
}

/** The code blocks in `root` that wait for the highlighter (or a grammar). */
export function plainCodeBlocks(root) {
  return [...root.querySelectorAll(".code-block pre > code[class*='language-']:not(.hljs)")];
}

/**
 * Highlights one code block of `plainCodeBlocks` in place, as renderMarkdown would have (the
 * same nodes result): what the elements do when the highlighter or a grammar arrives, a block a
 * task, instead of building their rows again.
 */
export function highlightBlock(code) {
  const language = /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? "";
  if (language && code.isConnected && !code.classList.contains("hljs")) highlightCode(code, language);
}

/** Longer Markdown than this (in characters) shows as plain text: parsing it could stall the page. */
const MAX_MARKDOWN = 200_000;
/** Lines indented (or quoted) deeper than this nest so far that marked's time grows with the square. */
const DEEP = /^[ \t>]{160,}/m;
/**
 * A run of emphasis delimiters this long opens emphasis nested half as deep: marked recurses per
 * level, so whether it renders (thousands of nested elements in one row) or overflows the stack
 * would depend on the engine's stack size (WebKit's renders 5,000 where V8's throws). Shown as
 * text in every engine.
 */
const DEEP_EMPHASIS = /[*_~]{400,}/;

/** True for text too long or too deeply nested to parse as Markdown in a frame. */
function tooComplex(text) {
  return text.length > MAX_MARKDOWN || DEEP.test(text) || DEEP_EMPHASIS.test(text);
}

/** Text that is not parsed: verbatim, in its own direction. */
function plainText(text) {
  const fragment = document.createDocumentFragment();
  const div = document.createElement("div");
  div.className = "plain";
  div.dir = "auto";
  div.textContent = text;
  fragment.append(div);
  return fragment;
}

/**
 * Splits Markdown into its top-level blocks (paragraphs, lists, fences, tables, the blank lines
 * between them), as marked's lexer reads them: each block's source, in order, which together are
 * the text. Null when the text cannot be split that way (too long or too deep to parse).
 */
export function markdownBlocks(text) {
  const source = String(text);
  if (tooComplex(source)) return null;
  try {
    const raws = marked.lexer(source).map((token) => token.raw ?? "");
    return raws.join("") === source ? raws : null;
  } catch {
    return null;
  }
}

/**
 * Model-written Markdown as a sanitized DocumentFragment. `imageHosts` is the set of hosts whose
 * images load at once; every other image is a placeholder, and `onImage(src)` is asked (false:
 * cancelled) before it loads.
 */
export function renderMarkdown(text, imageHosts = new Set(), { onImage } = {}) {
  const source = String(text);
  let fragment;
  try {
    if (tooComplex(source)) return plainText(source);
    const { source: withoutMath, maths } = extractMath(source);
    fragment = sanitizer().sanitize(marked.parse(withoutMath), CONFIG);
    if (maths.length) placeMath(fragment, maths);
  } catch {
    // marked recurses per nesting level: input nested deeper than the stack goes shows as text.
    return plainText(source);
  }
  for (const img of fragment.querySelectorAll("img")) {
    const src = img.getAttribute(HELD);
    const alt = img.getAttribute("alt") ?? "";
    if (!src) {
      const blocked = document.createElement("span");
      blocked.className = "image-blocked";
      blocked.textContent = `[image not shown${alt ? `: ${alt}` : ""}]`;
      img.replaceWith(blocked);
    } else {
      let host = null;
      try { host = src.startsWith("data:") ? null : new URL(src).host; } catch { host = null; }
      img.replaceWith(host !== null && imageHosts.has(host) ? loadedImage(src, alt)
        : heldImage(src, alt, () => (onImage?.(src) ?? true) ? loadedImage(src, alt) : null));
    }
  }
  for (const pre of fragment.querySelectorAll("pre")) {
    const code = pre.querySelector("code") ?? pre;
    const language = /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? "";
    if (language && code !== pre) highlightCode(code, language);
    const head = document.createElement("div");
    head.className = "code-head";
    const label = document.createElement("span");
    label.textContent = language || "code";
    head.append(label, copyButton(code));
    const wrap = document.createElement("div");
    wrap.className = "code-block";
    wrap.setAttribute("part", "code-block");
    pre.replaceWith(wrap);
    pre.setAttribute("dir", "ltr");
    pre.tabIndex = 0;
    wrap.append(head, pre);
  }
  // A task list's checkbox is named by its item's text (axe's `label` rule), and says its state.
  for (const box of fragment.querySelectorAll('input[type="checkbox"]')) {
    const item = (box.closest("li")?.textContent ?? "").trim().replace(/\s+/g, " ");
    box.setAttribute("aria-label", `${box.checked ? "Done" : "To do"}${item ? `: ${item.length > 120 ? `${item.slice(0, 119)}…` : item}` : ""}`);
  }
  for (const block of fragment.querySelectorAll("p, li, h1, h2, h3, h4, h5, h6, blockquote, td, th")) block.setAttribute("dir", "auto");
  return fragment;
}
