// Browser tests of the viewer page (www/) as `npm start` serves it, in Debian's headless Chromium
// driven by playwright-core: the page's own parts (loading, the find bar, progress, the error
// banner, the replay button, its Content-Security-Policy) around <chat-transcript>, whose
// rendering tests/element/ covers. Playwright's CSS selectors reach into the element's open
// shadow root. Screenshots go to test-output/. BROWSER=firefox runs them in Debian's headless
// Firefox ESR instead (tests/support/firefox.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, viewerMounts } from "../../www/serve.mjs";
import { engine, launchBrowser } from "../support/browser.mjs";
import { hostileConversation, watchForAttacks, watchPage } from "../support/kit.mjs";
import { formats } from "../tools/formats.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const vectors = JSON.parse(readFileSync(new URL("./xss-vectors.json", import.meta.url), "utf8"));
let server, url, browser, served;
/** For open(path, { dark: true }) in Firefox: a browser whose system is dark, launched on first use. */
let darkFirefox;
/** Screenshots of a Firefox run beside Chromium's, not over them. */
const shotSuffix = engine === "chromium" ? "" : `-${engine}`;

before(async () => {
  served = mkdtempSync(join(tmpdir(), "chat-display-served-"));
  ({ server, url } = await startServer({ port: 0, mounts: [["/fixtures/", served], ...viewerMounts] }));
  browser = await launchBrowser();
  mkdirSync(join(repo, "test-output"), { recursive: true });
});

after(async () => {
  await browser?.close();
  await (await darkFirefox)?.close();
  server?.close();
  rmSync(served, { recursive: true, force: true });
});

/** Opens the viewer and watches for everything a successful attack would cause. `dark`: the
 * system's color scheme is dark (Chromium emulates it on the page; Firefox and WebKit, whose
 * WebDriver cannot, open it in a second browser launched dark: tests/support/firefox.mjs, webkit.mjs). */
async function open(path = "", { dark = false } = {}) {
  const firefoxDark = dark && engine !== "chromium";
  const page = await (firefoxDark ? (await (darkFirefox ??= launchBrowser({ colorScheme: "dark" }))) : browser).context.newPage();
  if (dark && !firefoxDark) await page.emulateMedia({ colorScheme: "dark" });
  const watch = { console: [], requests: [], dialogs: [], navigations: [] };
  await page.addInitScript(watchForAttacks);
  watchPage(page, watch);
  await page.goto(url + path);
  await page.waitForSelector("body[data-ready]", { state: "attached" });
  page.on("framenavigated", (f) => { if (f === page.mainFrame()) watch.navigations.push(f.url()); });
  return { page, watch };
}

async function clean(page, watch) {
  assert.deepEqual(watch.console, [], "no console errors");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violations");
}

/** Content types of the rows the element has in the DOM (paired results are hidden rows). */
const shownTypes = (page) => page.$$eval("chat-transcript .row:not([hidden]) > .record", (r) => r.map((e) => e.dataset.contentType));

test("the sample: every content type renders through the element, with the summary", async () => {
  const { page, watch } = await open();
  assert.equal(await page.getAttribute("body", "data-ready"), "true", await page.textContent("#problem"));
  assert.equal(await page.textContent("#summary"), "27 records from 12 messages");
  assert.equal(await page.isVisible("#progress"), false, "no progress once loaded");
  const types = new Set();
  const count = await page.evaluate(() => document.querySelector("chat-transcript").records.length);
  for (let i = 0; i < count; i += 4) {
    await page.evaluate((i) => document.querySelector("chat-transcript").scrollToRecord(i), i);
    await page.waitForTimeout(50);
    for (const type of await shownTypes(page)) types.add(type);
  }
  for (const type of ["text", "thinking", "image", "file_reference", "structured_data", "notification", "error", "tool_call", "todo_snapshot"]) {
    assert.ok(types.has(type), `renders ${type}`);
  }
  await page.evaluate(() => document.querySelector("chat-transcript").scrollToRecord(0));
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(repo, `test-output/viewer${shotSuffix}.png`) });
  await clean(page, watch);
  await page.close();
});

