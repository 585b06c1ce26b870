// The benchmark of Markdown in <chat-transcript> (issue 43's targets), not part of `npm test`: in
// Debian's headless Chromium, on the element's bench page (bench/element-bench.html).
//
// 1. Streaming a 20,000-token Markdown answer (paragraphs, lists, code, a table) into a
//    1,000-message conversation, 2 tokens a frame (120 a second): the element's work in each frame
//    (the time its render takes in the frame after a token, read as the time between the frame's
//    start and the first callback registered after the element's), frame intervals and long tasks,
//    for tokens 1,000 to 2,000 and 19,000 to 20,000 (the tokens from 2,000 to 19,000 are pushed in
//    bulk), and the long tasks of tokens 0 to 1,000, where the parts it loads on first need arrive.
// 2. Highlighting a 500-line code block, the highlighter loaded: the page's main-thread work from
//    setting the record until the block is highlighted (against the same row in a language the
//    highlighter does not know), the time that takes, and the longest task meanwhile.
//
//   node bench/markdown.mjs [--element DIR] [--trace]
//
// --element: the element's bundle from DIR instead of pkg/element (to compare two builds, run in turn).
// --trace: the stream also traced (the DevTools timeline's events, no sampling profiler), and each
// task over 50 ms listed with the events inside it that took most of its thread time.
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packageMountsWith, startServer } from "../www/serve.mjs";
import { launchBrowser } from "../tests/support/browser.mjs";
import { conversation } from "./generate.mjs";
import * as api from "../js/node.mjs";
import { answerTokens } from "./markdown-answer.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const elementAt = process.argv.indexOf("--element");
const elementDir = elementAt > 0 ? resolve(process.argv[elementAt + 1]) : join(root, "pkg", "element");
const records = api.toDisplayMessages(conversation(1000));

const { server, url } = await startServer({
  port: 0,
  mounts: [...packageMountsWith(elementDir), ["/www/", join(root, "www")],
    ["/bench/", join(root, "bench")], ["/", join(root, "bench")]],
});
const browser = await launchBrowser();
const page = await browser.context.newPage();
await page.setViewportSize({ width: 1280, height: 800 });
await page.goto(`${url}element-bench.html`);
await page.waitForSelector("body[data-ready]", { state: "attached", timeout: 60000 });
const started = new Date();
const load0 = loadavg()[0];
const tracing = process.argv.includes("--trace");
const events = [];
const cdp = tracing ? await browser.context.newCDPSession(page) : null;
if (cdp) {
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  await cdp.send("Tracing.start", { transferMode: "ReportEvents",
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "blink.user_timing", "loading"] } });
}

const stream = await page.evaluate(async ([records, tokens]) => {
  const t = document.getElementById("t");
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null };
  t.records = [...records, { ...base, message_type: "user", content: { text: "Explain the service." }, metadata: {} }, { ...base, content: { text: "" }, metadata: { streaming: true } }];
  const index = records.length + 1;
  for (let k = 0; k < 5; k++) await frame();
  const long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e); }).observe({ type: "longtask" });
  const phase = async (from, to) => {
    const work = [];
    const intervals = [];
    let last = await frame();
    const longBefore = long.length;
    const start = last;
    for (let i = from; i < to; i += 2) {
      t.applyPatches([{ op: "append", index, field: "text", text: tokens[i] + (tokens[i + 1] ?? "") }]);
      // The element's render runs in the next frame, before this callback.
      const stamp = await frame();
      work.push(performance.now() - stamp);
      intervals.push(stamp - last);
      last = stamp;
    }
    // Each long task's duration, and when it started, in ms from the stretch's first frame.
    return { work, intervals, long: long.slice(longBefore).map((e) => e.duration), at: long.slice(longBefore).map((e) => e.startTime - start) };
  };
  // The answer streams from its first token, as a reply does: the streaming part and the
  // highlighter load while it starts (pushing its first 1,000 tokens at once instead made the
  // element render those 4,000 characters in one frame, and again when the streaming part came:
  // two long tasks no stream has; bench/ELEMENT.md, 2026-12-06 16:30 UTC).
  performance.mark("cd-first");
  const start = await phase(0, 1000);
  performance.mark("cd-stretch");
  const a = await phase(1000, 2000);
  for (let i = 2000; i < 19000; i += 500) {
    t.applyPatches([{ op: "append", index, field: "text", text: tokens.slice(i, i + 500).join("") }]);
    await frame();
  }
  const b = await phase(19000, 20000);
  const chars = t.records[index].content.text.length;
  return { start, a, b, chars };
}, [records, answerTokens(20000)]);

