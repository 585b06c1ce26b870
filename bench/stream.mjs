// The stream benchmark of `npm run bench` (issue 10), in Node and in headless Chromium:
//
// 1. An 81 KB `write_file` tool-argument JSON streamed as an Anthropic SSE stream in about 2,000
//    `input_json_delta` events. chat-display (a new StreamAccumulator a run, one push an event,
//    the patches applied to an array) against the AI SDK's way (`parsePartialJson` from the `ai`
//    package on the accumulated text after every delta), checked to give the same arguments first.
// 2. Per-push cost on 1 MB messages (a text block in about 10,000 `text_delta`s, a tool argument in
//    about 10,000 fragments): the mean time of a push over the first 100 and the last 100 deltas.
//
//   node bench/stream.mjs [--runtime node|chromium] [--iterations 20] [--json FILE]
//
// The same file runs in the page: `runStreams(cd, Bench, parsePartialJson)` takes its libraries as
// arguments, and the part that drives Node and Chromium runs only when this file is the script.
import { rng } from "./generate.mjs";
// The viewer's own patch application (a new object for each changed record, as a UI does).
import { applyPatches } from "../www/stream.js";

// ---------------------------------------------------------------------------------------------
// Streams, generated from a seed: the same bytes in every runtime.

const CODE_LINES = [
  (n, w) => `export function ${w}${n}(input: string, limit = ${n % 97}): Result<${w}> {`,
  (n, w) => `  const pattern = /^\\s*(\\d+)\\.(\\d+)\\s+"${w}"$/u; // matches 1.2 "${w}"`,
  (n, w) => `\tif (input.includes("\\"${w}\\"") || input === '${w}\\n') return { ok: false, reason: "quoted \\"${w}\\"" };`,
  (n) => `  // café, naïve, Zoë — 日本語のコメント ${n} ✓ 👍🏽 “smart quotes” «guillemets»`,
  (n, w) => `  const table = { "${w}": [${n}, ${-n / 4}, ${n * 1e-3}, true, null], path: "C:\\\\Users\\\\${w}\\\\file.txt" };`,
  (n, w) => `  throw new Error(\`${w} failed after \${attempts} attempts:\\n\\t\${error.message}\`);`,
  () => `}`,
  () => ``,
];

/** A realistic `write_file` argument object of about `bytes` bytes as JSON text (UTF-8). */
export function writeFileArguments(bytes, seed = 10) {
  const next = rng(seed);
  const words = ["parseHeader", "renderRow", "flushQueue", "retryFetch", "mergeDelta", "decodeFrame", "résumé", "données"];
  const options = {
    encoding: "utf-8",
    mode: 420,
    overwrite: true,
    backup: null,
    create_parents: true,
    line_ending: "lf",
    checks: Array.from({ length: 12 }, (_, i) => ({
      rule: `${words[i % words.length]}-rule`,
      level: i % 3,
      ignore: ["_", `tmp${i}`, "vendor/**"],
      ratio: Math.round(next() * 1000) / 1000,
      limits: { max: 10 ** (i % 5), min: -i, scale: i * 2.5e-3 },
    })),
    author: { name: "Zoë Ångström", email: "zoe@example.com", tz: "+01:00" },
    revision: { number: 17, parents: ["4f2a9c1", "b7e03d2"], signed: false, score: -3.25e4 },
  };
  const base = JSON.stringify({ path: "src/stream/partial_json.ts", content: "", options });
  const lines = [];
  let size = new TextEncoder().encode(base).length;
  for (let n = 0; size < bytes; n++) {
    const line = CODE_LINES[Math.floor(next() * CODE_LINES.length)](n, words[n % words.length]);
    lines.push(line);
    // Its JSON text (the quotes stand for the "\n" between lines), with the escapes made below.
    size += new TextEncoder().encode(JSON.stringify(line)).length + 4 * (line.split("é").length - 1) + 3 * (line.split("—").length - 1);
  }
  const args = { path: "src/stream/partial_json.ts", content: lines.join("\n"), options };
  // Some characters as \u escapes, as some servers send them (the value is the same).
  return JSON.stringify(args).replace(/é/g, "\\u00e9").replace(/—/g, "\\u2014");
}