test("the find bar counts n of m over the whole conversation and steps through it", async () => {
  const { page, watch } = await open();
  const rows = await page.$$eval("chat-transcript .row", (r) => r.length);
  await page.fill("#find", "berlin");
  const count = await page.textContent("#find-count");
  const [, first, total] = /^(\d+) of (\d+)$/.exec(count) ?? [];
  assert.equal(first, "1", count);
  assert.ok(Number(total) >= 3, count);
  // The count is set at once; the element marks the hit when it renders its row, a frame or more
  // later (after scrolling to it).
  await page.waitForSelector("chat-transcript [aria-current=true]");
  assert.equal(await page.$$eval("chat-transcript [aria-current=true]", (e) => e.length), 1, "the current hit is marked");
  assert.ok((await page.$$eval("chat-transcript mark.hit", (m) => m.map((e) => e.textContent.toLowerCase()))).every((t) => t === "berlin"));
  assert.ok((await page.$$eval("chat-transcript .row", (r) => r.length)) >= Math.min(rows, 3), "the other records still show");
  await page.press("#find", "Enter");
  assert.equal(await page.textContent("#find-count"), `2 of ${total}`);
  await page.click("#find-previous");
  await page.click("#find-previous");
  assert.equal(await page.textContent("#find-count"), `${total} of ${total}`, "wraps around");
  await page.click("#find-next");
  assert.equal(await page.textContent("#find-count"), `1 of ${total}`);
  await page.fill("#find", "no such words anywhere");
  assert.equal(await page.textContent("#find-count"), "no matches");
  assert.equal(await page.isDisabled("#find-next"), true);
  await page.press("#find", "Escape");
  assert.equal(await page.textContent("#find-count"), "");
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  assert.equal(await page.$$eval("chat-transcript mark.hit", (m) => m.length), 0);
  // Ctrl+F goes to the find bar: the browser's own find would miss rows that are off screen.
  await page.focus("body");
  await page.keyboard.press("Control+f");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "find");
  await clean(page, watch);
  await page.close();
});

test("at 390 px the find bar's buttons stay on screen, with a count showing", async () => {
  const { page, watch } = await open();
  await page.setViewportSize({ width: 390, height: 800 });
  await page.fill("#find", "berlin");
  await page.waitForFunction(() => /of/.test(document.getElementById("find-count").textContent));
  const boxes = await page.evaluate(() => Object.fromEntries(["find", "find-count", "find-previous", "find-next"].map((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return [id, { left: r.left, right: r.right, width: r.width }];
  })));
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  for (const [id, box] of Object.entries(boxes)) {
    assert.ok(box.width > 0 && box.left >= 0 && box.right <= width, `#${id} within the 390 px page: ${JSON.stringify(box)}`);
  }
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true, "no sideways scroll");
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
  const errors = await page.$$eval('chat-transcript .record[data-content-type="error"]', (e) => e.map((x) => x.textContent));
  assert.equal(errors.length, 2);
  assert.match(errors[0], /\$\.messages\[1\]\.content\[0\]\.type/);
  assert.match(errors[1], /\$\.messages\[2\]\.role/);
  assert.deepEqual(await page.$$eval("chat-transcript .bubble, chat-transcript .prose", (m) => m.map((e) => e.textContent.trim())), ["first", "last"]);
  assert.match(await page.textContent("#summary"), /2 could not be read/);
  await clean(page, watch);
  await page.close();
});

