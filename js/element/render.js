// Display-message records to DOM, one builder per content type. Every string is untrusted: text
// reaches the DOM only as text nodes, except Markdown, which goes through markdown.js.
import { heldImage, markdownBlocks, need, part, renderMarkdown } from "./markdown.js";
import { imageSource, linkTarget, loadsAtOnce } from "./policy.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** A value as display text: strings as they are, anything else as JSON (never throws). */
export function asText(value) {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
}

/** The statuses a tool call shows, each with its icon and its words for a screen reader. */
export const STATUS = {
  pending: ["○", "pending"],
  executing: ["◔", "running"],
  completed: ["✓", "completed"],
  failed: ["✕", "failed"],
  interrupted: ["‖", "interrupted"],
  cancelled: ["⊘", "cancelled"],
};

function statusIcon(status) {
  const known = Object.hasOwn(STATUS, status) ? status : "pending";
  const [icon, words] = STATUS[known];
  return el("span", { class: "status", data: { status: known }, title: words },
    el("span", { "aria-hidden": "true" }, icon), el("span", { class: "visually-hidden" }, words));
}

/** A short one-line summary of tool arguments: `key: value` pairs, cut at `max` characters. */
export function argumentSummary(args, max = 80) {
  let line;
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const parts = [];
    let length = 0;
    for (const key of Object.keys(args)) {
      let value = args[key];
      value = typeof value === "string" ? JSON.stringify(value.length > max ? value.slice(0, max) : value)
        : value !== null && typeof value === "object" ? (Array.isArray(value) ? "[…]" : "{…}") : String(value);
      parts.push(`${key}: ${value}`);
      length += key.length + value.length + 2;
      if (length > max) break;
    }
    line = parts.join(", ");
  } else {
    line = typeof args === "string" ? args.slice(0, max + 1) : asText(args).slice(0, max + 1);
  }
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Plain text, kept verbatim (line breaks too), laid out in its own direction. */
function plain(text, cls = "plain") {
  return el("div", { class: cls, dir: "auto" }, asText(text));
}