/** Prose with Markdown, non-ASCII letters, CJK and emoji, about `chars` characters long. */
export function longText(chars, seed = 11) {
  const next = rng(seed);
  const words = "the stream arrives in small deltas and each one grows the text a little more while the page renders it café naïve 東京 データ 🙂 ✓ — “quoted”".split(" ");
  const out = [];
  let length = 0;
  for (let n = 0; length < chars; n++) {
    const sentence = Array.from({ length: 6 + Math.floor(next() * 14) }, () => words[Math.floor(next() * words.length)]).join(" ");
    const piece = n % 25 === 0 ? `\n\n## Part ${n / 25 + 1}\n\n` : n % 7 === 0 ? `\n- ${sentence}.` : ` ${sentence[0].toUpperCase()}${sentence.slice(1)}.`;
    out.push(piece);
    length += piece.length;
  }
  return out.join("");
}

/** `text` cut at seeded points into pieces of 1 to `2 * mean - 1` characters, never inside a surrogate pair. */
export function cut(text, mean, seed = 12) {
  const next = rng(seed);
  const pieces = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + 1 + Math.floor(next() * (2 * mean - 1)));
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code < 0xdc00 && end < text.length) end++;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** An Anthropic Messages SSE stream, one string an event, of one block built from `deltas`. */
export function anthropicStream(kind, deltas) {
  const block = kind === "tool_use"
    ? { type: "tool_use", id: "toolu_01BenchWriteFile0000000", name: "write_file", input: {} }
    : { type: "text", text: "" };
  const delta = kind === "tool_use"
    ? (text) => ({ type: "input_json_delta", partial_json: text })
    : (text) => ({ type: "text_delta", text });
  return [
    sse("message_start", { message: { id: "msg_01BenchStream000000000", type: "message", role: "assistant", model: "claude-sonnet-4-5",
      content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1200, output_tokens: 1 } } }),
    sse("content_block_start", { index: 0, content_block: block }),
    ...deltas.map((text) => sse("content_block_delta", { index: 0, delta: delta(text) })),
    sse("content_block_stop", { index: 0 }),
    sse("message_delta", { delta: { stop_reason: kind === "tool_use" ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: deltas.length } }),
    sse("message_stop", {}),
  ];
}

// ---------------------------------------------------------------------------------------------
// The two sides.

/** chat-display: a new accumulator, one push an SSE event, the patches applied. */
function accumulate(cd, events) {
  const stream = new cd.StreamAccumulator("anthropic_messages");
  const records = [];
  for (const event of events) applyPatches(records, stream.push(event));
  return { stream, records };
}

/** The AI SDK's loop: the accumulated argument text parsed by `parsePartialJson` after each delta. */
async function aiSdkLoop(parsePartialJson, deltas) {
  let text = "";
  let value;
  for (const delta of deltas) {
    text += delta;
    ({ value } = await parsePartialJson(text));
  }
  return value;
}

/** The same from the SSE events: each event's data parsed, its `partial_json` added, the text parsed. */
async function aiSdkLoopFromEvents(parsePartialJson, events) {
  let text = "";
  let value;
  for (const event of events) {
    const data = JSON.parse(event.slice(event.indexOf("\ndata: ") + 7));
    if (data.delta?.type !== "input_json_delta") continue;
    text += data.delta.partial_json;
    ({ value } = await parsePartialJson(text));
  }
  return value;
}

function deepEqual(a, b, path = "$") {
  if (Object.is(a, b)) return;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    throw new Error(`${path}: ${JSON.stringify(a)?.slice(0, 80)} is not ${JSON.stringify(b)?.slice(0, 80)}`);
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) throw new Error(`${path}: keys ${keys} against ${Object.keys(b)}`);
  for (const key of keys) deepEqual(a[key], b[key], `${path}.${key}`);
}

// ---------------------------------------------------------------------------------------------
// Timing.

