// The README's browser examples (its ```html blocks, the <chat-transcript> ones; README-npm.md's,
// the registry's README, and docs/ELEMENT.md's, too) run as pasted, in
// headless Chromium: each block is the body of a page served beside the built package (pkg/ at
// /node_modules/chat-display/pkg/, where the README's import maps point, and pkg/web at /pkg/,
// pkg/element at /element/ for a block that brings no import map of its own). Each must render
// records in every <chat-transcript> it has, with no page error, console error, failed or
// outside request, and no `cd-error` event. The ```js blocks run in Node:
// tests/js/readme.test.mjs. Needs `npm run build` first (npm test builds).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../../www/serve.mjs";
import { launchBrowser } from "../support/browser.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const IMPORT_MAP = '<script type="importmap">{"imports": {"chat-display": "/pkg/chat_display.js", ' +
  '"chat-display/element": "/element/index.js"}}</script>';

/**
 * The READMEs' ```html blocks and docs/ELEMENT.md's (its Customizing examples), each with its file,
 * the line it starts on, the heading it is under and, from a first line `<!-- shows: selector -->`,
 * what its element's shadow root must then hold.
 */
const examples = ["README.md", "README-npm.md", "docs/ELEMENT.md"].flatMap((file) => {
  const readme = readFileSync(join(repo, file), "utf8");
  return [...readme.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((m) => {
    const before = readme.slice(0, m.index);
    const heading = [...before.matchAll(/^#+ (.*)$/gm)].pop()?.[1] ?? "";
    const shows = /^<!-- shows: (.*) -->$/m.exec(m[1])?.[1] ?? null;
    return { html: m[1], shows, line: before.split("\n").length + 1, heading: file === "README.md" ? heading : `${file}: ${heading}` };
  });
});

let server, url, browser;

before(async () => {
  ({ server, url } = await startServer({
    port: 0,
    mounts: [
      ["/node_modules/chat-display/pkg/", join(repo, "pkg")],
      ["/pkg/", join(repo, "pkg", "web")],
      ["/element/", join(repo, "pkg", "element")],
    ],
  }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** The page for one example: the block as the body, with the test's import map when it has none. */
function pageFor(html) {
  const head = /<script type="importmap">/.test(html) ? "" : IMPORT_MAP;
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n` +
    `<title>README example</title>\n${head}\n</head>\n<body>\n${html}</body>\n</html>\n`;
}

test("the README has browser examples of the element, and docs/ELEMENT.md its four customizations", () => {
  assert.ok(examples.length >= 1);
  assert.equal(examples.filter((e) => e.heading === "docs/ELEMENT.md: Customizing" && e.shows).length, 4);
  for (const { html, line } of examples) assert.match(html, /<chat-transcript/, `the html block at line ${line}`);
});

for (const [i, { html, shows, line, heading }] of examples.entries()) {
  test(`README browser example "${heading}" (line ${line}) renders records in the element`, async () => {
    const page = await browser.context.newPage();
    const problems = [];
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
    page.on("pageerror", (e) => problems.push(`page error: ${e}`));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.protocol.startsWith("http") && u.host !== new URL(url).host) problems.push(`outside request: ${r.url()}`);
    });
    await page.addInitScript(() => {
      window.__cdErrors = [];
      // cd-error does not bubble; a capturing listener on window still sees it.
      window.addEventListener("cd-error", (e) => window.__cdErrors.push(`${e.detail?.code} ${e.detail?.message}`), true);
    });
    // The page is served by the route (no Content-Security-Policy, so the block's inline module
    // script runs as it would in a page of the reader's own); everything it loads comes from the
    // server.
    const address = `${url}readme-example-${i}.html`;
    await page.route(address, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: pageFor(html) }));
    await page.goto(address);
    await page.waitForFunction((shows) => {
      const elements = [...document.querySelectorAll("chat-transcript")];
      return elements.length > 0 && elements.every((t) => t.shadowRoot?.querySelector('[part~="message"]:not([hidden])') &&
        (!shows || t.shadowRoot.querySelector(shows)));
    }, shows, { timeout: 15000 }).catch(() => {});
    const shown = await page.evaluate((shows) => [...document.querySelectorAll("chat-transcript")].map((t) => ({
      defined: customElements.get("chat-transcript") === t.constructor,
      records: t.records.length,
      rows: t.shadowRoot?.querySelectorAll('[part~="message"]:not([hidden])').length ?? 0,
      text: t.shadowRoot?.textContent ?? "",
      shows: shows ? !!t.shadowRoot?.querySelector(shows) : null,
    })), shows);
    const cdErrors = await page.evaluate(() => window.__cdErrors);
    await page.close();
    assert.ok(shown.length > 0, "the example has a <chat-transcript>");
    for (const element of shown) {
      assert.ok(element.defined, "<chat-transcript> is registered");
      assert.ok(element.records > 0, "the element holds records");
      assert.ok(element.rows > 0, "and renders them");
      assert.ok(element.text.trim() !== "", "with text");
      if (shows) assert.equal(element.shows, true, `its shadow root holds ${shows}`);
    }
    assert.deepEqual(cdErrors, [], "no cd-error event");
    assert.deepEqual(problems, []);
  });
}
