// The page side of bench/element.mjs: <chat-transcript> as the package ships it (pkg/element,
// with the browser build of chat-display from an import map), measured from inside the page with
// performance.now(), requestAnimationFrame and ResizeObserver. Each case is a function on
// window.elementBench that the Node runner calls through playwright-core, one fresh page a run.
//
// "Painted" means: the state was in the DOM when a frame's layout ran (checked in a ResizeObserver
// callback, which runs after that frame's requestAnimationFrame callbacks and layout, before its
// paint), and the time is taken in a task posted from there, which runs once that frame's
// rendering work on the main thread (paint and commit to the compositor) is done.
import init, * as api from "chat-display";
import * as core from "chat-display/core";
import { ChatTranscript } from "chat-display/element";
import { anthropicStream, cut, writeFileArguments } from "/bench/stream.mjs";

await init();
const t = document.getElementById("t");
// `?renderers` (bench/element.mjs --renderers): an app's renderers on every text row (the default
// wrapped) and one tool's own card, as issue 42's targets ask.
if (new URLSearchParams(location.search).has("renderers")) {
  t.renderers = {
    text: (record, ctx) => {
      const node = ctx.renderDefault();
      node.dataset.app = "wrapped";
      return node;
    },
    "tool:get_weather": (record, ctx) => {
      const card = document.createElement("div");
      card.className = "app-card";
      card.textContent = `${record.content.name}: ${ctx.results.length} result(s)`;
      return card;
    },
  };
}
const probe = document.getElementById("probe");
const root = t.shadowRoot;
const scroller = root.querySelector(".scroller");
const now = () => performance.now();

/** The next frame: its requestAnimationFrame timestamp, `check()` as of its layout, and the time
 * its main-thread rendering work ended. */
function frame(check) {
  return new Promise((resolve) => requestAnimationFrame((ts) => {
    const rafAt = now();
    const observer = new ResizeObserver(() => {
      observer.disconnect();
      const state = check ? check() : undefined;
      const layoutAt = now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve({ ts, rafAt, layoutAt, state, at: now() });
      channel.port2.postMessage(null);
    });
    observer.observe(probe);
  }));
}

async function frames(n) {
  for (let i = 0; i < n; i++) await frame();
}

/** Waits, frame by frame, until `check()` is true at a frame's layout; that frame's record. */
async function until(check, limit = 3000) {
  for (let i = 0; i < limit; i++) {
    const f = await frame(check);
    if (f.state) return f;
  }
  throw new Error(`not seen in ${limit} frames`);
}

/** True when `node` overlaps the scroller's visible box. */
function visible(node) {
  if (!node) return false;
  const box = scroller.getBoundingClientRect();
  const r = node.getBoundingClientRect();
  return r.height > 0 && r.bottom > box.top && r.top < box.bottom;
}

const visibleRows = () => [...root.querySelectorAll(".row:not([hidden])")].filter(visible).length;
const elementCount = () => root.querySelectorAll("*").length;

