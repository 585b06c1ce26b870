// The viewer: loads a conversation (the sample, ?src=, paste, or a dropped file) or replays a
// provider stream (?stream=), turns it into display-message records with chat-display, renders
// them by content type, and filters them live by their search text (toText).
import init, * as api from "chat-display";
import { sample } from "./sample.js";
import { fromProviderPayload, parseJson, readConversation } from "./input.js";
import { el, renderRecord } from "./render.js";
import { readStream } from "./stream.js";

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

/** A new message section at the end of the conversation. */
function messageSection(role) {
  const group = el("section", { class: "message", data: { role }, "aria-label": `${role} message` }, el("div", { class: "role" }, role));
  $("conversation").append(group);
  return group;
}

/** A record's search unit: its element and its text (with its results' text) for the search. */
function unitOf(element, group, record, results = []) {
  return { element, group, search: [record, ...results].map(searchText).join("\n").toLowerCase() };
}

function render(entries) {
  $("conversation").replaceChildren();
  units = [];
  const { calls, paired } = pairResults(entries);
  let group = null;
  let messages = 0;
  for (const entry of entries) {
    const { record, failed } = entry;
    if (failed || record.sequence === 0 || group === null) {
      group = messageSection(failed ? "error" : String(record.message_type ?? "unknown"));
      messages++;
    }
    if (paired.has(entry)) continue;
    const results = record.content_type === "tool_call" && !failed ? calls.get(record.tool_call_id) ?? [] : [];
    const element = renderRecord(record, results);
    if (failed) element.classList.add("failed-input");
    group.append(element);
    units.push(unitOf(element, group, record, results));
  }
  const main = $("conversation");
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

/** Shows or hides one unit for `query`, marking its matches; true when it is shown. */
function searchUnit(unit, query) {
  clearMarks(unit.element);
  const visible = query === "" || unit.search.includes(query);
  unit.element.hidden = !visible;
  if (visible && query) mark(unit.element, query);
  return visible;
}

function applySearch() {
  const query = $("search").value.trim().toLowerCase();
  let shown = 0;
  for (const unit of units) if (searchUnit(unit, query)) shown++;
  for (const section of $("conversation").querySelectorAll("section.message")) {
    section.hidden = !section.querySelector(".record:not([hidden])");
  }
  $("search-count").textContent = query ? `${shown} of ${units.length} match` : "";
}

function load(data) {
  stopStream();
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

/** `text`: the JSON as a string, or its UTF-8 bytes. */
function loadLarge(text) {
  stopStream();
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

/**
 * A file's or a response's body, read as bytes: a large one goes to the Transcript as it is (in
 * Chromium, making a string of it and encoding that again took as long as reading it), a small
 * one is decoded as `.text()` would (U+FFFD for bad UTF-8, the byte order mark dropped).
 */
async function loadBody(body) {
  const bytes = new Uint8Array(await body.arrayBuffer());
  if (bytes.length >= LARGE) loadLarge(bytes);
  else loadText(new TextDecoder().decode(bytes));
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

/** A same-origin fetch of the `?name=` parameter's URL; other origins and HTTP errors throw. */
async function fetchSameOrigin(name, src, init = {}) {
  const url = new URL(src, location.href);
  if (url.origin !== location.origin) throw new Error(`?${name}= loads files from this site only, not ${url.origin}.`);
  const response = await fetch(url, { credentials: "same-origin", ...init });
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}.`);
  return response;
}

async function loadFromSrc(src) {
  await loadBody(await fetchSameOrigin("src", src));
}

// ---------------------------------------------------------------------------------------------
// ?stream=<url>&protocol=<name>[&delay=<ms>]: a provider stream rendered as it arrives.

/** Milliseconds between replayed events when `&delay=` is not given. */
const DEFAULT_DELAY = 30;
let streaming = null; // the running replay's AbortController

function stopStream() {
  streaming?.abort();
  streaming = null;
}

/** One stream record's element: a streaming record is marked until its block ends. Blocks the
 * user opened in the element it replaces (`previous`) stay open. */
function renderStreamRecord(record, previous) {
  const element = renderRecord(record, []);
  if (record.metadata?.streaming === true) {
    element.classList.add("streaming");
    element.setAttribute("aria-busy", "true");
  }
  if (previous) {
    const before = previous.querySelectorAll("details");
    const after = element.querySelectorAll("details");
    for (let i = 0; i < Math.min(before.length, after.length); i++) {
      if (!("openedBySearch" in before[i].dataset)) after[i].open = before[i].open;
    }
  }
  return element;
}

/** The summary line, set only when it changes (it is a live region: no repeat on every delta). */
function streamSummary(records, state, protocol) {
  const messages = $("conversation").querySelectorAll("section.message").length;
  const text = `${records.length} records from ${messages} messages, ${state} (${protocol} stream)`;
  if ($("summary").textContent !== text) $("summary").textContent = text;
}

async function loadFromStream(src, protocol, delayParam) {
  stopStream();
  $("problem").replaceChildren();
  $("conversation").replaceChildren();
  units = [];
  const delay = delayParam === null ? DEFAULT_DELAY : Number(delayParam);
  if (!Number.isFinite(delay) || delay < 0) throw new Error(`&delay= is a number of milliseconds, not ${JSON.stringify(delayParam)}.`);
  if (protocol === null) throw new Error("?stream= needs &protocol=, the stream's wire format (for example anthropic_messages).");
  const accumulator = new api.StreamAccumulator(protocol); // throws unsupported_protocol
  const controller = new AbortController();
  streaming = controller;
  document.body.dataset.stream = "streaming";
  try {
    const response = await fetchSameOrigin("stream", src, { signal: controller.signal });
    let group = null;
    const records = await readStream(response.body, accumulator, {
      delay,
      signal: controller.signal,
      onChange(records, changed) {
        const query = $("search").value.trim().toLowerCase();
        for (const index of [...changed].sort((a, b) => a - b)) {
          const record = records[index];
          const element = renderStreamRecord(record, units[index]?.element);
          if (index === units.length) {
            // Added: a new message where `sequence` is 0.
            if (group === null || record.sequence === 0) {
              group = messageSection(String(record.message_type ?? (record.content_type === "error" ? "error" : "unknown")));
            }
            group.append(element);
            units.push(unitOf(element, group, record));
          } else {
            const unit = units[index];
            unit.element.replaceWith(element);
            units[index] = unitOf(element, unit.group, record);
          }
          searchUnit(units[index], query);
          units[index].group.hidden = !units[index].group.querySelector(".record:not([hidden])");
        }
        streamSummary(records, "streaming", protocol);
      },
    });
    if (controller.signal.aborted) return;
    streamSummary(records, accumulator.done ? "done" : "ended before the stream said it was done", protocol);
    applySearch();
    document.body.dataset.stream = "done";
  } catch (error) {
    if (controller.signal.aborted) return;
    document.body.dataset.stream = "error";
    throw error;
  } finally {
    accumulator.free();
    if (streaming === controller) streaming = null;
  }
}

function wireControls() {
  $("search").addEventListener("input", applySearch);
  $("load-paste").addEventListener("click", () => loadText($("paste").value));
  $("file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (file) await loadBody(file);
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
    if (file) await loadBody(file);
  });
}

try {
  await init();
  wireControls();
  const params = new URLSearchParams(location.search);
  const src = params.get("src");
  const stream = params.get("stream");
  if (stream) {
    // Ready as soon as the replay starts: the page renders while the stream arrives.
    loadFromStream(stream, params.get("protocol"), params.get("delay")).catch((error) => {
      document.body.dataset.stream = "error";
      problem(error.code ? `${error.message} (${error.code})` : error.message);
    });
  } else if (src) await loadFromSrc(src).catch((error) => problem(error.message));
  else load(sample);
  document.body.dataset.ready = "true";
} catch (error) {
  problem(`${error.message} (${error.code ?? error.name})`);
  document.body.dataset.ready = "error";
}