if (cdp) {
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  await done;
}

// A 500-line block twice: code as it is written (a blank line after every function of 10 lines),
// and 500 lines without a blank line; and, for reference, the second in a language the highlighter
// does not know (the row's own work: Markdown, layout, no highlighting). Each run's text is new
// (the highlighter keeps what it gave: a repeated text is shown at once). Main-thread work is
// Chromium's own sum of the page's main-thread tasks (the DevTools protocol's `TaskDuration`), from
// before the records are set until the block is highlighted and a frame has passed.
const metrics = await browser.context.newCDPSession(page);
await metrics.send("Performance.enable");
const taskTime = async () => (await metrics.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value * 1000;
await page.evaluate(async () => {
  const t = document.getElementById("t");
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null, metadata: {} };
  t.records = [{ ...base, content: { text: "```js\nconst warm = 1;\n```" } }];
  for (let k = 0; k < 200 && !t.shadowRoot.querySelector("code.hljs"); k++) await new Promise((r) => setTimeout(r, 20));
  const long = [];
  window.__long = long;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e); }).observe({ type: "longtask" });
});
const highlight = {};
for (const kind of ["written", "unbroken", "unknown"]) {
  highlight[kind] = [];
  for (let run = 0; run < 5; run++) {
    const before = await taskTime();
    const out = await page.evaluate(async ([kind, run]) => {
      const t = document.getElementById("t");
      const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null, metadata: {} };
      const code = kind === "written"
        ? Array.from({ length: 50 }, (_, f) => [`function step${f}(input) {`, ...Array.from({ length: 7 }, (_, i) =>
          `  const value${i} = compute(input, "text ${f}.${i}"); // step ${i}`), "  return value6;", "}", ""].join("\n")).join("\n")
        : `function big() {\n${Array.from({ length: 500 }, (_, i) => `  const value${i} = compute(${i}, "text ${i}"); // step ${i}`).join("\n")}\n}`;
      const from = performance.now();
      const before = window.__long.length;
      t.records = [{ ...base, content: { text: `Run ${run}:\n\n\`\`\`${kind === "unknown" ? "unknown-language" : "js"}\n// run ${run}\n${code}\n\`\`\`` } }];
      const done = () => kind === "unknown" ? t.shadowRoot.querySelector("code") : t.shadowRoot.querySelector("code.hljs");
      while (!done() && performance.now() - from < 10_000) await new Promise((r) => setTimeout(r, 10));
      const whole = performance.now() - from;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))); // its frame, and the long-task entries
      return { whole, longest: Math.max(0, ...window.__long.slice(before).map((e) => e.duration)) };
    }, [kind, run]);
    highlight[kind].push({ ...out, work: (await taskTime()) - before });
  }
}

