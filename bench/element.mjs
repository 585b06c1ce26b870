// The benchmark of chat-display/element (issue 34's targets), part of `npm run bench` (not of
// `npm test`): <chat-transcript> from pkg/element/index.js in headless Chromium (Debian's, through
// playwright-core), on conversations from bench/generate.mjs, measured inside the page
// (bench/element-bench.js: performance.now, requestAnimationFrame, ResizeObserver, long animation
// frames). Each run of a case gets a fresh page; a case's figure is the median of its runs. Each
// run is also traced (the renderer's top-level tasks, with thread time), so that beside each wall
// time stands the main thread's CPU time: on a machine shared with other work the two differ.
//
// 1. load(bytes) to the first records painted, and to load resolving: 10,000 and 100,000 messages.
// 2. The most elements in the element's shadow root: after load, through a scroll over the whole
//    conversation, after scrollToRecord and after find / findNext / findPrevious.
// 3. find(query) + findNext() until the first hit's row is painted in view: a common word and a
//    rare phrase, at each size, loaded from bytes, from the top, `--settle` ms (2,000) after load
//    resolved. Then two words typed one letter at a time ("typing"): per letter, find(prefix) +
//    findNext() in one task, and the longest main-thread task until the hit is painted.
// 4. Frame intervals while the .scroller moves a fixed step in every frame.
// 5. An 81 KB streamed tool argument (bench/stream.mjs's write_file case) pushed through a
//    StreamAccumulator and applyPatches, a few events an animation frame.
// 6. pkg/element/index.js minified and gzipped (level 9), split by library with esbuild's
//    source map.
//
//   node bench/element.mjs [--runs 5] [--cases paint,elements,find,typing,scroll,stream,size] [--renderers]
//                          [--sizes 10000,100000] [--settle 2000] [--pkg DIR] [--element DIR]
//                          [--json FILE] [--from FILE] [--source DIR]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, cpus, loadavg, totalmem } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { conversation } from "./generate.mjs";
import { workerScript } from "../scripts/worker-script.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const RUNS = Number(option("runs", 5));
/** `--renderers`: every case with app renderers set (issue 42): one on every text row, wrapping
 * the default, and one tool's own card. */
const RENDERERS = args.includes("--renderers");
const cases = new Set(option("cases", "paint,elements,find,typing,scroll,stream,size").split(","));
const sizes = option("sizes", "10000,100000").split(",").map(Number);
/** The find queries: a word in about a third of the records, and a phrase in 29 of 18,004. */
const COMMON = "the";
const RARE = "über 東京";
/** The queries typed one letter at a time (issue 45: no keystroke blocks the page over 50 ms). */
const TYPED = ["token", "naïve"];
/** How long the find and typing cases wait after load resolves before the first query (a reader
 * searches once the page has settled; the element makes the search text meanwhile). */
const SETTLE = Number(option("settle", 2000));
const SCROLL_STEP = 200;
const SCROLL_FRAMES = 300;
const STREAM_PER_FRAME = 4;
/** The element's own code and CSS, gzipped (issue 45: each library it bundles is named beside it). */
const BUDGET = 16 * 1024;
const VIEWPORT = { width: 1280, height: 800 };
/** The package served: pkg/, or (`--pkg DIR`) another build of the whole of it (its web/, core/web/,
 * display/web/ and element/: a copy of pkg/ built from other sources, to measure a change to the
 * module beside the build before it). */
const pkg = option("pkg", join(root, "pkg"));
/** The element build served as chat-display/element: the package's, or (`--element DIR`) another
 * build of it, to measure a candidate change. */
const element = option("element", join(pkg, "element"));

