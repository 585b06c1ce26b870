// What the element loads, by need (js/element/modules.js): on a page that imports nothing but the
// element, chat-display/display's .wasm when it connects (and nothing more for records), the full
// module's for a provider response, chat-display/core's for records to validate; a module that
// cannot be fetched fails only the load that needs it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageMounts, startServer } from "../../www/serve.mjs";
import { launchBrowser } from "../support/browser.mjs";
import * as cd from "../../js/node.mjs";
import { watchForAttacks, watchPage } from "../support/kit.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
let server, url, browser;

before(async () => {
  ({ server, url } = await startServer({
    port: 0,
    mounts: [
      ...packageMounts,
      ["/", join(repo, "tests/element")],
    ],
  }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

const messages = [{ role: "user", content: "Capital of France?" }, { role: "assistant", content: "Paris." }];
const anthropic = {
  id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "Lyon is second." }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 },
};

/** The bare page, with `wasm` listing which module's .wasm it fetched ("full", "core", "display"). */
async function open({ refuse = null } = {}) {
  const page = await browser.context.newPage();
  const watch = { console: [], dialogs: [], requests: [], wasm: [], chunks: [] };
  await page.addInitScript(watchForAttacks);
  watchPage(page, watch);
  page.on("request", (r) => {
    const m = /\/(pkg|pkg-core|pkg-display)\/chat_display_bg\.wasm$/.exec(r.url());
    if (m) watch.wasm.push({ pkg: "full", "pkg-core": "core", "pkg-display": "display" }[m[1]]);
    const chunk = /\/element\/(input|stream|highlight|math)-[^/]*\.js$/.exec(r.url());
    if (chunk) watch.chunks.push(chunk[1]);
  });
  if (refuse) {
    await page.route((u) => u.pathname === `/${refuse}/chat_display_bg.wasm`, (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "gone" }));
  }
  await page.goto(url + "bare.html");
  await page.waitForSelector("body[data-ready]", { state: "attached" });
  return { page, watch };
}

/** Waits until `count` modules' .wasm have been fetched (at most 10 s), and a little longer for any other. */
async function fetched(page, watch, count) {
  for (let k = 0; k < 200 && watch.wasm.length < count; k++) await page.waitForTimeout(50);
  await page.waitForTimeout(300);
  return watch.wasm;
}

/** The texts of the rows in view. */
const rows = (page) => page.evaluate(async () => {
  for (let k = 0; k < 100 && !t.shadowRoot.querySelector(".row"); k++) await new Promise(requestAnimationFrame);
  return [...t.shadowRoot.querySelectorAll(".row")].map((row) => row.textContent.trim()).filter(Boolean);
});

test("records load the display module alone; a provider response then the full one; records to validate core", async () => {
  const { page, watch } = await open();
  const records = cd.toDisplayMessages(messages, { conversation_id: "c" });
  await page.evaluate((records) => { t.records = records; }, records);
  assert.ok((await rows(page)).some((text) => text.includes("Paris.")));
  assert.deepEqual(await fetched(page, watch, 1), ["display"], "records: only chat-display/display");
  // Messages read as they are: the display module still serves.
  assert.equal((await page.evaluate((m) => t.load(m), messages)).records, 2);
  assert.deepEqual(watch.wasm, ["display"]);
  // A provider's response needs the formats: the full module, once.
  assert.equal((await page.evaluate((body) => t.load(body), anthropic)).records, 1);
  assert.ok((await rows(page)).some((text) => text.includes("Lyon is second.")));
  await page.evaluate((body) => t.load(body), anthropic);
  assert.deepEqual(watch.wasm, ["display", "full"], "the full module, loaded once");
  // Records to validate: the full module, loaded now, does that too; nothing more is fetched.
  assert.equal((await page.evaluate((records) => t.load(records), records)).records, 2);
  assert.deepEqual(watch.wasm, ["display", "full"]);
  assert.deepEqual(watch.console, []);
  assert.deepEqual(watch.requests, []);
  await page.close();
});

test("the element's own parts load by need too: records fetch neither the reader nor the streaming part; load the one, patches the other, once", async () => {
  const { page, watch } = await open();
  const records = cd.toDisplayMessages(messages, { conversation_id: "c" });
  await page.evaluate((records) => { t.records = records; }, records);
  assert.ok((await rows(page)).some((text) => text.includes("Paris.")));
  await fetched(page, watch, 1);
  assert.deepEqual(watch.chunks, [], "a records-only page: nothing beside index.js");
  assert.equal((await page.evaluate((m) => t.load(m), messages)).records, 2);
  assert.equal((await page.evaluate((m) => t.load(m), messages)).records, 2);
  assert.deepEqual(watch.chunks, ["input"], "load: the reader, once");
  // A stream: its last block is held back until the healer arrives, then shown healed, in place.
  const out = await page.evaluate(async () => {
    const base = { conversation_id: "c", message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null };
    t.applyPatches([{ op: "add", record: { ...base, content: { text: "" }, metadata: { streaming: true } } }]);
    t.applyPatches([{ op: "append", index: 0, field: "text", text: "A first paragraph.\n\nA **second" } ], { base: 2 });
    const prose = () => t.shadowRoot.querySelector('.record[data-record="2"] .prose');
    for (let k = 0; k < 200 && !prose()?.querySelector("strong"); k++) await new Promise((r) => setTimeout(r, 25));
    const first = prose().querySelector("p");
    t.applyPatches([{ op: "append", index: 0, field: "text", text: " one** and more." }], { base: 2 });
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    return { html: prose().innerHTML, same: prose().querySelector("p") === first };
  });
  assert.match(out.html, /<p dir="auto">A first paragraph\.<\/p>/);
  assert.match(out.html, /<strong>second one<\/strong> and more\./, "the last block healed while it streamed, then whole");
  assert.equal(out.same, true, "the blocks before the last stay the same nodes");
  assert.deepEqual(watch.chunks, ["input", "stream"], "patches: the streaming part, once");
  assert.deepEqual(watch.console, []);
  await page.close();
});

test("records given to load are validated with chat-display/core when nothing larger is loaded", async () => {
  const { page, watch } = await open();
  const records = cd.toDisplayMessages(messages, { conversation_id: "c" });
  assert.equal((await page.evaluate((records) => t.load(records), records)).records, 2);
  assert.deepEqual(await fetched(page, watch, 2), ["display", "core"], "the display module (loaded when the element connects), then core");
  await page.close();
});

test("a module that cannot be fetched: the load that needs it rejects naming it, fires cd-error, and what is shown stays", async () => {
  const { page, watch } = await open({ refuse: "pkg" });
  await page.evaluate((m) => t.load(m), messages);
  const failure = await page.evaluate(async (body) => {
    let event = null;
    t.addEventListener("cd-error", (e) => { event = e.detail; }, { once: true });
    try {
      await t.load(body);
      return null;
    } catch (error) {
      return { name: error.name, code: error.code, path: error.path, message: error.message, same: event === error };
    }
  }, anthropic);
  assert.equal(failure?.name, "ChatDisplayError");
  assert.equal(failure.code, "module_unavailable");
  assert.equal(failure.path, "$");
  assert.match(failure.message, /Could not load chat-display \(its JavaScript or its \.wasm file\)/);
  assert.equal(failure.same, true, "cd-error carries the same error");
  assert.ok((await rows(page)).some((text) => text.includes("Paris.")), "the conversation shown before stays");
  // Loads that the loaded module can serve still work.
  assert.equal((await page.evaluate((m) => t.load(m), messages)).records, 2);
  await page.close();
});