/** A citation field that has something to show: a non-empty string, trimmed, or null. */
function word(value) {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** Characters of a citation's label shown (the rest is cut with an ellipsis). */
const CITATION_LABEL = 80;

/**
 * A citation's chip: a link when its `url` (or a `source` that is a URL) is an absolute target the
 * link policy keeps, else plain text. The label is the title, the document's title, the link's host,
 * the URL as given, the file id or the source, in that order; the cited text is its tooltip.
 */
function citationChip(citation, n) {
  const c = citation !== null && typeof citation === "object" ? citation : {};
  const href = linkTarget(word(c.url), null) ?? linkTarget(word(c.source), null);
  let host = null;
  if (href) {
    try { host = new URL(href).host || null; } catch { host = null; }
  }
  let label = word(c.title) ?? word(c.document_title) ?? host ?? word(c.url) ?? word(c.file_id) ?? word(c.source) ?? `Source ${n}`;
  if (label.length > CITATION_LABEL) label = `${label.slice(0, CITATION_LABEL - 1)}…`;
  // Pages count the end exclusive, as Anthropic's page_location does (1 to 2 is page 1).
  const pages = c.unit === "page" && Number.isInteger(c.start_index)
    ? (Number.isInteger(c.end_index) && c.end_index > c.start_index + 1 ? `pp. ${c.start_index}–${c.end_index - 1}` : `p. ${c.start_index}`) : null;
  const cited = word(c.cited_text);
  const tip = [cited && (cited.length > 300 ? `“${cited.slice(0, 299)}…”` : `“${cited}”`), href].filter(Boolean).join("\n");
  // The site's name beside a title, unless the label is the host already.
  const site = host && label !== host ? host.replace(/^www\./, "") : null;
  const parts = [el("span", { class: "citation-n" }, String(n)), el("span", { class: "citation-label", dir: "auto" }, label),
    site ? el("span", { class: "citation-site" }, site) : null,
    pages ? el("span", { class: "citation-where" }, pages) : null];
  // `data-citation`: its place in metadata.citations, for `cd-citation`.
  const data = { citation: n - 1 };
  return href
    ? el("a", { class: "citation", part: "citation", href, target: "_blank", rel: "noopener noreferrer", title: tip || null, data }, ...parts)
    : el("span", { class: "citation", part: "citation", title: tip || null, data }, ...parts);
}

/** `metadata.citations` (api.md, Rich provider content) as numbered chips, in the provider's order. */
function citations(record) {
  const list = record.metadata?.citations;
  if (!Array.isArray(list) || list.length === 0) return null;
  return el("ol", { class: "citations", part: "citations", "aria-label": "Sources" },
    ...list.map((c, k) => el("li", {}, citationChip(c, k + 1))));
}

/** Where a citation links (its `url`, else a `source` that is a URL), or null. */
const citationHref = (c) => (c !== null && typeof c === "object" ? linkTarget(word(c.url), null) ?? linkTarget(word(c.source), null) : null);

/**
 * The sources of a message's text blocks, each once: citations that link to the same URL are one
 * source; any other citation is a source of its own. `{sources: [{citation, index, k}], numbers}`:
 * `numbers[j][k]` is the number of block j's citation k.
 */
function sourcesOf(group) {
  const sources = [];
  const byHref = new Map();
  const numbers = group.map(({ index, record }) => {
    const list = Array.isArray(record.metadata?.citations) ? record.metadata.citations : [];
    return list.map((citation, k) => {
      const href = citationHref(citation);
      if (href && byHref.has(href)) return byHref.get(href);
      sources.push({ citation, index, k });
      if (href) byHref.set(href, sources.length);
      return sources.length;
    });
  });
  return { sources, numbers };
}

/** Private-use characters that stand for a citation marker in the Markdown source until the
 * rendered fragment has them replaced (and are taken out of the model's own text first). */
const MARK_OPEN = "\uE000";
const MARK_CLOSE = "\uE001";
const MARKS = /[\uE000\uE001]/g;

/** The numbered marker of a cited block: a link to its source where it has one. */
function citationMarker({ citation, index, k }, n) {
  const href = citationHref(citation);
  const data = { record: index, citation: k };
  const label = `Source ${n}`;
  const marker = href
    ? el("a", { class: "citation-marker", href, target: "_blank", rel: "noopener noreferrer", "aria-label": label, data }, String(n))
    : el("span", { class: "citation-marker", role: "link", tabindex: "0", "aria-label": label, data }, String(n));
  return el("sup", { class: "citation-ref" }, marker);
}

/** Replaces the marker tokens in `fragment`'s text (outside code) with citation markers. */
function placeMarkers(fragment, sources) {
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) if (walker.currentNode.data.includes(MARK_OPEN)) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const inCode = node.parentElement?.closest("code, pre");
    const parts = node.data.split(/\uE000(\d+)\uE001/);
    const out = [];
    parts.forEach((part, p) => {
      if (p % 2 === 0) out.push(part);
      else if (!inCode) out.push(citationMarker(sources[Number(part) - 1], Number(part)));
    });
    node.replaceWith(...out);
  }
}

/**
 * A message's document while it streams, a top-level Markdown block at a time: blocks before the
 * last are final (text only ever grows at the end), so each token re-reads and rebuilds only the
 * last block, and `prose` keeps the others' nodes as they are (`prose.streamed`: the source shown,
 * each block's source and nodes, how many of them are grouped and where the last one starts). The
 * last block goes through the streaming healer. Called again on the same `prose` with the text
 * grown, it updates it in place, in time that does not grow with the text before the last block;
 * with other text (not the old text grown), it starts over.
 *
 * The healer and the grouping are the streaming chunk's (stream.js, with Streamdown's `remend`),
 * loaded on a page's first stream: until it arrives, the last block is held back (shown as
 * nothing: it could show raw syntax its next tokens change) and nothing is grouped; when it
 * arrives, the elements update their streaming documents in place (the blocks before stay).
 */
