// The consumer matrix (issue 32): every bundler, runtime, test runner and TypeScript setting in
// README-npm.md's table, each a scratch app on the packed tarball that scripts/test.sh installed in
// PACKAGE_SCRATCH, built with no configuration beyond what the table names, then run in Node or in
// headless Chromium, where the app converts the first toDisplayMessages fixture and a browser app
// also renders a record with <chat-transcript>. The tools are the repository's devDependencies,
// run from its node_modules, and the apps find chat-display in PACKAGE_SCRATCH/node_modules: no
// app installs anything. CONSUMERS=name,name runs only those rows. Issue 44: the *-element rows
// import chat-display/element where there is no DOM (Node, Bun, Deno), where it must define
// nothing and export a stand-in that says it is browser-only; next-element, sveltekit and astro
// import it in a page as an app would, which the framework's server renders before the browser
// registers the element.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { startServer } from "../../www/serve.mjs";
import { launchBrowser, openPage } from "../support/browser.mjs";

const scratch = process.env.PACKAGE_SCRATCH;
const repo = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name) => join(repo, "node_modules/.bin", name);
const only = process.env.CONSUMERS?.split(",");
const [fixture] = JSON.parse(readFileSync(join(repo, "tests/fixtures/to_display_messages.json"), "utf8"));
const expected = JSON.stringify(fixture.records);
export const rows = JSON.parse(readFileSync(join(repo, "tests/packaging/consumers.json"), "utf8"));

/** The code every app runs: the fixture through the package, the result as JSON. */
const convert = `const records = toDisplayMessages(${JSON.stringify(fixture.messages)}, ${JSON.stringify(fixture.options)});`;
const browserMain = `import init, { toDisplayMessages } from "chat-display";
import "chat-display/element";
try {
  await init();
  ${convert}
  const view = document.createElement("chat-transcript");
  document.body.append(view);
  await view.load(records);
  let rendered = false;
  for (let i = 0; i < 100 && !rendered; i++) {
    rendered = view.shadowRoot?.textContent.includes(records[0].content.text) ?? false;
    if (!rendered) await new Promise((r) => setTimeout(r, 50));
  }
  document.body.dataset.result = JSON.stringify({ records, rendered });
} catch (error) {
  document.body.dataset.result = JSON.stringify({ error: String(error && error.stack || error) });
}
`;
const html = (script) => '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>' +
  `<body><script type="module" src="${script}"></script></body></html>`;

let browser;
const sizes = {};
before(async () => {
  assert.ok(scratch, "PACKAGE_SCRATCH names the scratch project with the tarball installed");
});
after(async () => {
  nextServer?.kill();
  await browser?.close();
  if (Object.keys(sizes).length) console.log(`# what a browser downloads, gzipped: ${JSON.stringify(sizes)}`);
});

