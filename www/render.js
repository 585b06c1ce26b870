// Display-message records to DOM, one builder per content type. Every string is untrusted: text
// reaches the DOM only as text nodes, except Markdown, which goes through markdown.js.
import { renderMarkdown } from "./markdown.js";
import { imageSource } from "./policy.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** A value as display text: strings as they are, anything else as JSON. */
export function asText(value) {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const STATUSES = ["pending", "executing", "completed", "failed", "interrupted", "cancelled"];

function badge(status, label = status) {
  const known = STATUSES.includes(status) ? status : "unknown";
  return el("span", { class: "badge", data: { status: known } }, String(label ?? "unknown"));
}

function text(record) {
  const box = el("div", { class: "markdown" });
  box.append(renderMarkdown(asText(record.content.text)));
  return box;
}

function thinking(record) {
  return el("details", { class: "thinking" }, el("summary", {}, "Thinking"),
    el("div", { class: "plain" }, asText(record.content.text)));
}

function image(record) {
  const content = record.content ?? {};
  const label = typeof content.caption === "string" ? content.caption : typeof content.alt_text === "string" ? content.alt_text : "";
  const { src, reason } = imageSource(content);
  if (!src) {
    return el("div", { class: "image-blocked", role: "img", "aria-label": `Blocked image: ${reason}` },
      el("strong", {}, "Image not shown: "), reason, label ? el("div", { class: "caption" }, label) : null);
  }
  const img = el("img", { alt: typeof content.alt_text === "string" ? content.alt_text : label, loading: "lazy", referrerpolicy: "no-referrer" });
  img.src = src;
  return el("figure", { class: "image" }, img, label ? el("figcaption", {}, label) : null);
}

function fileReference(record) {
  const { name, path } = record.content ?? {};
  return el("div", { class: "file" }, el("span", { class: "file-icon" }, "File"),
    el("span", { class: "file-name" }, asText(name)), el("code", { class: "file-path" }, asText(path)));
}

/** JSON as a foldable tree: objects and arrays are <details>, open for the first two levels. */
function jsonTree(value, depth = 0) {
  if (value === null || typeof value !== "object") {
    const kind = value === null ? "null" : typeof value;
    return el("span", { class: `json-${kind}` }, typeof value === "string" ? JSON.stringify(value) : String(value));
  }
  if (depth > 64) return el("span", { class: "json-deep" }, "…");
  const isArray = Array.isArray(value);
  const keys = Object.keys(value);
  const list = el("ul", { class: "json" });
  for (const key of keys) {
    list.append(el("li", {}, isArray ? null : el("span", { class: "json-key" }, `${JSON.stringify(key)}: `), jsonTree(value[key], depth + 1)));
  }
  const summary = isArray ? `[ ${keys.length} items ]` : `{ ${keys.length} keys }`;
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
    box.append(value === undefined ? el("pre", {}, asText(data)) : jsonTree(value));
  } else if (kind === "csv" && typeof data === "string") {
    const [head = [], ...rows] = parseCsv(data);
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
    box.append(el("div", { class: "table-wrap" }, table));
  } else {
    box.append(el("pre", {}, asText(data)));
  }
  return box;
}

function banner(record) {
  const kind = record.content_type;
  const content = record.content ?? {};
  const node = el("div", { class: `banner ${kind}`, role: kind === "error" ? "alert" : "status" },
    el("strong", {}, kind === "error" ? "Error" : "Notice"), " ", el("span", { class: "banner-text" }, asText(content.text)));
  if (typeof content.path === "string") node.append(el("code", { class: "path" }, content.path));
  return node;
}

function toolResult(record) {
  const content = record.content ?? {};
  const failed = content.is_error === true;
  return el("div", { class: `tool-result${failed ? " failed" : ""}`, data: { toolCallId: content.tool_call_id ?? "" } },
    el("div", { class: "tool-head" }, el("span", { class: "name" }, `${asText(content.name ?? "tool")} result`),
      content.is_interrupt === true ? badge("interrupted") : badge(failed ? "failed" : "completed", failed ? "error" : "ok")),
    el("pre", { class: "result" }, asText(content.content)));
}

function toolCall(record, results = []) {
  const content = record.content ?? {};
  const box = el("div", { class: "tool-call" },
    el("div", { class: "tool-head" }, el("span", { class: "name" }, asText(content.name ?? "tool")), badge(record.status)));
  if (typeof content.display_text === "string" && content.display_text !== "") {
    box.append(el("div", { class: "display-text" }, content.display_text));
  }
  box.append(el("pre", { class: "arguments" }, asText(content.arguments)));
  for (const result of results) box.append(toolResult(result));
  return box;
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
    return el("li", { data: { status: status in TODO_MARKS ? status : "unknown" } },
      el("span", { class: "mark", "aria-hidden": "true" }, TODO_MARKS[status] ?? "?"), " ",
      el("span", { class: "todo-text" }, asText(todo?.content)), " ",
      el("span", { class: "todo-status" }, asText(status ?? "unknown")));
  }));
  const line = ["pending", "in_progress", "completed", "cancelled"].map((k) => `${asText(summary[k])} ${k.replace("_", " ")}`).join(" · ");
  return el("div", { class: "todo-snapshot" }, list, el("div", { class: "todo-summary" }, line));
}

function fallback(record) {
  return el("pre", { class: "unknown-type" }, asText(record.content));
}

const BUILDERS = {
  text, thinking, image, file_reference: fileReference, structured_data: structuredData,
  notification: banner, error: banner, tool_call: toolCall, tool_result: toolResult, todo_snapshot: todoSnapshot,
};

/** One record's element. `results` are the tool results paired with a tool call. */
export function renderRecord(record, results) {
  const build = Object.hasOwn(BUILDERS, record.content_type) ? BUILDERS[record.content_type] : fallback;
  return el("div", { class: "record", data: { contentType: String(record.content_type) } }, build(record, results));
}