test("a large file (1 MiB and more) loads through a Transcript with a progress state, bad messages in place", async () => {
  const messages = [];
  for (let i = 0; i < 2500; i++) messages.push({ role: i % 2 ? "assistant" : "user", content: `message ${i} ` + "lorem ipsum ".repeat(40) });
  messages[5] = { role: "function", content: "unsupported" };
  messages[7] = { role: "assistant", tool_calls: [{ call_id: 7 }] };
  const text = JSON.stringify({ messages });
  assert.ok(text.length >= 1 << 20);
  writeFileSync(join(served, "large.json"), text);
  const page = await browser.context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  // Record every state the page passes through while it loads.
  await page.addInitScript(() => {
    window.__busy = [];
    new MutationObserver(() => window.__busy.push(document.body?.dataset.busy)).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-busy"] });
  });
  await page.goto(url + "?src=/fixtures/large.json");
  await page.waitForSelector("body[data-ready]", { state: "attached" });
  assert.ok((await page.evaluate(() => window.__busy)).includes("true"), "busy while loading");
  assert.equal(await page.getAttribute("body", "data-busy"), "false");
  assert.match(await page.textContent("#summary"), /^2500 records from 2500 messages, 2 could not be read/);
  assert.ok((await page.$$eval("chat-transcript .row", (r) => r.length)) < 200, "only rows near the viewport are in the DOM");
  await page.evaluate(() => document.querySelector("chat-transcript").scrollToRecord(5));
  await page.waitForTimeout(100);
  assert.match(await page.textContent('chat-transcript .row[data-index="5"]'), /\$\.messages\[5\]\.role/);
  await page.fill("#find", "MESSAGE 2499 ");
  assert.equal(await page.textContent("#find-count"), "1 of 1");
  await page.waitForTimeout(100);
  assert.match(await page.textContent("chat-transcript [aria-current=true]"), /message 2499 lorem/);
  assert.deepEqual(problems, []);
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
  assert.match(await page.textContent("chat-transcript .bubble"), /^café 0 😀 lorem/);
  const small = Buffer.concat([bom, Buffer.from(JSON.stringify([{ role: "user", content: "petit café" }]))]);
  await page.setInputFiles("#file", { name: "small.json", mimeType: "application/json", buffer: small });
  await page.waitForFunction(() => /^1 records/.test(document.querySelector("#summary").textContent));
  assert.equal(await page.textContent("chat-transcript .bubble"), "petit café");
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

test("pasted JSON loads: records, and text that is not JSON names its line and column", async (t) => {
  const { page, watch } = await open();
  const records = [
    { conversation_id: "c", message_type: "assistant", content_type: "text", content: { text: "from a record" }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} },
    { conversation_id: "c", message_type: "assistant", content_type: "image", content: { caption: "no source" }, sequence: 1, status: "completed", tool_call_id: null, metadata: {} },
  ];
  await page.click("details.load summary");
  await page.fill("#paste", JSON.stringify(records));
  await page.click("#load-paste");
  await page.waitForFunction(() => /^2 records/.test(document.querySelector("#summary").textContent));
  assert.equal((await page.textContent("chat-transcript .prose")).trim(), "from a record");
  assert.match(await page.textContent('chat-transcript .record[data-content-type="error"]'), /Invalid record: content invalid structure for content_type image/);
  await page.fill("#paste", '[{"role": "user",\n  "content": "hi"\n  oops}]');
  await page.click("#load-paste");
  await page.waitForFunction(() => document.querySelector("#problem").textContent !== "");
  const problem = await page.textContent("#problem");
  await t.test("a small paste's error names line and column",
    () => assert.match(problem, /not JSON.*line 3 column 3/));
  // A large paste goes through the Transcript: its error names line and column too.
  await page.evaluate(() => {
    const text = JSON.stringify([{ role: "user", content: "x".repeat(1 << 20) }]).replace('"x', '\n  "x').slice(0, -1) + ",]";
    document.querySelector("#paste").value = text;
  });
  await page.click("#load-paste");
  await page.waitForFunction(() => /line 2/.test(document.querySelector("#problem").textContent));
  assert.match(await page.textContent("#problem"), /not JSON.*\(line 2 column \d+\)/);
  await clean(page, watch);
  await page.close();
});

test("the replay button plays a recorded stream into the element, and again", async () => {
  const { page, watch } = await open();
  await page.click("#replay");
  await page.waitForSelector('body[data-stream="done"]', { timeout: 20000 });
  const expected = JSON.parse(readFileSync(join(repo, "tests/fixtures/streams/anthropic_messages/parallel-tool-calls.final.json"), "utf8"));
  assert.ok(expected, "the fixture's final body");
  assert.match(await page.textContent("#summary"), /^\d+ records, done \(anthropic_messages stream\)$/);
  const names = await page.$$eval("chat-transcript .tool-head .name", (n) => n.map((e) => e.textContent));
  assert.deepEqual(names, ["get_weather", "get_weather", "write_file"]);
  await page.click("#replay");
  await page.waitForSelector('body[data-stream="streaming"]', { state: "attached" });
  await page.waitForSelector('body[data-stream="done"]', { timeout: 20000 });
  assert.deepEqual(await page.$$eval("chat-transcript .tool-head .name", (n) => n.map((e) => e.textContent)), names, "the same records again, not added twice");
  await clean(page, watch);
  await page.close();
});



test(`XSS: ${vectors.length} vectors in every field, loaded by the page, run nothing and load nothing`, async () => {
  assert.ok(vectors.length >= 100);
  writeFileSync(join(served, "hostile.json"), JSON.stringify(hostileConversation(vectors)));
  const { page, watch } = await open("?src=/fixtures/hostile.json");
  assert.equal(await page.getAttribute("body", "data-ready"), "true");
  const total = await page.evaluate(() => document.querySelector("chat-transcript").records.length);
  assert.ok(total > vectors.length * 14, "everything read");
  // Visit every row, open what folds, and fire events inside it, so any surviving handler runs.
  const bad = [];
  for (let i = 0; i < total; i += 12) {
    await page.evaluate((i) => document.querySelector("chat-transcript").scrollToRecord(i), i);
    await page.waitForTimeout(20);
    bad.push(...await page.evaluate(() => {
      const root = document.querySelector("chat-transcript").shadowRoot;
      for (const d of root.querySelectorAll("details")) d.open = true;
      for (const e of root.querySelectorAll(".record *:not(a):not(button)")) {
        for (const type of ["mouseover", "focus", "click"]) e.dispatchEvent(new Event(type));
      }
      const found = [];
      const risky = /^(javascript|vbscript|data:text\/html|data:image\/svg)/i;
      for (const e of root.querySelectorAll(".list *")) {
        for (const a of e.attributes) {
          if (a.name.startsWith("on")) found.push(`${e.tagName} ${a.name}`);
          if (["href", "src", "action", "formaction", "xlink:href", "srcset", "data", "background"].includes(a.name)
              && risky.test(a.value.replace(/[\u0000-\u0020\u2028\u2029]/g, ""))) found.push(`${e.tagName} ${a.name}=${a.value}`);
        }
        // MathML only as the typesetter's output (in a .math span, sanitized: no links, no maction).
        const math = e.tagName.toUpperCase() === "MATH" && e.parentElement?.classList.contains("math");
        if (["SCRIPT", "IFRAME", "OBJECT", "EMBED", "FORM", "BASE", "META", "STYLE", "LINK", "SVG", "MATH", "MACTION", "ANNOTATION-XML"].includes(e.tagName.toUpperCase()) && !math) found.push(`element ${e.tagName}`);
      }
      return found;
    }));
  }
  await page.fill("#find", "script");
  await page.fill("#find", "");
  await page.waitForTimeout(200);
  assert.deepEqual(bad, [], "no handlers, no script URLs, no active elements");
  assert.equal(await page.evaluate(() => window.__xssFired), 0, "no payload ran");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violation");
  assert.deepEqual(watch.dialogs, [], "no dialog");
  assert.deepEqual(watch.navigations, [], "no navigation");
  // Nothing reaches another host: images from other hosts, in records and in Markdown alike, wait
  // for a click. (An image record's relative URL is the page's own origin and loads at once: the
  // vectors that are such URLs give this server's 404s.)
  assert.deepEqual(watch.requests, [], "no request to another host");
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

test("light and dark follow the system setting; the thinking block opens from the keyboard", async () => {
  const background = (on) => on.evaluate(() => getComputedStyle(document.querySelector("chat-transcript")).backgroundColor);
  const onLight = await open();
  const light = await background(onLight.page);
  await clean(onLight.page, onLight.watch);
  await onLight.page.close();
  const { page, watch } = await open("", { dark: true });
  const dark = await background(page);
  assert.notEqual(light, dark);
  await page.focus("chat-transcript details.thinking summary");
  await page.keyboard.press("Enter");
  assert.equal(await page.$eval("chat-transcript details.thinking", (d) => d.open), true);
  await page.screenshot({ path: join(repo, `test-output/viewer-dark${shotSuffix}.png`) });
  await clean(page, watch);
  await page.close();
});

test("provider payloads load too: each format's request or response body is detected and shown", async () => {
  // Every provider API's format of the registry that has a fixture file (the libraries' message
  // formats, ai_sdk_ui and langchain_js, have their own tests).
  const providerApis = formats(repo).map((f) => f.name).filter((name) => !["ai_sdk_ui", "langchain_js"].includes(name)
    && existsSync(join(repo, `tests/fixtures/providers_${name}.json`)));
  for (const protocol of providerApis) {
    const fixtures = JSON.parse(readFileSync(join(repo, `tests/fixtures/providers_${protocol}.json`), "utf8"));
    // The largest readable payload of the format whose detection is the format itself.
    const [fixture] = fixtures.from
      .filter((f) => f.detect === protocol && Array.isArray(f.display) && f.display.length > 0)
      .sort((a, b) => b.display.length - a.display.length);
    writeFileSync(join(served, `${protocol}.json`), JSON.stringify(fixture.payload));
    const { page, watch } = await open(`?src=/fixtures/${protocol}.json`);
    // The fixture's display lines read "<role> <content_type> ..."; results paired with a call
    // show inside its row, so the page shows the others.
    const lines = fixture.display.map((line) => line.split(" ")).map(([role, type, ...rest]) => [role, type.replace(/:$/, ""), ...rest]);
    assert.match(await page.textContent("#summary"), new RegExp(`^${lines.length} records`), fixture.name);
    const callIds = new Set(lines.filter(([, type]) => type === "tool_call").map(([, , , id]) => id));
    const expected = lines.filter(([, type, id]) => !(type === "tool_result" && callIds.has(id))).map(([, type]) => type);
    assert.deepEqual(await shownTypes(page), expected.slice(0, (await shownTypes(page)).length), fixture.name);
    await clean(page, watch);
    await page.close();
  }
});

test("LangChain.js messages load as detected: serialized, stored, plain and made with contentBlocks", async () => {
  // What the module gives for each payload, in Node, is what the page must show.
  const cd = await import("../../js/node.mjs");
  const fixture = (name) => JSON.parse(readFileSync(join(repo, "tests/fixtures/langchain_js", name), "utf8"));
  const trap = fixture("content-blocks-trap.json");
  const payloads = {
    serialized: fixture("content-blocks.serialized.json").messages,
    stored: fixture("weather.stored.json").messages,
    plain: fixture("plain.json").messages,
    trap: [trap.serialized],
  };
  for (const [name, payload] of Object.entries(payloads)) {
    assert.equal(cd.detectProtocol(payload), "langchain_js", name);
    // As the element reads messages: with their attachments (media: true).
    const records = cd.toDisplayMessages(cd.fromProvider("langchain_js", payload), { media: true });
    assert.ok(records.length >= 2 && records.every((r) => r.content_type !== "error"), name);
    writeFileSync(join(served, `langchain-js-${name}.json`), JSON.stringify(payload));
    const { page, watch } = await open(`?src=/fixtures/langchain-js-${name}.json`);
    assert.match(await page.textContent("#summary"), new RegExp(`^${records.length} records from \\d+ messages$`), name);
    const rows = await page.evaluate(() => document.querySelector("chat-transcript").records);
    assert.deepEqual(rows.map((r) => [r.content_type, r.status, r.content.text ?? r.content.call_id ?? r.content.tool_call_id]),
      records.map((r) => [r.content_type, r.status, r.content.text ?? r.content.call_id ?? r.content.tool_call_id]), name);
    const callIds = new Set(records.filter((r) => r.content_type === "tool_call").map((r) => r.content.call_id));
    const shown = records.filter((r) => !(r.content_type === "tool_result" && callIds.has(r.content.tool_call_id)));
    const types = await shownTypes(page);
    assert.deepEqual(types, shown.map((r) => r.content_type).slice(0, types.length), name);
    await clean(page, watch);
    await page.close();
  }
});

test("the help text lists every accepted input: both message libraries, the five provider formats, the JavaScript libraries", async () => {
  const { page, watch } = await open();
  const help = await page.textContent("details.load");
  for (const input of ["Elixir LangChain messages", "Sycophant messages", "display-message records", "Anthropic Messages",
    "OpenAI Chat Completions", "OpenAI Responses", "Amazon Bedrock Converse", "Google Gemini",
    "AI SDK UIMessages", "LangChain.js messages"]) {
    assert.ok(help.replace(/\s+/g, " ").includes(input), `${input} in: ${help}`);
  }
  await clean(page, watch);
  await page.close();
});

test("server.html pages a stored conversation in from the newest record to the first, steadily, with live updates by id", async () => {
  const { storedRecords } = await import("../../www/conversations.mjs");
  const id = "size-300";
  const stored = storedRecords(id).records;
  const { page, watch } = await open(`server.html?conversation=${id}&limit=40&every=150`);
  // Older pages answer after 150 ms, as a server does: the test sees the view settle before each.
  await page.route(/\/api\/conversations\/[^/]+\/records\?.*before=/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await route.continue();
  });
  const out = await page.evaluate(async () => {
    const chat = document.getElementById("conversation");
    const s = chat.shadowRoot.querySelector(".scroller");
    const frames = (n) => new Promise((resolve) => { const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step)); requestAnimationFrame(step); });
    await frames(3);
    const jumps = [];
    let pages = 0;
    let checking = null;
    // Each prepend, as the page makes it: the lowest row wholly in view just before, and where it is
    // three frames after (the reader's scrolling waits meanwhile).
    const prepend = chat.prepend.bind(chat);
    chat.prepend = (records) => {
      const box = s.getBoundingClientRect();
      // Rows of the first whole message shown on (not a tool message): those before it may change
      // with the records that come before them (a turn label, a message cut by the page boundary
      // becoming one document, a tool result pairing with its call).
      const shown = chat.records;
      const stable = shown.findIndex((r, i) => i > 0 && r.sequence === 0 && r.message_type !== "tool");
      const rows = [...chat.shadowRoot.querySelectorAll(".row:not([hidden])")].filter((r) => {
        const b = r.getBoundingClientRect();
        return Number(r.dataset.index) >= stable && b.top >= box.top && b.bottom <= box.bottom;
      });
      const row = rows.at(-1);
      const record = row ? chat.records[Number(row.dataset.index)]?.id : null;
      const top = row?.getBoundingClientRect().top;
      prepend(records);
      pages++;
      checking = frames(3).then(() => {
        const now = chat.records.findIndex((r) => r.id === record);
        const same = chat.shadowRoot.querySelector(`.row[data-index="${now}"]`);
        const moved = same ? same.getBoundingClientRect().top - top : null;
        if (record && (moved === null || Math.abs(moved) > 2)) jumps.push({ record, moved });
        checking = null;
      });
    };
    for (let guard = 0; guard < 3000 && document.body.dataset.complete !== "true"; guard++) {
      s.scrollBy(0, -400);
      await frames(2);
      while (checking) await checking;
    }
    // The live updates have had time to arrive (3, 150 ms apart).
    await new Promise((r) => setTimeout(r, 800));
    return { pages, jumps, ids: chat.records.map((r) => r.id), statuses: Object.fromEntries(chat.records.map((r) => [r.id, r.status])),
      complete: document.body.dataset.complete, banner: document.getElementById("problem").textContent };
  });
  const live = `${stored.at(-1).id}-live`;
  const call = stored.findLast((r) => r.content_type === "tool_call");
  assert.equal(out.complete, "true", "reached the first record");
  assert.ok(out.pages >= Math.floor(stored.length / 40) - 1, `paged in page by page (${out.pages} prepends)`);
  assert.deepEqual(out.ids, [...stored.map((r) => r.id), live], "every stored record once, in order, and the live one after them");
  assert.equal(out.statuses[call.id], call.status === "failed" ? "completed" : "failed", "a live update changed a shown record in place");
  assert.deepEqual(out.jumps, [], "the record in view stayed in place at each prepend");
  assert.equal(out.banner, "");
  await clean(page, watch);
  await page.close();
});

