// The viewer's stream replay (`?stream=<url>&protocol=<name>&delay=<ms>`) in headless Chromium
// (the page as `npm start` serves it; the stream files are answered by the test on that origin):
// recorded stream fixtures reach <chat-transcript> as patches, render record by record as they
// arrive, end up showing what a StreamAccumulator run in Node on the same bytes gives (and what
// the element shows for those records given whole), mark streaming records until their block
// ends, and a bad protocol or URL says so on the page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../../www/serve.mjs";
import { launchBrowser } from "../support/browser.mjs";
import * as cd from "../../js/node.mjs";
import { watchForAttacks } from "../support/kit.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const streams = join(repo, "tests/fixtures/streams");
const vectors = JSON.parse(readFileSync(new URL("./xss-vectors.json", import.meta.url), "utf8"));
const generated = new Map(); // path under /generated/ -> body
let server, url, browser;

before(async () => {
  // The viewer as `npm start` serves it; the stream files come from the test, same-origin.
  ({ server, url } = await startServer({ port: 0 }));
  browser = await launchBrowser();
  await browser.context.route((u) => /^\/(fixtures|generated)\//.test(u.pathname), (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname);
    const file = normalize(join(streams, path.slice("/fixtures/".length)));
    const body = path.startsWith("/generated/") ? generated.get(path)
      : file.startsWith(streams + sep) && existsSync(file) ? readFileSync(file) : undefined;
    return route.fulfill(body === undefined ? { status: 404, body: "not found" } : { status: 200, contentType: "application/octet-stream", body });
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** The records a StreamAccumulator gives for a fixture's bytes, pushed whole. */
function expectedRecords(fixture) {
  const [protocol] = fixture.split("/");
  const stream = new cd.StreamAccumulator(protocol);
  stream.push(readFileSync(join(streams, `${fixture}.sse`)));
  assert.ok(stream.done, `${fixture} ends`);
  const records = stream.records();
  stream.free();
  return records;
}

/** Opens the viewer on `?stream=` and collects console errors, dialogs and CSP violations. */
async function openStream(query) {
  const page = await browser.context.newPage();
  const problems = [];
  await page.addInitScript(watchForAttacks);
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", async (d) => { problems.push(`dialog: ${d.message()}`); await d.dismiss(); });
  await page.goto(`${url}?${query}`);
  await page.waitForSelector("body[data-ready]", { state: "attached" });
  return { page, problems };
}

async function clean(page, problems) {
  assert.deepEqual(problems, [], "no console errors");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violations");
}

/** The rows the page's element shows, and the same records rendered whole by a second element. */
function shown(page, expected) {
  return page.evaluate(async (records) => {
    const rows = (root) => [...root.querySelectorAll(".row:not([hidden]) > .record")].map((e) => ({
      contentType: e.dataset.contentType,
      text: e.textContent,
      plain: e.querySelector(".plain")?.textContent ?? null,
      name: e.querySelector(".tool-head .name")?.textContent ?? null,
      summary: e.querySelector(".tool-head .summary")?.textContent ?? null,
      streaming: e.classList.contains("streaming"),
    }));
    const whole = document.createElement("chat-transcript");
    whole.style.height = "4000px";
    document.body.append(whole);
    whole.records = records;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const result = {
      state: document.body.dataset.stream,
      records: rows(document.querySelector("#conversation").shadowRoot),
      whole: rows(whole.shadowRoot),
      count: document.querySelector("#conversation").records.length,
    };
    whole.remove();
    return result;
  }, expected);
}

for (const [fixture, delay] of [
  ["anthropic_messages/parallel-tool-calls", 0],
  ["openai_responses/reasoning-summary-then-text", 0],
  ["google_gemini/vertex-quirks-partial-args", 1],
  ["anthropic_messages/two-messages-spliced", 1],
]) {
  test(`${fixture} (delay=${delay}) renders what records() gives`, async () => {
    const expected = expectedRecords(fixture);
    const [protocol] = fixture.split("/");
    const { page, problems } = await openStream(`stream=/fixtures/${fixture}.sse&protocol=${protocol}&delay=${delay}`);
    await page.waitForSelector('body[data-stream="done"]', { timeout: 20000 });
    const { records, whole, count } = await shown(page, expected);
    assert.equal(count, expected.length, "the element holds every record");
    assert.deepEqual(records, whole, "the streamed rows are the rows of the records given whole");
    const visible = expected.filter((r) => !(r.content_type === "tool_result" && expected.some((c) => c.content_type === "tool_call" && c.tool_call_id === r.tool_call_id)));
    assert.deepEqual(records.map((r) => r.contentType), visible.map((r) => r.content_type).slice(0, records.length));
    visible.slice(0, records.length).forEach((record, i) => {
      const got = records[i];
      assert.equal(got.streaming, false, `record ${i}: no longer streaming`);
      if (record.content_type === "thinking") assert.equal(got.plain, record.content.text, `record ${i}: thinking text`);
      if (record.content_type === "text") assert.ok(got.text.replace(/\s+/g, "").length > 0, `record ${i}: text shown`);
      if (record.content_type === "tool_call") assert.equal(got.name, record.content.name, `record ${i}: tool name`);
    });
    assert.match(await page.textContent("#summary"), new RegExp(`^${expected.length} records, done \\(${protocol} stream\\)$`));
    assert.equal(await page.$$eval("chat-transcript .record[aria-busy]", (e) => e.length), 0);
    await clean(page, problems);
    await page.close();
  });
}

/** The page at one moment, read in one task so that no re-render falls in between. */
function snapshot(page) {
  return page.evaluate(() => {
    const root = document.querySelector("#conversation").shadowRoot;
    const caretOf = (record) => {
      const host = record.querySelector(".prose > :last-child, .prose:empty, .plain");
      return host ? getComputedStyle(host, "::after").content : null;
    };
    return {
      state: document.body.dataset.stream,
      summary: document.querySelector("#summary").textContent,
      records: [...root.querySelectorAll(".row:not([hidden]) > .record")].map((e) => ({
        contentType: e.dataset.contentType,
        streaming: e.classList.contains("streaming"),
        busy: e.getAttribute("aria-busy"),
        caret: caretOf(e),
        text: e.querySelector(".prose")?.textContent.trim() ?? null,
        summary: e.querySelector(".tool-head .summary")?.textContent ?? null,
        status: e.querySelector(".tool-head .status")?.dataset.status ?? null,
      })),
    };
  });
}

test("mid-stream: records grow in place, streaming ones carry a caret that goes when their block ends", async () => {
  const fixture = "anthropic_messages/parallel-tool-calls";
  const expected = expectedRecords(fixture);
  const { page, problems } = await openStream(`stream=/fixtures/${fixture}.sse&protocol=anthropic_messages&delay=120`);
  // The first text block, while it streams: a prefix of its text, with the caret.
  await page.waitForFunction(() => document.querySelector("#conversation").shadowRoot.querySelector('.record.streaming[data-content-type="text"] .prose')?.textContent.trim(), null, { timeout: 10000 });
  let now = await snapshot(page);
  assert.equal(now.state, "streaming");
  assert.match(now.summary, /streaming \(anthropic_messages stream\)$/);
  const [text] = now.records;
  assert.equal(text.streaming, true);
  assert.equal(text.busy, "true");
  assert.equal(text.caret, '"▍"');
  assert.ok(expected[0].content.text.startsWith(text.text) && text.text.length < expected[0].content.text.length, `a prefix of the text: ${text.text}`);
  // Then a tool call streams: its status is pending, the ended text has no caret.
  await page.waitForSelector('chat-transcript .record.streaming[data-content-type="tool_call"]', { timeout: 10000 });
  now = await snapshot(page);
  assert.deepEqual([now.records[0].streaming, now.records[0].caret], [false, "none"], "the text block ended, its caret is gone");
  assert.equal(now.records.find((r) => r.streaming).status, "pending");
  assert.ok(now.records.length < expected.length, "not every record yet");
  await page.waitForSelector('body[data-stream="done"]', { timeout: 20000 });
  now = await snapshot(page);
  assert.equal(now.records.length, expected.length);
  assert.deepEqual(now.records.map((r) => [r.streaming, r.busy]), expected.map(() => [false, null]), "nothing streaming at the end");
  assert.equal(now.records[0].caret, "none");
  await clean(page, problems);
  await page.close();
});

test("mid-stream: a tool call's arguments show as they grow", async () => {
  // Gemini's partialArgs: "San Fran", "cisco, ", "CA" for $.location, then the other fields.
  const fixture = "google_gemini/vertex-quirks-partial-args";
  const expected = expectedRecords(fixture);
  const final = expected.find((r) => r.content_type === "tool_call").content.arguments;
  // 400 ms between chunks: at 150 a run in Firefox beside the other engines snapshotted after the
  // next chunk had come (the location whole).
  const { page, problems } = await openStream(`stream=/fixtures/${fixture}.sse&protocol=google_gemini&delay=400`);
  await page.waitForFunction(() => /location: "/.test(document.querySelector("#conversation").shadowRoot.querySelector('.record.streaming[data-content-type="tool_call"] .summary')?.textContent), null, { timeout: 10000 });
  let now = await snapshot(page);
  const call = now.records.find((r) => r.streaming && r.contentType === "tool_call");
  const partial = /location: "([^"]*)"/.exec(call.summary)[1];
  assert.ok(final.location.startsWith(partial) && partial !== final.location, `a partial location: ${partial}`);
  assert.doesNotMatch(call.summary, /note:/, "later fields not yet");
  await page.waitForSelector('body[data-stream="done"]', { timeout: 20000 });
  now = await snapshot(page);
  assert.match(now.records.find((r) => r.contentType === "tool_call").summary, new RegExp(`location: "${final.location}"`));
  assert.equal(now.records.filter((r) => r.streaming).length, 0);
  // Expanded, the call shows every argument.
  await page.click("chat-transcript .tool-head");
  const body = await page.textContent("chat-transcript .tool-body");
  for (const [key, value] of Object.entries(final)) assert.ok(body.includes(JSON.stringify(key)) && body.includes(typeof value === "string" ? JSON.stringify(value) : String(value)), key);
  await clean(page, problems);
  await page.close();
});

test("a bad protocol, a missing one, a bad delay, a missing file and another origin say so", async () => {
  const cases = [
    ["stream=/fixtures/anthropic_messages/text-only.sse&protocol=anthropic", /Unsupported protocol "anthropic".*\(unsupported_protocol\)/],
    ["stream=/fixtures/anthropic_messages/text-only.sse", /needs &protocol=/],
    ["stream=/fixtures/anthropic_messages/text-only.sse&protocol=anthropic_messages&delay=soon", /&delay= is a number of milliseconds/],
    ["stream=/fixtures/none.sse&protocol=anthropic_messages", /none\.sse: HTTP 404/],
    ["stream=https://evil.invalid/x.sse&protocol=anthropic_messages", /this site only/],
  ];
  for (const [query, message] of cases) {
    const { page, problems } = await openStream(query);
    await page.waitForSelector('body[data-stream="error"]', { timeout: 10000 });
    assert.match(await page.textContent("#problem"), message, query);
    assert.equal(await page.$$eval("chat-transcript .record", (r) => r.length), 0, query);
    // The missing file is a failed fetch, which the browser logs; nothing else may be.
    assert.deepEqual(problems.filter((p) => !p.startsWith("Failed to load resource")), [], query);
    await page.close();
  }
});

/** An Anthropic stream with every vector in a thinking block and a text block (each vector cut in
 * two deltas, so that half-written markup is rendered too), and as a tool's name and arguments. */
function hostileStream() {
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const halves = vectors.flatMap((v) => [v.slice(0, v.length >> 1), `${v.slice(v.length >> 1)}\n\n`]);
  const block = (index, content_block, deltas) => [event("content_block_start", { index, content_block }),
    ...deltas.map((delta) => event("content_block_delta", { index, delta })), event("content_block_stop", { index })];
  return [
    event("message_start", { message: { id: "msg_x", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
    ...block(0, { type: "thinking", thinking: "" }, halves.map((thinking) => ({ type: "thinking_delta", thinking }))),
    ...block(1, { type: "text", text: "" }, halves.map((text) => ({ type: "text_delta", text }))),
    ...vectors.flatMap((v, i) => block(i + 2, { type: "tool_use", id: `toolu_${i}`, name: v, input: {} },
      [{ type: "input_json_delta", partial_json: JSON.stringify({ q: v, [v]: [v] }) }])),
    event("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } }),
    event("message_stop", {}),
  ].join("");
}

test(`XSS: ${vectors.length} vectors streamed in text, thinking, tool names and arguments run nothing`, async () => {
  generated.set("/generated/hostile.sse", hostileStream());
  // Event by event, so that half-streamed markup is rendered too.
  const { page, problems } = await openStream("stream=/generated/hostile.sse&protocol=anthropic_messages&delay=1");
  await page.waitForSelector('body[data-stream="done"]', { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.querySelector("#conversation").records.length), vectors.length + 2);
  // Visit every row, expanded, and look for anything active.
  const bad = [];
  for (let i = 0; i < vectors.length + 2; i += 8) {
    bad.push(...await page.evaluate(async (i) => {
      const t = document.querySelector("#conversation");
      t.scrollToRecord(i);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (const head of t.shadowRoot.querySelectorAll('.tool-head[aria-expanded="false"]')) head.click();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const found = [];
      for (const d of t.shadowRoot.querySelectorAll("details")) d.open = true;
      for (const e of t.shadowRoot.querySelectorAll(".list *")) {
        for (const a of e.attributes) {
          if (a.name.startsWith("on")) found.push(`${e.tagName} ${a.name}`);
          if (["href", "src"].includes(a.name) && /^(javascript|vbscript|data:text\/html)/i.test(a.value.replace(/[\u0000-\u0020]/g, ""))) found.push(`${e.tagName} ${a.name}=${a.value}`);
        }
        // MathML only as the typesetter's output (in a .math span, sanitized: no links, no maction).
        const math = e.tagName.toUpperCase() === "MATH" && e.parentElement?.classList.contains("math");
        if (["SCRIPT", "IFRAME", "OBJECT", "EMBED", "FORM", "BASE", "META", "STYLE", "LINK", "SVG", "MATH", "MACTION", "ANNOTATION-XML"].includes(e.tagName.toUpperCase()) && !math) found.push(`element ${e.tagName}`);
      }
      return found;
    }, i));
  }
  assert.deepEqual({ bad, fired: await page.evaluate(() => window.__xssFired) }, { bad: [], fired: 0 });
  // Markdown images wait for a click, so nothing fails to load either.
  assert.deepEqual(problems, [], "no console errors, no dialog");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violations");
  await page.close();
});
