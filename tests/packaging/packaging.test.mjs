// The package as users install it in browsers: scripts/test.sh installs the packed tarball into a
// scratch project (PACKAGE_SCRATCH) and this file builds a stock Vite app on it and writes a plain
// <script type="module"> page without a bundler, then runs both in headless Chromium (or the engine
// BROWSER= names) under a strict CSP. Each calls extractDisplayItems on the seed 000 example and
// checks the output.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../../www/serve.mjs";
import { engine, launchBrowser, openPage } from "../support/browser.mjs";

const scratch = process.env.PACKAGE_SCRATCH;
const repo = fileURLToPath(new URL("../..", import.meta.url));
const [seed] = JSON.parse(readFileSync(join(repo, "tests/fixtures/extract_display_items.json"), "utf8"));

// The app code the pages run: the seed example through the installed package (its main entry,
// or `entry`).
const appSource = (entry = "chat-display") => `import init, { extractDisplayItems } from "${entry}";
const seed = ${JSON.stringify(seed.message)};
try {
  await init();
  document.body.dataset.result = JSON.stringify(extractDisplayItems(seed));
} catch (error) {
  document.body.dataset.result = "error: " + error;
}
`;

let browser;
before(async () => {
  assert.ok(scratch, "PACKAGE_SCRATCH names the scratch project with the tarball installed");
  browser = await launchBrowser();
});
after(async () => browser?.close());

async function resultOf(url) {
  const problems = [];
  const page = await openPage(browser.context, url, problems);
  await page.waitForSelector("body[data-result]", { state: "attached" });
  const result = await page.getAttribute("body", "data-result");
  await page.close();
  assert.deepEqual(problems, []);
  return result;
}

/** Builds a stock Vite app (no plugin) whose code imports `entry`, and runs it. */
async function viteApp(name, entry) {
  const app = join(scratch, name);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>' +
    '<body><script type="module" src="/main.js"></script></body></html>');
  writeFileSync(join(app, "main.js"), appSource(entry));
  execFileSync(process.execPath, [join(repo, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"],
    { cwd: app, stdio: "inherit" });
  const { server, url } = await startServer({ port: 0, mounts: [["/", join(app, "dist")]] });
  try {
    assert.equal(await resultOf(url), JSON.stringify(seed.items));
  } finally {
    server.close();
  }
  return app;
}

test("a stock Vite app (no plugin) bundles the package and runs it", async () => {
  await viteApp("vite-app", "chat-display");
});

for (const name of ["core", "display"]) {
  test(`a Vite app of the ${name} entry bundles its smaller module only`, async () => {
    const wasmOf = (app) => readdirSync(join(app, "dist/assets")).filter((f) => f.endsWith(".wasm"))
      .map((f) => readFileSync(join(app, "dist/assets", f)));
    const bundled = wasmOf(await viteApp(`vite-${name}-app`, `chat-display/${name}`));
    assert.equal(bundled.length, 1);
    assert.deepEqual(bundled[0], readFileSync(join(scratch, `node_modules/chat-display/pkg/${name}/web/chat_display_bg.wasm`)));
    const full = readFileSync(join(scratch, "node_modules/chat-display/pkg/web/chat_display_bg.wasm"));
    assert.ok(bundled[0].length < full.length);
  });
}

/** A plain page that maps `entry` to the module file `path` with an import map, and runs it. */
async function plainPage(name, entry, path) {
  const page = join(scratch, name);
  mkdirSync(page, { recursive: true });
  writeFileSync(join(page, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">' +
    `<script type="importmap">{"imports": {"${entry}": "/node_modules/chat-display/${path}"}}</script>` +
    '<script type="module" src="/main.js"></script></head><body></body></html>');
  writeFileSync(join(page, "main.js"), appSource(entry));
  const { server, url } = await startServer({
    port: 0,
    mounts: [["/node_modules/", join(scratch, "node_modules")], ["/", page]],
  });
  try {
    assert.equal(await resultOf(url), JSON.stringify(seed.items));
  } finally {
    server.close();
  }
}

test("a plain <script type=module> page imports the package through an import map", async () => {
  await plainPage("plain", "chat-display", "pkg/web/chat_display.js");
});

for (const name of ["core", "display"]) {
  test(`a plain page imports the ${name} entry through an import map`, async () => {
    await plainPage(`plain-${name}`, `chat-display/${name}`, `pkg/${name}/web/chat_display.js`);
  });
}

test(`recovery in ${engine}: every export survives every kind of bad input (tests/js/recovery.shared.mjs)`, async () => {
  const page = join(scratch, "recovery");
  mkdirSync(page, { recursive: true });
  writeFileSync(join(page, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">' +
    '<script type="importmap">{"imports": {"chat-display": "/node_modules/chat-display/pkg/web/chat_display.js"}}</script>' +
    '<script type="module" src="/main.js"></script></head><body></body></html>');
  writeFileSync(join(page, "main.js"), `import init, * as api from "chat-display";
import { runPassThrough, runRecovery } from "/shared/recovery.shared.mjs";
await init();
const { failures, calls } = runRecovery(api);
failures.push(...runPassThrough(api));
document.body.dataset.result = JSON.stringify({ failures, calls });
`);
  const { server, url } = await startServer({
    port: 0,
    mounts: [["/node_modules/", join(scratch, "node_modules")], ["/shared/", join(repo, "tests/js")], ["/", page]],
  });
  try {
    const { failures, calls } = JSON.parse(await resultOf(url));
    assert.ok(calls > 500, `${calls} calls`);
    assert.deepEqual(failures, []);
  } finally {
    server.close();
  }
});
