// A cited answer streaming (issue 43), not part of `npm test`: a message whose first text record
// is cited (as Anthropic's web search splits an answer) and whose second, uncited, streams the
// answer of bench/markdown-answer.mjs, 2 tokens a frame, into a 1,000-message conversation; the
// element's work a frame (as bench/markdown.mjs measures it) at tokens 1,600-2,000 and 7,600-8,000.
//
//   node bench/markdown-cited.mjs [--element DIR]
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { packageMountsWith, startServer } from "../www/serve.mjs";
import { launchBrowser } from "../tests/support/browser.mjs";
import { conversation } from "./generate.mjs";
import { answerTokens } from "./markdown-answer.mjs";
import * as api from "../js/node.mjs";
const root = fileURLToPath(new URL("..", import.meta.url));
const at = process.argv.indexOf("--element");
const dir = at > 0 ? resolve(process.argv[at + 1]) : join(root, "pkg", "element");
const records = api.toDisplayMessages(conversation(1000));
const { server, url } = await startServer({ port: 0, mounts: [...packageMountsWith(dir), ["/www/", join(root, "www")], ["/bench/", join(root, "bench")], ["/", join(root, "bench")]] });
const browser = await launchBrowser();
const page = await browser.context.newPage();
await page.setViewportSize({ width: 1280, height: 800 });
await page.goto(`${url}element-bench.html`);
await page.waitForSelector("body[data-ready]", { state: "attached", timeout: 60000 });
const l0 = loadavg()[0];
const out = await page.evaluate(async ([records, tokens]) => {
  const t = document.getElementById("t");
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", status: "completed", tool_call_id: null };
  const cite = { type: "web_search_result_location", cited_text: "x", url: "https://cite.example/a", title: "Site A" };
  t.records = [...records, { ...base, message_type: "user", sequence: 0, content: { text: "Q" }, metadata: {} },
    { ...base, sequence: 0, content: { text: "A cited opening sentence." }, metadata: { citations: [cite] } },
    { ...base, sequence: 1, content: { text: "\n\n" }, metadata: { streaming: true } }];
  const index = records.length + 2;
  for (let k = 0; k < 5; k++) await frame();
  const phase = async (from, to) => {
    const work = [];
    for (let i = from; i < to; i += 2) {
      t.applyPatches([{ op: "append", index, field: "text", text: tokens[i] + (tokens[i + 1] ?? "") }]);
      const stamp = await frame();
      work.push(performance.now() - stamp);
    }
    return work;
  };
  const bulk = async (from, to) => { for (let i = from; i < to; i += 250) { t.applyPatches([{ op: "append", index, field: "text", text: tokens.slice(i, Math.min(to, i + 250)).join("") }]); await frame(); } };
  await bulk(0, 1600);
  const a = await phase(1600, 2000);
  await bulk(2000, 7600);
  const b = await phase(7600, 8000);
  return { a, b };
}, [records, answerTokens(8000)]);
const med = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
const p95 = (v) => [...v].sort((x, y) => x - y)[Math.ceil(0.95 * v.length) - 1];
console.log(`${new Date().toISOString()}; load ${l0.toFixed(1)}-${loadavg()[0].toFixed(1)}: tokens 1,600-2,000 median ${med(out.a).toFixed(1)} p95 ${p95(out.a).toFixed(1)} ms; 7,600-8,000 median ${med(out.b).toFixed(1)} p95 ${p95(out.b).toFixed(1)} ms`);
await browser.close(); server.close();
