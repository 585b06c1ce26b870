// `npm run bench`: chat-display against the plain-JavaScript baseline, in Node and in headless
// Chromium, each case checked equal before it is timed. Prints one table per runtime.
//
//   node bench/run.mjs [--runtime node|chromium] [--filter TEXT] [--sizes 100,1000] [--json FILE]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { Bench } from "tinybench";
import { runAll, table } from "./cases.mjs";

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
const log = (runtime) => (row) =>
  console.error(`  ${runtime}: ${row.name} (${row.size}): ${row.chatDisplay.median.toFixed(2)} ms vs ${row.baseline.median.toFixed(2)} ms`);

const results = {};
console.log(`${new Date().toISOString()}; ${os.cpus()[0]?.model ?? "unknown CPU"} x ${os.cpus().length}; load ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);

if (runtimes.includes("node")) {
  const cd = await import("../js/node.mjs");
  results.node = await runAll(cd, Bench, { ...options, log: log("node") });
  console.log(`\n${table(`Node ${process.version}`, results.node)}`);
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
    results.chromium = await page.evaluate(
      (o) => window.runBench({ ...o, log: (r) => console.log(`row ${r.name} (${r.size}): ${r.chatDisplay.median.toFixed(2)} ms vs ${r.baseline.median.toFixed(2)} ms`) }),
      options,
    ).catch((e) => {
      throw new Error(`${e.message}\n${problems.join("\n")}`);
    });
    console.log(`\n${table(`Chromium ${version}`, results.chromium)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

const out = option("json");
if (out) writeFileSync(out, JSON.stringify(results, null, 2));
