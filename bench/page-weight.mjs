// The page-weight benchmark (issue 45, point 2), not part of `npm test`: the bytes a browser
// fetches, gzipped, before the first row of <chat-transcript> is in its shadow root, for three
// pages an app would write, each built from the packed package by every bundler of the consumer
// matrix (esbuild, Vite, webpack, Parcel, `bun build`, Rollup and Next.js), minified:
//
//   records    `import "chat-display/element"`, then `el.records = [...]` (display-message records)
//   anthropic  `el.load(body)` of an Anthropic Messages API response body (a recorded one)
//   stream     the app's own `StreamAccumulator` from "chat-display" on a recorded Anthropic SSE
//              stream, one event a frame, each push's patches given to `el.applyPatches`
//
// 1. The package as users get it: `npm pack` (its prepack builds), the tarball installed in a
//    scratch folder, each page a scratch app beside it, built as tests/packaging/consumers.test.mjs
//    builds its apps (the bundlers below say where they differ: splitting, a minifier). Next.js
//    builds one app of three client pages, each importing the page's code in an effect, as the
//    matrix's next row does; `next start` serves it, and the server below passes its answers on.
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
//    a module loaded in the background) is listed apart, marked when it was requested before. The
//    conversation a page shows (its data, under /data/) is counted apart from the page's code.
//
// The figures measure whatever the element does: which module it imports, and when. A bundler
// that cannot build a page, or a page that does not show, is a row saying why (exit code 1).
//
//   node bench/page-weight.mjs [--tarball FILE] [--keep] [--unthrottled]
//                              [--pages records,anthropic,stream] [--bundlers esbuild,Vite,webpack,Parcel,"bun build",Rollup,Next.js]
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
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
/** Runs a command; its output is kept, and said in the error if it fails. */
function run(cmd, argv, cwd, env = {}) {
  try {
    return execFileSync(cmd, argv, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env }, timeout: 600_000 });
  } catch (error) {
    throw new Error(`${cmd.split("/").at(-1)} ${argv.join(" ")} in ${cwd}: ${error.message.split("\n")[0]}\n${error.stdout ?? ""}${error.stderr ?? ""}`.slice(0, 4000));
  }
}
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

