// The page-weight benchmark (issue 45, point 2), not part of `npm test`: the bytes a browser
// fetches, gzipped, before the first row of <chat-transcript> is in its shadow root, for three
// pages an app would write, each built from the packed package by esbuild and by Vite, minified:
//
//   records    `import "chat-display/element"`, then `el.records = [...]` (display-message records)
//   anthropic  `el.load(body)` of an Anthropic Messages API response body (a recorded one)
//   stream     the app's own `StreamAccumulator` from "chat-display" on a recorded Anthropic SSE
//              stream, one event a frame, each push's patches given to `el.applyPatches`
//
// 1. The package as users get it: `npm pack` (its prepack builds), the tarball installed in a
//    scratch folder, each page a scratch app beside it, as tests/packaging/consumers.test.mjs does.
// 2. Each build is served by a small HTTP server that gzips every response (level 9, as the
//    repository's size figures are) and forbids caching, and opened in headless Chromium
//    (tests/support/browser.mjs) in a fresh page, on a throttled network: Lighthouse's mobile
//    default (150 ms round trip, 1.6 Mbit/s down; `--unthrottled` for none). The element may start
//    a fetch it does not wait for (`records =` starts loading the module in the background); on a
//    real network that arrives after the first row, and the throttle makes it so here too, where a
//    local server would otherwise win the race.
// 3. A script put in before the page's own polls in every animation frame for the first `.row` in
//    the element's shadow root and notes the time. Resource Timing then gives every response the
//    page got, with its body as sent (`encodedBodySize`: the gzipped bytes) and when it ended.
//    A response that ended before the first row counts towards it; what ended after (lazy chunks,
//    a module loaded in the background) is listed apart, marked when it was requested before. The conversation a page shows (its data,
//    under /data/) is counted apart from the page's code.
//
// The figures measure whatever the element does: which module it imports, and when.
//
//   node bench/page-weight.mjs [--tarball FILE] [--keep] [--unthrottled]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { launchBrowser } from "../tests/support/browser.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
/** Issue 45's target for the records-only page, gzipped, before its first row. */
const TARGET_A = 100 * 1024;
/** Lighthouse's mobile throttling ("slow 4G"), in CDP's units (bytes a second, ms). */
const NETWORK = args.includes("--unthrottled") ? null
  : { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const log = (line) => console.error(`  page-weight: ${line}`);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const run = (cmd, argv, cwd) => execFileSync(cmd, argv, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 600_000 });
const git = (...argv) => run("git", argv, root).trim();

// 1. The packed package, installed in a scratch folder (or `--tarball FILE`, one packed before).
const scratch = mkdtempSync(join(tmpdir(), "chat-display-page-weight-"));
let tarball = option("tarball") && resolve(option("tarball"));
if (!tarball) {
  log("npm pack (its prepack builds the package; quick when pkg/ is up to date)");
  tarball = join(scratch, run("npm", ["pack", "--silent", "--pack-destination", scratch], root).trim().split("\n").at(-1));
}
writeFileSync(join(scratch, "package.json"), '{"name": "scratch", "private": true, "type": "module"}\n');
run("npm", ["install", "--silent", "--no-audit", "--no-fund", "--prefer-offline", tarball], scratch);

// The data each page shows, served under /data/: display-message records (the consumer matrix's
// fixture), a recorded Anthropic response body, a recorded Anthropic stream.
const data = join(scratch, "data");
mkdirSync(data);
const [fixture] = JSON.parse(readFileSync(join(root, "tests/fixtures/to_display_messages.json"), "utf8"));
writeFileSync(join(data, "records.json"), JSON.stringify(fixture.records));
writeFileSync(join(data, "anthropic.json"), readFileSync(join(root, "tests/fixtures/recorded/anthropic_messages/anthropic/anthropic-text.json")));
writeFileSync(join(data, "stream.sse"), readFileSync(join(root, "tests/fixtures/streams/anthropic_messages/thinking-then-text.sse")));

// The pages: each app's main.js. Each says when it is done (or what went wrong) on <body>.
const done = (code) => `const el = document.querySelector("chat-transcript");
try {
${code}
  document.body.dataset.done = String(el.records.length);
} catch (error) {
  document.body.dataset.error = String(error?.stack ?? error);
}
`;
const pages = {
  records: `import "chat-display/element";
${done(`  el.records = await (await fetch("/data/records.json")).json();`)}`,
  anthropic: `import "chat-display/element";
${done(`  await el.load(await (await fetch("/data/anthropic.json")).text());`)}`,
  stream: `import init, { StreamAccumulator } from "chat-display";
import "chat-display/element";
${done(`  const [sse] = await Promise.all([fetch("/data/stream.sse").then((r) => r.text()), init()]);
  const stream = new StreamAccumulator("anthropic_messages");
  el.records = [];
  // One SSE event a frame, as a response arrives.
  for (const event of sse.split(/(?<=\\n\\n)/)) {
    el.applyPatches(stream.push(event));
    await new Promise(requestAnimationFrame);
  }`)}`,
};
const html = (script) => '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">' +
  "<style>body{margin:0}chat-transcript{display:block;height:100vh}</style></head>" +
  `<body><chat-transcript></chat-transcript><script type="module" src="${script}"></script></body></html>\n`;