async function bytesOf(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Loads `bytes` and waits until `load` resolved and the rows settled. */
async function loadAndSettle(bytes) {
  const counts = await t.load(bytes);
  await frames(10);
  return counts;
}

/** Loads `url`'s bytes, then waits `wait` ms more, as a reader who searches after the page has
 * settled: by then the module has made every record's search text (slices after load). */
async function loadedAndSettled(url, wait) {
  await loadAndSettle(await bytesOf(url));
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** No query, the view back at the top, and a few frames for it to show. */
async function backToTop() {
  t.find("");
  t.scrollToRecord(0);
  scroller.scrollTop = 0;
  await frames(10);
}

/** Long-animation-frame (or longtask) entries while `run` runs. */
async function withLongFrames(run) {
  const supported = PerformanceObserver.supportedEntryTypes;
  const type = supported.includes("long-animation-frame") ? "long-animation-frame" : supported.includes("longtask") ? "longtask" : null;
  const entries = [];
  const observer = type ? new PerformanceObserver((list) => entries.push(...list.getEntries())) : null;
  observer?.observe({ type, buffered: false });
  const result = await run();
  await frames(2);
  if (observer) {
    entries.push(...observer.takeRecords());
    observer.disconnect();
  }
  // The longest one taken apart: its scripts (with the style and layout they forced), and its
  // rendering (from renderStart to its end, of which style and layout from styleAndLayoutStart).
  const worst = entries.reduce((w, e) => (!w || e.duration > w.duration ? e : w), null);
  let breakdown = null;
  if (worst && type === "long-animation-frame") {
    const end = worst.startTime + worst.duration;
    const scripts = [...(worst.scripts ?? [])].sort((a, b) => b.duration - a.duration);
    breakdown = {
      duration: worst.duration,
      scripts: scripts.reduce((sum, x) => sum + x.duration, 0),
      forcedLayout: scripts.reduce((sum, x) => sum + (x.forcedStyleAndLayoutDuration ?? 0), 0),
      render: worst.renderStart ? end - worst.renderStart : 0,
      styleAndLayout: worst.styleAndLayoutStart ? end - worst.styleAndLayoutStart : 0,
      top: scripts.slice(0, 3).map((x) => `${x.invoker || x.invokerType} ${Math.round(x.duration)} ms`),
    };
  }
  return {
    result,
    longFrames: {
      type,
      count: entries.length,
      max: entries.reduce((m, e) => Math.max(m, e.duration), 0),
      blocking: entries.reduce((m, e) => Math.max(m, e.blockingDuration ?? 0), 0),
      durations: entries.map((e) => Math.round(e.duration)),
      worst: breakdown,
    },
  };
}

/** Drives a requestAnimationFrame loop: `step(i)` in each callback until it returns false. Per
 * frame: the interval since the previous frame's timestamp, and the main thread's work (from the
 * frame's timestamp to the end of its rendering, through a task posted from the callback). */
function rafLoop(step) {
  performance.mark("cd-start");
  return new Promise((resolve) => {
    const stamps = [];
    const work = [];
    const scripts = [];
    let i = 0;
    const tick = (ts) => {
      stamps.push(ts);
      const start = now();
      const more = step(i++);
      scripts.push(now() - start);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => work.push(now() - ts);
      channel.port2.postMessage(null);
      if (more) requestAnimationFrame(tick);
      else {
        performance.mark("cd-end");
        setTimeout(() => resolve({ stamps, work, scripts }), 50);
      }
    };
    requestAnimationFrame(tick);
  });
}

/** Times every call of `Transcript[name]` (static or, with `proto`, a method) that the element
 * makes while `run` runs, in either module that holds Transcript (the element loads
 * chat-display/core for it; this page's chat-display, were the element to use it); resolves to
 * `{result, calls: [ms, ...]}`. */
async function timing(name, run, proto = false) {
  const owners = [api.Transcript, core.Transcript].map((c) => (proto ? c.prototype : c));
  const originals = owners.map((owner) => owner[name]);
  const calls = [];
  owners.forEach((owner, k) => {
    const original = originals[k];
    owner[name] = function (...params) {
      const start = now();
      try {
        return original.apply(this, params);
      } finally {
        calls.push(now() - start);
      }
    };
  });
  try {
    return { result: await run(), calls };
  } finally {
    owners.forEach((owner, k) => { owner[name] = originals[k]; });
  }
}

window.elementBench = {
  /** From `load(bytes)` to the first records painted, and to `load` resolving. */
  async firstPaint(url) {
    const bytes = await bytesOf(url);
    await frames(5);
    let domAt = null;
    const observer = new MutationObserver(() => {
      if (domAt === null && root.querySelector(".row:not([hidden])")) domAt = now();
    });
    observer.observe(root, { childList: true, subtree: true });
    let resolvedAt = null;
    let counts = null;
    let start = 0;
    // The parse into the module: `Transcript.open` (the element reads the elements after it, the
    // first 512 before its first rows), or `fromJson` in builds before `open`.
    const parser = typeof core.Transcript.open === "function" ? "open" : "fromJson";
    const { result: painted, calls } = await timing(parser, async () => {
      performance.mark("cd-start");
      start = now();
      const loading = t.load(bytes).then((c) => {
        resolvedAt = now();
        counts = c;
      });
      const f = await until(() => visibleRows() > 0);
      performance.mark("cd-end");
      await loading;
      return f;
    });
    observer.disconnect();
    return {
      bytes: bytes.length, counts, rows: visibleRows(),
      parser, parse: calls.reduce((a, b) => a + b, 0),
      inDom: domAt - start, painted: painted.at - start, resolved: resolvedAt - start,
    };
  },

  /** The most elements in the shadow root: after every batch of DOM changes (a MutationObserver)
   * while the conversation loads, is scrolled through (`positions` evenly spaced scroll positions,
   * 3 frames each, then one frame-by-frame pass of `step` px over a part), after scrollToRecord
   * and after find / findNext / findPrevious. */
  async elementCount(url, { positions = 120, queries = [] } = {}) {
    const bytes = await bytesOf(url);
    let phase = "load";
    const max = {};
    const note = () => {
      const n = elementCount();
      if (n > (max[phase] ?? 0)) max[phase] = n;
    };
    const observer = new MutationObserver(note);
    observer.observe(root, { childList: true, subtree: true, attributes: true });
    const counts = await loadAndSettle(bytes);
    note();
    phase = "scroll";
    for (let k = 0; k <= positions; k++) {
      scroller.scrollTop = (k / positions) * (scroller.scrollHeight - scroller.clientHeight);
      await frames(3);
      note();
    }
    phase = "scrollToRecord";
    const n = counts.records;
    for (const i of [Math.floor(n / 2), n - 1, 0, Math.floor(n / 3), Math.floor((2 * n) / 3), 1234 % n, n - 40]) {
      t.scrollToRecord(i);
      await frames(6);
      note();
    }
    phase = "find";
    const hits = {};
    for (const q of queries) {
      t.scrollToRecord(0);
      await frames(3);
      hits[q] = t.find(q);
      for (let k = 0; k < 4; k++) {
        t.findNext();
        await frames(6);
        note();
      }
      t.findPrevious();
      await frames(6);
      note();
    }
    t.find("");
    await frames(4);
    note();
    observer.disconnect();
    return { counts, max, overall: Math.max(...Object.values(max)), hits, scrollHeight: scroller.scrollHeight };
  },

  /** `find(query)` + `findNext()` until the current hit's row is painted in view, from the top of
   * a freshly loaded conversation, for each query in turn (the view back at the top between). */
  async find(url, queries, { wait = 2000 } = {}) {
    await loadedAndSettled(url, wait);
    const out = [];
    for (const q of queries) {
      await backToTop();
      let hits = 0, found = 0, next = 0;
      performance.mark("cd-start");
      const start = now();
      const { result: painted, calls } = await timing("search", () => {
        hits = t.find(q);
        found = now();
        t.findNext();
        next = now();
        return until(() => visible(root.querySelector('[aria-current="true"]')));
      }, true);
      performance.mark("cd-end");
      const current = root.querySelector('[aria-current="true"]');
      out.push({
        query: q, hits, find: found - start, search: calls.reduce((a, b) => a + b, 0), findNext: next - found, painted: painted.at - start,
        record: Number(current?.dataset.record ?? current?.dataset.index ?? -1),
      });
    }
    return out;
  },

  /** A query typed one letter at a time into a find bar: after each letter, `find(prefix)` and
   * `findNext()` (in one task, as a keystroke's handler runs them), then frame by frame until the
   * current hit's row is painted in view, then `gap` ms before the next letter. Per letter: the
   * handler's time (the page is blocked for it), and the time to the hit painted. */
  async typing(url, queries, { gap = 120, wait = 2000 } = {}) {
    await loadedAndSettled(url, wait);
    const out = [];
    for (const query of queries) {
      await backToTop();
      const letters = [];
      for (let k = 1; k <= [...query].length; k++) {
        const prefix = [...query].slice(0, k).join("");
        performance.mark("cd-start");
        const start = now();
        const { result: hits, calls } = await timing("search", () => t.find(prefix), true);
        t.findNext();
        const handler = now() - start;
        const painted = hits ? await until(() => visible(root.querySelector('[aria-current="true"]'))) : await frame();
        performance.mark("cd-end");
        letters.push({ prefix, hits, handler, search: calls.reduce((a, b) => a + b, 0), painted: painted.at - start });
        await new Promise((resolve) => setTimeout(resolve, gap));
      }
      out.push({ query, letters });
    }
    return out;
  },

  /** Scrolls the .scroller by `step` px in each of `count` frames from the top. */
  async scroll(url, { step = 200, count = 300 } = {}) {
    const bytes = await bytesOf(url);
    await loadAndSettle(bytes);
    scroller.scrollTop = 0;
    await frames(10);
    const from = scroller.scrollTop;
    const { result, longFrames } = await withLongFrames(() => rafLoop((i) => {
      if (i >= count) return false;
      scroller.scrollTop += step;
      return true;
    }));
    return { ...result, longFrames, scrolled: scroller.scrollTop - from, scrollHeight: scroller.scrollHeight };
  },

  /** An 81 KB write_file tool argument as an Anthropic Messages stream (about 1,950
   * input_json_delta events): `perFrame` events pushed in each animation frame, one push at a
   * time, each push's patches given to applyPatches. `expand`: the reader opens the tool call as
   * soon as it shows (its arguments then render as a JSON tree in every frame). */
  async stream({ perFrame = 4, expand = false } = {}) {
    const json = writeFileArguments(81 * 1000);
    const events = anthropicStream("tool_use", cut(json, 41));
    t.records = [];
    await frames(5);
    const accumulator = new api.StreamAccumulator("anthropic_messages");
    let next = 0;
    let expandedAt = -1;
    let tail = 0;
    const pushes = [];
    const { result, longFrames } = await withLongFrames(() => rafLoop((i) => {
      if (expand && expandedAt < 0) {
        const head = root.querySelector(".tool-head");
        if (head && head.getAttribute("aria-expanded") === "false") {
          head.click();
          expandedAt = i;
        }
      }
      for (let k = 0; k < perFrame && next < events.length; k++) {
        const start = now();
        t.applyPatches(accumulator.push(events[next++]));
        pushes.push(now() - start);
      }
      // A few frames after the last push, for the last rows to render.
      return next < events.length || tail++ < 5;
    }));
    const records = t.records;
    const same = records.length === 1 && JSON.stringify(records[0].content.arguments) === JSON.stringify(JSON.parse(json));
    const done = accumulator.done;
    accumulator.free();
    return {
      ...result, longFrames, pushes, events: events.length, bytes: new TextEncoder().encode(json).length,
      same, done, expanded: expand ? root.querySelector(".tool-head")?.getAttribute("aria-expanded") === "true" : false,
      elements: elementCount(),
    };
  },
};
window.ChatTranscript = ChatTranscript;
document.body.dataset.ready = "true";