/** A free TCP port on 127.0.0.1 (for `next start`). */
const freePort = () => new Promise((resolve) => {
  const probe = createNetServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
/** Waits until `url` answers (a server just started). */
async function answers(url, what) {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((r) => r.status < 500, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer in 60 s`);
}

/** A served build: `file(path)`, the file at a path (null: not a file of the build), and
 * `upstream`, a server that answers the rest (`next start`). */
const folder = (dist) => ({ file: (path) => join(dist, normalize(path), path.endsWith("/") ? "index.html" : "") });

// The bundlers, the repository's own, each as the consumer matrix (tests/packaging/consumers.test.mjs)
// runs it, minified, with what splitting it needs to keep a dynamic import a chunk of its own:
// esbuild and `bun build` `--splitting` (the matrix's rows bundle one file, every lazy chunk in
// it), Rollup the matrix's `nodeResolve` and `commonjs` and terser on each chunk, as
// @rollup/plugin-terser runs it (the matrix's Rollup does not minify). Each returns the build to serve.
const rollupConfig = `import { nodeResolve } from "${join(root, "node_modules/@rollup/plugin-node-resolve/dist/es/index.js")}";
import commonjs from "${join(root, "node_modules/@rollup/plugin-commonjs/dist/es/index.js")}";
import { minify } from "${join(root, "node_modules/terser/main.js")}";
const terser = { name: "terser", renderChunk: async (code) => (await minify(code, { module: true, sourceMap: false })).code };
export default { input: "main.js", output: { dir: "dist", format: "es" }, plugins: [nodeResolve({ browser: true }), commonjs(), terser] };
`;
let next;
const bundlers = {
  esbuild(page, main) {
    const dir = app(`${page}-esbuild`, { "main.js": main, "dist/index.html": html("./main.js") });
    run(join(root, "node_modules/.bin/esbuild"), ["main.js", "--bundle", "--minify", "--format=esm", "--splitting",
      "--outdir=dist", "--log-level=warning"], dir);
    return folder(join(dir, "dist"));
  },
  Vite(page, main) {
    const dir = app(`${page}-vite`, { "index.html": html("/main.js"), "main.js": main });
    run(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], dir);
    return folder(join(dir, "dist"));
  },
  webpack(page, main) {
    const dir = app(`${page}-webpack`, { "src/index.js": main, "dist/index.html": html("/main.js") });
    run(join(root, "node_modules/.bin/webpack"), ["--mode", "production", "--no-stats"], dir);
    return folder(join(dir, "dist"));
  },
  Parcel(page, main) {
    const dir = app(`${page}-parcel`, { "index.html": html("./main.js"), "main.js": main });
    run(join(root, "node_modules/.bin/parcel"), ["build", "index.html", "--no-cache", "--no-source-maps", "--log-level", "error",
      "--dist-dir", "dist"], dir, { PARCEL_WORKERS: "1" });
    return folder(join(dir, "dist"));
  },
  "bun build"(page, main) {
    const dir = app(`${page}-bun`, { "main.js": main, "dist/index.html": html("/main.js") });
    run(join(root, "node_modules/.bin/bun"), ["build", "main.js", "--target=browser", "--format=esm", "--minify", "--splitting",
      "--outdir=dist"], dir);
    return folder(join(dir, "dist"));
  },
  Rollup(page, main) {
    const dir = app(`${page}-rollup`, { "main.js": main, "dist/index.html": html("/main.js"), "rollup.config.mjs": rollupConfig });
    run(join(root, "node_modules/.bin/rollup"), ["-c", "--silent"], dir);
    return folder(join(dir, "dist"));
  },
  // One Next.js app for every page, as the matrix's: `next build`, then `next start`. Each page
  // is a client page (/records, /anthropic, /stream) that renders <chat-transcript> and, in an
  // effect, imports its main.js, the same code as the other bundlers' (the matrix's next row
  // imports its browser code so). The server passes `next start`'s answers through (the page's
  // HTML) and serves /_next/static/ from .next/static/, as the matrix counts them.
  async "Next.js"(page) {
    next ??= (async () => {
      const files = {
        "package.json": JSON.stringify({ name: "next-app", private: true }),
        // As the matrix's: next, react and react-dom are links to the repository's node_modules,
        // outside the app's folder, which Turbopack resolves no further than its root by default.
        "next.config.mjs": 'export default { turbopack: { root: "/" }, outputFileTracingRoot: "/" };\n',
        "app/layout.js": 'export default function Layout({ children }) { return <html><head><meta charset="utf-8" /><link rel="icon" href="data:," /></head><body style={{ margin: 0 }}>{children}</body></html>; }\n',
      };
      for (const [name, main] of Object.entries(pages)) {
        files[`app/${name}/main.js`] = main;
        files[`app/${name}/page.js`] = `"use client";
import { useEffect } from "react";
export default function Page() {
  useEffect(() => { import("./main.js"); }, []);
  return <chat-transcript style={{ display: "block", height: "100vh" }} />;
}
`;
      }
      // The framework alone: a client page without chat-display, whose effect stands for the
      // first row (what Next.js and React fetch before a page's code can run).
      files["app/blank/page.js"] = `"use client";
import { useEffect } from "react";
export default function Page() {
  useEffect(() => {
    window.__firstRow = performance.now();
    document.body.dataset.done = "0";
  }, []);
  return <p>A client page without chat-display.</p>;
}
`;
      const dir = app("next", files);
      mkdirSync(join(dir, "node_modules"));
      for (const name of ["next", "react", "react-dom"]) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name), "dir");
      run(join(root, "node_modules/.bin/next"), ["build"], dir, { NEXT_TELEMETRY_DISABLED: "1" });
      const port = await freePort();
      // Its own process group, so that stopping it stops whatever it started.
      const server = spawn(join(root, "node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1"],
        { cwd: dir, stdio: "ignore", detached: true, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
      const upstream = `http://127.0.0.1:${port}`;
      await answers(`${upstream}/records`, "next start");
      return { dir, upstream, stop: () => { try { process.kill(-server.pid); } catch {} } };
    })();
    const { dir, upstream } = await next;
    return {
      path: `/${page}`,
      upstream,
      file: (path) => (path.startsWith("/_next/static/") ? join(dir, ".next/static", normalize(path.slice(14))) : null),
    };
  },
};
/** For a framework, its own weight: the page of `bundlers[name]("blank")`, without chat-display. */
const baselines = { "Next.js": true };
const chosen = option("bundlers")?.split(",") ?? Object.keys(bundlers);
const chosenPages = option("pages")?.split(",") ?? Object.keys(pages);
for (const name of [...chosen, ...chosenPages]) {
  if (!(name in bundlers) && !(name in pages)) throw new Error(`no bundler or page ${name}: ${[...Object.keys(bundlers), ...Object.keys(pages)].join(", ")}`);
}