function app(name, files) {
  const dir = join(scratch, "apps", name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

// The two bundlers, the repository's own, as the consumer matrix runs them. Each returns the
// folder to serve.
const bundlers = {
  esbuild(page, main) {
    const dir = app(`${page}-esbuild`, { "main.js": main, "dist/index.html": html("./main.js") });
    run(join(root, "node_modules/.bin/esbuild"), ["main.js", "--bundle", "--minify", "--format=esm", "--splitting",
      "--outdir=dist", "--log-level=warning"], dir);
    return join(dir, "dist");
  },
  Vite(page, main) {
    const dir = app(`${page}-vite`, { "index.html": html("/main.js"), "main.js": main });
    run(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], dir);
    return join(dir, "dist");
  },
};

// 2. The server: each file gzipped at level 9 (Content-Encoding: gzip), nothing cached.
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".sse": "text/event-stream" };
function serve(dist) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.startsWith("/data/") ? join(data, normalize(path.slice(6))) : join(dist, normalize(path), path.endsWith("/") ? "index.html" : "");
    let body;
    try {
      body = readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": types[extname(file)] ?? "application/octet-stream", "Content-Encoding": "gzip",
      "Cache-Control": "no-store" });
    res.end(gzipSync(body, { level: 9 }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

/** What a served path is: the page's HTML, JS, a `.wasm`, JS holding a module inlined as base64
 * (esbuild leaves the package's `new URL(".wasm")` alone, so its glue imports the inlined copy),
 * the page's data, or other. */
function kind(dist, path) {
  if (path.startsWith("/data/")) return "data";
  const ext = extname(path);
  if (ext === ".wasm") return "wasm";
  if (ext === ".js" || ext === ".mjs") {
    const text = readFileSync(join(dist, normalize(path)), "latin1");
    return /[A-Za-z0-9+/]{20000}/.test(text) ? "wasm" : "js";
  }
  return ext === ".html" || path.endsWith("/") ? "html" : "other";
}

// 3. One page in Chromium: the first row's time, and every response with its gzipped size.
const firstRowProbe = () => {
  const poll = () => {
    if (document.querySelector("chat-transcript")?.shadowRoot?.querySelector(".row")) window.__firstRow = performance.now();
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
};
async function measure(browser, dist) {
  const { server, url } = await serve(dist);
  const page = await browser.context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  const inFlight = new Set();
  page.on("request", (r) => inFlight.add(r));
  for (const end of ["requestfinished", "requestfailed"]) page.on(end, (r) => inFlight.delete(r));
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    if (NETWORK) {
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", NETWORK);
    }
    await page.addInitScript(firstRowProbe);
    await page.goto(url);
    await page.waitForFunction(() => window.__firstRow !== undefined || document.body?.dataset.error, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.body.dataset.done || document.body.dataset.error, null, { timeout: 60_000 });
    // Then until no request has been in flight for a second (30 s at most): what the page fetches
    // once it shows.
    for (let quiet = 0, waited = 0; quiet < 1000 && waited < 30_000; waited += 100) {
      await page.waitForTimeout(100);
      quiet = inFlight.size ? 0 : quiet + 100;
    }
    const result = await page.evaluate(() => ({
      firstRow: window.__firstRow,
      error: document.body.dataset.error,
      records: Number(document.body.dataset.done),
      rows: document.querySelector("chat-transcript").shadowRoot.querySelectorAll(".row").length,
      responses: [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
        .map((e) => ({ path: new URL(e.name).pathname, gzipped: e.encodedBodySize, bytes: e.decodedBodySize,
          start: e.startTime, end: e.responseEnd })),
    }));
    if (result.error || problems.length) throw new Error(`${url}: ${result.error ?? problems.join("\n")}`);
    for (const r of result.responses) r.kind = kind(dist, r.path);
    return result;
  } finally {
    await page.close();
    server.close();
  }
}

const started = new Date();
const load0 = loadavg()[0];
const commit = git("rev-parse", "--short", "HEAD") + (git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench", ":!*.md") ? " (with uncommitted changes)" : "");
const browser = await launchBrowser();
const results = [];
try {
  for (const [page, main] of Object.entries(pages)) {
    for (const [bundler, build] of Object.entries(bundlers)) {
      log(`${page}: ${bundler} build, then Chromium`);
      const dist = build(page, main);
      const result = await measure(browser, dist);
      const before = result.responses.filter((r) => r.end <= result.firstRow);
      const after = result.responses.filter((r) => r.end > result.firstRow);
      for (const r of result.responses) r.firstRow = result.firstRow;
      results.push({ page, bundler, before, after, records: result.records, rows: result.rows, firstRow: result.firstRow });
    }
  }
} finally {
  await browser.close();
  if (!args.includes("--keep")) rmSync(scratch, { recursive: true, force: true });
  else log(`kept ${scratch}`);
}

// The report, Markdown: the run, the table, then each page's files. "Code" is all but the data.
const describe = { records: "(a) records only: `records =`", anthropic: "(b) `load` of an Anthropic response",
  stream: "(c) a stream: `StreamAccumulator` + `applyPatches`" };
/** The gzipped bytes of the responses in `list` (of one kind, if given); `code`: all but the data. */
const sum = (list, kind) => list.filter((r) => !kind || r.kind === kind).reduce((total, r) => total + r.gzipped, 0);
const code = (list) => sum(list) - sum(list, "data");
const network = NETWORK ? "Lighthouse's mobile throttling (150 ms, 1.6 Mbit/s down)" : "no throttling";
console.log(`\n## Page weight: ${started.toISOString().slice(0, 16).replace("T", ", ")} UTC, at ${commit}\n`);
console.log(`${cpus()[0]?.model}, ${cpus().length} cores; load average ${load0.toFixed(2)} to ${loadavg()[0].toFixed(2)}; ` +
  `Node ${process.version}; ${option("tarball") ? `${tarball}, packed before (not necessarily at this commit)` : "the package packed at this commit"}; ` +
  `each response gzipped at level 9 as served; ${network}.\n`);
console.log("| page | bundler | before the first row | .wasm | JS | HTML | after it (* requested before it) | the page's code in all | data |");
console.log("|---|---|---:|---:|---:|---:|---|---:|---:|");
for (const { page, bundler, before, after } of results) {
  const later = after.filter((r) => r.kind !== "data")
    .map((r) => `${r.path.split("/").at(-1)}${r.start < r.firstRow ? "*" : ""} ${kb(r.gzipped)}`).join(", ") || "nothing";
  console.log(`| ${describe[page]} | ${bundler} | **${kb(code(before))}** | ${kb(sum(before, "wasm"))} | ${kb(sum(before, "js"))} | ` +
    `${kb(sum(before, "html"))} | ${later} | ${kb(code([...before, ...after]))} | ${kb(sum([...before, ...after], "data"))} |`);
}
const a = results.filter((r) => r.page === "records");
const aFigures = a.map((r) => `${kb(code(r.before))} (${r.bundler})`).join(", ");
const met = a.every((r) => code(r.before) <= TARGET_A);
console.log(`\nKB = 1,024 bytes, gzipped. ".wasm" also counts a module inlined in JS as base64 (esbuild). ` +
  `Target (a) <= ${kb(TARGET_A)} before the first row: ${aFigures}: **${met ? "met" : "missed"}**; in all, the page ` +
  `fetches ${a.map((r) => `${kb(code([...r.before, ...r.after]))} (${r.bundler})`).join(", ")}. (b) and (c) have no target.`);

console.log("\nThe files, gzipped bytes (raw bytes): before the first row | after it\n");
for (const { page, bundler, before, after, records, rows, firstRow } of results) {
  const list = (l) => l.map((r) => `\`${r.path}\` ${r.kind} ${r.gzipped.toLocaleString("en-US")} (${r.bytes.toLocaleString("en-US")})`).join(", ") || "nothing";
  console.log(`- ${page}, ${bundler}: first row at ${firstRow.toFixed(0)} ms; ${records} records, ${rows} rows at the end. ${list(before)} | ${list(after)}`);
}

console.log("\nA row for README's size table:\n");
console.log(`| a records-only page, before its first row | what a page of \`import "chat-display/element"\` and \`records =\` ` +
  `fetches (HTML, JS, \`.wasm\`), built from the packed package, measured at ${commit.split(" ")[0]} by ` +
  `[\`node bench/page-weight.mjs\`](bench/ELEMENT.md#page-weight) | ` +
  `${a.map((r) => `${kb(code(r.before))} (${r.bundler})`).join(", ")}; ` +
  `${a.map((r) => kb(code([...r.before, ...r.after])).replace(" KB", "")).join(" and ")} KB in all |`);
