// Browser tests of the viewer page (www/) as `npm start` serves it, in Debian's headless Chromium
// driven by playwright-core.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "../../scripts/serve.mjs";
import { launchBrowser, openPage } from "../support/browser.mjs";

let server, url, browser;
const problems = [];

before(async () => {
  ({ server, url } = await startServer({ port: 0 }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openViewer() {
  const page = await openPage(browser.context, url, problems);
  await page.waitForSelector("body[data-ready]");
  return page;
}

test("the viewer renders the sample conversation by content type under a strict CSP", async () => {
  problems.length = 0;
  const page = await openViewer();
  assert.equal(await page.getAttribute("body", "data-ready"), "true", await page.textContent("#summary"));
  const roles = await page.$$eval("section.message", (s) => s.map((e) => e.dataset.role));
  assert.deepEqual(roles, ["user", "assistant", "tool", "assistant"]);
  const types = await page.$$eval(".record", (r) => r.map((e) => e.dataset.contentType));
  assert.deepEqual(types, ["text", "thinking", "text", "tool_call", "tool_call", "tool_result", "tool_result", "text"]);
  assert.match(await page.textContent("#summary"), /8 records from 4 messages/);
  // Thinking is collapsed by default.
  assert.equal(await page.$eval("details.thinking", (d) => d.open), false);
  // Tool call statuses come from the results: Paris completed, Berlin failed.
  const badges = await page.$$eval(".tool_call .badge", (b) => b.map((e) => e.textContent));
  assert.deepEqual(badges, ["completed", "failed"]);
  assert.equal(await page.$$eval(".tool_result.error", (e) => e.length), 1);
  assert.match(await page.textContent(".tool_call .arguments"), /"city": "Paris"/);
  assert.match(await page.textContent(".tool_call .display-text"), /Checking the weather in Paris/);
  const csp = (await page.request.get(url)).headers()["content-security-policy"];
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  assert.deepEqual(problems, []);
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
  await page.close();
});

test("the server refuses paths outside www/ and pkg/", async () => {
  for (const path of ["../Cargo.toml", "%2e%2e/Cargo.toml", "pkg/../../Cargo.toml"]) {
    const res = await fetch(url + path);
    assert.notEqual(res.status, 200, path);
  }
  const wasm = await fetch(url + "pkg/chat_display_bg.wasm");
  assert.equal(wasm.headers.get("content-type"), "application/wasm");
});