/** Median, median absolute deviation, min, max and sample count of a tinybench task, in ms. */
function summary(task) {
  const latency = task.result?.latency;
  if (!latency) throw new Error(`${task.name}: no result (${task.result?.state}: ${task.result?.error ?? ""})`);
  return { median: latency.p50, mad: latency.mad, min: latency.min, max: latency.max, samples: latency.samplesCount };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The mean time of one push over the first and the last `window` deltas of `events` (timed one
 * push at a time with performance.now()), for `runs` fresh accumulators; the medians of the means.
 */
function perPush(cd, events, { runs = 9, window = 100 } = {}) {
  const deltas = events.filter((e) => e.startsWith("event: content_block_delta"));
  const first = new Set(deltas.slice(0, window));
  const last = new Set(deltas.slice(-window));
  const means = { first: [], last: [], total: [], firstMedian: [], lastMedian: [] };
  for (let run = 0; run < runs; run++) {
    const stream = new cd.StreamAccumulator("anthropic_messages");
    const records = [];
    const times = { first: [], last: [] };
    const start = performance.now();
    for (const event of events) {
      const t0 = performance.now();
      const patches = stream.push(event);
      const t = performance.now() - t0;
      if (first.has(event)) times.first.push(t);
      else if (last.has(event)) times.last.push(t);
      applyPatches(records, patches);
    }
    means.total.push(performance.now() - start);
    for (const part of ["first", "last"]) {
      means[part].push(times[part].reduce((a, b) => a + b, 0) / window);
      means[`${part}Median`].push(median(times[part]));
    }
    if (!stream.done || records.some((r) => r.metadata?.streaming)) throw new Error("the 1 MB stream did not finish");
    stream.free();
  }
  return {
    first: median(means.first), last: median(means.last), total: median(means.total), runs, window,
    // The median push of each window: steadier than the mean, which one GC pause can move.
    firstMedian: median(means.firstMedian), lastMedian: median(means.lastMedian),
  };
}

/**
 * Runs both parts and resolves to `{stream: {...}, rows: [...], perPush: [...]}` (milliseconds).
 * `cd` is chat-display, `Bench` tinybench's, `parsePartialJson` the `ai` package's.
 */
export async function runStreams(cd, Bench, parsePartialJson, { iterations = 20, log = () => {} } = {}) {
  const json = writeFileArguments(81 * 1000);
  const deltas = cut(json, 41);
  const events = anthropicStream("tool_use", deltas);
  const stream = { bytes: new TextEncoder().encode(json).length, deltas: deltas.length, events: events.length };
  log(`81 KB stream: ${stream.bytes} bytes of arguments in ${stream.deltas} deltas`);

  // Same final arguments on every side, and the patches give records().
  const expected = JSON.parse(json);
  const { stream: acc, records } = accumulate(cd, events);
  deepEqual(records, acc.records(), "patches");
  deepEqual(records[0].content.arguments, expected, "chat-display");
  if (!acc.done || records.length !== 1 || records[0].metadata?.streaming) throw new Error("chat-display: the stream did not end");
  acc.free();
  deepEqual(await aiSdkLoop(parsePartialJson, deltas), expected, "parsePartialJson loop");
  deepEqual(await aiSdkLoopFromEvents(parsePartialJson, events), expected, "parsePartialJson loop from events");

  const bench = new Bench({ iterations, time: iterations > 1 ? 2000 : 0, warmupIterations: 3, warmupTime: 500, throws: true });
  bench.add("chat-display StreamAccumulator, one push an SSE event, patches applied", () => {
    const { stream: s } = accumulate(cd, events);
    s.free();
  });
  bench.add("AI SDK parsePartialJson after each delta (deltas given)", () => aiSdkLoop(parsePartialJson, deltas));
  bench.add("AI SDK parsePartialJson after each delta, from the SSE events", () => aiSdkLoopFromEvents(parsePartialJson, events));
  bench.add("one JSON.parse of the whole argument text (reference)", () => JSON.parse(json));
  await bench.run();
  const rows = bench.tasks.map((task) => ({ name: task.name, ...summary(task) }));

  const mb = 1 << 20;
  const text = longText(mb);
  const big = writeFileArguments(mb, 13);
  const perPushRows = [];
  for (const [name, kind, source] of [["1 MB text block", "text", text], ["1 MB tool argument", "tool_use", big]]) {
    const pieces = cut(source, Math.round(source.length / 10000), 14);
    const row = { name, bytes: new TextEncoder().encode(source).length, deltas: pieces.length, ...perPush(cd, anthropicStream(kind, pieces)) };
    log(`${name}: ${row.first.toFixed(4)} ms first, ${row.last.toFixed(4)} ms last`);
    perPushRows.push(row);
  }
  return { stream, rows, perPush: perPushRows };
}

const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x >= 0.01 ? x.toFixed(3) : x.toFixed(4));

