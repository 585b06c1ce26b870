// Where a streamed token's time goes (issue 43's streaming target), not part of `npm test`: the
// stream of bench/markdown.mjs (a 20,000-token Markdown answer into a 1,000-message conversation,
// 2 tokens a frame), traced with the DevTools protocol over 400 tokens at two lengths of the
// answer, with the element built unminified so that the CPU profile names its functions.
//
//   node bench/markdown-trace.mjs [--at 2000,20000] [--tokens 400] [--top 25] [--css RULES] [--source DIR] [--long MS] [--no-profile]
//
// --source: the element's sources from DIR (a copy of js/element/ as another commit has it, inside
// the repository so that its imports resolve) instead of js/element/, to trace two versions in turn.
//
// Prints, per frame, the main thread's time by trace event (the element's animation-frame callback,
// the layouts and style recalculations inside it, which are forced, and those after it, paint,
// garbage collection), then the JavaScript functions by self time at each length: what grows with
// the answer shows as a figure that grows between the two.
import { build, transform } from "esbuild";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageMountsWith, startServer } from "../www/serve.mjs";
import { launchBrowser } from "../tests/support/browser.mjs";
import { conversation } from "./generate.mjs";
import { answerTokens } from "./markdown-answer.mjs";
import * as api from "../js/node.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const lengths = option("at", "2000,20000").split(",").map(Number);
const count = Number(option("tokens", 400));
const top = Number(option("top", 25));
// Extra CSS for the element's shadow root, to try a rule's effect before changing style.css.
const css = option("css", "");
// --hold: the reader scrolled up a screen before each traced stretch, so the view does not follow.
const hold = args.includes("--hold");
// --long MS: tasks listed when their wall time is over MS (50 by default: a long task).
const longMs = Number(option("long", 50));
// --invalidations: counts the invalidation-tracking events by kind and reason (slows everything).
const invalidations = args.includes("--invalidations");
// --no-profile: no CPU profile (the sampling profiler changes what runs when: a task it slows may
// vanish), only the trace's events.
const profiling = !args.includes("--no-profile");

// The element as scripts/build-element.mjs bundles it, but unminified.
const source = option("source", `${root}js/element`);
const out = mkdtempSync(join(tmpdir(), "chat-display-trace-"));
await build({
  entryPoints: [join(source, "index.js")], outdir: out, entryNames: "[name]", chunkNames: "[name]-[hash]",
  splitting: true, bundle: true, format: "esm", platform: "browser", target: ["es2022"], minify: false,
  external: ["chat-display", "chat-display/core", "chat-display/display"], logLevel: "warning",
  plugins: [{
    name: "css-text",
    setup(b) {
      b.onLoad({ filter: /\.css$/ }, async ({ path }) => {
        const { code } = await transform(readFileSync(path, "utf8"), { loader: "css", minify: true });
        return { contents: code, loader: "text" };
      });
    },
  }],
});

const records = api.toDisplayMessages(conversation(1000));
const tokens = answerTokens(Math.max(...lengths));
const { server, url } = await startServer({
  port: 0,
  mounts: [...packageMountsWith(out), ["/www/", join(root, "www")],
    ["/bench/", join(root, "bench")], ["/", join(root, "bench")]],
});
const browser = await launchBrowser();
const page = await browser.context.newPage();
await page.setViewportSize({ width: 1280, height: 800 });
await page.goto(`${url}element-bench.html`);
await page.waitForSelector("body[data-ready]", { state: "attached", timeout: 60000 });
const cdp = await browser.context.newCDPSession(page);
const load0 = loadavg()[0];

await page.evaluate(async ([records, css]) => {
  const t = document.getElementById("t");
  if (css) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    t.shadowRoot.adoptedStyleSheets = [...t.shadowRoot.adoptedStyleSheets, sheet];
  }
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null };
  t.records = [...records, { ...base, message_type: "user", content: { text: "Explain the service." }, metadata: {} }, { ...base, content: { text: "" }, metadata: { streaming: true } }];
  window.__index = records.length + 1;
  window.__frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  for (let k = 0; k < 5; k++) await window.__frame();
}, [records, css]);

