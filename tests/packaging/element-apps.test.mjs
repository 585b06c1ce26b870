// chat-display/element in apps as users build them, on the packed package: the React and Vue
// examples (examples/react, examples/vue) and a plain Vite app showing a 10,000-message
// conversation. Each is copied into the scratch project of scripts/test.sh (PACKAGE_SCRATCH, where
// the tarball is installed), built with the repository's Vite, served under the strict CSP of
// www/serve.mjs and checked in headless Chromium: the records render in the element's shadow
// root and the console stays clean. The React and Vue examples also give the element a renderer of
// their own for the get_weather tool (a card built with textContent) and a "Retry" action beside
// Copy, whose cd-action handler writes a line in the page: both are checked through the DOM.
//
// An example's other dependencies (react, vue, their Vite plugins, vite) are the repository's own
// devDependencies, linked into the copy's node_modules, so that no run downloads anything; each
// example must ask for the versions the repository tests with. Run alone (no PACKAGE_SCRATCH),
// the file packs pkg/ as it is built (`npm run build` first) into a scratch project of its own.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startServer } from "../../www/serve.mjs";
import { engine, launchBrowser } from "../support/browser.mjs";
import { conversation } from "../../bench/generate.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
const vite = join(repo, "node_modules/vite/bin/vite.js");

let scratch = process.env.PACKAGE_SCRATCH;
let ownScratch = null;
let browser;

before(async () => {
  if (!scratch) {
    scratch = ownScratch = mkdtempSync(join(tmpdir(), "chat-display-element-apps-"));
    execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", scratch], { cwd: repo, stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(join(scratch, "package.json"), '{"name": "scratch", "private": true, "type": "module"}');
    const tarball = readdirSync(scratch).find((f) => /^chat-display-.*\.tgz$/.test(f));
    execFileSync("npm", ["install", "--silent", "--no-audit", "--no-fund", `./${tarball}`], { cwd: scratch, stdio: "inherit" });
  }
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  if (ownScratch) rmSync(ownScratch, { recursive: true, force: true });
});

/**
 * Copies examples/`name` into the scratch project (chat-display resolves to the installed
 * tarball there) and links its other dependencies from the repository's node_modules.
 */
function copyExample(name) {
  const source = join(repo, "examples", name);
  const app = join(scratch, `example-${name}`);
  rmSync(app, { recursive: true, force: true });
  cpSync(source, app, { recursive: true, filter: (path) => !/^(node_modules|dist)$/.test(relative(source, path).split(/[\\/]/)[0]) });
  const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  for (const [dependency, range] of Object.entries({ ...dependencies, ...devDependencies })) {
    if (dependency === "chat-display") {
      assert.equal(range, `^${rootPackage.version}`, `examples/${name} asks for this version of chat-display`);
      continue;
    }
    const tested = rootPackage.devDependencies[dependency];
    assert.ok(tested, `${dependency} (examples/${name}) is a devDependency of the repository`);
    assert.equal(range, `^${tested}`, `examples/${name} asks for the ${dependency} the repository tests with`);
    const link = join(app, "node_modules", dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(repo, "node_modules", dependency), link, "dir");
  }
  return app;
}

/** Builds the Vite app in `app` and serves its dist; resolves to `{server, url}`. */
function buildAndServe(app) {
  execFileSync(process.execPath, [vite, "build", "--logLevel", "error"], { cwd: app, stdio: "inherit" });
  return startServer({ port: 0, mounts: [["/", join(app, "dist")]] });
}

/**
 * Opens `url` and collects console errors, page errors and failed requests into `problems`, all
 * but the 404 of /favicon.ico that Chromium asks for on its own (the examples have no icon).
 */
async function open(url, problems) {
  const page = await browser.context.newPage();
  const favicon = new URL("/favicon.ico", url).href;
  page.on("console", (m) => { if (m.type() === "error" && m.location().url !== favicon) problems.push(`${m.text()} (${m.location().url})`); });
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(url);
  return page;
}

/** The weather conversation both examples show, as the element renders it: the get_weather call
 * as the examples' own card (renderers["tool:get_weather"], src/weather-card.ts), holding the
 * tool's result, in place of the element's tool row. */