export function streamProse(prose, source, sources, ctx) {
  const stream = part("stream");
  if (stream === null) need("stream");
  const state = prose.streamed ?? { source: "", blocks: [], grouped: 0, offset: 0 };
  const grown = source.length >= state.source.length && source.startsWith(state.source);
  let next;
  if (!grown || state.blocks.length < 2) {
    prose.replaceChildren();
    next = { source, blocks: [], grouped: 0, offset: 0 };
  } else {
    if (stream) stream.groupBlocks(prose, state);
    const blocks = state.blocks.slice(0, -1);
    for (const node of state.blocks.at(-1).nodes) node.remove();
    next = { source, blocks, grouped: state.grouped, offset: state.offset };
  }
  // `offset`: where the last block starts in the source.
  const tail = source.slice(next.offset);
  // A tail the lexer does not split into pieces that make it up again (or too long or deep to
  // parse) is one block: still only the tail is built again.
  const raws = markdownBlocks(tail) ?? [tail];
  const onImage = (src) => ctx.emit?.("cd-image", { src, kind: "load" }) ?? true;
  raws.forEach((raw, b, all) => {
    const last = b === all.length - 1;
    if (last && stream === null) {
      next.blocks.push({ raw, nodes: [] });
      return;
    }
    // (A chunk that could not be loaded: the last block shows as it is.)
    const fragment = renderMarkdown(last && stream ? stream.healStreaming(raw) : raw, ctx.imageHosts, { onImage });
    placeMarkers(fragment, sources);
    const nodes = [...fragment.childNodes];
    prose.append(fragment);
    next.blocks.push({ raw, nodes });
    if (!last) next.offset += raw.length;
  });
  prose.streamed = next;
}

/** A message's Markdown source: its text records' text, each block's citation markers after its
 * words (before the line break that may end them). */
function documentSource(group, numbers) {
  let source = "";
  group.forEach(({ record: block }, j) => {
    const text = asText(block.content?.text).replace(MARKS, "");
    const marks = [...new Set(numbers[j])].map((n) => `${MARK_OPEN}${n}${MARK_CLOSE}`).join("");
    source += marks ? text.replace(/\s*$/, (end) => marks + end) : text;
  });
  return source;
}

/** What a message's sources list shows (and its markers link to), to tell when it changed. */
const sourcesKey = (sources) => (sources.length ? JSON.stringify(sources.map(({ citation, index, k }) => [index, k, citation])) : "");

/**
 * Updates a streaming message's document in place (`prose`, as `text` built it) with its records
 * as they are now, without building its row again; false when it cannot (its sources list
 * changed, or a `prose` not built while streaming): then the row is built again. A cited message
 * streams in place too while its sources stay the same: a token after the last citation markers
 * costs the last block, one inside a cited block (whose markers move with its end) the document.
 */
export function updateStreamingText(prose, group, ctx) {
  if (!prose?.streamed) return false;
  const { sources, numbers } = sourcesOf(group);
  if (sourcesKey(sources) !== (prose.sourcesKey ?? "")) return false;
  streamProse(prose, documentSource(group, numbers), sources, ctx);
  return true;
}

/**
 * A message's text records as one document. A user's text is a bubble, verbatim. Any other role's
 * is one Markdown document across the message's consecutive text records (a provider that splits an
 * answer at its citations splits it mid-list), with each block's citations as numbered markers
 * after its text and the message's sources listed once under it, deduplicated by URL.
 */
function text(record, ctx) {
  if (record.message_type === "user") {
    const block = el("div", { class: "bubble", part: "bubble", dir: "auto" }, asText(record.content?.text));
    const sources = citations(record);
    if (!sources) return block;
    const both = document.createDocumentFragment();
    both.append(block, sources);
    return both;
  }
  const group = ctx.group ?? [{ index: ctx.index, record }];
  const { sources, numbers } = sourcesOf(group);
  const source = documentSource(group, numbers);
  const streaming = group.some(({ record: block }) => block.metadata?.streaming === true);
  const prose = el("div", { class: "prose" });
  if (streaming) {
    streamProse(prose, source, sources, ctx);
    prose.sourcesKey = sourcesKey(sources);
  } else {
    prose.append(renderMarkdown(source, ctx.imageHosts, {
      onImage: (src) => ctx.emit?.("cd-image", { src, kind: "load" }) ?? true,
    }));
    placeMarkers(prose, sources);
  }
  if (!sources.length) return prose;
  const list = el("ol", { class: "citations", part: "citations", "aria-label": "Sources" },
    ...sources.map(({ citation, index, k }, n) => {
      const chip = citationChip(citation, n + 1);
      chip.dataset.record = String(index);
      chip.dataset.citation = String(k);
      return el("li", {}, chip);
    }));
  const both = document.createDocumentFragment();
  both.append(prose, list);
  return both;
}