test("server.html: a page that fails shows a banner with a retry, and the conversation stays", async () => {
  const { page, watch } = await open("server.html?conversation=size-100&limit=30&every=60000");
  // The first older page fails; the retry's goes through.
  let failed = 0;
  await page.route(/\/api\/conversations\/size-100\/records\?.*before=/, (route) => (failed++ ? route.continue() : route.fulfill({ status: 503, body: "busy" })));
  const out = await page.evaluate(async () => {
    const chat = document.getElementById("conversation");
    const shown = chat.records.length;
    chat.shadowRoot.querySelector(".scroller").scrollTop = 0;
    for (let k = 0; k < 100 && !document.querySelector("#problem .banner"); k++) await new Promise((r) => setTimeout(r, 20));
    const banner = document.querySelector("#problem .banner")?.textContent ?? null;
    const kept = chat.records.length;
    document.querySelector("#problem button").click();
    for (let k = 0; k < 100 && chat.records.length === kept; k++) await new Promise((r) => setTimeout(r, 20));
    return { shown, banner, kept, after: chat.records.length, bannerAfter: document.getElementById("problem").textContent };
  });
  assert.match(out.banner, /HTTP 503.*Retry/);
  assert.equal(out.kept, out.shown, "the conversation stays");
  assert.equal(out.after, out.shown + 30, "the retry pages the older records in");
  assert.equal(out.bannerAfter, "");
  assert.deepEqual(watch.console.filter((m) => !/503/.test(m)), []);
  await page.close();
});