const log = (line) => console.error(`  element: ${line}`);
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (values, q) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const ms = (x) => (x >= 100 ? `${Math.round(x)}` : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const int = (x) => Math.round(x).toLocaleString("en-US");
const range = (values, f = ms) => (values.length > 1 ? ` (${f(Math.min(...values))}-${f(Math.max(...values))})` : "");
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

function machine() {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? "unknown CPU";
  const cores = cpuinfo.split("\n").filter((l) => l.startsWith("processor")).length || cpus().length;
  return { model, cores, memory: `${Math.round(totalmem() / 2 ** 30)} GiB`, node: process.version };
}

/** The commit the sources are at, and whether js/element/ differs from it (read-only git). */
function source() {
  try {
    const git = (...a) => execFileSync("git", a, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return `commit ${git("rev-parse", "--short", "HEAD")}${git("--no-optional-locks", "status", "--porcelain", "--", "js/element") ? ", js/element/ modified" : ""}`;
  } catch {
    return "no git";
  }
}

// ---------------------------------------------------------------------------------------------
// Size: the bundle built again as scripts/build-element.mjs builds it, with a source map, split
// into the bytes each input made.

/** Decodes a source map's `mappings` into [line, column, source index or -1] segments. */
function segments(mappings) {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const out = [];
  let source = 0;
  mappings.split(";").forEach((line, lineNo) => {
    let column = 0;
    for (const segment of line.split(",")) {
      if (!segment) continue;
      const fields = [];
      let value = 0, shift = 0;
      for (const c of segment) {
        const digit = chars.indexOf(c);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      out.push([lineNo, column, fields.length > 1 ? source : -1]);
    }
  });
  return out;
}

const PARTS = [
  ["marked", (p) => p.includes("node_modules/marked/")],
  ["remend", (p) => p.includes("node_modules/remend/")],
  ["DOMPurify", (p) => p.includes("node_modules/dompurify/")],
  ["@tanstack/virtual-core", (p) => p.includes("node_modules/@tanstack/virtual-core/")],
  ["the element's CSS (js/element/style.css, minified, as a string)", (p) => p.endsWith(".css")],
  ["the element's code (js/element/*.js)", (p) => p.includes("js/element/")],
];
const partOf = (path) => PARTS.find(([, test]) => test(path))?.[0] ?? "esbuild's glue and the chat-display import";

async function size() {
  const { build, transform } = await import("esbuild");
  const shipped = readFileSync(join(root, "pkg/element/index.js"));
  const result = await build({
    entryPoints: [join(option("source", join(root, "js/element")), "index.js")],
    outdir: join(root, "pkg/element"), entryNames: "[name]", chunkNames: "[name]-[hash]", splitting: true,
    write: false, metafile: true, sourcemap: "external",
    bundle: true, format: "esm", platform: "browser", target: ["es2022"], minify: true, legalComments: "eof",
    external: ["chat-display"], logLevel: "warning",
    plugins: [workerScript, {
      name: "css-text",
      setup(b) {
        // The libraries' own source maps dropped, so that the map names their shipped files
        // (chained through them, the bytes their maps leave out went to the module before).
        b.onLoad({ filter: /node_modules[\\/].*\.m?js$/ }, ({ path }) =>
          ({ contents: readFileSync(path, "utf8").replace(/^\/\/# sourceMappingURL=.*$/gm, ""), loader: "js" }));
        b.onLoad({ filter: /\.css$/ }, async ({ path }) => {
          const { code } = await transform(readFileSync(path, "utf8"), { loader: "css", minify: true, target: ["chrome123", "firefox120", "safari17.5"] });
          return { contents: code, loader: "text" };
        });
      },
    }],
  });
  const js = result.outputFiles.find((f) => f.path.endsWith("/index.js"));
  const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith("/index.js.map")).text);
  // The chunks index.js fetches on first need (the highlighter, the typesetter, the streaming part,
  // the reader, what they share).
  const lazy = result.outputFiles.filter((f) => f.path.endsWith(".js") && !f.path.endsWith("/index.js")).map((f) => ({
    name: f.path.split("/").pop(), minified: f.contents.length, gzip: gzipSync(Buffer.from(f.contents), { level: 9 }).length,
  }));
  const code = Buffer.from(js.contents);
  const identical = code.equals(shipped);
  // Byte offsets of each line start (the map's columns count UTF-16 units; the text is split as a
  // string and each part encoded as UTF-8 at the end).
  const text = js.text;
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const segs = segments(map.mappings).map(([line, column, source]) => [lineStarts[line] + column, source]);
  const pieces = new Map();
  const add = (part, s) => pieces.set(part, (pieces.get(part) ?? "") + s);
  let at = 0;
  let current = "esbuild's glue and the chat-display import";
  const legal = text.indexOf("/*! Bundled license information:");
  const end = legal >= 0 ? legal : text.length;
  for (const [offset, source] of segs) {
    if (offset >= end) break;
    add(current, text.slice(at, offset));
    current = source >= 0 ? partOf(map.sources[source]) : "esbuild's glue and the chat-display import";
    at = offset;
  }
  add(current, text.slice(at, end));
  // The license comments esbuild gathers at the end: each library's entry goes to its library.
  if (legal >= 0) {
    const block = text.slice(legal);
    const entries = [...block.matchAll(/^([^\s(][^\n]*):\n/gm)].slice(0);
    let from = 0;
    for (let k = 0; k <= entries.length; k++) {
      const to = k < entries.length ? entries[k].index : block.length;
      const owner = k === 0 ? "esbuild's glue and the chat-display import" : partOf(`node_modules/${entries[k - 1][1]}`);
      add(k === 0 || !PARTS.some(([name]) => name === owner) ? "esbuild's glue and the chat-display import" : owner, block.slice(from, to));
      from = to;
    }
  }
  const total = { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
  const parts = [...PARTS.map(([name]) => name), "esbuild's glue and the chat-display import"].map((name) => {
    const bytes = Buffer.from(pieces.get(name) ?? "", "utf8");
    return { name, minified: bytes.length, gzip: bytes.length ? gzipSync(bytes, { level: 9 }).length : 0 };
  });
  const split = parts.reduce((s, p) => s + p.minified, 0);
  // esbuild's own count of each input's bytes in the output, summed by part, as a check.
  const inputs = Object.values(result.metafile.outputs).find((o) => o.entryPoint)?.inputs ?? {};
  const metafile = {};
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) metafile[partOf(path)] = (metafile[partOf(path)] ?? 0) + bytesInOutput;
  return { identical, total, parts, split, metafile, lazy, shippedMinified: shipped.length, shippedGzip: gzipSync(shipped, { level: 9 }).length };
}

// ---------------------------------------------------------------------------------------------
// The browser.

async function main() {
  // `--from FILE`: the report of an earlier run's `--json` output, nothing measured.
  const from = option("from");
  if (from) {
    console.log(report(JSON.parse(readFileSync(from, "utf8"))));
    return;
  }
  const started = new Date();
  const info = machine();
  const loads = { start: load() };
  console.log(`\nchat-display/element (issue 34): ${started.toISOString()}; ${info.model} x ${info.cores}; load ${loads.start}`);
  const served = readFileSync(join(element, "index.js"));
  const build = { path: relative(root, element) || element, bytes: served.length, sha256: createHash("sha256").update(served).digest("hex").slice(0, 12), source: source() };
  const results = { date: started.toISOString(), machine: info, runs: RUNS, build, sizes };

  if (cases.has("size")) {
    results.size = await size();
    log(`size: ${results.size.shippedGzip} bytes gzipped`);
  }

  const browserCases = ["paint", "elements", "find", "typing", "scroll", "stream"].filter((c) => cases.has(c));
  if (browserCases.length) {
    const { startServer } = await import("../www/serve.mjs");
    const { launchBrowser } = await import("../tests/support/browser.mjs");
    const data = mkdtempSync(join(tmpdir(), "chat-display-element-bench-"));
    const files = {};
    for (const n of sizes) {
      const json = JSON.stringify(conversation(n));
      writeFileSync(join(data, `${n}.json`), json);
      files[n] = { url: `/data/${n}.json`, bytes: Buffer.byteLength(json) };
      log(`${n} messages: ${Buffer.byteLength(json)} bytes of JSON`);
    }
    const mounts = [
      ["/pkg/", join(pkg, "web")],
      ["/pkg-core/", join(pkg, "core", "web")],
      ["/pkg-display/", join(pkg, "display", "web")],
      ["/element/", element],
      ["/www/", join(root, "www")],
      ["/bench/", join(root, "bench")],
      ["/data/", data],
      ["/", join(root, "bench")],
    ];
    const { server, url } = await startServer({ port: 0, mounts });
    const browser = await launchBrowser();
    /** One run: a fresh page, `elementBench[name](...params)` in it. */
    const run = async (name, ...params) => {
      const problems = [];
      const page = await browser.context.newPage();
      page.on("pageerror", (e) => problems.push(String(e)));
      page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
      try {
        await page.setViewportSize(VIEWPORT);
        await page.goto(`${url}element-bench.html${RENDERERS ? "?renderers" : ""}`);
        await page.waitForSelector("body[data-ready]", { timeout: 60000 });
        results.chromium ??= await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent);
        // The renderer's top-level tasks and the page's marks, with thread (CPU) time: on a busy
        // machine the wall time of a frame also holds the time the thread waited for a core.
        const cdp = await page.context().newCDPSession(page);
        const events = [];
        cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
        await cdp.send("Tracing.start", { categories: "toplevel,blink.user_timing", transferMode: "ReportEvents" });
        const result = await page.evaluate(([n, p]) => window.elementBench[n](...p), [name, params]);
        const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
        await cdp.send("Tracing.end");
        await complete;
        const windows = cpuWindows(events);
        if (name === "typing") result.flatMap((q) => q.letters).forEach((r, i) => { r.cpu = windows[i] ?? null; });
        else if (Array.isArray(result)) result.forEach((r, i) => { r.cpu = windows[i] ?? null; });
        else result.cpu = windows[0] ?? null;
        return result;
      } catch (error) {
        throw new Error(`${name}: ${error.message}\n${problems.join("\n")}`);
      } finally {
        await page.close();
      }
    };
    const repeat = async (label, times, name, ...params) => {
      const out = [];
      for (let i = 0; i < times; i++) {
        out.push(await run(name, ...params));
        log(`${label} ${i + 1}/${times}: ${summaryLine(name, out.at(-1))}`);
      }
      return out;
    };
    try {
      if (cases.has("paint")) {
        results.paint = {};
        for (const n of sizes) {
          loads[`paint ${n}`] = load();
          results.paint[n] = await repeat(`first paint, ${n}`, RUNS, "firstPaint", files[n].url);
        }
      }
      if (cases.has("elements")) {
        results.elements = {};
        for (const n of sizes) {
          loads[`elements ${n}`] = load();
          results.elements[n] = await repeat(`elements, ${n}`, Math.min(RUNS, 3), "elementCount", files[n].url, { queries: [COMMON, RARE] });
        }
      }
      if (cases.has("find")) {
        results.find = {};
        for (const n of sizes) {
          loads[`find ${n}`] = load();
          // Both orders, so that neither query always pays for what the first search sets up.
          const a = await repeat(`find ${n}, common first`, Math.ceil(RUNS / 2), "find", files[n].url, [COMMON, RARE], { wait: SETTLE });
          const b = await repeat(`find ${n}, rare first`, Math.floor(RUNS / 2) || 1, "find", files[n].url, [RARE, COMMON], { wait: SETTLE });
          results.find[n] = [...a, ...b];
        }
      }
      if (cases.has("typing")) {
        results.typing = {};
        for (const n of sizes) {
          loads[`typing ${n}`] = load();
          results.typing[n] = await repeat(`typing ${n}`, RUNS, "typing", files[n].url, TYPED, { wait: SETTLE });
        }
      }
      if (cases.has("scroll")) {
        results.scroll = {};
        for (const n of sizes) {
          loads[`scroll ${n}`] = load();
          results.scroll[n] = await repeat(`scroll, ${n}`, RUNS, "scroll", files[n].url, { step: SCROLL_STEP, count: SCROLL_FRAMES });
        }
      }
      if (cases.has("stream")) {
        loads.stream = load();
        results.stream = {
          collapsed: await repeat("stream, collapsed", RUNS, "stream", { perFrame: STREAM_PER_FRAME }),
          expanded: await repeat("stream, expanded", Math.min(RUNS, 3), "stream", { perFrame: STREAM_PER_FRAME, expand: true }),
        };
      }
    } finally {
      await browser.close();
      server.close();
      rmSync(data, { recursive: true, force: true });
    }
    results.files = files;
  }
  loads.end = load();
  results.loads = loads;
  results.seconds = (Date.now() - started) / 1000;
  console.log(`\n${report(results)}`);
  const out = option("json");
  if (out) writeFileSync(out, JSON.stringify(results, null, 2));
}

/**
 * The stretches between the page's "cd-start" and "cd-end" marks: wall and main-thread CPU time
 * (the marks' thread timestamps), and the main thread's top-level tasks in each (a frame's
 * requestAnimationFrame callbacks, style, layout and paint run in one such task): the longest by
 * CPU and by wall time, and how many took over 20 ms of each.
 */
function cpuWindows(events) {
  const marks = events.filter((e) => e.cat?.includes("blink.user_timing") && (e.name === "cd-start" || e.name === "cd-end")).sort((a, b) => a.ts - b.ts);
  if (!marks.length) return [];
  const { pid, tid } = marks[0];
  const tasks = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.name === "ThreadControllerImpl::RunTask");
  const windows = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    if (marks[i].name !== "cd-start" || marks[i + 1].name !== "cd-end") continue;
    const [a, b] = [marks[i], marks[i + 1]];
    const inside = tasks.filter((e) => e.ts + e.dur > a.ts && e.ts < b.ts);
    windows.push({
      wall: (b.ts - a.ts) / 1000,
      cpu: a.tts !== undefined && b.tts !== undefined ? (b.tts - a.tts) / 1000 : null,
      longestCpu: inside.reduce((m, e) => Math.max(m, (e.tdur ?? 0) / 1000), 0),
      longestWall: inside.reduce((m, e) => Math.max(m, e.dur / 1000), 0),
      overCpu: inside.filter((e) => (e.tdur ?? 0) > 20000).length,
      overWall: inside.filter((e) => e.dur > 20000).length,
      tasks: inside.length,
    });
  }
  return windows;
}

function summaryLine(name, r) {
  if (name === "firstPaint") return `painted ${ms(r.painted)} ms, in DOM ${ms(r.inDom)} ms, resolved ${ms(r.resolved)} ms (${r.counts.records} records)`;
  if (name === "elementCount") return `max ${r.overall} ${JSON.stringify(r.max)}`;
  if (name === "find") return r.map((f) => `${JSON.stringify(f.query)}: ${f.hits} hits, find ${ms(f.find)} ms, painted ${ms(f.painted)} ms`).join("; ");
  if (name === "typing") return r.map((q) => `${JSON.stringify(q.query)}: ${q.letters.map((l) => `${ms(l.handler)}/${ms(l.cpu?.longestWall ?? NaN)}/${ms(l.painted)}`).join(" ")} ms (handler/longest task/painted)`).join("; ");
  const i = intervals(r.stamps);
  return `frames ${i.length}, interval p95 ${ms(quantile(i, 0.95))} max ${ms(Math.max(...i))} ms, work p95 ${ms(quantile(r.work, 0.95))} ms, long frames ${r.longFrames.count}`;
}

/** The longest long animation frame of all runs, taken apart. */
function worstFrame(perRun) {
  const w = perRun.map((p) => p.long.worst).filter(Boolean).sort((a, b) => b.duration - a.duration)[0];
  if (!w) return "";
  return ` (of it: scripts ${ms(w.scripts)} ms, with ${ms(w.forcedLayout)} ms of style and layout they forced; rendering ${ms(w.render)} ms, ` +
    `style and layout in it ${ms(w.styleAndLayout)} ms; longest scripts: ${w.top.join(", ") || "none"})`;
}

const intervals = (stamps) => stamps.slice(1).map((s, i) => s - stamps[i]);
const met = (ok) => (ok ? "met" : "**missed**");

/** The results as Markdown: the table against the targets, then the details. */
function report(r) {
  const small = Math.min(...(r.sizes ?? sizes));
  const rows = [];
  const detail = [];
  const runsOf = (list) => `${list.length} run${list.length === 1 ? "" : "s"}`;
  const cpuOf = (list) => {
    const cpu = list.map((x) => x.cpu?.cpu).filter((x) => typeof x === "number");
    return cpu.length ? `${ms(median(cpu))} ms${range(cpu)}` : "—";
  };
  if (r.paint) {
    for (const [n, list] of Object.entries(r.paint)) {
      const painted = list.map((x) => x.painted);
      const target = Number(n) >= 100000 ? 2000 : 300;
      rows.push([`load(bytes) to first records painted`, `${int(n)} messages (${(list[0].bytes / 1e6).toFixed(1)} MB, ${int(list[0].counts.records)} records)`,
        `${ms(median(painted))} ms${range(painted)}, ${runsOf(list)}`, cpuOf(list), `≤ ${int(target)} ms`, met(median(painted) <= target)]);
      const resolved = list.map((x) => x.resolved);
      rows.push([`load(bytes) resolves (messages counted)`, `${int(n)} messages`, `${ms(median(resolved))} ms${range(resolved)}`, "", "—", "—"]);
      detail.push(`- ${int(n)} messages: Transcript.${list[0].parser} inside load ${ms(median(list.map((x) => x.parse)))} ms, the first rows in the DOM at ` +
        `${ms(median(list.map((x) => x.inDom)))} ms, painted at ${ms(median(painted))} ms (${list[0].rows} rows in view), load resolved at ${ms(median(resolved))} ms.`);
    }
  }
  if (r.elements) {
    for (const [n, list] of Object.entries(r.elements)) {
      const overall = Math.max(...list.map((x) => x.overall));
      const phases = {};
      for (const x of list) for (const [k, v] of Object.entries(x.max)) phases[k] = Math.max(phases[k] ?? 0, v);
      rows.push([`most elements in the shadow root`, `${int(n)} messages`, `${int(overall)} (most of ${runsOf(list)})`, "", "≤ 3,000", met(overall <= 3000)]);
      detail.push(`- elements, ${int(n)} messages, the most in each phase: ${Object.entries(phases).map(([k, v]) => `${k} ${int(v)}`).join(", ")} ` +
        `(find: ${Object.entries(list[0].hits).map(([q, h]) => `${JSON.stringify(q)} ${int(h)} hits`).join(", ")}); scroll height at the end ${int(list[0].scrollHeight)} px.`);
    }
  }
  if (r.find) {
    // (Before 2026-12-06 the find case ran at the smallest size only: an array of runs.)
    const bySize = Array.isArray(r.find) ? { [small]: r.find } : r.find;
    for (const [n, runs] of Object.entries(bySize)) {
      const target = Number(n) >= 100000 ? 100 : 50;
      for (const query of [COMMON, RARE]) {
        const list = runs.flatMap((run) => run.filter((f) => f.query === query));
        const painted = list.map((f) => f.painted);
        rows.push([`find(${JSON.stringify(query)}) + findNext() to the hit's row painted`, `${int(n)} messages, loaded from bytes`,
          `${ms(median(painted))} ms${range(painted)}, ${runsOf(list)}`, cpuOf(list), `≤ ${target} ms`, met(median(painted) <= target)]);
        detail.push(`- find ${JSON.stringify(query)}, ${int(n)} messages: ${int(list[0].hits)} hits, the first in record ${list[0].record}; find() itself ${ms(median(list.map((f) => f.find)))} ms ` +
          `(Transcript.search in it ${ms(median(list.map((f) => f.search)))} ms), findNext() ${ms(median(list.map((f) => f.findNext)))} ms, painted at ${ms(median(painted))} ms.`);
      }
    }
  }
  if (r.typing) {
    for (const [n, runs] of Object.entries(r.typing)) {
      for (const query of TYPED) {
        const per = runs.map((run) => run.find((q) => q.query === query)).filter(Boolean);
        if (!per.length) continue;
        // The page is blocked for the longest main-thread task in a keystroke's stretch (its
        // handler's, or a frame's), by wall time; the handler's own time beside it.
        const worst = per.map((q) => Math.max(...q.letters.map((l) => l.cpu?.longestWall ?? l.handler)));
        const worstCpu = per.map((q) => Math.max(...q.letters.map((l) => l.cpu?.longestCpu ?? NaN)));
        const handlers = per.map((q) => Math.max(...q.letters.map((l) => l.handler)));
        rows.push([`${JSON.stringify(query)} typed letter by letter: longest task a keystroke`, `${int(n)} messages, loaded from bytes`,
          `${ms(median(worst))} ms${range(worst)}, ${runsOf(per)}`, `longest task ${ms(median(worstCpu))} ms${range(worstCpu)}; the handler's wall time ${ms(median(handlers))} ms`, "≤ 50 ms", met(median(worst) <= 50)]);
        const letters = per[0].letters.map((l, k) => {
          const at = per.map((q) => q.letters[k]);
          return `${JSON.stringify(l.prefix)} ${int(l.hits)} hits: handler ${ms(median(at.map((x) => x.handler)))} ms (search ${ms(median(at.map((x) => x.search)))}), ` +
            `longest task ${ms(median(at.map((x) => x.cpu?.longestWall ?? NaN)))} ms, painted at ${ms(median(at.map((x) => x.painted)))} ms`;
        });
        detail.push(`- typing ${JSON.stringify(query)}, ${int(n)} messages, medians a letter: ${letters.join("; ")}.`);
      }
    }
  }
  const frameRows = (label, n, list, what, target) => {
    const perRun = list.map((x) => {
      const i = intervals(x.stamps);
      return { p95: quantile(i, 0.95), max: Math.max(...i), p50: median(i), over: i.filter((v) => v > 20).length, work95: quantile(x.work, 0.95), workMax: Math.max(...x.work), frames: i.length,
        script95: quantile(x.scripts, 0.95), long: x.longFrames, cpu: x.cpu };
    });
    const value = perRun.map(target.pick);
    const cpuLongest = perRun.map((p) => p.cpu?.longestCpu).filter((x) => typeof x === "number");
    rows.push([label, n, `${ms(median(value))} ms${range(value)}, ${runsOf(list)}`,
      cpuLongest.length ? `longest task ${ms(median(cpuLongest))} ms${range(cpuLongest)}` : "—", target.text, met(median(value) <= target.limit)]);
    detail.push(`- ${label}, ${n}: ${perRun[0].frames} frames a run; frame interval median ${ms(median(perRun.map((p) => p.p50)))} ms, ` +
      `p95 ${ms(median(perRun.map((p) => p.p95)))} ms${range(perRun.map((p) => p.p95))}, longest ${ms(median(perRun.map((p) => p.max)))} ms${range(perRun.map((p) => p.max))}; ` +
      `intervals over 20 ms a run: ${perRun.map((p) => p.over).join(", ")}; ` +
      `main-thread tasks over 20 ms a run, by wall time: ${perRun.map((p) => p.cpu?.overWall ?? "?").join(", ")}, by CPU time: ${perRun.map((p) => p.cpu?.overCpu ?? "?").join(", ")} ` +
      `(longest by wall ${ms(median(perRun.map((p) => p.cpu?.longestWall ?? 0)))} ms, by CPU ${ms(median(cpuLongest))} ms); ` +
      `the main thread's CPU time a frame, on average: ${perRun.map((p) => (p.cpu ? ms(p.cpu.cpu / p.frames) : "?")).join(", ")} ms; ` +
      `from a frame's timestamp to the end of its rendering p95 ${ms(median(perRun.map((p) => p.work95)))} ms; ` +
      `the bench's own rAF callback (${what}) p95 ${ms(median(perRun.map((p) => p.script95)))} ms; ` +
      `${perRun[0].long.type ?? "no long-frame API"} entries (over 50 ms) a run: ${perRun.map((p) => p.long.count).join(", ")}` +
      `${perRun.some((p) => p.long.count) ? `, longest ${ms(Math.max(...perRun.map((p) => p.long.max)))} ms${worstFrame(perRun)}` : ""}.`);
  };
  if (r.scroll) {
    for (const [n, list] of Object.entries(r.scroll)) {
      frameRows(`scroll ${SCROLL_STEP} px a frame for ${SCROLL_FRAMES} frames: frame interval p95`, `${int(n)} messages${Number(n) === small ? "" : " (beyond the issue's case)"}`, list,
        "the scrollTop step", { text: "≤ 20 ms", limit: 20, pick: (p) => p.p95 });
      detail.push(`  Scrolled ${int(median(list.map((x) => x.scrolled)))} px of ${int(list[0].scrollHeight)}.`);
    }
  }
  if (r.stream) {
    const { collapsed, expanded } = r.stream;
    const s = collapsed[0];
    const label = `81 KB tool argument streamed, ${STREAM_PER_FRAME} pushes a frame: longest frame interval`;
    frameRows(label, "tool call collapsed (as it shows)", collapsed, `${STREAM_PER_FRAME} pushes + applyPatches`, { text: "≤ 20 ms (every frame)", limit: 20, pick: (p) => p.max });
    frameRows(label, "tool call expanded by the reader", expanded, `${STREAM_PER_FRAME} pushes + applyPatches`, { text: "≤ 20 ms (every frame)", limit: 20, pick: (p) => p.max });
    const pushes = collapsed.flatMap((x) => x.pushes);
    detail.push(`  The stream: ${int(s.bytes)} bytes of arguments in ${int(s.events)} SSE events; one push + applyPatches: median ${ms(median(pushes))} ms, ` +
      `p95 ${ms(quantile(pushes, 0.95))} ms, longest ${ms(Math.max(...pushes))} ms; the element's records at the end equal the source arguments and the stream ended: ` +
      `${[...collapsed, ...expanded].every((x) => x.same && x.done)}; elements at the end: ${collapsed[0].elements} collapsed, ${expanded[0].elements} expanded.`);
  }
  if (r.size) {
    const z = r.size;
    rows.push(["pkg/element/index.js, minified + gzip -9", "element JS + CSS + marked + DOMPurify + virtual-core",
      `${int(z.shippedGzip)} B (${(z.shippedGzip / 1024).toFixed(1)} KB; ${int(z.shippedMinified)} B minified)`, "", "—", "—"]);
    for (const p of z.parts) {
      const own = p.name.startsWith("the element's");
      rows.push([`  of which ${p.name}`, "gzipped alone", `${int(p.gzip)} B (${int(p.minified)} B minified)`, "", own && p.name.includes("code") ? "own code + CSS ≤ 16 KB" : "—", "—"]);
    }
    const own = z.parts.filter((p) => p.name.startsWith("the element's")).reduce((sum, p) => sum + p.gzip, 0);
    rows.push(["the element's own code and CSS", "the two parts above, gzipped alone", `${int(own)} B (${(own / 1024).toFixed(1)} KB)`, "", `≤ 16 KB (${int(BUDGET)} B)`, met(own <= BUDGET)]);
    const LAZY = {
      highlight: "the highlighter's worker: highlight.js, 17 languages, as a script's text; and its colours (js/element/highlight.js, highlight-worker.js, highlight.css)",
      highlighter: "highlight.js, 17 languages, for the page where no worker can start (js/element/highlighter.js)",
      math: "Temml (js/element/math.js)",
      stream: "remend and the streaming healer and grouping (js/element/stream.js), on a page that streams",
      input: "the reader of `load` and `src` (js/element/input.js)",
    };
    for (const c of z.lazy ?? []) rows.push([`pkg/element/${c.name}, loaded on first need`, LAZY[c.name.split("-")[0]] ?? "shared by the chunks", `${int(c.gzip)} B (${int(c.minified)} B minified)`, "", "—", "—"]);
    detail.push(`- size: the bundle rebuilt with build-element.mjs's options and a source map ${z.identical ? "(byte for byte the shipped file)" : "(**not** the same bytes as pkg/element/index.js: that file is from other sources; the parts are of the rebuild)"}; ` +
      `each byte of the minified output goes to the input its source-map segment names (esbuild's license comments at the end to their library), ` +
      `each part gzipped alone: the parts sum to ${int(z.parts.reduce((sum, p) => sum + p.gzip, 0))} B gzipped against ${int(z.total.gzip)} B for the whole. ` +
      `esbuild's metafile (bytesInOutput, without the license comments): ${Object.entries(z.metafile).map(([k, v]) => `${k.split(" (")[0]} ${int(v)}`).join(", ")}.`);
  }
  const head = `| measure | case | result (median; range of runs) | main thread's CPU time (median) | target | |\n|---|---|---|---|---|---|\n`;
  const table = head + rows.map((row) => `| ${row.join(" | ")} |`).join("\n");
  const m = r.machine;
  const machineLine = `${r.date}; ${m.model}, ${m.cores} cores, ${m.memory}; Node ${m.node}; ${r.chromium ?? "Chromium not run"} (Debian's, headless, --disable-gpu); ` +
    `viewport ${VIEWPORT.width}x${VIEWPORT.height}; the element: ${r.build.path}/index.js, ${int(r.build.bytes)} bytes, sha256 ${r.build.sha256}${r.build.source ? ` (sources at ${r.build.source})` : ""}; load average (1, 5, 15 min) ` +
    `${Object.entries(r.loads).map(([k, v]) => `${k}: ${v}`).join("; ")}; ` +
    `${r.runs} runs a case (3 for the element counts and the expanded stream), a fresh page each; the bench took ${Math.round(r.seconds)} s.`;
  return `${machineLine}\n\n${table}\n\n${detail.join("\n")}`;
}

await main();
