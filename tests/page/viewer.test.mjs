// Browser tests of the viewer page (www/) as `npm start` serves it, in Debian's headless Chromium
// driven by playwright-core. Assertions are on the DOM; a screenshot of the sample is written to
// test-output/viewer.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../../scripts/serve.mjs";
import { launchBrowser } from "../support/browser.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const vectors = JSON.parse(readFileSync(new URL("./xss-vectors.json", import.meta.url), "utf8"));
let server, url, browser, served;

before(async () => {
  served = mkdtempSync(join(tmpdir(), "chat-display-served-"));
  const { startServer: _ } = await import("../../scripts/serve.mjs");
  ({ server, url } = await startServer({
    port: 0,
    mounts: [
      ["/fixtures/", served],
      ["/pkg/", join(repo, "pkg/web")],
      ["/vendor/marked/", join(repo, "node_modules/marked/lib")],
      ["/vendor/dompurify/", join(repo, "node_modules/dompurify/dist")],
      ["/", join(repo, "www")],
    ],
  }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
  rmSync(served, { recursive: true, force: true });
});

/** Opens the viewer and watches for everything a successful attack would cause. */
async function open(path = "") {
  const page = await browser.context.newPage();
  const watch = { console: [], requests: [], dialogs: [], navigations: [] };
  await page.addInitScript(() => {
    window.__xssFired = 0;
    window.__xss = () => { window.__xssFired++; };
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  page.on("console", (m) => { if (m.type() === "error") watch.console.push(m.text()); });
  page.on("pageerror", (e) => watch.console.push(String(e)));
  page.on("dialog", async (d) => { watch.dialogs.push(d.message()); await d.dismiss(); });
  page.on("request", (r) => {
    const u = new URL(r.url());
    const local = u.hostname === "127.0.0.1" || u.protocol === "data:" || u.protocol === "blob:";
    if (!local && r.resourceType() !== "image") watch.requests.push(r.url());
  });
  await page.goto(url + path);
  await page.waitForSelector("body[data-ready]", { state: "attached" });
  page.on("framenavigated", (f) => { if (f === page.mainFrame()) watch.navigations.push(f.url()); });
  return { page, watch };
}

async function clean(page, watch) {
  assert.deepEqual(watch.console, [], "no console errors");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violations");
}

test("the sample: every content type and status, grouped by message", async () => {
  const { page, watch } = await open();
  assert.equal(await page.getAttribute("body", "data-ready"), "true", await page.textContent("#problem"));
  const types = new Set(await page.$$eval(".record", (r) => r.map((e) => e.dataset.contentType)));
  for (const type of ["text", "thinking", "image", "file_reference", "structured_data", "notification", "error", "tool_call", "todo_snapshot"]) {
    assert.ok(types.has(type), `renders ${type}`);
  }
  // Tool results render with their calls, paired by id.
  assert.equal(await page.$$eval(".tool-call .tool-result", (e) => e.length), 3);
  const statuses = await page.$$eval(".tool-call > .tool-head .badge", (b) => b.map((e) => e.dataset.status));
  assert.deepEqual(statuses.sort(), ["cancelled", "completed", "executing", "failed", "interrupted", "pending"]);
  const roles = await page.$$eval("section.message", (s) => s.map((e) => e.dataset.role));
  assert.deepEqual(roles.slice(0, 4), ["user", "assistant", "assistant", "user"]);

  // text: Markdown with heading, table, list, code block with a copy button, safe link.
  assert.equal(await page.textContent(".markdown h2"), "Weather report");
  assert.equal(await page.$$eval(".markdown table tr", (r) => r.length), 3);
  assert.equal(await page.$$eval(".markdown ol li", (r) => r.length), 2);
  assert.match(await page.textContent(".code-block pre"), /def umbrella/);
  assert.equal(await page.textContent(".code-block button.copy"), "Copy");
  assert.equal(await page.getAttribute(".markdown a", "rel"), "noopener noreferrer");
  // thinking: collapsed.
  assert.equal(await page.$eval("details.thinking", (d) => d.open), false);
  // tool_call: name, display_text, arguments as JSON, failed result styled.
  assert.match(await page.textContent(".tool-call .display-text"), /Checking the weather in Paris/);
  assert.match(await page.textContent(".tool-call .arguments"), /"city": "Paris"/);
  assert.match(await page.textContent(".tool-result.failed"), /Weather service unavailable for Berlin/);
  // image: the data: PNG loads, with its caption; the javascript: one is a blocked placeholder.
  assert.match(await page.getAttribute("figure.image img", "src"), /^data:image\/png;base64,/);
  assert.equal(await page.textContent("figure.image figcaption"), "Rain radar over Paris (sample)");
  assert.match(await page.textContent(".image-blocked"), /javascript: URLs are not loaded/);
  // file_reference: name and path as text.
  assert.equal(await page.textContent(".file-name"), "forecast.csv");
  assert.equal(await page.textContent(".file-icon"), "File");
  assert.equal(await page.textContent(".file-path"), "/reports/2026-11/forecast.csv");
  // structured_data: JSON tree, CSV table (quoted field kept whole), other as text.
  assert.match(await page.textContent('.structured[data-format="json"]'), /"city": "Paris"/);
  assert.deepEqual(await page.$$eval('.structured[data-format="csv"] th', (t) => t.map((e) => e.textContent)), ["hour", "temp_c", "rain_mm"]);
  assert.equal(await page.textContent('.structured[data-format="csv"] tbody tr:last-child td'), "15:00, late");
  assert.match(await page.textContent('.structured[data-format="yaml"] pre'), /city: Paris/);
  // notification and error banners.
  assert.match(await page.textContent(".banner.notification"), /degraded/);
  assert.match(await page.textContent(".banner.error .banner-text"), /failed 3 times/);
  // todo_snapshot: a checklist with statuses and the counts.
  assert.deepEqual(await page.$$eval("ul.todos li", (l) => l.map((e) => e.dataset.status)), ["completed", "in_progress", "pending", "cancelled"]);
  assert.match(await page.textContent(".todo-summary"), /1 pending · 1 in progress · 1 completed · 1 cancelled/);
  mkdirSync(join(repo, "test-output"), { recursive: true });
  await page.screenshot({ path: join(repo, "test-output/viewer.png"), fullPage: true });
  await clean(page, watch);
  await page.close();
});

test("search filters records live by their search text and highlights matches", async () => {
  const { page, watch } = await open();
  await page.fill("#search", "berlin");
  const visible = await page.$$eval(".record:not([hidden])", (r) => r.length);
  const all = await page.$$eval(".record", (r) => r.length);
  assert.ok(visible > 0 && visible < all, `${visible} of ${all}`);
  assert.ok((await page.$$eval("mark.hit", (m) => m.map((e) => e.textContent.toLowerCase()))).every((t) => t === "berlin"));
  assert.match(await page.textContent("#search-count"), /match/);
  await page.fill("#search", "");
  assert.equal(await page.$$eval(".record:not([hidden])", (r) => r.length), all);
  assert.equal(await page.$$eval("mark.hit", (m) => m.length), 0);
  await clean(page, watch);
  await page.close();
});

test("?src= loads a same-origin file; a bad message among good ones shows in place", async () => {
  writeFileSync(join(served, "mixed.json"), JSON.stringify({ messages: [
    { role: "user", content: "first" },
    { role: "assistant", content: [{ content: "part without a type" }] },
    { role: "function", content: "unsupported" },
    { role: "assistant", content: "last", tool_calls: [{ call_id: "a", name: "t" }] },
  ] }));
  const { page, watch } = await open("?src=/fixtures/mixed.json");
  const errors = await page.$$eval(".failed-input", (e) => e.map((x) => x.textContent));
  assert.equal(errors.length, 2);
  assert.match(errors[0], /\$\.messages\[1\]\.content\[0\]\.type/);
  assert.match(errors[1], /\$\.messages\[2\]\.role/);
  assert.deepEqual(await page.$$eval(".markdown", (m) => m.map((e) => e.textContent.trim())), ["first", "last"]);
  assert.match(await page.textContent("#summary"), /2 could not be read/);
  await clean(page, watch);
  await page.close();
});

test("a large file (1 MiB and more) loads through a Transcript, bad messages in place", async () => {
  const messages = [];
  for (let i = 0; i < 2500; i++) messages.push({ role: i % 2 ? "assistant" : "user", content: `message ${i} ` + "lorem ipsum ".repeat(40) });
  messages[5] = { role: "function", content: "unsupported" };
  messages[7] = { role: "assistant", tool_calls: [{ call_id: 7 }] };
  const text = JSON.stringify({ messages });
  assert.ok(text.length >= 1 << 20);
  writeFileSync(join(served, "large.json"), text);
  const { page, watch } = await open("?src=/fixtures/large.json");
  const errors = await page.$$eval(".failed-input", (e) => e.map((x) => x.textContent));
  assert.equal(errors.length, 2);
  assert.match(errors[0], /\$\.messages\[5\]\.role/);
  assert.match(errors[1], /\$\.messages\[7\]\.tool_calls\[0\]\.call_id/);
  assert.match(await page.textContent("#summary"), /^2500 records from 2500 messages, 2 could not be read/);
  assert.equal(await page.$$eval(".markdown", (m) => m.length), 2498);
  await page.fill("#search", "MESSAGE 2499 ");
  assert.match(await page.textContent("#search-count"), /^1 of /);
  await clean(page, watch);
  await page.close();
});

test("a chosen file loads from its bytes: large or small, with a byte order mark, and not UTF-8 says so", async () => {
  const { page, watch } = await open();
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const messages = [];
  for (let i = 0; i < 2500; i++) messages.push({ role: "user", content: `café ${i} 😀 ` + "lorem ipsum ".repeat(40) });
  const large = Buffer.concat([bom, Buffer.from(JSON.stringify(messages))]);
  assert.ok(large.length >= 1 << 20);
  await page.setInputFiles("#file", { name: "large.json", mimeType: "application/json", buffer: large });
  await page.waitForFunction(() => /^2500 records/.test(document.querySelector("#summary").textContent));
  assert.equal(await page.$$eval(".markdown", (m) => m.length), 2500);
  assert.match(await page.textContent(".markdown"), /^café 0 😀 lorem/);
  const small = Buffer.concat([bom, Buffer.from(JSON.stringify([{ role: "user", content: "petit café" }]))]);
  await page.setInputFiles("#file", { name: "small.json", mimeType: "application/json", buffer: small });
  await page.waitForFunction(() => /^1 record/.test(document.querySelector("#summary").textContent));
  assert.equal(await page.textContent(".markdown"), "petit café\n");
  // Latin-1, not UTF-8: the Transcript refuses it rather than guess.
  const latin1 = Buffer.concat([Buffer.from('[{"role": "user", "content": "caf'), Buffer.from([0xe9]), Buffer.from('"}' + " ".repeat(1 << 20) + "]")]);
  await page.setInputFiles("#file", { name: "latin1.json", mimeType: "application/json", buffer: latin1 });
  await page.waitForFunction(() => document.querySelector("#problem").textContent !== "");
  assert.match(await page.textContent("#problem"), /Expected UTF-8 text/);
  await clean(page, watch);
  await page.close();
});

test("?src= refuses another origin", async () => {
  const { page } = await open("?src=https://evil.invalid/x.json");
  assert.match(await page.textContent("#problem"), /this site only/);
  await page.close();
});

test("pasted JSON loads: records, and text that is not JSON says so", async () => {
  const { page, watch } = await open();
  const records = [
    { conversation_id: "c", message_type: "assistant", content_type: "text", content: { text: "from a record" }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} },
    { conversation_id: "c", message_type: "assistant", content_type: "image", content: { caption: "no source" }, sequence: 1, status: "completed", tool_call_id: null, metadata: {} },
  ];
  await page.click("details.load summary");
  await page.fill("#paste", JSON.stringify(records));
  await page.click("#load-paste");
  assert.equal(await page.textContent(".markdown"), "from a record\n");
  assert.match(await page.textContent(".failed-input"), /Invalid record: content invalid structure for content_type image/);
  await page.fill("#paste", "{not json");
  await page.click("#load-paste");
  assert.match(await page.textContent("#problem"), /not JSON/);
  await clean(page, watch);
  await page.close();
});

/** Every vector in every string field of every content type, as records and as messages. */
function hostileConversation() {
  const out = [];
  const rec = (content_type, content, extra = {}) => ({
    conversation_id: "x", message_type: "assistant", content_type, content, sequence: 0, status: "completed",
    tool_call_id: null, metadata: {}, ...extra,
  });
  vectors.forEach((v, i) => {
    out.push(
      rec("text", { text: v }),
      rec("thinking", { text: v }),
      rec("image", { url: v, caption: v, alt_text: v }),
      rec("image", { data: v, mime_type: "image/png", caption: v }),
      rec("image", { data: "iVBORw0KGgo=", mime_type: v, alt_text: v }),
      rec("file_reference", { name: v, path: v }),
      rec("structured_data", { format: "json", data: v }),
      rec("structured_data", { format: "json", data: { [v]: [v, { k: v }] } }),
      rec("structured_data", { format: "csv", data: `h,${v}\n${v},x` }),
      rec("structured_data", { format: v, data: v }),
      rec("notification", { text: v }),
      rec("error", { text: v }),
      rec("tool_call", { call_id: `x${i}`, name: v, arguments: { q: v, [v]: [v] }, display_text: v }, { tool_call_id: `x${i}`, status: "pending" }),
      rec("tool_call", { call_id: v, name: v, arguments: v, display_text: v }, { tool_call_id: v }),
      rec("tool_result", { tool_call_id: `x${i}`, name: v, content: v, is_error: true }, { tool_call_id: `x${i}` }),
      rec("todo_snapshot", { todos: [{ id: 1, content: v, status: "pending" }], summary: { pending: v } }),
      { role: "user", content: v },
      { role: "assistant", content: [{ type: "thinking", content: v }, { type: "text", content: v }],
        tool_calls: [{ call_id: `m${i}`, name: v, arguments: { v }, display_text: v }] },
      { role: "tool", tool_results: [{ tool_call_id: `m${i}`, name: v, content: [{ type: "text", content: v }], is_error: true }] },
      rec(v, { text: v }, { message_type: v }),
    );
  });
  return out;
}

test(`XSS: ${vectors.length} vectors in every string field of every content type run nothing`, async () => {
  assert.ok(vectors.length >= 100);
  const conversation = hostileConversation();
  writeFileSync(join(served, "hostile.json"), JSON.stringify(conversation));
  const { page, watch } = await open("?src=/fixtures/hostile.json");
  assert.equal(await page.getAttribute("body", "data-ready"), "true");
  assert.ok((await page.$$eval(".record", (r) => r.length)) > vectors.length * 15, "everything rendered");
  // Open every <details> and hover and click inside every record, so any surviving handler fires.
  await page.$$eval("details", (all) => all.forEach((d) => { d.open = true; }));
  await page.$$eval(".record *:not(a):not(button)", (all) => all.slice(0, 20000).forEach((e) => {
    for (const type of ["mouseover", "mouseenter", "pointerenter", "focus", "click"]) e.dispatchEvent(new Event(type));
  }));
  await page.fill("#search", "script");
  await page.fill("#search", "");
  await page.waitForTimeout(300);
  const audit = await page.evaluate(() => {
    const bad = [];
    const risky = /^(javascript|vbscript|data:text\/html|data:image\/svg)/i;
    for (const e of document.querySelectorAll("*")) {
      for (const a of e.attributes) {
        if (a.name.startsWith("on")) bad.push(`${e.tagName} ${a.name}`);
        if (["href", "src", "action", "formaction", "xlink:href", "srcset", "data", "background"].includes(a.name)) {
          const value = a.value.replace(/[\u0000-\u0020\u2028\u2029]/g, "");
          if (risky.test(value)) bad.push(`${e.tagName} ${a.name}=${a.value}`);
        }
      }
      if (["SCRIPT", "IFRAME", "OBJECT", "EMBED", "FORM", "BASE", "META", "STYLE", "LINK", "SVG", "MATH"].includes(e.tagName.toUpperCase())
          && e.closest("main")) bad.push(`element ${e.tagName}`);
    }
    return { bad, fired: window.__xssFired, violations: window.__violations };
  });
  assert.deepEqual(audit.bad, [], "no handlers, no script URLs, no active elements");
  assert.equal(audit.fired, 0, "no payload ran");
  assert.deepEqual(audit.violations, [], "no CSP violation");
  assert.deepEqual(watch.dialogs, [], "no dialog");
  assert.deepEqual(watch.navigations, [], "no navigation");
  assert.deepEqual(watch.requests, [], "no request to another host");
  // Allowed image sources (http:, https:, relative) fail to load on this closed network: the
  // browser logs those. Every other request is checked above; nothing else may be logged.
  assert.deepEqual(watch.console.filter((m) => !m.startsWith("Failed to load resource")), [], "no console errors");
  await page.close();
});

test("the server refuses paths outside its folders and serves wasm as application/wasm", async () => {
  for (const path of ["../Cargo.toml", "%2e%2e/Cargo.toml", "pkg/../../Cargo.toml"]) {
    const res = await fetch(url + path);
    assert.notEqual(res.status, 200, path);
  }
  const wasm = await fetch(url + "pkg/chat_display_bg.wasm");
  assert.equal(wasm.headers.get("content-type"), "application/wasm");
});

test("light and dark themes follow the system setting; controls work from the keyboard", async () => {
  const { page, watch } = await open();
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(light, dark);
  // Keyboard: focus the search box and type; open the thinking block with Enter.
  await page.focus("#search");
  await page.keyboard.type("umbrella");
  assert.ok((await page.$$eval("mark.hit", (m) => m.length)) > 0);
  await page.fill("#search", "");
  await page.focus("details.thinking summary");
  await page.keyboard.press("Enter");
  assert.equal(await page.$eval("details.thinking", (d) => d.open), true);
  await page.screenshot({ path: join(repo, "test-output/viewer-dark.png"), fullPage: true });
  await clean(page, watch);
  await page.close();
});

test("provider payloads load too: each format's request or response body is detected and shown", async () => {
  for (const protocol of ["anthropic_messages", "openai_completions", "openai_responses", "bedrock_converse", "google_gemini"]) {
    const fixtures = JSON.parse(readFileSync(join(repo, `tests/fixtures/providers_${protocol}.json`), "utf8"));
    // The largest readable payload of the format whose detection is the format itself.
    const [fixture] = fixtures.from
      .filter((f) => f.detect === protocol && Array.isArray(f.display) && f.display.length > 0)
      .sort((a, b) => b.display.length - a.display.length);
    writeFileSync(join(served, `${protocol}.json`), JSON.stringify(fixture.payload));
    const { page, watch } = await open(`?src=/fixtures/${protocol}.json`);
    assert.match(await page.textContent("#summary"), new RegExp(`read as ${protocol}`), fixture.name);
    // The fixture's display lines read "<role> <content_type> ..."; results paired with a call
    // render inside it, so the page shows the others.
    const lines = fixture.display.map((line) => line.split(" ")).map(([role, type, ...rest]) => [role, type.replace(/:$/, ""), ...rest]);
    const callIds = new Set(lines.filter(([, type]) => type === "tool_call").map(([, , , id]) => id));
    const expected = lines.filter(([, type, id]) => !(type === "tool_result" && callIds.has(id))).map(([, type]) => type);
    const types = await page.$$eval(".record", (r) => r.map((e) => e.dataset.contentType));
    assert.deepEqual(types, expected, fixture.name);
    assert.equal(await page.$$eval(".tool-call .tool-result", (r) => r.length), lines.length - expected.length, fixture.name);
    await clean(page, watch);
    await page.close();
  }
});
