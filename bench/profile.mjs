// A CPU profile of one bench case's chat-display side in headless Chromium, on a copy of the
// shipped module optimized exactly as it is but with its function names kept:
//
//   npm run build   # (or the build under study)
//   node bench/profile.mjs --case "Transcript.fromJson(bytes)" [--size 10000] [--reps 20]
//                          [--callers NAME] [--core]
//
// The case is the first of bench/cases.mjs whose name starts with --case. It runs three times to
// warm up, then --reps times under the DevTools protocol's sampling profiler (0.1 ms interval).
// Prints the time per call, then the functions by self time and by inclusive time (a function's
// own samples and those of everything it calls, counted once however deep it recurses), as
// percentages of the profile; --callers NAME adds which functions call those whose name contains
// NAME, by the self time spent in them. --core profiles chat-display/core's module instead of the
// whole one. Wasm functions carry their Rust names; the glue's JavaScript functions their own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../www/serve.mjs";
import { launchBrowser } from "../tests/support/browser.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const caseName = option("case");
if (!caseName) {
  console.error('usage: node bench/profile.mjs --case NAME [--size 10000] [--reps 20] [--callers NAME] [--core]');
  process.exit(2);
}
const size = Number(option("size", 10000));
const reps = Number(option("reps", 20));
const callers = option("callers");
const raw = args.includes("--core")
  ? "target/core/wasm32-unknown-unknown/release/chat_display.wasm"
  : "target/wasm32-unknown-unknown/release/chat_display.wasm";

const scratch = mkdtempSync(join(tmpdir(), "chat-display-profile-"));
try {
  // The named copy (scripts/wasm-opt.sh's named_build, as size.sh makes it for twiggy).
  execFileSync("bash", ["-c", `set -euo pipefail
    export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
    source scripts/wasm-opt.sh
    named_build "$1/build" "$2"`, "profile", scratch, raw], { cwd: root, stdio: "inherit" });
  writeFileSync(join(scratch, "page.mjs"), `
import init, * as cd from "/build/chat_display.js";
import { casesFor } from "/bench/cases.mjs";
await init();
const c = casesFor(cd, ${size}).find((c) => c.name.startsWith(${JSON.stringify(caseName)}));
if (!c) throw new Error("no case starts with " + ${JSON.stringify(caseName)});
window.go = (n) => { for (let i = 0; i < n; i++) c.chatDisplay(); };
window.go(3);
window.ready = true;`);
  writeFileSync(join(scratch, "page.html"),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/page.mjs"></script>`);

  const { server, url } = await startServer({
    port: 0,
    mounts: [["/build/", join(scratch, "build")], ["/bench/", join(root, "bench")], ["/", scratch]],
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(`${url}page.html`);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 120000 }).catch((e) => {
      throw new Error(`${e.message}\n${problems.join("\n")}`);
    });
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    const start = Date.now();
    await page.evaluate((n) => window.go(n), reps);
    const perCall = (Date.now() - start) / reps;
    const { profile } = await cdp.send("Profiler.stop");
    report(profile, perCall);
  } finally {
    await browser.close();
    server.close();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function report(profile, perCall) {
  const name = (node) => (node.callFrame.functionName || "(anonymous)").replace(/::h[0-9a-f]{16}$/, "");
  const selfTime = new Map();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const own = new Map(), inclusive = new Map(), callerTime = new Map();
  for (const node of profile.nodes) {
    own.set(name(node), (own.get(name(node)) ?? 0) + (selfTime.get(node.id) ?? 0));
  }
  // Inclusive time: each node's subtree, added to a name only where no caller has that name.
  const visit = (node, above, parent) => {
    const key = name(node);
    if (callers && key.includes(callers)) {
      const by = parent ? name(parent) : "(none)";
      callerTime.set(by, (callerTime.get(by) ?? 0) + (selfTime.get(node.id) ?? 0));
    }
    const fresh = !above.has(key);
    if (fresh) above.add(key);
    let sum = selfTime.get(node.id) ?? 0;
    for (const child of node.children ?? []) sum += visit(byId.get(child), above, node);
    if (fresh) {
      above.delete(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
    }
    return sum;
  };
  visit(profile.nodes[0], new Set(), null);
  const table = (title, map, rows) => {
    console.log(`\n${title}:`);
    for (const [key, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
      console.log(`${(100 * t / total).toFixed(1).padStart(5)}%  ${key.slice(0, 160)}`);
    }
  };
  console.log(`${caseName} (${size} messages): ${perCall.toFixed(1)} ms a call, ${reps} calls profiled`);
  table("self time", own, 40);
  table("inclusive time", inclusive, 40);
  if (callers) table(`callers of ${callers} (self time)`, callerTime, 20);
}
