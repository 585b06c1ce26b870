// Builds side by side in one Node process, for a change or a bisect in Node (bench/ab.mjs does the
// same in Chromium):
//
//   node [--single-threaded] bench/ab-node.mjs [--cpu] [--rounds 60] [--size 10000] DIR...
//
// Each DIR is a tree with the package's js/ and pkg/node/ (a worktree after scripts/build.sh, or
// a copy of those two folders from one). Every build's toDisplayMessages must give the baseline's
// output; then each round calls every build's and the baseline's once, in an order that rotates
// each round, on the same generated conversation. Prints each build's median and minimum time,
// and the median of its per-round ratio to the baseline. --cpu times CPU time
// (process.cpuUsage, every thread) instead of the time that passes; with node --single-threaded,
// V8 compiles and collects garbage on the one thread, so that the figure is the call's own work,
// which other processes on a busy machine move least. Issue 45's bisect ran this way at load 2 to
// 10: a7d087f's median moved between 29 and 37 ms from run to run, but builds timed in one run
// kept their order, where bench/run.mjs's table ratio for one build moved from 1.66 to 2.67
// between processes.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import os from "node:os";
import { conversation } from "./generate.mjs";
import * as baseline from "./baseline.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args.splice(at, 2)[1];
};
const cpu = args.includes("--cpu");
if (cpu) args.splice(args.indexOf("--cpu"), 1);
const rounds = Number(option("rounds", 60));
const size = Number(option("size", 10000));
if (args.length === 0) {
  console.error("usage: node [--single-threaded] bench/ab-node.mjs [--cpu] [--rounds 60] [--size 10000] DIR...");
  process.exit(2);
}

const require = createRequire(import.meta.url);
const messages = conversation(size);
const builds = args.map((dir) => ({ name: dir, cd: require(resolve(dir, "js/node.cjs")) }));
const want = JSON.stringify(baseline.toDisplayMessages(messages));
for (const b of builds) {
  if (JSON.stringify(b.cd.toDisplayMessages(messages)) !== want) throw new Error(`${b.name}: not the baseline's output`);
}
const runs = [
  ...builds.map((b) => ({ name: b.name, run: () => b.cd.toDisplayMessages(messages) })),
  { name: "baseline", run: () => baseline.toDisplayMessages(messages) },
];
for (let i = 0; i < 5; i++) runs.forEach((r) => r.run());
const times = new Map(runs.map((r) => [r.name, []]));
const load = os.loadavg()[0];
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < runs.length; k++) {
    const r = runs[(k + round) % runs.length];
    if (cpu) {
      const start = process.cpuUsage();
      r.run();
      const { user, system } = process.cpuUsage(start);
      times.get(r.name).push((user + system) / 1000);
    } else {
      const start = performance.now();
      r.run();
      times.get(r.name).push(performance.now() - start);
    }
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
const base = times.get("baseline");
console.log(`toDisplayMessages of ${size} messages, ${rounds} rounds, ${cpu ? "CPU time" : "time"}` +
  `${process.execArgv.length ? ` (node ${process.execArgv.join(" ")})` : ""}, load ${load.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)}`);
console.log(`  baseline: ${median(base).toFixed(1)} ms (min ${Math.min(...base).toFixed(1)})`);
for (const b of builds) {
  const t = times.get(b.name);
  const ratio = median(t.map((x, i) => x / base[i]));
  console.log(`  ${b.name}: ${median(t).toFixed(1)} ms (min ${Math.min(...t).toFixed(1)}), ${ratio.toFixed(2)} times the baseline`);
}