// 2. The server: each file gzipped at level 9 (Content-Encoding: gzip), nothing cached. What is
// not a file of the build goes to its upstream server (`next start`), asked for it uncompressed.
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".sse": "text/event-stream" };
function serve(site) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.startsWith("/data/") ? join(data, normalize(path.slice(6))) : site.file(path);
    let body, type;
    try {
      if (file) {
        body = readFileSync(file);
        type = types[extname(file)] ?? "application/octet-stream";
      } else if (site.upstream) {
        const headers = { ...req.headers, "accept-encoding": "identity" };
        delete headers.host;
        const answer = await fetch(site.upstream + req.url, { headers, redirect: "manual" });
        body = Buffer.from(await answer.arrayBuffer());
        type = answer.headers.get("content-type") ?? "application/octet-stream";
        if (answer.status !== 200) {
          res.writeHead(answer.status, { "Content-Type": type, ...(answer.headers.get("location") ? { Location: answer.headers.get("location") } : {}) }).end(body);
          return;
        }
      } else throw new Error("not found");
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": type, "Content-Encoding": "gzip", "Cache-Control": "no-store" });
    res.end(gzipSync(body, { level: 9 }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}${site.path ?? "/"}` })));
}

/** What a served path is: the page's HTML, JS, a `.wasm`, JS holding a module inlined as base64
 * (esbuild leaves the package's `new URL(".wasm")` alone, so its glue imports the inlined copy),
 * the page's data, or other. */
function kind(site, { path, navigation }) {
  if (navigation) return "html";
  if (path.startsWith("/data/")) return "data";
  const ext = extname(path);
  if (ext === ".wasm") return "wasm";
  if (ext === ".js" || ext === ".mjs") {
    const text = readFileSync(site.file(path), "latin1");
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
async function measure(browser, site) {
  const { server, url } = await serve(site);
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
      rows: document.querySelector("chat-transcript")?.shadowRoot?.querySelectorAll(".row").length ?? 0,
      responses: [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
        .map((e) => ({ path: new URL(e.name).pathname, gzipped: e.encodedBodySize, bytes: e.decodedBodySize,
          start: e.startTime, end: e.responseEnd, navigation: e.entryType === "navigation" })),
    }));
    if (result.error || problems.length) throw new Error(`${url}: ${result.error ?? problems.join("\n")}`);
    for (const r of result.responses) r.kind = kind(site, r);
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
/** A bundler that could not build a page, or a page that did not show: the first lines of why. */
const failures = [];
try {
  for (const page of [...chosenPages, "blank"]) {
    for (const bundler of chosen) {
      if (page === "blank" && !baselines[bundler]) continue;
      log(`${page}, ${bundler}: the build, then Chromium`);
      const begun = Date.now();
      try {
        const site = await bundlers[bundler](page, pages[page]);
        const built = Date.now();
        const result = await measure(browser, site);
        log(`${page}, ${bundler}: built in ${((built - begun) / 1000).toFixed(0)} s, measured in ${((Date.now() - built) / 1000).toFixed(0)} s`);
        const before = result.responses.filter((r) => r.end <= result.firstRow);
        const after = result.responses.filter((r) => r.end > result.firstRow);
        for (const r of result.responses) r.firstRow = result.firstRow;
        results.push({ page, bundler, before, after, records: result.records, rows: result.rows, firstRow: result.firstRow });
      } catch (error) {
        const why = String(error?.message ?? error).trim().split("\n").slice(0, 12).join("\n");
        log(`${page}, ${bundler}: FAILED\n${why}`);
        failures.push({ page, bundler, why });
      }
    }
  }
} finally {
  await next?.then((started) => started.stop(), () => {});
  await browser.close();
  if (!args.includes("--keep")) rmSync(scratch, { recursive: true, force: true });
  else log(`kept ${scratch}`);
}

// The report, Markdown: the run, the table, then each page's files. "Code" is all but the data.
const describe = { records: "(a) records only: `records =`", anthropic: "(b) `load` of an Anthropic response",
  stream: "(c) a stream: `StreamAccumulator` + `applyPatches`",
  blank: "the framework alone: a client page without chat-display, until its effect runs" };
/** The gzipped bytes of the responses in `list` (of one kind, if given); `code`: all but the data. */
const sum = (list, kind) => list.filter((r) => !kind || r.kind === kind).reduce((total, r) => total + r.gzipped, 0);
const code = (list) => sum(list) - sum(list, "data");
const network = NETWORK ? "Lighthouse's mobile throttling (150 ms, 1.6 Mbit/s down)" : "no throttling";
console.log(`\n## Page weight: ${started.toISOString().slice(0, 16).replace("T", ", ")} UTC, at ${commit}\n`);
console.log(`${cpus()[0]?.model}, ${cpus().length} cores; load average ${load0.toFixed(2)} to ${loadavg()[0].toFixed(2)}; ` +
  `Node ${process.version}; ${option("tarball") ? `${tarball}, packed before (not necessarily at this commit)` : "the package packed at this commit"}; ` +
  `each response gzipped at level 9 as served; ${network}.\n`);
console.log("| page | bundler | before the first row | (a) <= 100 KB | .wasm | JS | HTML | first row | after it (* requested before it) | the page's code in all | data |");
console.log("|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|");
const inOrder = (list) => [...chosenPages, "blank"].flatMap((page) => chosen.flatMap((bundler) => list.filter((r) => r.page === page && r.bundler === bundler)));
for (const row of inOrder([...results, ...failures])) {
  const { page, bundler, before, after } = row;
  if (row.why) {
    console.log(`| ${describe[page]} | ${bundler} | not measured: ${row.why.split("\n")[0].replaceAll("|", "\\|")} | ${page === "records" ? "missed (no figure)" : "no target"} | | | | | | | |`);
    continue;
  }
  const later = after.filter((r) => r.kind !== "data")
    .map((r) => `${r.path.split("/").at(-1)}${r.start < r.firstRow ? "*" : ""} ${kb(r.gzipped)}`).join(", ") || "nothing";
  const target = page === "records" ? (code(before) <= TARGET_A ? "met" : "**missed**") : "no target";
  console.log(`| ${describe[page]} | ${bundler} | **${kb(code(before))}** | ${target} | ${kb(sum(before, "wasm"))} | ${kb(sum(before, "js"))} | ` +
    `${kb(sum(before, "html"))} | ${row.firstRow.toFixed(0)} ms | ${later} | ${kb(code([...before, ...after]))} | ${kb(sum([...before, ...after], "data"))} |`);
}
const a = inOrder(results).filter((r) => r.page === "records");
const aFailed = failures.filter((r) => r.page === "records");
/** A framework's own bytes before its blank page's effect ran (null: no baseline measured). */
const own = (bundler) => {
  const blank = results.find((r) => r.page === "blank" && r.bundler === bundler);
  return blank ? code(blank.before) : null;
};
const aFigure = (r) => `${kb(code(r.before))} (${r.bundler}${own(r.bundler) === null ? ""
  : `: ${kb(own(r.bundler))} of it the framework's own, as its blank page fetches, ${kb(code(r.before) - own(r.bundler))} beyond`})`;
const met = a.length > 0 && aFailed.length === 0 && a.every((r) => code(r.before) <= TARGET_A);
/** "60.0 to 61.6 KB": the range of `figures` (bytes). */
const range = (figures) => (Math.min(...figures) === Math.max(...figures) ? kb(figures[0])
  : `${kb(Math.min(...figures)).replace(" KB", "")} to ${kb(Math.max(...figures))}`);
const plain = a.filter((r) => own(r.bundler) === null);
const framed = a.filter((r) => own(r.bundler) !== null);
console.log(`\nKB = 1,024 bytes, gzipped. ".wasm" also counts a module inlined in JS as base64 (esbuild, \`bun build\`, Rollup). ` +
  `"first row": ms from navigation, ${NETWORK ? "throttled" : "unthrottled"}, at this load. ` +
  (a.length ? `Target (a) <= ${kb(TARGET_A)} before the first row: ${a.map(aFigure).join(", ")}` +
    `${aFailed.length ? `; not measured: ${aFailed.map((r) => r.bundler).join(", ")}` : ""}: **${met ? "met" : "missed"}**` +
    `${met ? "" : ` (${a.filter((r) => code(r.before) > TARGET_A).map((r) => r.bundler).concat(aFailed.map((r) => r.bundler)).join(", ")})`}` +
    `${plain.length > 1 ? `; ${range(plain.map((r) => code(r.before)))} across ${plain.map((r) => r.bundler).join(", ")}` : ""}. ` +
    `In all, the page fetches ${a.map((r) => `${kb(code([...r.before, ...r.after]))} (${r.bundler})`).join(", ")}. ` : "") +
  "(b) and (c) have no target.");
for (const { page, bundler, why } of failures) console.log(`\n${page}, ${bundler}, not measured:\n\n    ${why.replaceAll("\n", "\n    ")}`);

console.log("\nThe files, gzipped bytes (raw bytes): before the first row | after it\n");
for (const { page, bundler, before, after, records, rows, firstRow } of inOrder(results)) {
  const list = (l) => l.map((r) => `\`${r.path}\` ${r.kind} ${r.gzipped.toLocaleString("en-US")} (${r.bytes.toLocaleString("en-US")})`).join(", ") || "nothing";
  console.log(`- ${page}, ${bundler}: first row at ${firstRow.toFixed(0)} ms; ${records} records, ${rows} rows at the end. ${list(before)} | ${list(after)}`);
}

if (a.length) {
  const figures = (list) => `${range(list.map((r) => code(r.before)))} (${list.map((r) => `${kb(code(r.before)).replace(" KB", "")} ${r.bundler}`).join(", ")})`;
  console.log("\nA row for README's size table:\n");
  console.log(`| a records-only page, before its first row | what a page of \`import "chat-display/element"\` and \`records =\` ` +
    `fetches (HTML, JS, \`.wasm\`), built from the packed package, measured at ${commit.split(" ")[0]} by ` +
    `[\`node bench/page-weight.mjs\`](bench/ELEMENT.md#page-weight) | ` +
    [plain.length && `${figures(plain)}; ${range(plain.map((r) => code([...r.before, ...r.after])))} in all`,
      ...framed.map((r) => `${kb(code(r.before))} with ${r.bundler}, ${kb(own(r.bundler))} of it the framework's own (a blank client page)`)].filter(Boolean).join("; ") +
    " |");
}
process.exitCode = failures.length ? 1 : 0;