function thinking(record, ctx) {
  const streaming = record.metadata?.streaming === true;
  const open = ctx.open ?? streaming;
  const details = el("details", { class: "thinking", part: "thinking", open },
    el("summary", {}, streaming ? "Thinking…" : "Thinking"), plain(record.content?.text), citations(record));
  // "toggle" also fires for the state the block was built with (and for a search opening it to
  // show a hit): only a change from what was rendered, by the reader, is their choice.
  let shown = details.open;
  details.addEventListener("toggle", () => {
    if (details.open === shown) return;
    shown = details.open;
    if (details.dataset.searchOpened === "true") {
      if (details.open) return;
      delete details.dataset.searchOpened;
    }
    ctx.onToggle?.(details.open);
  });
  return details;
}

function zoomable(img, ctx) {
  const button = el("button", { type: "button", class: "zoom", "aria-label": `Enlarge image${img.alt ? `: ${img.alt}` : ""}` }, img);
  button.addEventListener("click", () => ctx.onZoom?.(img.src, img.alt));
  return button;
}

function image(record, ctx) {
  const content = record.content ?? {};
  const label = typeof content.caption === "string" ? content.caption : typeof content.alt_text === "string" ? content.alt_text : "";
  const alt = typeof content.alt_text === "string" ? content.alt_text : label;
  const { src, reason } = imageSource(content, { blob: true });
  if (!src) {
    return el("div", { class: "image-blocked", role: "img", "aria-label": `Blocked image: ${reason}` },
      el("strong", {}, "Image not shown: "), reason, label ? el("div", { class: "caption" }, label) : null);
  }
  const caption = label ? el("figcaption", { dir: "auto" }, label) : null;
  const shown = () => {
    const img = el("img", { alt, loading: "lazy", referrerpolicy: "no-referrer", part: "image", decoding: "async" });
    img.src = src;
    return zoomable(img, ctx);
  };
  if (loadsAtOnce(src, ctx.imageHosts ?? new Set())) return el("figure", { class: "image" }, shown(), caption);
  // From another host: its URL could carry data out, so it waits for the reader (docs/ELEMENT.md,
  // "Images and links"), as a Markdown image does.
  const figure = el("figure", { class: "image" });
  figure.append(heldImage(src, alt, () => (ctx.emit?.("cd-image", { src, kind: "load" }) ?? true) ? shown() : null), caption);
  return figure;
}

function fileReference(record) {
  const { name, path } = record.content ?? {};
  return el("div", { class: "file" }, el("span", { class: "file-icon" }, "File"),
    el("span", { class: "file-name", dir: "auto" }, asText(name)), el("code", { class: "file-path" }, asText(path)));
}

/** Characters of a string shown in a JSON tree before the rest waits behind a button: a streamed
 * 80 KB argument laid out whole on every patch cost 13 ms a frame (bench/ELEMENT.md). */
const LONG_STRING = 2000;

function longString(value) {
  const text = JSON.stringify(value);
  const span = el("span", { class: "json-string", dir: "auto" }, text.slice(0, LONG_STRING));
  const more = el("button", { type: "button", class: "json-more" }, `… ${text.length - LONG_STRING} more characters`);
  more.addEventListener("click", () => {
    span.textContent = text;
    more.remove();
  }, { once: true });
  return el("span", {}, span, more);
}

/** JSON as a foldable tree: objects and arrays are <details>, open for the first two levels. */
export function jsonTree(value, depth = 0) {
  if (typeof value === "string" && value.length > LONG_STRING) return longString(value);
  if (value === null || typeof value !== "object") {
    const kind = value === null ? "null" : typeof value;
    return el("span", { class: `json-${kind}`, dir: "auto" }, typeof value === "string" ? JSON.stringify(value) : String(value));
  }
  if (depth > 64) return el("span", { class: "json-deep" }, "…");
  const isArray = Array.isArray(value);
  const keys = Object.keys(value);
  const list = el("ul", { class: "json" });
  for (const key of keys) {
    list.append(el("li", {}, isArray ? null : el("span", { class: "json-key" }, `${JSON.stringify(key)}: `), jsonTree(value[key], depth + 1)));
  }
  const summary = isArray ? `[ ${keys.length} ${keys.length === 1 ? "item" : "items"} ]` : `{ ${keys.length} ${keys.length === 1 ? "key" : "keys"} }`;
  return el("details", { class: "json-node", open: depth < 2 }, el("summary", {}, summary), list);
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF. */
export function parseCsv(source) {
  const rows = [];
  let row = [], field = "", quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && source[i + 1] === "\n") i++;
      row.push(field); rows.push(row); row = []; field = "";
    } else field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}