async function assertWeatherRendered(page) {
  const transcript = page.locator("chat-transcript");
  // Playwright's CSS locators pierce open shadow roots: all of this is inside the element's.
  await transcript.getByText("Is it warm in Lisbon today?").waitFor();
  await transcript.locator("strong", { hasText: "24 °C" }).waitFor(); // the assistant's Markdown
  await transcript.locator(".weather-card").waitFor();
  const shown = await page.evaluate(() => {
    const element = document.querySelector("chat-transcript");
    const card = element.shadowRoot.querySelector(".weather-card");
    return {
      light: element.childNodes.length,
      rows: element.shadowRoot.querySelectorAll(".row:not([hidden])").length,
      records: element.records.length,
      text: element.shadowRoot.textContent,
      card: [...card.children].map((child) => [child.localName, child.textContent]),
      part: card.getAttribute("part"),
      renderer: card.closest("[data-renderer]")?.dataset.renderer ?? null,
      toolHeads: element.shadowRoot.querySelectorAll(".tool-head").length,
      // Styled from the page through its part (src/index.css): a border only that rule gives it.
      border: getComputedStyle(card).borderTopStyle,
    };
  });
  assert.equal(shown.light, 0, "the element's content is all in its shadow root");
  assert.equal(shown.records, 4);
  assert.equal(shown.rows, 3, "user text, the tool call with its result, the reply");
  assert.match(shown.text, /Yes: 24 °C and sunny in Lisbon\./);
  assert.deepEqual(shown.card, [["strong", "Weather in Lisbon"], ["p", "24 °C, sunny"]],
    "the example's card for get_weather, with the call's argument and its result");
  assert.equal(shown.renderer, "tool:get_weather");
  assert.equal(shown.part, "weather-card");
  assert.equal(shown.border, "solid", "the page's chat-transcript::part(weather-card) rule reaches the card");
  assert.equal(shown.toolHeads, 0, "the card replaces the element's own tool row");
}

/** The examples' actions: Copy and Retry under the reply; Retry's cd-action handler (React's
 * `oncd-action` prop, Vue's onCdAction) writes #action-log in the page. */
async function assertRetryAction(page) {
  const transcript = page.locator("chat-transcript");
  const buttons = transcript.locator(".row:not([hidden]) button.action");
  await buttons.first().waitFor();
  assert.deepEqual(await buttons.evaluateAll((all) => all.map((b) => [b.dataset.action, b.textContent])),
    [["copy", "Copy"], ["retry", "Retry"]], "Copy and the example's Retry, once, under the reply");
  assert.equal(await page.locator("#action-log").textContent(), "");
  await transcript.locator('button.action[data-action="retry"]').click();
  await page.waitForFunction(() => document.querySelector("#action-log").textContent !== "");
  assert.equal(await page.locator("#action-log").textContent(), "Retry asked for the message at record 3.",
    "the handler got cd-action with the reply's first record");
}

for (const name of ["react", "vue"]) {
  test(`the ${name} example (examples/${name}) builds with Vite on the packed package and renders in ${engine}`, async () => {
    const { server, url } = await buildAndServe(copyExample(name));
    const problems = [];
    try {
      const page = await open(url, problems);
      await assertWeatherRendered(page);
      await assertRetryAction(page);
      if (name === "react") {
        // React 19 passed `records` as a property, not as an attribute.
        assert.equal(await page.evaluate(() => document.querySelector("chat-transcript").hasAttribute("records")), false);
      }
      await page.close();
    } finally {
      server.close();
    }
    assert.deepEqual(problems, []);
  });
}

// ---------------------------------------------------------------------------------------------
// A plain Vite app (no framework) with a 10,000-message conversation from bench/generate.mjs in
// its public folder, opened through the element's `src` attribute on a button click.

const bigApp = {
  "index.html": `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <link rel="icon" href="data:,">
    <title>10,000 messages</title>
  </head>
  <body>
    <header>
      <button id="open" type="button">Open the conversation</button>
      <button id="ping" type="button">Ping</button>
    </header>
    <chat-transcript></chat-transcript>
    <script type="module" src="/main.js"></script>
  </body>
</html>
`,
  "style.css": `body { margin: 0; }
header { block-size: 3rem; }
chat-transcript { block-size: calc(100vh - 3rem); }
`,
  "main.js": `import "chat-display/element";
import "./style.css";

const transcript = document.querySelector("chat-transcript");
const log = (window.appLog = { started: null, loaded: null, counts: null, error: null, pings: [] });
transcript.addEventListener("cd-load", (event) => {
  log.loaded = performance.now();
  log.counts = event.detail;
});
transcript.addEventListener("cd-error", (event) => {
  log.error = String(event.detail?.message ?? event.detail);
});
document.querySelector("#open").addEventListener("click", () => {
  log.started = performance.now();
  transcript.setAttribute("src", "conversation.json");
});
// When each click happened and when its handler ran, in the page's clock.
document.querySelector("#ping").addEventListener("click", (event) => {
  log.pings.push({ at: event.timeStamp, ran: performance.now() });
});
`,
};