/** Appends tokens [from, to) in bulk, a frame every 500. */
async function bulk(from, to) {
  await page.evaluate(async ([chunk]) => {
    const t = document.getElementById("t");
    for (let i = 0; i < chunk.length; i += 500) {
      t.applyPatches([{ op: "append", index: window.__index, field: "text", text: chunk.slice(i, i + 500).join("") }]);
      await window.__frame();
    }
  }, [tokens.slice(from, to)]);
}

/** Streams tokens [from, to), 2 a frame. */
async function stream(from, to) {
  return page.evaluate(async ([chunk]) => {
    const t = document.getElementById("t");
    const work = [];
    for (let i = 0; i < chunk.length; i += 2) {
      t.applyPatches([{ op: "append", index: window.__index, field: "text", text: chunk[i] + (chunk[i + 1] ?? "") }]);
      const stamp = await window.__frame();
      work.push(performance.now() - stamp);
    }
    return work;
  }, [tokens.slice(from, to)]);
}

async function traced(from, to) {
  const events = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  if (profiling) await cdp.send("Profiler.enable");
  if (profiling) await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing",
      ...(invalidations ? ["disabled-by-default-devtools.timeline.invalidationTracking"] : [])] },
  });
  if (profiling) await cdp.send("Profiler.start");
  const work = await stream(from, to);
  const { profile } = profiling ? await cdp.send("Profiler.stop") : { profile: null };
  await cdp.send("Tracing.end");
  await done;
  cdp.removeAllListeners("Tracing.dataCollected");
  return { work, events, profile };
}

/** Main-thread time by event, per frame: complete events (and begin/end pairs) on the renderer's
 * main thread, the layouts and style recalculations inside an animation frame counted apart. */
function byEvent(events, frames, profile = null) {
  // The renderer's main thread: the one that runs the animation frames.
  const counts = new Map();
  for (const e of events) if (e.name === "FireAnimationFrame") counts.set(`${e.pid}/${e.tid}`, (counts.get(`${e.pid}/${e.tid}`) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => `${e.pid}/${e.tid}` === main);
  const spans = [];
  const open = [];
  for (const e of mine.sort((a, b) => a.ts - b.ts)) {
    // The thread's own time (tdur) where the event has it: what other processes on a loaded
    // machine take from the thread does not count.
    if (e.ph === "X") spans.push({ name: e.name, ts: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0 });
    else if (e.ph === "B") open.push(e);
    else if (e.ph === "E") {
      const b = open.findLastIndex((o) => o.name === e.name);
      if (b >= 0) spans.push({ name: e.name, ts: open[b].ts, end: e.ts, cpu: e.tts !== undefined && open[b].tts !== undefined ? e.tts - open[b].tts : e.ts - open[b].ts });
      if (b >= 0) open.splice(b, 1);
    }
  }
  const rafs = spans.filter((s) => s.name === "FireAnimationFrame");
  const inRaf = (s) => rafs.some((r) => s.ts >= r.ts && s.end <= r.end && s !== r);
  const sums = new Map();
  const add = (name, ms) => sums.set(name, (sums.get(name) ?? 0) + ms);
  for (const s of spans) {
    const ms = s.cpu / 1000;
    if (["Layout", "UpdateLayoutTree", "RecalculateStyles"].includes(s.name)) add(`${s.name}${inRaf(s) ? " (forced, in rAF)" : ""}`, ms);
    else if (["FireAnimationFrame", "Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer", "ScrollLayer",
      "MajorGC", "MinorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "V8.GC_MC_BACKGROUND_MARKING", "BlinkGC.AtomicPhase",
      "ParseHTML", "HitTest", "IntersectionObserverController::computeIntersections", "ResizeObserverController::deliver",
      "UpdateLayoutTree", "RunTask", "ThreadControllerImpl::RunTask", "EventDispatch", "TimerFire", "FunctionCall"].includes(s.name)) add(s.name, ms);
  }
  // Tasks over 50 ms (--long) of wall time, with the events inside that took most of them.
  const long = spans.filter((s) => s.name === "RunTask" && s.end - s.ts > longMs * 1000).map((task) => {
    const inside = new Map();
    for (const s of spans) {
      if (s !== task && s.name !== "RunTask" && s.ts >= task.ts && s.end <= task.end) inside.set(s.name, (inside.get(s.name) ?? 0) + s.cpu / 1000);
    }
    const frame = rafs.filter((r) => r.ts < task.ts).length;
    if (process.env.TRACE_LINES && profile) {
      // The lines of the hottest functions in this task (the profile's position ticks).
      const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
      let at = profile.startTime;
      const hit = new Map();
      profile.samples.forEach((id, i) => { at += profile.timeDeltas[i] ?? 0; if (at >= task.ts && at <= task.end) hit.set(id, (hit.get(id) ?? 0) + 1); });
      for (const [id, n] of [...hit].sort((a, b) => b[1] - a[1]).slice(0, 6)) {
        const node = nodes.get(id);
        console.log(`    ${n} samples ${node.callFrame.functionName} :${node.callFrame.lineNumber + 1} lines ${JSON.stringify((node.positionTicks ?? []).sort((a, b) => b.ticks - a.ticks).slice(0, 6))}`);
      }
    }
    const fns = profile ? bySelf(profile, 1, [task.ts, task.end]).filter(([name]) => !/^\((idle|program)\)/.test(name)).slice(0, 5)
      .map(([name, ms]) => `${name.trim()} ${ms.toFixed(1)}`).join(", ") : "";
    return `${fns ? `[${fns}] ` : ""}${((task.end - task.ts) / 1000).toFixed(1)} ms (thread ${(task.cpu / 1000).toFixed(1)} ms), after frame ${frame}: ${[...inside].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(", ")}`;
  });
  return { sums: [...sums].map(([name, ms]) => [name, ms / frames]).sort((a, b) => b[1] - a[1]), long };
}

/** Self time by function (name, file:line), in ms per frame. */
function bySelf(profile, frames, [from, to] = [-Infinity, Infinity]) {
  const self = new Map();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from && at <= to) dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  for (const [id, us] of dt) {
    const { functionName, url: file, lineNumber } = nodes.get(id).callFrame;
    const key = `${functionName || "(anonymous)"} ${file ? `${file.split("/").pop()}:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + us / 1000);
  }
  return [...self].map(([k, ms]) => [k, ms / frames]).sort((a, b) => b[1] - a[1]);
}