function structuredData(record) {
  const { format, data } = record.content ?? {};
  const kind = typeof format === "string" ? format.toLowerCase() : "";
  const box = el("div", { class: "structured", data: { format: kind || "unknown" } }, el("div", { class: "format" }, asText(format)));
  if (kind === "json") {
    let value = data;
    if (typeof data === "string") {
      try { value = JSON.parse(data); } catch { value = undefined; }
    }
    box.append(value === undefined ? el("pre", { tabindex: 0 }, asText(data)) : jsonTree(value));
  } else if (kind === "csv" && typeof data === "string") {
    const [head = [], ...rows] = parseCsv(data);
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", dir: "auto" }, h)))),
      el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", { dir: "auto" }, c))))));
    box.append(el("div", { class: "table-wrap", tabindex: 0 }, table));
  } else {
    box.append(el("pre", { tabindex: 0 }, asText(data)));
  }
  return box;
}

function banner(record) {
  const kind = record.content_type;
  const content = record.content ?? {};
  const node = el("div", { class: `banner ${kind}`, role: kind === "error" ? "alert" : "status" },
    el("strong", {}, kind === "error" ? "Error" : "Notice"), " ", el("span", { class: "banner-text", dir: "auto" }, asText(content.text)));
  if (typeof content.path === "string") node.append(el("code", { class: "path" }, content.path));
  return node;
}

/** The status a tool call shows: its record's, unless a paired result says it failed or was
 * interrupted. */
function callStatus(record, results) {
  for (const result of results) {
    if (result.content?.is_error === true) return "failed";
    if (result.content?.is_interrupt === true) return "interrupted";
  }
  return typeof record.status === "string" ? record.status : "pending";
}

function resultBlock(result, index) {
  const content = result.content ?? {};
  const failed = content.is_error === true;
  // A server tool's structured result (api.md, Rich provider content) stays one fold away from the
  // text a person reads.
  const data = result.metadata?.result;
  return el("div", { class: `tool-result${failed ? " failed" : ""}`, data: { record: index } },
    el("div", { class: "tool-label" }, failed ? "Error" : content.is_interrupt === true ? "Interrupted" : "Result"),
    el("pre", { class: "result", dir: "auto", tabindex: 0 }, asText(content.content)),
    data === undefined || data === null ? null
      : el("details", { class: "result-data" }, el("summary", {}, "Structured result"), el("div", { class: "json-wrap" }, jsonTree(data))));
}

/**
 * A tool call (or a result with no call) as one row that expands: its name, a short summary of its
 * arguments and a status icon; expanded, its arguments as a JSON tree and its results.
 */
function toolRow(record, ctx, { name, summary, status, body, badge = null }) {
  const expanded = ctx.open === true;
  const id = `tool-${ctx.index}`;
  const head = el("button", { type: "button", class: "tool-head", "aria-expanded": String(expanded), "aria-controls": id },
    statusIcon(status), el("span", { class: "name" }, name), badge,
    summary ? el("span", { class: "summary", dir: "auto" }, summary) : null,
    el("span", { class: "chevron", "aria-hidden": "true" }, expanded ? "▾" : "▸"));
  head.addEventListener("click", () => ctx.onToggle?.(!expanded));
  const box = el("div", { class: "tool", part: "tool-call", data: badge ? { status, approval: "pending" } : { status } }, head);
  if (typeof record.content?.display_text === "string" && record.content.display_text !== "") {
    box.append(el("div", { class: "display-text", dir: "auto" }, record.content.display_text));
  }
  if (expanded) box.append(el("div", { class: "tool-body", id }, ...body()));
  return box;
}