function app(name, files) {
  const dir = join(scratch, "consumers", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
function run(cmd, args, cwd, env = {}) {
  try {
    return execFileSync(cmd, args, {
      cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env }, timeout: 300_000,
    });
  } catch (error) {
    throw new Error(`${cmd} ${args.join(" ")} in ${cwd}:\n${error.stdout ?? ""}${error.stderr ?? ""}`.slice(0, 4000));
  }
}

/** The gzipped bytes of the files of `dist` at `paths` (what the page fetched); `file` maps a
 * path to the file served there. SIZES=files prints each file's share. */
function gzippedSize(dist, paths, file = (path) => join(dist, path)) {
  let total = 0;
  for (const path of paths) {
    const at = file(decodeURIComponent(path));
    if (!/\.(js|mjs|wasm)$/.test(at) || !existsSync(at)) continue;
    const bytes = gzipSync(readFileSync(at), { level: 9 }).length;
    if (process.env.SIZES === "files") console.log(`#   ${path}: ${bytes}`);
    total += bytes;
  }
  return total;
}

async function checkPage(url, fetched = new Set()) {
  browser ??= await launchBrowser();
  const problems = [];
  const listen = (request) => request.url().startsWith(url) && fetched.add(new URL(request.url()).pathname);
  browser.context.on("request", listen);
  const page = await openPage(browser.context, url, problems);
  await page.waitForSelector("body[data-result]", { state: "attached", timeout: 30_000 });
  const result = JSON.parse(await page.getAttribute("body", "data-result"));
  await page.close();
  browser.context.off("request", listen);
  assert.equal(result.error, undefined);
  assert.equal(JSON.stringify(result.records), expected);
  assert.equal(result.rendered, true, "<chat-transcript> renders the first record");
  assert.deepEqual(problems, []);
}

/** Serves `dist` under www/serve.mjs's strict Content-Security-Policy (an inline import map, as
 * Parcel writes for its bundles' URLs, allowed by its hash) and checks the page. */
async function servePage(name, dist) {
  const { server, url } = await startServer({ port: 0, mounts: [["/", dist]] });
  const fetched = new Set();
  try {
    await checkPage(url, fetched);
  } finally {
    server.close();
  }
  sizes[name] = gzippedSize(dist, fetched);
}

const nodeCheck = (out) => assert.equal(out.trim().split("\n").at(-1), expected);

const consumers = {
  // Browsers, through a bundler.
  vite: async () => {
    const dir = app("vite", { "index.html": html("/main.js"), "main.js": browserMain });
    run(process.execPath, [join(repo, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], dir);
    await servePage("vite", join(dir, "dist"));
  },
  webpack: async () => {
    const dir = app("webpack", { "src/index.js": browserMain, "dist/index.html": html("/main.js") });
    run(bin("webpack"), ["--mode", "production"], dir);
    await servePage("webpack", join(dir, "dist"));
  },
  esbuild: async () => {
    const dir = app("esbuild", { "main.js": browserMain, "dist/index.html": html("/main.js") });
    run(bin("esbuild"), ["main.js", "--bundle", "--format=esm", "--minify", "--outfile=dist/main.js", "--log-level=warning"], dir);
    await servePage("esbuild", join(dir, "dist"));
  },
  rollup: async () => {
    const dir = app("rollup", {
      "main.js": browserMain, "dist/index.html": html("/main.js"),
      "rollup.config.mjs": `import { nodeResolve } from "${join(repo, "node_modules/@rollup/plugin-node-resolve/dist/es/index.js")}";
import commonjs from "${join(repo, "node_modules/@rollup/plugin-commonjs/dist/es/index.js")}";
export default { input: "main.js", output: { dir: "dist", format: "es" }, plugins: [nodeResolve({ browser: true }), commonjs()] };
`,
    });
    run(bin("rollup"), ["-c", "--silent"], dir);
    await servePage("rollup", join(dir, "dist"));
  },
  parcel: async () => {
    const dir = app("parcel", { "index.html": html("./main.js"), "main.js": browserMain });
    run(bin("parcel"), ["build", "index.html", "--no-cache", "--no-source-maps", "--log-level", "error", "--dist-dir", "dist"], dir,
      { PARCEL_WORKERS: "1" });
    await servePage("parcel", join(dir, "dist"));
  },
  "bun-build": async () => {
    const dir = app("bun-build", { "main.js": browserMain, "dist/index.html": html("/main.js") });
    run(bin("bun"), ["build", "main.js", "--target=browser", "--format=esm", "--minify", "--outfile=dist/main.js"], dir);
    await servePage("bun-build", join(dir, "dist"));
  },
  next: async () => {
    const { dir, url } = await nextApp();
    const body = await fetch(url).then((r) => r.text());
    const pre = /<pre id="server">(.*?)<\/pre>/s.exec(body)?.[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&#x27;", "'");
    assert.equal(pre, expected, "next start renders the records on the server");
    const fetched = new Set();
    await checkPage(url, fetched);
    // The client's files: next start serves /_next/static/ from .next/static/.
    sizes.next = gzippedSize(dir, fetched, (path) => join(dir, path.replace(/^\/_next\//, ".next/")));
  },
  // <chat-transcript> in a client component with a plain top-level import, as an app writes it:
  // the server render evaluates the import (the stand-in) and writes the tag into the HTML, the
  // browser registers the element and hydrates, and the element shows the records the server page
  // passed as a prop.
  "next-element": async () => {
    const { url } = await nextApp();
    await checkServerRendered(`${url}element`);
    await checkHydrated(`${url}element`);
  },
  // The same in SvelteKit: a page whose <script> imports the element at the top and passes the
  // records its server load function made as a property (`records={data.records}`), built with
  // adapter-node and run as its Node server.
  sveltekit: async () => {
    const dir = app("sveltekit", {
      "package.json": JSON.stringify({ name: "sveltekit-app", private: true, type: "module" }),
      "svelte.config.js": 'import adapter from "@sveltejs/adapter-node";\nexport default { kit: { adapter: adapter() } };\n',
      "vite.config.js": 'import { sveltekit } from "@sveltejs/kit/vite";\nexport default { plugins: [sveltekit()], logLevel: "error" };\n',
      "src/app.html": '<!doctype html>\n<html><head><meta charset="utf-8"><link rel="icon" href="data:,">%sveltekit.head%</head>\n<body><div style="display: contents">%sveltekit.body%</div></body></html>\n',
      "src/routes/+page.server.js": `import { toDisplayMessages } from "chat-display";\nexport function load() {\n  ${convert}\n  return { records };\n}\n`,
      "src/routes/+page.svelte": `<script>
  import "chat-display/element";
  import { onMount } from "svelte";
  let { data } = $props();
  onMount(() => { document.body.dataset.hydrated = "true"; });
</script>
<chat-transcript records={data.records}></chat-transcript>
`,
    });
    // As the Next.js app does, the framework's packages are links to the repository's.
    mkdirSync(join(dir, "node_modules/@sveltejs"), { recursive: true });
    for (const name of ["svelte", "vite", "@sveltejs/kit", "@sveltejs/adapter-node", "@sveltejs/vite-plugin-svelte"]) {
      symlinkSync(join(repo, "node_modules", name), join(dir, "node_modules", name), "dir");
    }
    run(process.execPath, [join(repo, "node_modules/vite/bin/vite.js"), "build"], dir);
    const port = await freePort();
    const server = spawn(process.execPath, ["build/index.js"], { cwd: dir, stdio: "ignore", env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" } });
    try {
      const url = `http://127.0.0.1:${port}/`;
      await answers(url, "the SvelteKit server");
      await checkServerRendered(url);
      const fetched = await checkHydrated(url);
      sizes.sveltekit = gzippedSize(dir, fetched, (path) => join(dir, "build/client", path));
    } finally {
      server.kill();
    }
  },
  // Astro: the page's frontmatter imports the element (run on the server when Astro renders the
  // page at build), and its client <script> imports it again and sets the records the frontmatter
  // made. Astro's static build, served under www/serve.mjs's strict Content-Security-Policy.
  astro: async () => {
    const dir = app("astro", {
      "package.json": JSON.stringify({ name: "astro-app", private: true, type: "module" }),
      "astro.config.mjs": "export default {};\n",
      "src/pages/index.astro": `---
import "chat-display/element";
import { toDisplayMessages } from "chat-display";
${convert}
---
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body>
<chat-transcript></chat-transcript>
<script type="application/json" id="records" set:html={JSON.stringify(records).replaceAll("<", "\\\\u003c")}></script>
<script>
  import "chat-display/element";
  document.querySelector("chat-transcript").records = JSON.parse(document.getElementById("records").textContent);
  document.body.dataset.hydrated = "true";
</script>
</body></html>
`,
    });
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(repo, "node_modules/astro"), join(dir, "node_modules/astro"), "dir");
    run(process.execPath, [join(repo, "node_modules/astro/astro.js"), "build", "--silent"], dir, { ASTRO_TELEMETRY_DISABLED: "1" });
    const { server, url } = await startServer({ port: 0, mounts: [["/", join(dir, "dist")]] });
    try {
      await checkServerRendered(url);
      const fetched = await checkHydrated(url);
      sizes.astro = gzippedSize(join(dir, "dist"), fetched);
    } finally {
      server.close();
    }
  },

  // Node and the other runtimes.
  "node-esm": () => {
    const dir = app("node-esm", { "main.mjs": `import { toDisplayMessages } from "chat-display";\n${convert}\nconsole.log(JSON.stringify(records));\n` });
    nodeCheck(run(process.execPath, ["main.mjs"], dir));
  },
  "node-cjs": () => {
    const dir = app("node-cjs", { "main.cjs": `const { toDisplayMessages } = require("chat-display");\n${convert}\nconsole.log(JSON.stringify(records));\n` });
    nodeCheck(run(process.execPath, ["main.cjs"], dir));
  },
  "server-bundle": () => {
    const main = `import init, { toDisplayMessages } from "chat-display";\nawait init();\n${convert}\nconsole.log(JSON.stringify(records));\n`;
    const dir = app("server-bundle", { "main.mjs": main, "webpack.config.cjs": `module.exports = { mode: "production", target: "node20", entry: "./main.mjs", experiments: { outputModule: true }, output: { module: true, filename: "main.mjs", path: __dirname + "/webpack" } };\n` });
    // Bundled away from node_modules, as a server deploys them: neither finds a file beside the glue.
    run(bin("esbuild"), ["main.mjs", "--bundle", "--platform=node", "--format=esm", "--outfile=esbuild/main.mjs", "--log-level=warning"], dir);
    run(bin("webpack"), ["--config", "webpack.config.cjs"], dir);
    const moved = join(scratch, "consumers-moved");
    rmSync(moved, { recursive: true, force: true });
    mkdirSync(moved);
    for (const tool of ["esbuild", "webpack"]) {
      writeFileSync(join(moved, `${tool}.mjs`), readFileSync(join(dir, tool, "main.mjs")));
      nodeCheck(run(process.execPath, [`${tool}.mjs`], moved));
    }
  },
  vitest: () => {
    const dir = app("vitest", {
      "vitest.config.mjs": `export default { test: { environment: "jsdom" } };\n`,
      "records.test.js": `import { test, expect } from "vitest";\nimport init, { toDisplayMessages } from "chat-display";\ntest("renders", async () => {\n  await init();\n  ${convert}\n  expect(JSON.stringify(records)).toBe(${JSON.stringify(expected)});\n  expect(typeof document).toBe("object");\n});\n`,
    });
    run(bin("vitest"), ["run", "--reporter=dot"], dir);
  },
  jest: () => {
    const dir = app("jest", {
      "jest.config.cjs": `module.exports = { testEnvironment: ${JSON.stringify(join(repo, "node_modules/jest-environment-jsdom"))} };\n`,
      "records.test.js": `const { toDisplayMessages } = require("chat-display");\ntest("renders", () => {\n  ${convert}\n  expect(JSON.stringify(records)).toBe(${JSON.stringify(expected)});\n  expect(typeof document).toBe("object");\n});\n`,
    });
    run(process.execPath, [join(repo, "node_modules/jest/bin/jest.js"), "--ci", "--silent"], dir);
  },
  bun: () => {
    const dir = app("bun", { "main.mjs": `import init, { toDisplayMessages } from "chat-display";\nawait init();\n${convert}\nconsole.log(JSON.stringify(records));\n` });
    nodeCheck(run(bin("bun"), ["main.mjs"], dir));
  },
  deno: () => {
    // No --allow-read: the module's bytes come with the JavaScript.
    const dir = app("deno", { "main.mjs": `import init, { toDisplayMessages } from "chat-display";\nawait init();\n${convert}\nconsole.log(JSON.stringify(records));\n` });
    nodeCheck(run(bin("deno"), ["run", "--no-prompt", "--node-modules-dir=manual", "main.mjs"], dir, { DENO_NO_UPDATE_CHECK: "1" }));
  },

  // chat-display/element where there is no DOM: import (and require) it, then make one.
  "node-element": () => {
    const dir = app("node-element", { "main.mjs": elementServer("import"), "main.cjs": elementServer("require"), "empty.cjs": "" });
    elementCheck(run(process.execPath, ["main.mjs"], dir), "pkg/element/index.js");
    elementCheck(run(process.execPath, ["main.cjs"], dir), "js/element.cjs");
  },
  "bun-element": () => {
    const dir = app("bun-element", { "main.mjs": elementServer("import"), "main.cjs": elementServer("require"), "empty.cjs": "" });
    elementCheck(run(bin("bun"), ["main.mjs"], dir), "pkg/element/index.js");
    elementCheck(run(bin("bun"), ["main.cjs"], dir), "js/element.cjs");
  },
  "deno-element": () => {
    const dir = app("deno-element", { "main.mjs": elementServer("import"), "empty.cjs": "" });
    elementCheck(run(bin("deno"), ["run", "--no-prompt", "--node-modules-dir=manual", "main.mjs"], dir, { DENO_NO_UPDATE_CHECK: "1" }),
      "pkg/element/index.js");
  },

  // TypeScript: each setting type-checks a consumer, then the compiled or stripped file runs.
  ...Object.fromEntries(["bundler", "node16", "nodenext"].map((resolution) => [`ts-${resolution}`, () => {
    const moduleOption = resolution === "bundler" ? "esnext" : resolution;
    const dir = app(`ts-${resolution}`, {
      "package.json": JSON.stringify({ type: "module" }),
      "main.ts": tsConsumer(resolution === "bundler"),
      "cjs.cts": tsCjsConsumer,
      "tsconfig.json": JSON.stringify({ compilerOptions: {
        module: moduleOption, moduleResolution: resolution, target: "es2022", strict: true, skipLibCheck: false,
        // A browser app has the DOM's types; a Node program has Node's and no DOM.
        ...(resolution === "bundler" ? { lib: ["es2022", "dom"], types: [] }
          : { lib: ["es2022"], types: ["node"], typeRoots: [join(repo, "node_modules/@types")] }),
        outDir: "out",
        esModuleInterop: true,
      }, files: resolution === "bundler" ? ["main.ts"] : ["main.ts", "cjs.cts"] }),
    });
    run(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", "."], dir);
    if (resolution !== "bundler") {
      nodeCheck(run(process.execPath, ["out/main.js"], dir));
      nodeCheck(run(process.execPath, ["out/cjs.cjs"], dir));
    }
  }])),
};

/** The Next.js app of the next and next-element rows, built and started once for both: `/` is a
 * server page that converts the fixture and a client component whose browser code is
 * browserMain; `/element` is a server page that converts it and passes the records to a client
 * component that renders <chat-transcript> with a top-level import "chat-display/element". */
let nextServer;
let nextBuilt;
function nextApp() {
  nextBuilt ??= (async () => {
    const dir = app("next", {
      "package.json": JSON.stringify({ name: "next-app", private: true }),
      // Only because next, react and react-dom are links to the repository's node_modules, outside
      // the app's folder, which Turbopack resolves no further than its root by default.
      "next.config.mjs": 'export default { turbopack: { root: "/" }, outputFileTracingRoot: "/" };\n',
      "app/layout.js": "export default function Layout({ children }) { return <html><head><link rel=\"icon\" href=\"data:,\" /></head><body>{children}</body></html>; }\n",
      // A client page: the module runs in the browser; the server page renders a record in its HTML.
      "app/client.js": `"use client";\nimport { useEffect } from "react";\nexport default function Client() {\n  useEffect(() => { import("./browser.js"); }, []);\n  return null;\n}\n`,
      "app/browser.js": browserMain,
      "app/page.js": `import { toDisplayMessages } from "chat-display";\nimport Client from "./client.js";\nexport default function Page() {\n  ${convert}\n  return <><pre id="server">{JSON.stringify(records)}</pre><Client /></>;\n}\n`,
      // Rendered by next start at each request (not prerendered by next build), so that the
      // running server evaluates the client component's import.
      "app/element/page.js": `import { toDisplayMessages } from "chat-display";\nimport Chat from "./chat.js";\nexport const dynamic = "force-dynamic";\nexport default function Page() {\n  ${convert}\n  return <Chat records={records} />;\n}\n`,
      // The records are set in an effect, not as a \`records={records}\` prop: React 19 (19.3 as
      // Next.js 16.5 bundles it) sets a custom element's properties and oncd-* listeners when it
      // creates the element on the client, but not when it hydrates one the server rendered, so a
      // prop would leave the element empty until a re-render changed it.
      "app/element/chat.js": `"use client";
import "chat-display/element";
import { useEffect, useRef } from "react";
export default function Chat({ records }) {
  const view = useRef(null);
  useEffect(() => {
    view.current.records = records;
    document.body.dataset.hydrated = "true";
  }, [records]);
  return <chat-transcript ref={view} style={{ display: "block", height: "480px" }} />;
}
`,
    });
    mkdirSync(join(dir, "node_modules"));
    for (const name of ["next", "react", "react-dom"]) symlinkSync(join(repo, "node_modules", name), join(dir, "node_modules", name), "dir");
    run(bin("next"), ["build"], dir, { NEXT_TELEMETRY_DISABLED: "1" });
    const port = await freePort();
    nextServer = spawn(bin("next"), ["start", "-p", String(port)], { cwd: dir, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    const url = `http://127.0.0.1:${port}/`;
    await answers(url, "next start");
    return { dir, url };
  })();
  return nextBuilt;
}

/** A server program that imports (or requires) chat-display/element where there is no DOM and
 * prints what happened: the globals it added, what it exports, the file it resolved to, and what
 * making a ChatTranscript throws. The element is loaded first, before chat-display, so that any
 * global either would define counts. What is counted from starts after the program has loaded a
 * CommonJS file of its own (empty.cjs): the first CommonJS module Deno loads, whatever it is, makes
 * Deno define a global of its own (nodeBootstrap), and the package's Node entries are CommonJS. */
const elementServer = (how) => `const keys = () => Reflect.ownKeys(globalThis).map(String);
${how === "import" ? 'await import("./empty.cjs")' : 'require("./empty.cjs")'};
const before = new Set(keys());
const element = ${how === "import" ? 'await import("chat-display/element")' : 'require("chat-display/element")'};
const added = keys().filter((key) => !before.has(key));
const { isChatDisplayError } = ${how === "import" ? 'await import("chat-display")' : 'require("chat-display")'};
let thrown = null;
try {
  new element.ChatTranscript();
} catch (error) {
  thrown = { name: error.name, code: error.code, isChatDisplayError: isChatDisplayError(error), browserOnly: error.message.includes("browser-only") };
}
console.log(JSON.stringify({
  resolved: ${how === "import" ? 'import.meta.resolve("chat-display/element")' : 'require.resolve("chat-display/element")'}.split("/node_modules/chat-display/")[1],
  added, customElements: typeof customElements, HTMLElement: typeof HTMLElement,
  exports: Object.keys(element).filter((key) => key !== "__esModule").sort(), ChatTranscript: typeof element.ChatTranscript, thrown,
}));
`;
function elementCheck(out, file) {
  assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), {
    resolved: file, added: [], customElements: "undefined", HTMLElement: "undefined",
    exports: ["ChatTranscript"], ChatTranscript: "function",
    thrown: { name: "ChatDisplayError", code: "invalid_input", isChatDisplayError: true, browserOnly: true },
  });
}

/** Waits until `url` answers (a server just started). */
async function answers(url, what) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer in 20 s`);
}

/** The page's HTML as the server sends it: rendered (the server evaluated the page's import of
 * chat-display/element) and holding the <chat-transcript> tag. */
async function checkServerRendered(url) {
  const response = await fetch(url);
  const body = await response.text();
  assert.equal(response.status, 200, `the server renders the page: ${body.slice(0, 300)}`);
  assert.ok(/<chat-transcript[\s>]/.test(body), "the server's HTML holds <chat-transcript>");
}

/** The page in Chromium: the framework hydrated (the app sets body[data-hydrated]), the element
 * from the server's HTML is registered and upgraded, its shadow root shows the records, and
 * nothing went to the console as an error (a hydration mismatch would). Returns the paths the
 * page fetched. */
async function checkHydrated(url) {
  browser ??= await launchBrowser();
  const problems = [];
  const fetched = new Set();
  const listen = (request) => request.url().startsWith(url) && fetched.add(new URL(request.url()).pathname);
  browser.context.on("request", listen);
  const tab = await openPage(browser.context, url, problems);
  try {
    await tab.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 30_000 });
    const shown = await tab.waitForFunction((text) => {
      const view = document.querySelector("chat-transcript");
      return view?.shadowRoot?.textContent.includes(text) && {
        defined: customElements.get("chat-transcript") === view.constructor,
        records: view.records.length,
        elements: document.querySelectorAll("chat-transcript").length,
      };
    }, fixture.records[0].content.text, { timeout: 30_000 }).then((handle) => handle.jsonValue());
    assert.deepEqual(shown, { defined: true, records: fixture.records.length, elements: 1 }, "the server's element, upgraded and showing the records");
  } finally {
    await tab.close();
    browser.context.off("request", listen);
  }
  assert.deepEqual(problems, [], "no console error, no page error");
  return fetched;
}

// A TypeScript consumer: the default import, a record narrowed on content_type, init typed as
// what it resolves to (the module's exports in browsers, nothing in Node).
const tsConsumer = (browser) => `import init, { toDisplayMessages, Transcript${browser ? ", type InitOutput" : ""} } from "chat-display";
const ready: ${browser ? "InitOutput" : "void"} = await init();
${convert}
for (const record of records) {
  if (record.content_type === "tool_call") {
    const name: string | null = record.content.name;
    void name;
  }
}
const transcript = Transcript.fromJson(JSON.stringify(records));
const held = transcript.records(0, 1)[0];
if (held?.content_type === "text") {
  // Narrowed: content is not null and has text (a held record's is any JSON value).
  const text = held.content.text;
  console.error(typeof text === "string" ? text.length : text);
}
transcript.free();
void ready;
console.log(JSON.stringify(records));
`;
// The CommonJS consumer also requires chat-display/element: what Node gives it there, the stand-in
// (js/element.cjs), typed by js/element.d.cts with no DOM types, as a class that cannot be made.
const tsCjsConsumer = `import init, { toDisplayMessages } from "chat-display";
import { ChatTranscript } from "chat-display/element";
void init().then((ready: void) => ready);
const standIn: new () => never = ChatTranscript;
try {
  new standIn();
} catch (error) {
  console.error(String(error));
}
${convert}
console.log(JSON.stringify(records));
`;

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

for (const row of rows) {
  const check = consumers[row.id];
  test(`consumer ${row.id}: ${row.consumer}`, { skip: only && !only.includes(row.id) }, async () => {
    assert.ok(check, `a check for ${row.id}`);
    const start = Date.now();
    await check();
    console.log(`# ${row.id}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  });
}

test("every check is a row of the table (tests/packaging/consumers.json)", () => {
  assert.deepEqual(Object.keys(consumers).sort(), rows.map((r) => r.id).sort());
  assert.ok(existsSync(join(repo, "README-npm.md")));
});