/** The results as text tables: the 81 KB stream with ratios against chat-display, then per push. */
export function streamTables(runtime, { stream, rows, perPush: pushes }) {
  const ours = rows[0].median;
  const lines = [
    `${runtime}: ${stream.bytes}-byte tool argument in ${stream.deltas} input_json_delta events (${stream.events} SSE events), per stream:`,
    ...rows.map((r) => `  ${r.name.padEnd(74)} ${`${ms(r.median)} ± ${ms(r.mad)} ms (${r.samples})`.padStart(24)}` +
      (r === rows[0] ? "" : `  ${(r.median / ours).toFixed(1)}x chat-display`)),
    `${runtime}: mean time of one push over the first and the last ${pushes[0].window} deltas, median of ${pushes[0].runs} runs:`,
    ...pushes.map((p) => `  ${`${p.name} (${p.bytes} bytes, ${p.deltas} deltas)`.padEnd(52)} first ${p.window}: ${ms(p.first)} ms` +
      `   last ${p.window}: ${ms(p.last)} ms   last/first ${(p.last / p.first).toFixed(2)}   (median push ${ms(p.firstMedian)} / ${ms(p.lastMedian)} ms)` +
      `   whole stream ${ms(p.total)} ms`),
  ];
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// The script: Node, then the same in headless Chromium.

const isScript = typeof process !== "undefined" && process.argv?.[1] &&
  import.meta.url === (await import("node:url")).pathToFileURL(process.argv[1]).href;
if (isScript) await main();

/** The `ai` package's parsePartialJson bundled for the page (Vite), into a folder it returns. */
async function bundleParsePartialJson(root) {
  const { mkdirSync, mkdtempSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const { build } = await import("vite");
  // The entry sits in node_modules so that "ai" resolves from it.
  const entryDir = join(root, "node_modules", ".cache", "chat-display-bench");
  mkdirSync(entryDir, { recursive: true });
  const entry = join(entryDir, "parse-partial-json.mjs");
  writeFileSync(entry, 'export { parsePartialJson } from "ai";\n');
  const outDir = mkdtempSync(join(tmpdir(), "chat-display-bench-ai-"));
  await build({
    root, configFile: false, logLevel: "error",
    build: { outDir, emptyOutDir: true, minify: false, lib: { entry, formats: ["es"], fileName: () => "ai.mjs" } },
  });
  return outDir;
}

async function main() {
  const { writeFileSync, rmSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const os = await import("node:os");
  const root = fileURLToPath(new URL("..", import.meta.url));
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
  const runtimes = option("runtime", "node,chromium").split(",");
  const settings = { iterations: Number(option("iterations", 20)) };
  const log = (runtime) => (line) => console.error(`  ${runtime}: ${line}`);
  const results = {};
  console.log(`\nStreams (issue 10): ${new Date().toISOString()}; ${os.cpus()[0]?.model ?? "unknown CPU"} x ${os.cpus().length}; load ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);

  if (runtimes.includes("node")) {
    const cd = await import("../js/node.mjs");
    const { Bench } = await import("tinybench");
    const { parsePartialJson } = await import("ai");
    results.node = await runStreams(cd, Bench, parsePartialJson, { ...settings, log: log("node") });
    console.log(`\n${streamTables(`Node ${process.version}`, results.node)}`);
  }

  if (runtimes.includes("chromium")) {
    const { startServer } = await import("../www/serve.mjs");
    const { launchBrowser, openPage } = await import("../tests/support/browser.mjs");
    const vendor = await bundleParsePartialJson(root);
    // bench/index.html (the import map of chat-display and tinybench), this file, the viewer's
    // stream.js it imports, and the bundled parsePartialJson.
    const folders = { "/pkg/": "pkg/web", "/tinybench/": "node_modules/tinybench/dist", "/www/": "www", "/bench/": "bench", "/": "bench" };
    const mounts = [["/vendor/ai/", vendor], ...Object.entries(folders).map(([prefix, dir]) => [prefix, join(root, dir)])];
    const { server, url } = await startServer({ port: 0, mounts });
    const browser = await launchBrowser();
    try {
      const { context } = browser;
      // Cross-origin isolated, so that performance.now() moves in 5 µs steps, not 100 µs: the
      // per-push times are single pushes.
      await context.route("**/*", async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, headers: { ...response.headers(), "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } });
      });
      context.on("console", (m) => m.text().startsWith("stream ") && console.error(`  chromium: ${m.text().slice(7)}`));
      const problems = [];
      const page = await openPage(context, url, problems);
      await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30000 });
      const version = await page.evaluate(() => `${navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "Chromium"}${crossOriginIsolated ? "" : " (not cross-origin isolated: 0.1 ms clock)"}`);
      results.chromium = await page.evaluate(async (o) => {
        const [{ runStreams: run }, cd, { Bench }, { parsePartialJson }] = await Promise.all([
          import("/bench/stream.mjs"), import("chat-display"), import("tinybench"), import("/vendor/ai/ai.mjs")]);
        await cd.default();
        return run(cd, Bench, parsePartialJson, { ...o, log: (line) => console.log(`stream ${line}`) });
      }, settings).catch((e) => {
        throw new Error(`${e.message}\n${problems.join("\n")}`);
      });
      console.log(`\n${streamTables(`Chromium ${version}`, results.chromium)}`);
    } finally {
      await browser.close();
      server.close();
      rmSync(vendor, { recursive: true, force: true });
    }
  }

  const out = option("json");
  if (out) writeFileSync(out, JSON.stringify(results, null, 2));
}
