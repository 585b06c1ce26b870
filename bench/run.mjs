// `npm run bench`: chat-display against the plain-JavaScript baseline, in Node and in headless
// Chromium, each case checked equal before it is timed. Prints one table per runtime, then the
// object API's ratio to plain JavaScript (`toDisplayMessages` at the largest size, the two called
// in turn: cases.mjs's objectApiRatio) for each runtime side by side, against its target.
//
//   node bench/run.mjs [--runtime node|chromium] [--filter TEXT] [--sizes 100,1000] [--json FILE]
//                      [--rounds 40] [--ratio-only]
//
// The ratio is measured when the filter lets `toDisplayMessages` run (`--filter toDisplayMessages`
// runs every case whose name holds it, and the ratio); `--ratio-only` measures the ratio alone.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { Bench } from "tinybench";
import { objectApiRatio, runAll, table } from "./cases.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const runtimes = option("runtime", "node,chromium").split(",");
const options = {
  filter: option("filter", ""),
  sizes: option("sizes", "100,1000,10000").split(",").map(Number),
  iterations: Number(option("iterations", 20)),
};
// The object API's target against plain JavaScript in Node, at 10,000 messages (issue 45): what it
// was before the regression that issue found, which nothing measured.
const RATIO_TARGET = 1.6, RATIO_TARGET_SIZE = 10000;
const ratioOnly = args.includes("--ratio-only");
const ratioOptions = ratioOnly || "toDisplayMessages".includes(options.filter)
  ? { size: Math.max(...options.sizes), rounds: Number(option("rounds", 40)) }
  : null;
const ms = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const log = (runtime) => (row) =>
  console.error(`  ${runtime}: ${row.name} (${row.size}): ${row.chatDisplay.median.toFixed(2)} ms vs ${row.baseline.median.toFixed(2)} ms`);

const results = {};
const ratios = [];
console.log(`${new Date().toISOString()}; ${os.cpus()[0]?.model ?? "unknown CPU"} x ${os.cpus().length}; load ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);

if (runtimes.includes("node")) {
  const cd = await import("../js/node.mjs");
  // The ratio first, in a process that has run nothing else, so that it does not depend on which
  // cases and sizes ran before it: measured after the table, the same build's ratio rose from
  // about 2.2 to 3.3 to 4.1, as the baseline's calls got faster.
  if (ratioOptions) {
    const cpuTime = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    const target = ratioOptions.size === RATIO_TARGET_SIZE ? RATIO_TARGET : undefined;
    ratios.push({ runtime: `Node ${process.version}`, target, ...objectApiRatio(cd, { ...ratioOptions, cpuTime }) });
  }
  if (!ratioOnly) {
    results.node = await runAll(cd, Bench, { ...options, log: log("node") });
    console.log(`\n${table(`Node ${process.version}`, results.node)}`);
  }
}

if (runtimes.includes("chromium")) {
  const { startServer } = await import("../www/serve.mjs");
  const { launchBrowser } = await import("../tests/support/browser.mjs");
  const { server, url } = await startServer({
    port: 0,
    mounts: [
      ["/pkg/", join(root, "pkg", "web")],
      ["/tinybench/", join(root, "node_modules", "tinybench", "dist")],
      ["/bench/", join(root, "bench")],
      ["/", join(root, "bench")],
    ],
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
      else if (m.text().startsWith("row ")) console.error(`  chromium: ${m.text().slice(4)}`);
    });
    await page.goto(url);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30000 });
    const version = await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "Chromium");
    // The ratio first here too, on a page that has run nothing else.
    if (ratioOptions) {
      ratios.push({ runtime: `Chromium ${version.replace("Chrome/", "")}`, ...await page.evaluate((o) => window.objectApiRatio(o), ratioOptions) });
    }
    if (!ratioOnly) {
      results.chromium = await page.evaluate(
        (o) => window.runBench({ ...o, log: (r) => console.log(`row ${r.name} (${r.size}): ${r.chatDisplay.median.toFixed(2)} ms vs ${r.baseline.median.toFixed(2)} ms`) }),
        options,
      ).catch((e) => {
        throw new Error(`${e.message}\n${problems.join("\n")}`);
      });
      console.log(`\n${table(`Chromium ${version}`, results.chromium)}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

if (ratios.length) {
  const { size, rounds } = ratios[0];
  console.log(`\nThe object API against plain JavaScript: toDisplayMessages of ${size.toLocaleString("en")} messages, ` +
    `chat-display / plain JavaScript, the median of ${rounds} rounds that call the two in turn ` +
    `(target <= ${RATIO_TARGET} in Node at ${RATIO_TARGET_SIZE.toLocaleString("en")}); load ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  const width = Math.max(...ratios.map((r) => r.runtime.length));
  for (const r of ratios) {
    const cpu = r.cpu ? `; CPU time ${r.cpu.ratio.toFixed(2)} (${ms(r.cpu.chatDisplay)} / ${ms(r.cpu.baseline)} ms)` : "";
    const verdict = r.target === undefined ? "" : r.ratio <= r.target ? "  within the target" : `  OVER THE TARGET (${r.target})`;
    console.log(`  ${`${r.runtime}:`.padEnd(width + 1)} ${r.ratio.toFixed(2)} (${ms(r.chatDisplay)} / ${ms(r.baseline)} ms${cpu})${verdict}`);
  }
  results.ratio = ratios;
}

const out = option("json");
if (out) writeFileSync(out, JSON.stringify(results, null, 2));
