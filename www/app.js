// The viewer: a thin shell over <chat-transcript>. It loads a conversation (the sample, ?src=, a
// paste, a dropped or opened file) or replays a recorded provider stream (?stream=), and gives the
// element a find bar ("n of m"), a progress state and an error banner. Rendering, windowing,
// search and the safety of untrusted text are the element's.
import init, * as api from "chat-display";
import "chat-display/element";
import { sample } from "./sample.js";
import { readStream } from "./stream.js";

const $ = (id) => document.getElementById(id);
const transcript = $("conversation");

/** The stream the replay button plays on the sample page (served from tests/fixtures/streams/). */
const SAMPLE_STREAM = { src: "/streams/anthropic_messages/parallel-tool-calls.sse", protocol: "anthropic_messages" };
/** Milliseconds between replayed events when `&delay=` is not given. */
const DEFAULT_DELAY = 30;

function problem(message) {
  const banner = document.createElement("div");
  banner.className = "banner error";
  banner.setAttribute("role", "alert");
  const strong = document.createElement("strong");
  strong.textContent = "Could not load: ";
  banner.append(strong, message);
  $("problem").replaceChildren(banner);
}

function busy(on) {
  document.body.dataset.busy = String(on);
  $("progress").hidden = !on;
}

/** Lets the page paint (the progress state) before a long synchronous step. */
const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

function summarize({ records, messages, errors }, extra = "") {
  $("summary").textContent = `${records} records from ${messages} messages` +
    (errors ? `, ${errors} could not be read` : "") + extra;
}

// ---------------------------------------------------------------------------------------------
// Find: the element searches every record (not only those on screen); the bar counts "n of m".

let hits = 0;
let current = 0;

function showCount() {
  const query = $("find").value;
  $("find-count").textContent = !query ? "" : hits ? `${current} of ${hits}` : "no matches";
  $("find-previous").disabled = $("find-next").disabled = hits === 0;
}

function find() {
  hits = transcript.find($("find").value);
  current = 0;
  if (hits) next(1);
  else showCount();
}

function next(step) {
  if (!hits) return;
  if (step > 0) transcript.findNext();
  else transcript.findPrevious();
  current = ((current - 1 + step + hits) % hits) + 1;
  showCount();
}

// ---------------------------------------------------------------------------------------------
// Loading

let streaming = null; // the running replay's AbortController

function stopStream() {
  streaming?.abort();
  streaming = null;
}

async function load(input) {
  stopStream();
  $("problem").replaceChildren();
  busy(true);
  await nextPaint();
  try {
    summarize(await transcript.load(input));
    if ($("find").value) find();
  } catch (error) {
    problem(error.message);
    $("summary").textContent = "Nothing loaded.";
  } finally {
    busy(false);
  }
}

/** A same-origin fetch of the `?name=` parameter's URL; other origins and HTTP errors throw. */
async function fetchSameOrigin(name, src, options = {}) {
  const url = new URL(src, location.href);
  if (url.origin !== location.origin) throw new Error(`?${name}= loads files from this site only, not ${url.origin}.`);
  const response = await fetch(url, { credentials: "same-origin", ...options });
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}.`);
  return response;
}

async function loadFromSrc(src) {
  busy(true);
  try {
    const response = await fetchSameOrigin("src", src);
    await load(new Uint8Array(await response.arrayBuffer()));
  } catch (error) {
    problem(error.message);
    busy(false);
  }
}

/** Replays a recorded provider stream into the element, `delay` ms between SSE events. */
async function replay(src, protocol, delayParam) {
  stopStream();
  $("problem").replaceChildren();
  const delay = delayParam === null || delayParam === undefined ? DEFAULT_DELAY : Number(delayParam);
  if (!Number.isFinite(delay) || delay < 0) throw new Error(`&delay= is a number of milliseconds, not ${JSON.stringify(delayParam)}.`);
  if (!protocol) throw new Error("?stream= needs &protocol=, the stream's wire format (for example anthropic_messages).");
  const accumulator = new api.StreamAccumulator(protocol); // throws unsupported_protocol
  const controller = new AbortController();
  streaming = controller;
  transcript.records = [];
  let records = 0;
  const status = (state) => {
    const text = `${records} records, ${state} (${protocol} stream)`;
    if ($("summary").textContent !== text) $("summary").textContent = text;
  };
  document.body.dataset.stream = "streaming";
  status("streaming");
  try {
    const response = await fetchSameOrigin("stream", src, { signal: controller.signal });
    await readStream(response.body, accumulator, {
      delay,
      signal: controller.signal,
      onPatches(patches) {
        transcript.applyPatches(patches);
        for (const patch of patches) if (patch.op === "add") records++;
        status("streaming");
      },
    });
    if (controller.signal.aborted) return;
    status(accumulator.done ? "done" : "ended before the stream said it was done");
    if ($("find").value) find();
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

function startReplay(src, protocol, delay) {
  $("replay").onclick = () => startReplay(src, protocol, delay);
  replay(src, protocol, delay).catch((error) => {
    document.body.dataset.stream = "error";
    problem(error.code ? `${error.message} (${error.code})` : error.message);
  });
}

function wireControls() {
  $("find").addEventListener("input", find);
  $("find").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      next(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      $("find").value = "";
      find();
    }
  });
  $("find-next").addEventListener("click", () => next(1));
  $("find-previous").addEventListener("click", () => next(-1));
  // The conversation is windowed, so the browser's own find would miss what is off screen.
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "f") {
      event.preventDefault();
      $("find").focus();
      $("find").select();
    }
  });
  $("replay").onclick = () => startReplay(SAMPLE_STREAM.src, SAMPLE_STREAM.protocol);
  $("load-paste").addEventListener("click", () => load($("paste").value));
  $("file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (file) await load(new Uint8Array(await file.arrayBuffer()));
  });
  document.addEventListener("paste", (event) => {
    if (event.target instanceof HTMLElement && event.target.closest("input, textarea")) return;
    const text = event.clipboardData?.getData("text/plain");
    if (text) load(text);
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
    if (file) await load(new Uint8Array(await file.arrayBuffer()));
  });
}

try {
  await init();
  wireControls();
  const params = new URLSearchParams(location.search);
  const src = params.get("src");
  const stream = params.get("stream");
  busy(false);
  if (stream) {
    // Ready as soon as the replay starts: the page renders while the stream arrives.
    $("replay").textContent = "Replay the stream";
    startReplay(stream, params.get("protocol"), params.get("delay"));
  } else if (src) await loadFromSrc(src);
  else await load(sample);
  document.body.dataset.ready = "true";
} catch (error) {
  problem(`${error.message} (${error.code ?? error.name})`);
  busy(false);
  document.body.dataset.ready = "error";
}