function toolCall(record, ctx) {
  const content = record.content ?? {};
  const results = ctx.results ?? [];
  const streaming = record.metadata?.streaming === true;
  const status = streaming ? "pending" : callStatus(record, results.map((r) => r.record));
  // An approval request (api.md, Rich provider content) waits on the user until its answer pairs.
  const awaiting = record.metadata?.approval_request === true && status === "pending" && results.length === 0;
  return toolRow(record, ctx, {
    name: asText(content.name ?? "tool"),
    summary: argumentSummary(content.arguments),
    status,
    badge: awaiting ? el("span", { class: "approval", part: "approval" }, "Awaiting approval") : null,
    body: () => [
      el("div", { class: "tool-label" }, "Arguments"),
      content.arguments !== null && typeof content.arguments === "object"
        ? el("div", { class: "json-wrap" }, jsonTree(content.arguments))
        : el("pre", { class: "arguments", tabindex: 0 }, asText(content.arguments)),
      ...results.map((r) => resultBlock(r.record, r.index)),
    ],
  });
}

function toolResult(record, ctx) {
  const content = record.content ?? {};
  const failed = content.is_error === true;
  return toolRow(record, ctx, {
    name: `${asText(content.name ?? "tool")} result`,
    summary: argumentSummary(content.content),
    status: failed ? "failed" : content.is_interrupt === true ? "interrupted" : "completed",
    body: () => [resultBlock(record, ctx.index)],
  });
}

const TODO_MARKS = { pending: "☐", in_progress: "◐", completed: "☑", cancelled: "☒" };

function todoSnapshot(record) {
  const content = record.content ?? {};
  const todos = Array.isArray(content.todos) ? content.todos : [];
  const counts = { pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const todo of todos) if (todo && todo.status in counts) counts[todo.status]++;
  const summary = content.summary && typeof content.summary === "object" ? { ...counts, ...content.summary } : counts;
  const list = el("ul", { class: "todos" }, ...todos.map((todo) => {
    const status = todo?.status;
    return el("li", { data: { status: Object.hasOwn(TODO_MARKS, status) ? status : "unknown" } },
      el("span", { class: "mark", "aria-hidden": "true" }, TODO_MARKS[status] ?? "?"), " ",
      el("span", { class: "todo-text", dir: "auto" }, asText(todo?.content)), " ",
      el("span", { class: "todo-status" }, asText(status ?? "unknown")));
  }));
  const line = ["pending", "in_progress", "completed", "cancelled"].map((k) => `${asText(summary[k])} ${k.replace("_", " ")}`).join(" · ");
  // A summary in words (not the map of counts Sagents writes) is shown as it is, under the counts.
  const words = typeof content.summary === "string" && content.summary.trim() !== ""
    ? el("div", { class: "todo-summary-text", dir: "auto" }, content.summary) : null;
  return el("div", { class: "todo-snapshot" }, list, el("div", { class: "todo-summary" }, line), words);
}

function fallback(record) {
  return el("pre", { class: "unknown-type", tabindex: 0 }, asText(record.content));
}

const BUILDERS = {
  text, thinking, image, file_reference: fileReference, structured_data: structuredData,
  notification: banner, error: banner, tool_call: toolCall, tool_result: toolResult, todo_snapshot: todoSnapshot,
};

/**
 * One record's block. `ctx`: `index`, `results` (`{index, record}` of the tool results paired
 * with a call), `open` (the
 * user's or the search's choice for a foldable block, or undefined), `onToggle(open)`,
 * `onZoom(src, alt)`, `imageHosts`.
 */
export function renderRecord(record, ctx) {
  const type = record?.content_type;
  const name = typeof type === "string" ? type : asText(type);
  const build = typeof type === "string" && Object.hasOwn(BUILDERS, type) ? BUILDERS[type] : fallback;
  const block = el("div", { class: "record", data: { contentType: name, record: ctx.index } });
  try {
    block.append(build(record ?? {}, ctx));
  } catch {
    // A record no builder can read (an app's, with values of unexpected types) shows as its data.
    block.replaceChildren(fallback(record ?? {}));
  }
  if (record?.metadata?.streaming === true) {
    block.classList.add("streaming");
    block.setAttribute("aria-busy", "true");
  }
  return block;
}
