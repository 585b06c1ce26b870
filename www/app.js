// The viewer: loads a conversation (the sample, ?src=, paste, or a dropped file), turns it into
// display-message records with chat-display, renders them by content type, and filters them live
// by their search text (toText).
import init, * as api from "chat-display";
import { sample } from "./sample.js";
import { fromProviderPayload, parseJson, readConversation } from "./input.js";
import { el, renderRecord } from "./render.js";

const $ = (id) => document.getElementById(id);
let units = []; // rendered units: {element, group, search: lowercased toText}

function problem(message) {
  $("problem").replaceChildren(el("div", { class: "banner error load-error", role: "alert" }, el("strong", {}, "Could not load: "), message));
}

function searchText(record) {
  try {
    return String(api.toText(record) ?? "");
  } catch {
    return "";
  }
}

/** Pairs each tool result with the first tool call of the same id, when there is one. */
function pairResults(entries) {
  const calls = new Map();
  for (const { record, failed } of entries) {
    if (!failed && record.content_type === "tool_call" && typeof record.tool_call_id === "string" && !calls.has(record.tool_call_id)) {
      calls.set(record.tool_call_id, []);
    }
  }
  const paired = new Set();
  for (const entry of entries) {
    const { record, failed } = entry;
    if (failed || record.content_type !== "tool_result") continue;
    const results = calls.get(record.tool_call_id);
    if (results) {
      results.push(record);
      paired.add(entry);
    }
  }
  return { calls, paired };
}

function render(entries) {
  const main = $("conversation");
  main.replaceChildren();
  units = [];
  const { calls, paired } = pairResults(entries);
  let group = null;
  let messages = 0;
  for (const entry of entries) {
    const { record, failed } = entry;
    if (failed || record.sequence === 0 || group === null) {
      const role = failed ? "error" : String(record.message_type ?? "unknown");
      group = el("section", { class: "message", data: { role }, "aria-label": `${role} message` }, el("div", { class: "role" }, role));
      main.append(group);
      messages++;
    }
    if (paired.has(entry)) continue;
    const results = record.content_type === "tool_call" && !failed ? calls.get(record.tool_call_id) ?? [] : [];
    const element = renderRecord(record, results);
    if (failed) element.classList.add("failed-input");
    group.append(element);
    const search = [record, ...results].map(searchText).join("\n").toLowerCase();
    units.push({ element, group, search });
  }
  for (const section of main.querySelectorAll("section.message")) {
    if (!section.querySelector(".record")) section.remove();
  }
  const failures = entries.filter((e) => e.failed).length;
  $("summary").textContent = `${entries.length} records from ${messages} messages` + (failures ? `, ${failures} could not be read` : "");
  applySearch();
}

function clearMarks(root) {
  for (const mark of root.querySelectorAll("mark.hit")) mark.replaceWith(document.createTextNode(mark.textContent));
  root.normalize();
  // Close what the search opened; leave what the user opened.
  for (const details of root.querySelectorAll("details[data-opened-by-search]")) {
    details.open = false;
    delete details.dataset.openedBySearch;
  }
}

function mark(root, query) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest("button") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  let hits = 0;
  for (const node of nodes) {
    const lower = node.data.toLowerCase();
    let at = lower.indexOf(query);
    if (at < 0) continue;
    const parts = [];
    let from = 0;
    while (at >= 0) {
      parts.push(node.data.slice(from, at), el("mark", { class: "hit" }, node.data.slice(at, at + query.length)));
      from = at + query.length;
      at = lower.indexOf(query, from);
      hits++;
    }
    parts.push(node.data.slice(from));
    node.replaceWith(...parts);
  }
  for (const details of root.querySelectorAll("details:not([open])")) {
    if (details.querySelector("mark.hit")) {
      details.open = true;
      details.dataset.openedBySearch = "";
    }
  }
  return hits;
}

function applySearch() {
  const query = $("search").value.trim().toLowerCase();
  let shown = 0;
  for (const unit of units) {
    clearMarks(unit.element);
    const visible = query === "" || unit.search.includes(query);
    unit.element.hidden = !visible;
    if (visible) {
      shown++;
      if (query) mark(unit.element, query);
    }
  }
  for (const section of $("conversation").querySelectorAll("section.message")) {
    section.hidden = !section.querySelector(".record:not([hidden])");
  }
  $("search-count").textContent = query ? `${shown} of ${units.length} match` : "";
}

function load(data) {
  $("problem").replaceChildren();
  try {
    const provider = fromProviderPayload(data, api);
    render(readConversation(provider ? provider.messages : data, api));
    if (provider) $("summary").textContent += ` (read as ${provider.protocol})`;
  } catch (error) {
    problem(error.path ? `${error.message}` : error.message);
  }
}

/** From this size on, text loads through a Transcript: parsed inside the module, never as objects. */
const LARGE = 1 << 20;

/** An error record the Transcript put in place of an element it could not read. */
const isLoadError = (record) =>
  record.content_type === "error" && record.message_type === null && record.status === "failed" &&
  typeof record.content?.path === "string";

function loadLarge(text) {
  $("problem").replaceChildren();
  let transcript;
  try {
    transcript = api.Transcript.fromJson(text);
    const records = transcript.records(0, transcript.length);
    render(records.map((record) => (isLoadError(record) ? { record, failed: true } : { record })));
  } catch (error) {
    problem(error.code === "invalid_input" && error.path === "$" ? `This is not a conversation: ${error.message}` : error.message);
  } finally {
    transcript?.free();
  }
}

function loadText(text) {
  if (text.length >= LARGE) {
    loadLarge(text);
    return;
  }
  try {
    load(parseJson(text));
  } catch (error) {
    problem(error.message);
  }
}

async function loadFromSrc(src) {
  const url = new URL(src, location.href);
  if (url.origin !== location.origin) throw new Error(`?src= loads files from this site only, not ${url.origin}.`);
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}.`);
  loadText(await response.text());
}

function wireControls() {
  $("search").addEventListener("input", applySearch);
  $("load-paste").addEventListener("click", () => loadText($("paste").value));
  $("file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (file) loadText(await file.text());
  });
  document.addEventListener("paste", (event) => {
    if (event.target instanceof HTMLElement && event.target.closest("input, textarea")) return;
    const text = event.clipboardData?.getData("text/plain");
    if (text) loadText(text);
  });
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", async (event) => {
    event.preventDefault();
    document.body.classList.remove("dragging");
    const [file] = event.dataTransfer?.files ?? [];
    if (file) loadText(await file.text());
  });
}

try {
  await init();
  wireControls();
  const src = new URLSearchParams(location.search).get("src");
  if (src) await loadFromSrc(src).catch((error) => problem(error.message));
  else load(sample);
  document.body.dataset.ready = "true";
} catch (error) {
  problem(`${error.message} (${error.code ?? error.name})`);
  document.body.dataset.ready = "error";
}
