// The benchmark of Markdown in <chat-transcript> (issue 43's targets), not part of `npm test`: in
// Debian's headless Chromium, on the element's bench page (bench/element-bench.html).
//
// 1. Streaming a 20,000-token Markdown answer (paragraphs, lists, code, a table) into a
//    1,000-message conversation, 2 tokens a frame (120 a second): the element's work in each frame
//    (the time its render takes in the frame after a token, read as the time between the frame's
//    start and the first callback registered after the element's), frame intervals and long tasks,
//    for tokens 1,000 to 2,000 and 19,000 to 20,000 (the tokens between are pushed in bulk).
// 2. Highlighting a 500-line code block, the highlighter loaded: the element's render of that row.
//
//   node bench/markdown.mjs [--element DIR]
//
// --element: the element's bundle from DIR instead of pkg/element (to compare two builds, run in turn).
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
  const early = await phase(1000 - 1000, 0); // nothing: warms the path
  for (let i = 0; i < 1000; i += 250) t.applyPatches([{ op: "append", index, field: "text", text: tokens.slice(i, i + 250).join("") }]);
  await frame();
  const a = await phase(1000, 2000);
  for (let i = 2000; i < 19000; i += 500) {
    t.applyPatches([{ op: "append", index, field: "text", text: tokens.slice(i, i + 500).join("") }]);
    await frame();
  }
  const b = await phase(19000, 20000);
  const chars = t.records[index].content.text.length;
  return { a, b, chars, early: early.work.length };
}, [records, answerTokens(20000)]);

const highlight = await page.evaluate(async () => {
  const t = document.getElementById("t");
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null, metadata: {} };
  t.records = [{ ...base, content: { text: "```js\nconst warm = 1;\n```" } }];
  for (let k = 0; k < 100 && !t.shadowRoot.querySelector("code.hljs"); k++) await new Promise((r) => setTimeout(r, 20));
  const lines = [];
  for (let i = 0; i < 500; i++) lines.push(`  const value${i} = compute(${i}, "text ${i}"); // step ${i}`);
  const out = [];
  for (let run = 0; run < 5; run++) {
    t.records = [{ ...base, content: { text: `Run ${run}:\n\n\`\`\`js\nfunction big() {\n${lines.join("\n")}\n}\n\`\`\`` } }];
    const stamp = await frame();
    out.push(performance.now() - stamp);
    if (!t.shadowRoot.querySelector("code.hljs")) throw new Error("not highlighted");
  }
  return out;
});

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
console.log(`\n| highlighting a 500-line block, the highlighter loaded: the element's render | median ${f(median(highlight))} (${highlight.map(f).join(", ")}) | < 50 ms |`);
