// Two builds of the browser package side by side in one Chromium page, to measure one change:
//
//   cp -r pkg/web /tmp/before   # the build before the change
//   (change, then) npm run build
//   node bench/ab.mjs --a /tmp/before --b pkg/web [--filter TEXT] [--sizes 10000] [--rounds 40]
//
// Both builds run the cases of cases.mjs on the same generated conversation; their outputs must be
// equal before anything is timed. Each round times A and B once per case, in alternating order,
// and the page is loaded twice with the two builds imported in swapped order: on this machine the
// build imported second measured up to 7% slower than the same build imported first, so each
// build's median is taken over both loads. Prints the medians (ms per call) and B / A. The same
// build against itself gave ratios from 0.92 to 1.08 (80 samples each, the 10,000-message object
// API cases), and leaning one way for several runs in a row: a step of a few percent needs
// several runs, or is best measured together with other steps.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../www/serve.mjs";
import { launchBrowser } from "../tests/support/browser.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const a = option("a"), b = option("b");
if (!a || !b) {
  console.error("usage: node bench/ab.mjs --a DIR --b DIR [--filter TEXT] [--sizes 10000] [--rounds 40]");
  process.exit(2);
}
const options = {
  filter: option("filter", ""),
  sizes: option("sizes", "10000").split(",").map(Number),
  rounds: Number(option("rounds", 40)),
};

// Each load's page and script, in a scratch folder: the builds under /a/ and /b/, imported and
// instantiated in the order given.
const scratch = mkdtempSync(join(tmpdir(), "chat-display-ab-"));
for (const [name, order] of [["ab", ["a", "b"]], ["ba", ["b", "a"]]]) {
  writeFileSync(join(scratch, `${name}.mjs`), `
import init0, * as build0 from "/${order[0]}/chat_display.js";
import init1, * as build1 from "/${order[1]}/chat_display.js";
import { casesFor } from "/bench/cases.mjs";
await init0();
await init1();
const builds = { ${order[0]}: build0, ${order[1]}: build1 };
window.run = ({ filter, sizes, rounds }) => {
  const rows = [];
  for (const size of sizes) {
    // Each build times its own copy of the conversation; the one imported first makes its copy
    // first, so that which copy lies where in the heap swaps with the imports too.
    const cases = {};
    cases.${order[0]} = casesFor(builds.${order[0]}, size);
    cases.${order[1]} = casesFor(builds.${order[1]}, size);
    cases.a.forEach((c, k) => {
      if (!c.name.includes(filter)) return;
      const run = { a: c.chatDisplay, b: cases.b[k].chatDisplay };
      if (c.compare !== false && JSON.stringify(run.a()) !== JSON.stringify(run.b())) {
        throw new Error(c.name + " (" + size + "): the two builds differ");
      }
      const times = { a: [], b: [] };
      for (let r = 0; r < rounds; r++) {
        for (const which of r % 2 ? ["a", "b"] : ["b", "a"]) {
          const start = performance.now();
          run[which]();
          times[which].push(performance.now() - start);
        }
      }
      rows.push({ name: c.name, size, times });
    });
  }
  return rows;
};
window.ready = true;
`);
  writeFileSync(join(scratch, `${name}.html`), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/${name}.mjs"></script>`);
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[s.length >> 1];
};

const { server, url } = await startServer({
  port: 0,
  mounts: [
    ["/a/", resolve(a)],
    ["/b/", resolve(b)],
    ["/bench/", join(root, "bench")],
    ["/", scratch],
  ],
});
const browser = await launchBrowser();
try {
  const merged = new Map();
  for (const name of ["ab", "ba"]) {
    const tab = await browser.context.newPage();
    const problems = [];
    tab.on("pageerror", (e) => problems.push(String(e)));
    tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await tab.goto(`${url}${name}.html`);
    await tab.waitForFunction(() => window.ready === true, null, { timeout: 60000 }).catch((e) => {
      throw new Error(`${e.message}\n${problems.join("\n")}`);
    });
    for (const row of await tab.evaluate((o) => window.run(o), options)) {
      const key = `${row.name} (${row.size})`;
      const into = merged.get(key) ?? { a: [], b: [] };
      into.a.push(...row.times.a);
      into.b.push(...row.times.b);
      merged.set(key, into);
    }
    await tab.close();
  }
  console.log(`A: ${a}\nB: ${b}`);
  for (const [key, times] of merged) {
    const [ma, mb] = [median(times.a), median(times.b)];
    // Chromium's clock moves in 0.1 ms steps here: a call shorter than that has no ratio.
    const ratio = ma > 0 && mb > 0 ? `B/A ${(mb / ma).toFixed(3)}` : "below the clock's resolution";
    console.log(`${key}: A ${ma.toFixed(2)} ms, B ${mb.toFixed(2)} ms, ${ratio} (${times.a.length} samples each)`);
  }
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