const median = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };
const p95 = (v) => { const s = [...v].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]; };
const results = [];
let at = 0;
for (const length of lengths.sort((a, b) => a - b)) {
  await bulk(at, length - count);
  if (hold) {
    await page.evaluate(async () => {
      const s = document.getElementById("t").shadowRoot.querySelector(".scroller");
      s.scrollTop -= s.clientHeight;
      for (let k = 0; k < 5; k++) await window.__frame();
    });
  }
  const r = await traced(length - count, length);
  results.push({ length, ...r });
  at = length;
}
await browser.close();
server.close();
rmSync(out, { recursive: true, force: true });

console.log(`\n${new Date().toISOString()}; ${cpus()[0]?.model}, ${cpus().length} cores; load ${load0.toFixed(2)} to ${loadavg()[0].toFixed(2)}; ${count} tokens traced at each length\n`);
for (const { length, work, events, profile } of results) {
  const frames = work.length;
  console.log(`## tokens ${length - count}-${length}: the element's work a frame median ${median(work).toFixed(2)} ms, p95 ${p95(work).toFixed(2)} ms, max ${Math.max(...work).toFixed(1)} ms`);
  console.log("main thread by trace event, thread time in ms a frame:");
  const { sums, long } = byEvent(events, frames, profile);
  for (const [name, ms] of sums) if (ms >= 0.01) console.log(`  ${ms.toFixed(3).padStart(8)}  ${name}`);
  console.log(`tasks over ${longMs} ms: ${long.length}`);
  for (const line of long) console.log(`  ${line}`);
  if (invalidations) {
    const kinds = new Map();
    for (const e of events) {
      if (!/InvalidationTracking|Invalidat/.test(e.name)) continue;
      const d = e.args?.data ?? {};
      const key = `${e.name} ${d.reason ?? ""} ${d.nodeName ?? ""} ${d.invalidationSet ? "set" : ""}`.trim();
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    console.log("invalidations a frame:");
    for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${(n / frames).toFixed(1).padStart(8)}  ${k}`);
  }
  if (profile) console.log("JavaScript by self time, ms a frame:");
  for (const [name, ms] of profile ? bySelf(profile, frames).slice(0, top) : []) console.log(`  ${ms.toFixed(3).padStart(8)}  ${name}`);
  console.log();
}
