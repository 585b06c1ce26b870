// The benchmark of a conversation kept on a server (issue 47's targets), not part of `npm test`:
// <chat-transcript> from pkg/element in Debian's headless Chromium, on the element's bench page,
// with records made by www/conversations.mjs (the stored conversation server.html pages in).
//
// 1. prepend: 1,000 records before 100,000 shown, the reader in the middle: the main thread's time
//    of the call (it builds the rows in view before it returns) and how far the row in view moved.
// 2. upsert: one record replaced by id anywhere in 100,000, 300 ms after the prepend (the element
//    makes its id map ahead of the first call, a slice a task).
// 3. pages: from the newest to the first record of 100,000 through 2,000 pages of 50, prepended
//    as the reader scrolls to the top: elements in the shadow root and the JS heap after a garbage
//    collection, every 250 pages.
//
//   node bench/server.mjs [--runs 5]
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageMounts, startServer } from "../www/serve.mjs";
import { launchBrowser } from "../tests/support/browser.mjs";
import { storedRecords } from "../www/conversations.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const RUNS = Number(args.includes("--runs") ? args[args.indexOf("--runs") + 1] : 5);
const median = (v) => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const ms = (x) => `${x.toFixed(x >= 100 ? 0 : 1)} ms`;

// 57,000 messages of bench/generate.mjs make about 103,000 records: 100,000 shown, 1,000 to prepend.
const id = "size-57000";
const all = storedRecords(id).records;
const shown = all.slice(-100000);
console.error(`  server bench: ${all.length} stored records, ${shown.length} shown`);

const { server, url } = await startServer({
  port: 0,
  mounts: [...packageMounts, ["/www/", join(root, "www")],
    ["/bench/", join(root, "bench")], ["/", join(root, "bench")]],
});
const browser = await launchBrowser();
const open = async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${url}element-bench.html`);
  await page.waitForSelector("body[data-ready]", { state: "attached", timeout: 60000 });
  return page;
};
const results = { prepend: [], moved: [], upsertFirst: [], upsert: [] };
const started = new Date();
const loads = [loadavg()[0]];

for (let run = 0; run < RUNS; run++) {
  const page = await open();
  const out = await page.evaluate(async ([records, older]) => {
    const t = document.getElementById("t");
    const frames = (n) => new Promise((resolve) => { const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step)); requestAnimationFrame(step); });
    t.records = records;
    await frames(3);
    t.scrollToRecord(50000);
    await frames(6);
    const s = t.shadowRoot.querySelector(".scroller");
    const box = s.getBoundingClientRect();
    const row = [...t.shadowRoot.querySelectorAll(".row:not([hidden])")].find((r) => r.getBoundingClientRect().top >= box.top && Number(r.dataset.index) > 49990);
    const index = Number(row.dataset.index);
    const top = row.getBoundingClientRect().top;
    const start = performance.now();
    t.prepend(older);
    const prepend = performance.now() - start;
    await frames(3);
    const moved = t.shadowRoot.querySelector(`.row[data-index="${index + older.length}"]`).getBoundingClientRect().top - top;
    // The element makes its id map a slice a task after records are set or prepended: a reader's
    // next update comes later than that.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const times = [];
    for (const at of [77777, 3, 100900, 50000, 12345, 99999]) {
      const record = t.records[at];
      const u = performance.now();
      t.upsert([{ ...record, content: { ...record.content, text: `changed ${at}` } }]);
      times.push(performance.now() - u);
    }
    return { prepend, moved, upsertFirst: times[0], upsert: times.slice(1) };
  }, [shown, all.slice(-101000, -100000)]);
  results.prepend.push(out.prepend);
  results.moved.push(out.moved);
  results.upsertFirst.push(out.upsertFirst);
  results.upsert.push(...out.upsert);
  console.error(`  run ${run + 1}: prepend ${ms(out.prepend)} (moved ${out.moved.toFixed(2)} px), upsert first ${ms(out.upsertFirst)}, then ${out.upsert.map(ms).join(", ")}`);
  await page.close();
}

// Pages: newest to first, 2,000 pages of 50.
const page = await open();
const cdp = await page.context().newCDPSession(page);
const heap = async () => {
  await cdp.send("HeapProfiler.collectGarbage");
  return (await cdp.send("Runtime.getHeapUsage")).usedSize;
};
await page.evaluate((records) => { window.__stored = records; }, shown);
await page.evaluate(() => { const t = document.getElementById("t"); t.records = window.__stored.slice(-50); });
const samples = [];
for (let p = 1; p < 2000; p++) {
  const elements = await page.evaluate(async (p) => {
    const t = document.getElementById("t");
    const frames = (n) => new Promise((resolve) => { const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step)); requestAnimationFrame(step); });
    const all = window.__stored;
    t.prepend(all.slice(all.length - (p + 1) * 50, all.length - p * 50));
    t.shadowRoot.querySelector(".scroller").scrollTop = 0;
    await frames(2);
    return t.shadowRoot.querySelectorAll("*").length;
  }, p);
  if (p % 250 === 0 || p === 1999) samples.push({ pages: p + 1, records: (p + 1) * 50, elements, heap: await heap() });
}
loads.push(loadavg()[0]);
await browser.close();
server.close();

const info = { model: cpus()[0]?.model ?? "?", cores: cpus().length, memory: `${Math.round(totalmem() / 2 ** 30)} GiB` };
console.log(`\n${started.toISOString()}; ${info.model}, ${info.cores} cores, ${info.memory}; Node ${process.version}; load ${loads.map((l) => l.toFixed(2)).join(" to ")}; ${RUNS} runs\n`);
console.log("| measure | result (median; range) | target | |");
console.log("|---|---|---|---|");
const range = (v) => `${ms(median(v))} (${ms(Math.min(...v))}-${ms(Math.max(...v))})`;
console.log(`| prepend 1,000 records before 100,000 shown | ${range(results.prepend)} | < 50 ms | ${median(results.prepend) < 50 ? "met" : "**missed**"} |`);
console.log(`| the row in view moved by | ${results.moved.map((m) => `${m.toFixed(2)} px`).join(", ")} | 0 px | ${results.moved.every((m) => Math.abs(m) < 1) ? "met" : "**missed**"} |`);
console.log(`| upsert one record in 100,000, first call (300 ms after a prepend) | ${range(results.upsertFirst)} | < 16 ms | ${median(results.upsertFirst) < 16 ? "met" : "**missed**"} |`);
console.log(`| upsert one record in 100,000, later calls | ${range(results.upsert)} | < 16 ms | ${median(results.upsert) < 16 ? "met" : "**missed**"} |`);
console.log("\n| pages of 50 prepended | records | elements in the shadow root | JS heap after GC |");
console.log("|---|---|---|---|");
for (const s of samples) console.log(`| ${s.pages} | ${s.records.toLocaleString("en-US")} | ${s.elements} | ${(s.heap / 2 ** 20).toFixed(1)} MB |`);