await browser.close();
server.close();
const median = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };
const p95 = (v) => { const s = [...v].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]; };
const f = (x) => `${x.toFixed(1)} ms`;
console.log(`\n${started.toISOString()}; ${cpus()[0]?.model}, ${cpus().length} cores; load ${load0.toFixed(2)} to ${loadavg()[0].toFixed(2)}; the answer ${stream.chars.toLocaleString("en-US")} characters at 20,000 tokens\n`);
console.log("| measure | tokens 1,000-2,000 | tokens 19,000-20,000 | target |");
console.log("|---|---|---|---|");
console.log(`| the element's work a frame, median / p95 / max | ${f(median(stream.a.work))} / ${f(p95(stream.a.work))} / ${f(Math.max(...stream.a.work))} | ${f(median(stream.b.work))} / ${f(p95(stream.b.work))} / ${f(Math.max(...stream.b.work))} | the same at both lengths |`);
console.log(`| frame interval p95 | ${f(p95(stream.a.intervals))} | ${f(p95(stream.b.intervals))} | ≤ 16.7 ms |`);
const longs = (p) => `${p.long.length} (longest ${f(Math.max(0, ...p.long))})${p.long.length ? `: ${p.long.map((d, k) => `${d.toFixed(0)} ms at ${p.at[k].toFixed(0)} ms`).join(", ")}` : ""}`;
console.log(`| long tasks (> 50 ms), each with its start from the stretch's first frame | ${longs(stream.a)} | ${longs(stream.b)} | none |`);
console.log(`| long tasks (> 50 ms) over tokens 0-1,000, where the streaming part and the highlighter arrive | ${longs(stream.start)} | | none |`);
if (tracing) {
  // Complete events and begin/end pairs on the thread that ran the marks (the page's main thread).
  const mark = (name) => events.find((e) => e.name === name && e.cat.includes("blink.user_timing"));
  const stretch = mark("cd-stretch");
  const main = events.filter((e) => e.pid === stretch?.pid && e.tid === stretch?.tid);
  const spans = [];
  const open = [];
  for (const e of main) {
    if (e.ph === "X") spans.push({ name: e.name, ts: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0, args: e.args });
    else if (e.ph === "B") open.push(e);
    else if (e.ph === "E") {
      const b = open.findLastIndex((o) => o.name === e.name);
      if (b >= 0) spans.push({ name: e.name, ts: open[b].ts, end: e.ts, cpu: e.tts !== undefined && open[b].tts !== undefined ? e.tts - open[b].tts : e.ts - open[b].ts, args: open[b].args });
      if (b >= 0) open.splice(b, 1);
    }
  }
  const first = mark("cd-first")?.ts ?? 0;
  console.log(`\ntasks over 50 ms from the first token on (start in ms from the 1,000th token's mark; thread time; the events inside by thread time):`);
  for (const task of spans.filter((s) => s.name === "RunTask" && s.ts >= first && s.end - s.ts > 50_000)) {
    const inside = new Map();
    for (const s of spans) {
      if (s === task || s.name === "RunTask" || s.ts < task.ts || s.end > task.end) continue;
      const what = s.name === "EvaluateScript" || s.name === "v8.compile" || s.name === "FunctionCall"
        ? `${s.name} ${String(s.args?.data?.url ?? s.args?.data?.functionName ?? "").split("/").pop()}` : s.name;
      inside.set(what, (inside.get(what) ?? 0) + s.cpu / 1000);
    }
    const top = [...inside].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(", ");
    console.log(`- at ${((task.ts - stretch.ts) / 1000).toFixed(0)} ms: ${((task.end - task.ts) / 1000).toFixed(1)} ms (thread ${(task.cpu / 1000).toFixed(1)}): ${top}`);
  }
}
const medianWork = (kind) => median(highlight[kind].map((r) => r.work));
for (const [kind, runs] of Object.entries(highlight)) {
  const what = { written: "a 500-line block with a blank line after each 10-line function", unbroken: "a 500-line block without a blank line",
    unknown: "the second in a language the highlighter does not know (the row's own work)" }[kind];
  console.log(`\n| ${what} | main-thread work ${runs.map((r) => f(r.work)).join(", ")} | until highlighted ${runs.map((r) => f(r.whole)).join(", ")} | longest task over 50 ms ${runs.map((r) => (r.longest ? f(r.longest) : "none")).join(", ")} |`);
}
console.log(`\nThe highlighting's own main-thread work (median over the row's own): written ${f(medianWork("written") - medianWork("unknown"))}, unbroken ${f(medianWork("unbroken") - medianWork("unknown"))} (target < 50 ms)`);