/** The row that shows record `i`: a tool result that pairs with a call shows in the call's row. */
function rowOf(records, i) {
  const record = records[i];
  if (record.content_type !== "tool_result" || typeof record.tool_call_id !== "string") return i;
  for (let j = i - 1; j >= Math.max(0, i - 256); j--) {
    if (records[j].content_type === "tool_call" && records[j].tool_call_id === record.tool_call_id) return j;
  }
  return i;
}

/** Resolves when the row for record `index` is in the DOM and inside the element's viewport. */
function rowInView(page, index) {
  return page.waitForFunction((index) => {
    const root = document.querySelector("chat-transcript").shadowRoot;
    const row = root.querySelector(`.row[data-index="${index}"]:not([hidden])`);
    if (!row) return false;
    const r = row.getBoundingClientRect();
    const view = root.querySelector(".scroller").getBoundingClientRect();
    return r.height > 0 && r.bottom > view.top && r.top < view.bottom;
  }, index);
}

const elementCount = (page) => page.evaluate(() => document.querySelector("chat-transcript").shadowRoot.querySelectorAll("*").length);

test("a Vite app on the packed package shows a 10,000-message conversation through <chat-transcript src>: painted, windowed, reachable, responsive", async (t) => {
  const app = join(scratch, "element-10k-app");
  mkdirSync(join(app, "public"), { recursive: true });
  for (const [file, text] of Object.entries(bigApp)) writeFileSync(join(app, file), text);
  const messages = conversation(10_000);
  writeFileSync(join(app, "public/conversation.json"), JSON.stringify(messages));
  const { toDisplayMessages } = await import(pathToFileURL(join(scratch, "node_modules/chat-display/js/node.mjs")));
  const records = toDisplayMessages(messages);
  const last = records.length - 1;

  const { server, url } = await buildAndServe(app);
  const problems = [];
  try {
    const page = await open(url, problems);
    const ping = await page.locator("#ping").boundingBox();
    await page.click("#open");
    // Click Ping again and again while the conversation loads, until it has loaded.
    const deadline = Date.now() + 60_000;
    let state;
    do {
      await page.mouse.click(ping.x + ping.width / 2, ping.y + ping.height / 2);
      state = await page.evaluate(() => ({ loaded: window.appLog.loaded !== null, error: window.appLog.error }));
    } while (!state.loaded && !state.error && Date.now() < deadline);
    const log = await page.evaluate(() => window.appLog);
    assert.equal(log.error, null);
    assert.deepEqual(log.counts, { records: records.length, messages: records.filter((r) => r.sequence === 0).length, errors: 0 });

    // The page answered clicks made while the element loaded, each within a second.
    const during = log.pings.filter((p) => p.at >= log.started && p.at < log.loaded);
    assert.ok(during.length > 0, `a Ping click during the load (${log.pings.length} clicks, load ${Math.round(log.loaded - log.started)} ms)`);
    const slowest = Math.max(...log.pings.map((p) => p.ran - p.at));
    assert.ok(slowest < 1000, `the slowest click took ${Math.round(slowest)} ms to run`);
    t.diagnostic(`${records.length} records loaded in ${Math.round(log.loaded - log.started)} ms; ` +
      `${during.length} of ${log.pings.length} Ping clicks during the load, the slowest ran after ${Math.round(slowest)} ms`);

    // The first rows are painted: the system prompt, in view.
    await page.locator("chat-transcript").getByText(messages[0].content).waitFor();
    await rowInView(page, 0);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const atStart = await elementCount(page);
    assert.ok(atStart > 10 && atStart <= 3000, `${atStart} elements in the shadow root at the start`);
    t.diagnostic(`first rows painted, ${atStart} elements in the shadow root`);

    // The middle and the end are reachable, and the DOM stays small.
    for (const index of [Math.floor(last / 2), last]) {
      await page.evaluate((index) => document.querySelector("chat-transcript").scrollToRecord(index), index);
      await rowInView(page, rowOf(records, index));
      const count = await elementCount(page);
      assert.ok(count <= 3000, `${count} elements in the shadow root at record ${index}`);
      t.diagnostic(`record ${index} in view, ${count} elements in the shadow root`);
    }
    // The last record (seed 42: a tool result, shown in its call's row) shows its text when opened.
    const row = rowOf(records, last);
    if (row !== last && typeof records[last].content.content === "string") {
      await page.locator(`chat-transcript .row[data-index="${row}"] .tool-head`).click();
      await page.locator(`chat-transcript .row[data-index="${row}"] [data-record="${last}"]`)
        .getByText(records[last].content.content).waitFor();
    }
    await page.close();
  } finally {
    server.close();
  }
  assert.deepEqual(problems, []);
});
