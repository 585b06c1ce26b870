// Browser tests of <chat-transcript> (chat-display/element, bundled in pkg/element/) in Debian's
// headless Chromium driven by playwright-core: the test page (tests/element/page.html) holds the
// element alone, with the module and the element entry as the package ships them, under the same
// strict Content-Security-Policy as the viewer. Every expectation is computed from the records,
// the module (in Node or in the page) or the DOM, never written down as a result.
// BROWSER=firefox runs them in Debian's headless Firefox ESR instead (tests/support/firefox.mjs).
//
// Run `node scripts/build-element.mjs` after changing js/element/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { packageMounts, startServer } from "../../www/serve.mjs";
import { engine, launchBrowser } from "../support/browser.mjs";
import * as cd from "../../js/node.mjs";
import { conversation } from "../../bench/generate.mjs";
import { sample, sampleConversation } from "../../www/sample.js";
import { hostileConversation, rec, watchForAttacks, watchPage } from "../support/kit.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const streams = join(repo, "tests/fixtures/streams");
const vectors = JSON.parse(readFileSync(join(repo, "tests/page/xss-vectors.json"), "utf8"));
/** The most elements the element may hold in its shadow root, for any length. */
const MAX_ELEMENTS = 3000;
let server, url, browser, served;
/** For open({ dark: true }) in Firefox: a browser whose system is dark, launched on first use. */
let darkFirefox;
/** The 10,000-message conversation of bench/generate.mjs, its records and their search texts. */
const big = {};

before(async () => {
  served = mkdtempSync(join(tmpdir(), "chat-display-element-"));
  big.messages = conversation(10000);
  big.text = JSON.stringify(big.messages);
  writeFileSync(join(served, "big.json"), big.text);
  big.records = cd.toDisplayMessages(big.messages);
  writeFileSync(join(served, "big-records.json"), JSON.stringify(big.records));
  big.texts = big.records.map((r) => cd.toText(r).toLowerCase());
  ({ server, url } = await startServer({
    port: 0,
    mounts: [
      ...packageMounts,
      ["/www/", join(repo, "www")],
      ["/streams/", streams],
      ["/fixtures/", served],
      ["/", join(repo, "tests/element")],
    ],
  }));
  browser = await launchBrowser();
  // An image of the page's own origin (after the awaits: PNG is defined further down).
  writeFileSync(join(served, "own.png"), PNG);
});

after(async () => {
  await browser?.close();
  await (await darkFirefox)?.close();
  server?.close();
  if (served) rmSync(served, { recursive: true, force: true });
});

/** A 1x1 PNG, for the routes that stand in for other hosts on this closed network. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/**
 * Opens the test page and watches for what a bug or an attack would cause: console errors, page
 * errors, dialogs, CSP violations, payloads run (window.__xss) and requests to other hosts.
 * Requests to other hosts are answered here (a PNG) so that nothing leaves the machine.
 * `dark`: the system's color scheme is dark (Chromium emulates it on the page; Firefox and WebKit,
 * whose WebDriver cannot, open it in a second browser launched dark: tests/support/firefox.mjs, webkit.mjs).
 */
async function open({ width = 1000, height = 800, dark = false } = {}) {
  const firefoxDark = dark && engine !== "chromium";
  const page = await (firefoxDark ? (await (darkFirefox ??= launchBrowser({ colorScheme: "dark" }))) : browser).context.newPage();
  if (dark && !firefoxDark) await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width, height });
  const watch = { console: [], dialogs: [], requests: [] };
  await page.addInitScript(watchForAttacks);
  await page.addInitScript(() => {
    // Helpers for the tests' page.evaluate calls.
    window.__frames = (n = 2) => new Promise((resolve) => {
      const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
      requestAnimationFrame(step);
    });
    window.__root = () => document.getElementById("t").shadowRoot;
    window.__scroller = (e = document.getElementById("t")) => e.shadowRoot.querySelector(".scroller");
    /** True when `node` is laid out and at least partly inside the element's scroll viewport. */
    window.__inView = (node, e = document.getElementById("t")) => {
      if (!node) return false;
      const s = window.__scroller(e).getBoundingClientRect();
      const r = node.getBoundingClientRect();
      return r.height > 0 && r.bottom > s.top + 1 && r.top < s.bottom - 1;
    };
    window.__count = (e = document.getElementById("t")) => e.shadowRoot.querySelectorAll("*").length;
    window.__record = (i) => window.__root().querySelector(`.record[data-record="${i}"]`);
    window.__fromEnd = (e = document.getElementById("t")) => {
      const s = window.__scroller(e);
      return s.scrollHeight - s.scrollTop - s.clientHeight;
    };
  });
  watchPage(page, watch);
  await page.route((u) => u.hostname !== "127.0.0.1", (route) => route.fulfill({ status: 200, contentType: "image/png", body: PNG }));
  await page.goto(url + "page.html");
  await page.waitForSelector("body[data-ready]", { state: "attached" });
  return { page, watch };
}

async function clean(page, watch) {
  assert.deepEqual(watch.console, [], "no console errors");
  assert.deepEqual(watch.dialogs, [], "no dialogs");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violations");
}

/** Scrolls record `i` into view and waits until its row is in the DOM and in view. */
async function reveal(page, i) {
  await page.evaluate((i) => t.scrollToRecord(i), i);
  await page.waitForFunction((i) => window.__inView(window.__record(i)), i, { timeout: 5000, polling: "raf" });
}

/**
 * Every row of the element, visited by scrolling through: index -> what the row shows. `expand`
 * opens every tool call on the way.
 */
async function visitAll(page, { expand = false } = {}) {
  return page.evaluate(async (expand) => {
    const rows = {};
    const n = t.records.length;
    let i = 0;
    for (let guard = 0; i < n && guard < 4 * n; guard++) {
      t.scrollToRecord(i);
      await window.__frames(3);
      if (expand) {
        let clicked = false;
        for (const head of window.__root().querySelectorAll('.tool-head[aria-expanded="false"]')) {
          head.click();
          clicked = true;
        }
        if (clicked) await window.__frames(3);
      }
      for (const row of window.__root().querySelectorAll(".row")) {
        const index = Number(row.dataset.index);
        const record = row.querySelector(":scope > .record");
        rows[index] = {
          hidden: row.hidden,
          turn: row.dataset.turn,
          turnStart: row.classList.contains("turn-start"),
          contentType: record?.dataset.contentType ?? null,
          status: record?.querySelector(".tool-head .status")?.dataset.status ?? null,
          text: row.textContent,
          html: row.innerHTML,
        };
      }
      while (i < n && rows[i]) i++;
    }
    return rows;
  }, expand);
}


/** A value as text: a string as it is, anything else as indented JSON. */
const asText = (value) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

const STATUSES = ["pending", "executing", "completed", "failed", "interrupted", "cancelled"];

test("every content type and every tool status renders through the element, grouped into turns", async () => {
  const { page, watch } = await open();
  const extra = [
    rec("user", "text", { text: "Now every status, please." }),
    ...STATUSES.map((status, k) => rec("assistant", "tool_call",
      { call_id: `s${k}`, name: `tool_${status}`, arguments: { status } }, { sequence: k, status, tool_call_id: `s${k}` })),
    // Statuses that come from a paired result rather than the call's own record.
    rec("assistant", "tool_call", { call_id: "r1", name: "by_error", arguments: {} }, { sequence: 6, status: "completed", tool_call_id: "r1" }),
    rec("assistant", "tool_call", { call_id: "r2", name: "by_interrupt", arguments: {} }, { sequence: 7, status: "completed", tool_call_id: "r2" }),
    rec("tool", "tool_result", { tool_call_id: "r1", name: "by_error", content: "it broke", is_error: true }, { tool_call_id: "r1" }),
    rec("tool", "tool_result", { tool_call_id: "r2", name: "by_interrupt", content: "stopped", is_interrupt: true }, { sequence: 1, tool_call_id: "r2" }),
    rec("assistant", "widget", { anything: ["at", "all"], n: 1 }),
  ];
  const records = await page.evaluate(async (extra) => {
    const { sample } = await import("/www/sample.js");
    await t.load(sample);
    t.records = t.records.concat(extra);
    return t.records;
  }, extra);
  const rows = await visitAll(page, { expand: true });
  assert.equal(Object.keys(rows).length, records.length, "every record has a row");

  // Which call each result pairs with, by tool_call_id, as a reader would pair them.
  const callOf = new Map();
  records.forEach((r, i) => {
    if (r.content_type !== "tool_result") return;
    for (let j = i - 1; j >= 0; j--) {
      if (records[j].content_type === "tool_call" && records[j].tool_call_id === r.tool_call_id) {
        callOf.set(i, j);
        break;
      }
    }
  });
  assert.ok(callOf.size >= 4, "the sample and the extra records pair results with calls");

  const types = new Set();
  records.forEach((r, i) => {
    const row = rows[i];
    if (callOf.has(i)) {
      assert.equal(row.hidden, true, `the paired result ${i} has no row of its own`);
      const call = rows[callOf.get(i)];
      const result = asText(r.content.content);
      assert.ok(call.text.includes(result), `the result ${i} shows inside its call's row: ${result}`);
      assert.match(call.html, new RegExp(`data-record="${i}"`));
      assert.equal(row.turn, "assistant", "a tool message's records are part of the assistant's turn");
      return;
    }
    assert.equal(row.hidden, false, `record ${i} shows`);
    assert.equal(row.contentType, r.content_type, `record ${i}'s row renders its own type`);
    types.add(r.content_type);
  });
  for (const type of ["text", "thinking", "tool_call", "image", "file_reference", "structured_data", "notification", "error", "todo_snapshot", "widget"]) {
    assert.ok(types.has(type), `renders ${type}`);
  }

  // Per type: what each row shows comes from its record.
  const html = await page.evaluate(async (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      t.scrollToRecord(i);
      await window.__frames(2);
      const block = window.__record(i);
      out.push(block ? {
        thinking: block.querySelector("details.thinking")?.textContent ?? null,
        img: block.querySelector("img")?.getAttribute("src") ?? null,
        blocked: block.querySelector(".image-blocked")?.textContent ?? null,
        fileName: block.querySelector(".file-name")?.textContent ?? null,
        filePath: block.querySelector(".file-path")?.textContent ?? null,
        format: block.querySelector(".structured")?.dataset.format ?? null,
        jsonTree: !!block.querySelector(".structured .json-node"),
        th: [...block.querySelectorAll(".structured th")].map((e) => e.textContent),
        tr: block.querySelectorAll(".structured tbody tr").length,
        pre: block.querySelector(".structured pre, pre.unknown-type")?.textContent ?? null,
        banner: block.querySelector(".banner")?.getAttribute("role") ?? null,
        bannerText: block.querySelector(".banner-text")?.textContent ?? null,
        todos: [...block.querySelectorAll("ul.todos li")].map((li) => li.dataset.status),
        bubble: block.querySelector(".bubble")?.textContent ?? null,
        prose: block.querySelector(".prose")?.textContent ?? null,
        toolName: block.querySelector(".tool-head .name")?.textContent ?? null,
        status: block.querySelector(".tool-head .status")?.dataset.status ?? null,
      } : null);
    }
    return out;
  }, records.length);
  let structured = new Set();
  records.forEach((r, i) => {
    if (callOf.has(i)) return;
    const shown = html[i];
    const c = r.content;
    switch (r.content_type) {
      case "text":
        if (r.message_type === "user") assert.equal(shown.bubble, c.text);
        else assert.ok(shown.prose.replace(/\s+/g, " ").includes(c.text.split("\n")[0].replace(/[#*]/g, "").trim()), `assistant text ${i}`);
        break;
      case "thinking":
        assert.ok(shown.thinking.includes(c.text));
        break;
      case "image":
        if (c.data) assert.equal(shown.img, `data:${c.mime_type};base64,${c.data}`);
        else {
          assert.equal(shown.img, null, "a javascript: image is not loaded");
          assert.match(shown.blocked, /not shown/);
        }
        break;
      case "file_reference":
        assert.equal(shown.fileName, c.name);
        assert.equal(shown.filePath, c.path);
        break;
      case "structured_data": {
        const format = c.format.toLowerCase();
        structured.add(format);
        assert.equal(shown.format, format);
        if (format === "json") assert.equal(shown.jsonTree, true, "json is a tree");
        else if (format === "csv") {
          const lines = c.data.split("\n");
          assert.deepEqual(shown.th, lines[0].split(","), "csv headers");
          assert.equal(shown.tr, lines.length - 1, "csv rows");
        } else assert.equal(shown.pre, c.data, "another format is shown as text");
        break;
      }
      case "notification":
      case "error":
        assert.equal(shown.banner, r.content_type === "error" ? "alert" : "status");
        assert.equal(shown.bannerText, c.text);
        break;
      case "todo_snapshot":
        assert.deepEqual(shown.todos, c.todos.map((todo) => todo.status));
        break;
      case "tool_call": {
        assert.equal(shown.toolName, c.name);
        const results = [...callOf].filter(([, call]) => call === i).map(([res]) => records[res].content);
        const expected = results.some((x) => x.is_error === true) ? "failed"
          : results.some((x) => x.is_interrupt === true) ? "interrupted" : r.status;
        assert.equal(shown.status, expected, `${c.name}'s status`);
        break;
      }
      default:
        assert.equal(shown.pre, JSON.stringify(c, null, 2), "an unknown type shows its content");
    }
  });
  assert.deepEqual([...structured].sort(), ["csv", "json", "yaml"]);
  const shownStatuses = new Set(html.filter(Boolean).map((h) => h.status).filter(Boolean));
  for (const status of STATUSES) assert.ok(shownStatuses.has(status), `status ${status} shows`);

  // Turns: a user bubble starts a turn; the assistant's records after it (thinking, text, calls,
  // the tool message's results) are one turn; the next user message starts the next.
  const turnOf = (r) => (r.message_type === "user" || r.message_type === "system" ? r.message_type
    : r.message_type === "assistant" || r.message_type === "tool" ? "assistant" : r.content_type === "error" ? "error" : "assistant");
  records.forEach((r, i) => {
    assert.equal(rows[i].turn, turnOf(r), `record ${i}'s turn`);
    const expectedStart = i === 0 || turnOf(records[i - 1]) !== turnOf(r) || (turnOf(r) === "user" && r.sequence === 0);
    assert.equal(rows[i].turnStart, expectedStart, `record ${i} (${r.message_type} ${r.content_type}) starts a turn: ${expectedStart}`);
  });
  const firstUser = records.findIndex((r) => r.message_type === "user");
  assert.equal(rows[firstUser].turn, "user");
  assert.match(rows[firstUser].html, /class="bubble"/);
  const lastOfFirstReply = records.findIndex((r, i) => i > firstUser && r.message_type === "tool") ;
  for (let i = firstUser + 1; i <= lastOfFirstReply; i++) {
    assert.equal(rows[i].turn, "assistant");
    assert.equal(rows[i].turnStart, i === firstUser + 1, `record ${i} is inside the first reply's turn`);
  }
  await clean(page, watch);
  await page.close();
});

test("user text is verbatim, assistant text is Markdown: dir=auto, code blocks with a header, task lists", async () => {
  const { page, watch } = await open();
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
  const userText = "first line\nsecond **x** line\n\n  indented <b>tag</b>";
  const code = "def umbrella(rain_mm):\n    return rain_mm > 0.5";
  const assistantText = `Some **bold** and \`inline\`.\n\n\`\`\`python\n${code}\n\`\`\`\n\n- [ ] open task\n- [x] done task\n\nשלום עולם, מה שלומך?`;
  const out = await page.evaluate(async ([records]) => {
    t.records = records;
    await window.__frames(3);
    const root = window.__root();
    const bubble = root.querySelector('.row[data-index="0"] .bubble');
    const prose = root.querySelector('.row[data-index="1"] .prose');
    const rtlBubble = root.querySelector('.row[data-index="2"] .bubble');
    const copy = prose.querySelector(".code-block .code-head button.copy");
    const pre = prose.querySelector(".code-block pre");
    const a = copy.getBoundingClientRect(), b = pre.getBoundingClientRect();
    const p = prose.querySelector("p");
    const style = getComputedStyle(p);
    return {
      bubbleText: bubble.textContent,
      bubbleInner: bubble.innerText,
      bubbleDir: bubble.getAttribute("dir"),
      bubbleMarkup: bubble.querySelectorAll("*").length,
      strong: [...prose.querySelectorAll("strong")].map((e) => e.textContent),
      inline: [...prose.querySelectorAll("p code")].map((e) => e.textContent),
      paragraphsDir: [...prose.querySelectorAll("p, li")].map((e) => e.getAttribute("dir")),
      rtlParagraph: [...prose.querySelectorAll("p")].filter((e) => e.matches(":dir(rtl)")).map((e) => e.textContent),
      rtlBubble: rtlBubble.matches(":dir(rtl)"),
      ltrBubble: bubble.matches(":dir(ltr)"),
      language: prose.querySelector(".code-head").firstElementChild.textContent,
      copyInPre: copy.closest("pre") !== null,
      overlap: !(a.bottom <= b.top || a.top >= b.bottom || a.right <= b.left || a.left >= b.right),
      code: pre.textContent,
      boxes: [...prose.querySelectorAll('input[type="checkbox"]')].map((e) => ({ disabled: e.disabled, checked: e.checked, shown: e.getBoundingClientRect().width > 0 })),
      lineHeight: parseFloat(style.lineHeight) / parseFloat(style.fontSize),
    };
  }, [[
    rec("user", "text", { text: userText }),
    rec("assistant", "text", { text: assistantText }),
    rec("user", "text", { text: "مرحبا بالعالم" }, { sequence: 0 }),
  ]]);
  assert.equal(out.bubbleText, userText, "user text is verbatim");
  assert.equal(out.bubbleMarkup, 0, "no markup in a user bubble: **x** and <b> stay text");
  assert.ok(out.bubbleInner.includes("first line\nsecond **x** line\n\n  indented"), "line breaks and spaces are laid out");
  assert.equal(out.bubbleDir, "auto");
  assert.equal(out.rtlBubble, true, "Arabic lays out right to left");
  assert.equal(out.ltrBubble, true);
  assert.deepEqual(out.strong, ["bold"], "assistant text is Markdown");
  assert.deepEqual(out.inline, ["inline"]);
  assert.ok(out.paragraphsDir.length >= 3 && out.paragraphsDir.every((d) => d === "auto"), "dir=auto on every block");
  assert.equal(out.rtlParagraph.length, 1, "the Hebrew paragraph lays out right to left");
  assert.equal(out.language, "python", "the code header names the language");
  assert.equal(out.copyInPre, false, "the copy button is outside the <pre>");
  assert.equal(out.overlap, false, "the copy button never covers code");
  assert.equal(out.code.replace(/\n$/, ""), code, "the code as written");
  assert.deepEqual(out.boxes, [{ disabled: true, checked: false, shown: true }, { disabled: true, checked: true, shown: true }]);
  assert.ok(Math.abs(out.lineHeight - 1.6) < 0.05, `line height about 1.6: ${out.lineHeight}`);
  // The copy button copies the code.
  await page.click("chat-transcript .code-block button.copy");
  await page.waitForFunction(() => window.__root().querySelector("button.copy").textContent === "Copied");
  assert.equal((await page.evaluate(() => navigator.clipboard.readText())).replace(/\n$/, ""), code, "the copy button copies the code");
  await clean(page, watch);
  await page.close();
});

test("tool calls collapse and expand by mouse and by keyboard, with a short argument summary", async () => {
  const { page, watch } = await open();
  const long = "a very long query ".repeat(20);
  const args = { city: "Paris", units: "celsius", query: long, nested: { deep: [1, 2] } };
  await page.evaluate((records) => { t.records = records; }, [
    rec("user", "text", { text: "Weather?" }),
    rec("assistant", "tool_call", { call_id: "c1", name: "get_weather", arguments: args }, { tool_call_id: "c1" }),
    rec("tool", "tool_result", { tool_call_id: "c1", name: "get_weather", content: "18°C, light rain" }, { tool_call_id: "c1" }),
  ]);
  const head = page.locator('chat-transcript .row[data-index="1"] .tool-head');
  const state = () => page.evaluate(() => {
    const root = window.__root();
    const h = root.querySelector('.row[data-index="1"] .tool-head');
    const body = root.querySelector('.row[data-index="1"] .tool-body');
    return {
      expanded: h.getAttribute("aria-expanded"),
      controls: h.getAttribute("aria-controls"),
      body: body ? { id: body.id, text: body.textContent, visible: body.getBoundingClientRect().height > 0 } : null,
      focused: root.activeElement === h,
      summary: h.querySelector(".summary").textContent,
    };
  });
  let s = await state();
  assert.equal(s.expanded, "false", "collapsed at first");
  assert.equal(s.body, null);
  assert.ok(s.summary.startsWith('city: "Paris", units: "celsius"'), s.summary);
  assert.ok(s.summary.length <= 80 && s.summary.endsWith("…"), `a short summary, cut: ${s.summary}`);

  // Mouse.
  await head.click();
  await page.waitForFunction(() => window.__root().querySelector('.row[data-index="1"] .tool-head').getAttribute("aria-expanded") === "true");
  s = await state();
  assert.equal(s.body.id, s.controls, "aria-controls names the body");
  assert.ok(s.body.visible);
  for (const part of ["Paris", "celsius", "deep", "18°C, light rain"]) assert.ok(s.body.text.includes(part), `expanded shows ${part}`);
  await head.click();
  await page.waitForFunction(() => window.__root().querySelector('.row[data-index="1"] .tool-head').getAttribute("aria-expanded") === "false");
  assert.equal((await state()).body, null, "collapsed again");

  // Keyboard: Enter and Space, focus staying on the (rebuilt) head button.
  await head.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => window.__root().querySelector('.row[data-index="1"] .tool-head').getAttribute("aria-expanded") === "true");
  await page.evaluate(() => window.__frames(2));
  s = await state();
  assert.ok(s.body?.visible, "Enter expands");
  assert.equal(s.focused, true, "focus stays on the head after Enter");
  await page.keyboard.press("Space");
  await page.waitForFunction(() => window.__root().querySelector('.row[data-index="1"] .tool-head').getAttribute("aria-expanded") === "false");
  await page.evaluate(() => window.__frames(2));
  s = await state();
  assert.equal(s.body, null, "Space collapses");
  assert.equal(s.focused, true, "focus stays on the head after Space");
  await page.keyboard.press("Space");
  await page.waitForFunction(() => window.__root().querySelector('.row[data-index="1"] .tool-head').getAttribute("aria-expanded") === "true");
  assert.equal((await state()).focused, true);

  // Toggled by a script while focus is elsewhere, the head does not take focus.
  const moved = await page.evaluate(async () => {
    const input = document.createElement("input");
    input.setAttribute("aria-label", "elsewhere");
    document.body.prepend(input);
    input.focus();
    window.__root().querySelector('.row[data-index="1"] .tool-head').click();
    await window.__frames(3);
    const result = { active: document.activeElement === input, expanded: window.__root().querySelector('.row[data-index="1"] .tool-head').getAttribute("aria-expanded") };
    input.remove();
    return result;
  });
  assert.deepEqual(moved, { active: true, expanded: "false" });
  await clean(page, watch);
  await page.close();
});

test("thinking is open while it streams and folds when its final record arrives", async () => {
  const { page, watch } = await open();
  const thinking = rec("assistant", "thinking", { text: "Let me think" }, { status: "pending", metadata: { streaming: true } });
  const final = { ...thinking, status: "completed", content: { text: "Let me think about it." }, metadata: {} };
  const states = await page.evaluate(async ([user, thinking, final]) => {
    const open = () => window.__root().querySelector('.row[data-index="1"] details.thinking').open;
    const out = [];
    t.records = [user, thinking];
    await window.__frames(2);
    out.push(open());
    t.applyPatches([{ op: "append", index: 1, field: "text", text: " about it." }]);
    await window.__frames(2);
    out.push(open(), window.__root().querySelector('.row[data-index="1"] details.thinking').textContent);
    t.applyPatches([{ op: "replace", index: 1, record: final }]);
    await window.__frames(2);
    out.push(open());
    // The reader's choice holds: opened when done, it stays open as the stream goes on.
    window.__root().querySelector('.row[data-index="1"] details.thinking summary').click();
    await window.__frames(2);
    t.applyPatches([{ op: "add", record: { ...final, content_type: "text", content: { text: "Answer" } } }, { op: "replace", index: 1, record: { ...final } }]);
    await window.__frames(2);
    out.push(open());
    // Closed by the reader while it streams, it stays closed as text arrives.
    t.records = [user, thinking];
    await window.__frames(2);
    window.__root().querySelector('.row[data-index="1"] details.thinking summary').click();
    await window.__frames(2);
    t.applyPatches([{ op: "append", index: 1, field: "text", text: " more" }]);
    await window.__frames(2);
    out.push(open());
    return out;
  }, [rec("user", "text", { text: "Hi" }), thinking, final]);
  assert.equal(states[4], true, "opened by the reader after it finished, it stays open");
  assert.equal(states[5], false, "closed by the reader while streaming, it stays closed");
  assert.deepEqual(states.slice(0, 2), [true, true], "open while streaming");
  assert.ok(states[2].includes("Let me think about it."), "appended text shows");
  assert.equal(states[3], false, "folded once final");

  // The same with a recorded stream through a StreamAccumulator.
  const seen = await page.evaluate(async () => {
    t.records = [];
    const acc = new api.StreamAccumulator("anthropic_messages");
    const text = await (await fetch("/streams/anthropic_messages/thinking-then-text.sse")).text();
    const out = { whileStreaming: [], final: null };
    for (const event of text.split("\n\n")) {
      t.applyPatches(acc.push(event + "\n\n"));
      await window.__frames(1);
      const records = t.records;
      const i = records.findIndex((r) => r.content_type === "thinking");
      if (i < 0) continue;
      t.scrollToRecord(i);
      await window.__frames(1);
      const details = window.__root().querySelector(`.row[data-index="${i}"] details.thinking`);
      if (records[i].metadata?.streaming === true) out.whileStreaming.push(details?.open);
      else out.final = details?.open;
    }
    acc.free();
    return out;
  });
  assert.ok(seen.whileStreaming.length > 0, "the thinking block streamed");
  assert.ok(seen.whileStreaming.every((o) => o === true), "open on every step of the stream");
  assert.equal(seen.final, false, "folded when done");
  await clean(page, watch);
  await page.close();
});

test("bad records and bad patches never make the element throw: every row still renders", async (t) => {
  const { page, watch } = await open();
  const out = await page.evaluate(async () => {
    const deep = (n) => { let v = "bottom"; for (let i = 0; i < n; i++) v = { k: [v] }; return v; };
    const cyclic = { a: 1 };
    cyclic.self = cyclic;
    const garbage = [
      null, 42, "a string", [], {}, { content_type: "text" }, { content_type: "text", content: null },
      { content_type: "text", message_type: "user", content: { text: { not: "a string" } } },
      { content_type: "text", message_type: "assistant", content: { text: ">".repeat(20000) + " deep quote" } },
      { content_type: "text", message_type: "assistant", content: { text: "*".repeat(5000) + "x" + "*".repeat(5000) } },
      { content_type: "text", message_type: "assistant", content: { text: Array.from({ length: 400 }, (_, i) => " ".repeat(i * 2) + "- item").join("\n") } },
      { content_type: "text", message_type: "assistant", content: { text: "[".repeat(20000) + "](x)" } },
      { content_type: "thinking", metadata: null, content: { text: 5 } },
      { content_type: "tool_call", content: null, status: 7 },
      { content_type: "tool_call", tool_call_id: "z", content: { name: { n: 1 }, arguments: deep(5000) }, status: "no such status" },
      { content_type: "tool_result", tool_call_id: "z", content: { content: { x: [1] }, is_error: "yes" } },
      { content_type: "tool_result", tool_call_id: {}, content: "nope" },
      { content_type: "image", content: "x" },
      { content_type: "image", content: { url: 5, data: [], mime_type: {} } },
      { content_type: "file_reference", content: { name: null, path: ["a"] } },
      { content_type: "structured_data", content: { format: "csv", data: 5 } },
      { content_type: "structured_data", content: { format: "json", data: "{not json" } },
      { content_type: "structured_data", content: { format: "json", data: deep(5000) } },
      { content_type: "structured_data", content: { format: 7, data: cyclic } },
      { content_type: "notification", content: { text: null, path: 5 } },
      { content_type: "error", content: [] },
      { content_type: "todo_snapshot", content: { todos: [null, 5, { status: "weird", content: {} }], summary: "x" } },
      { content_type: "todo_snapshot", content: { todos: "not a list", summary: null } },
      { content_type: { toString: null }, content: cyclic },
      { content_type: "__proto__", message_type: "constructor", content: {} },
    ];
    const problems = [];
    const guard = (what, f) => { try { f(); } catch (e) { problems.push(`${what}: ${e}`); } };
    guard("records", () => { t.records = garbage; });
    await window.__frames(2);
    const seen = new Set();
    const texts = {};
    for (let i = 0; i < garbage.length; i++) {
      guard("scrollToRecord", () => t.scrollToRecord(i));
      await window.__frames(2);
      for (const head of window.__root().querySelectorAll('.tool-head[aria-expanded="false"]')) head.click();
      await window.__frames(2);
      for (const row of window.__root().querySelectorAll(".row")) {
        seen.add(Number(row.dataset.index));
        texts[row.dataset.index] = row.textContent;
      }
    }
    guard("find", () => t.find("x"));
    guard("findNext", () => t.findNext());
    guard("patches", () => t.applyPatches([null, 5, {}, { op: "append", index: 999, field: "text", text: "x" }, { op: "append", index: -1, field: "text", text: "x" },
      { op: "replace", index: -1, record: {} }, { op: "replace", index: 1.5, record: {} }, { op: "replace", index: "0", record: {} }, { op: "append", index: 2, field: "text", text: 5 },
      { op: "add", record: null }, { op: "add" }, { op: "nope" }]));
    guard("patches", () => t.applyPatches(null));
    guard("patches", () => t.applyPatches("nope"));
    await window.__frames(3);
    guard("find", () => t.find("item"));
    guard("scrollToRecord", () => { t.scrollToRecord(-5); t.scrollToRecord(1e9); t.scrollToRecord(NaN); t.scrollToRecord("3"); });
    await window.__frames(3);
    const records = t.records;
    return { problems, texts, seen: seen.size, n: garbage.length, length: records.length, keys: Object.keys(records).length, rows: window.__root().querySelectorAll(".row").length };
  });
  assert.deepEqual(out.problems, [], "nothing throws");
  assert.equal(out.seen, out.n, "every bad record has a row");
  // Markdown too deep for marked (its recursion, or its time) shows as the text it is.
  assert.ok(out.texts[8].includes(">".repeat(1000) + " deep quote"), "a quote nested 20,000 deep");
  await t.test("emphasis nested 5,000 deep shows as the text it is",
    () => assert.ok(out.texts[9].includes("*".repeat(5000) + "x"), "emphasis nested 5,000 deep"));
  assert.ok(out.texts[10].includes(" ".repeat(798) + "- item"), "a list nested 400 deep");
  assert.equal(out.keys, out.length, "bad patch indices add nothing but records");
  assert.ok(out.rows > 0);
  await clean(page, watch);
  await page.close();
});

/** Steps through the hits, checking the current one at each step; returns the indices seen. */
async function stepHits(page, method, steps) {
  const seen = [];
  for (let k = 0; k < steps; k++) {
    const current = await page.evaluate(async (method) => {
      t[method]();
      let marked = [];
      for (let tries = 0; tries < 30; tries++) {
        await window.__frames(1);
        marked = [...window.__root().querySelectorAll('[aria-current="true"]')];
        if (marked.length === 1 && window.__inView(marked[0])) break;
      }
      return marked.map((e) => ({ record: Number(e.dataset.record), inView: window.__inView(e), marks: e.querySelectorAll("mark.hit").length }));
    }, method);
    assert.equal(current.length, 1, "one current hit");
    assert.equal(current[0].inView, true, "the current hit is scrolled into view");
    assert.ok(current[0].marks > 0, "the current hit's text is marked");
    seen.push(current[0].record);
  }
  return seen;
}

test("find / findNext / findPrevious: counts over toText, all else still shown, wrapping; records as an array", async () => {
  const { page, watch } = await open();
  const before = await page.evaluate(async () => {
    const { sampleConversation, sampleRecords } = await import("/www/sample.js");
    t.records = api.toDisplayMessages(sampleConversation).concat(sampleRecords);
    await window.__frames(3);
    return [...window.__root().querySelectorAll(".row")].map((r) => r.dataset.index);
  });
  const expected = await page.evaluate(() => t.records.map((r, i) => [i, api.toText(r).toLowerCase()]).filter(([, x]) => x.includes("berlin")).map(([i]) => i));
  assert.ok(expected.length >= 3);
  assert.equal(await page.evaluate(() => t.find("BERLIN")), expected.length, "the count, case-insensitive");
  assert.equal(await page.evaluate(() => t.find("berlin")), expected.length);
  await page.evaluate(() => window.__frames(2));
  const after = await page.evaluate(() => ({
    rows: [...window.__root().querySelectorAll(".row")].map((r) => r.dataset.index),
    marks: [...window.__root().querySelectorAll("mark.hit")].map((m) => m.textContent.toLowerCase()),
  }));
  assert.deepEqual(after.rows, before, "every other record still shows");
  assert.ok(after.marks.length > 0 && after.marks.every((m) => m === "berlin"), "hits are marked");
  const forward = await stepHits(page, "findNext", expected.length + 1);
  assert.deepEqual(forward, [...expected, expected[0]], "findNext visits every hit in order, then wraps");
  const backward = await stepHits(page, "findPrevious", 2);
  assert.deepEqual(backward, [expected.at(-1), expected.at(-2)], "findPrevious wraps back to the last hit");
  assert.equal(await page.evaluate(() => t.find("no such words anywhere")), 0);
  await page.evaluate(() => { t.findNext(); t.findPrevious(); });
  await page.evaluate(() => window.__frames(2));
  assert.equal(await page.evaluate(() => window.__root().querySelectorAll('mark.hit, [aria-current="true"]').length), 0);
  assert.equal(await page.evaluate(() => t.find("")), 0, "an empty query clears");
  await clean(page, watch);
  await page.close();
});

test("find over a 10,000-message conversation loaded as bytes (through a Transcript)", async () => {
  const { page, watch } = await open();
  assert.ok(big.text.length >= 1 << 20);
  const counts = await page.evaluate(async () => {
    const bytes = new Uint8Array(await (await fetch("/fixtures/big.json")).arrayBuffer());
    return t.load(bytes);
  });
  assert.deepEqual(counts, { records: big.records.length, messages: big.records.filter((r) => r.sequence === 0).length, errors: 0 });
  for (const query of ["東京 データ", "RETRY CONTEXT MODEL"]) {
    const expected = big.texts.flatMap((x, i) => (x.includes(query.toLowerCase()) ? [i] : []));
    assert.ok(expected.length >= 1, query);
    assert.equal(await page.evaluate((q) => t.find(q), query), expected.length, `find(${query}) counts every hit`);
    const seen = await stepHits(page, "findNext", Math.min(3, expected.length + 1));
    assert.deepEqual(seen, [...expected, ...expected].slice(0, seen.length), "findNext goes through the hits in order");
    const back = await stepHits(page, "findPrevious", 2);
    const k = seen.length - 1;
    const n = expected.length;
    assert.deepEqual(back, [expected[(k - 1 + n) % n], expected[(k - 2 + 2 * n) % n]], "findPrevious goes back, wrapping");
    // Records that are not hits are still shown around the current one.
    const rows = await page.evaluate(() => [...window.__root().querySelectorAll(".row:not([hidden]) > .record")].map((e) => Number(e.dataset.record)));
    assert.ok(rows.some((i) => !expected.includes(i)), "records around a hit still show");
  }
  // Once the module has made every record's search text (the element has it made in slices after
  // load), the same hits, in the same order.
  await page.waitForTimeout(3000);
  for (const query of ["東京 データ", "RETRY CONTEXT MODEL", "the"]) {
    const expected = big.texts.flatMap((x, i) => (x.includes(query.toLowerCase()) ? [i] : []));
    assert.equal(await page.evaluate((q) => t.find(q), query), expected.length, `find(${query}) from the search text made`);
    assert.deepEqual(await stepHits(page, "findNext", 2), [...expected, ...expected].slice(0, 2), `find(${query}): the first hits`);
  }
  // From the first hit, findPrevious wraps to the last.
  const expected = big.texts.flatMap((x, i) => (x.includes("東京 データ") ? [i] : []));
  await page.evaluate(() => t.find("東京 データ"));
  assert.deepEqual(await stepHits(page, "findNext", 1), [expected[0]]);
  assert.deepEqual(await stepHits(page, "findPrevious", 1), [expected.at(-1)], "wraps from the first hit to the last");
  await clean(page, watch);
  await page.close();
});

test("a large conversation shows its first rows before the rest is read; a call answered far later shows its result's status", async () => {
  // A call at the start whose result comes after the 10,000 messages, 2 MB later.
  const messages = [
    { role: "user", content: "first" },
    { role: "assistant", content: "", tool_calls: [{ call_id: "late", name: "lookup", arguments: { q: 1 } }] },
    ...big.messages,
    { role: "tool", tool_results: [{ tool_call_id: "late", name: "lookup", content: "no", is_error: true }] },
  ];
  writeFileSync(join(served, "late.json"), JSON.stringify(messages));
  const records = cd.toDisplayMessages(messages);
  assert.equal(records[1].status, "failed");
  const { page, watch } = await open();
  const out = await page.evaluate(async () => {
    const bytes = new Uint8Array(await (await fetch("/fixtures/late.json")).arrayBuffer());
    // The first rows' set size, as they are put in (before any task after them runs).
    let first = null;
    const seen = new MutationObserver(() => {
      const row = window.__root().querySelector(".row[aria-setsize]");
      if (row && first === null) first = { size: Number(row.getAttribute("aria-setsize")), status: window.__root().querySelector('.row[data-index="1"] .tool')?.dataset.status };
    });
    seen.observe(window.__root(), { childList: true, subtree: true });
    const counts = await t.load(bytes);
    seen.disconnect();
    await window.__frames(2);
    return {
      first, counts,
      size: Number(window.__root().querySelector(".row[aria-setsize]").getAttribute("aria-setsize")),
      status: window.__root().querySelector('.row[data-index="1"] .tool')?.dataset.status,
      records: JSON.stringify(t.records),
    };
  });
  assert.ok(out.first && out.first.size > 0 && out.first.size < records.length / 4, `first rows before the rest is read: ${JSON.stringify(out.first)}`);
  assert.equal(out.first.status, "pending", "the call's result is not read yet");
  assert.equal(out.size, records.length);
  assert.equal(out.counts.records, records.length);
  assert.equal(out.status, "failed", "the row shows the status its result, read later, gives");
  assert.equal(out.records, JSON.stringify(records));
  await clean(page, watch);
  await page.close();
});

test("a large conversation that is not JSON near its end shows its first rows, keeps those read, fires cd-error and rejects load", async () => {
  // The 10,000 messages (2 MB), then an element that is not JSON: a Transcript parses the array as
  // it reads it, so the break is met only after the first rows are shown.
  const broken = `${big.text.slice(0, -1)},\n{"role": "user", "content": tru}]`;
  assert.ok(broken.length >= 1 << 20);
  writeFileSync(join(served, "broken.json"), broken);
  const offset = Buffer.byteLength(broken) - 'tru}]'.length;
  const { page, watch } = await open();
  const out = await page.evaluate(async () => {
    const bytes = new Uint8Array(await (await fetch("/fixtures/broken.json")).arrayBuffer());
    let first = null;
    const seen = new MutationObserver(() => {
      const row = window.__root().querySelector(".row[aria-setsize]");
      if (row && first === null) first = Number(row.getAttribute("aria-setsize"));
    });
    seen.observe(window.__root(), { childList: true, subtree: true });
    const events = [];
    t.addEventListener("cd-error", (e) => events.push(e.detail));
    let rejected = null;
    try {
      await t.load(bytes);
    } catch (error) {
      rejected = error;
    }
    seen.disconnect();
    await window.__frames(2);
    return {
      first, events: events.length, same: events[0] === rejected,
      rejected: rejected && { name: rejected.name, code: rejected.code, path: rejected.path, message: rejected.message, isError: rejected instanceof Error },
      size: Number(window.__root().querySelector(".row[aria-setsize]")?.getAttribute("aria-setsize")),
      rows: window.__root().querySelectorAll(".row").length,
      busy: window.__root().querySelector("[aria-busy]")?.getAttribute("aria-busy"),
      records: JSON.stringify(t.records),
    };
  });
  assert.ok(out.first > 0 && out.first < big.records.length / 4, `first rows before the rest is read: ${out.first}`);
  assert.ok(out.rejected, "load rejects");
  assert.equal(out.rejected.name, "ChatDisplayError");
  assert.equal(out.rejected.code, "invalid_input");
  assert.equal(out.rejected.path, "$");
  assert.equal(out.rejected.isError, true);
  assert.equal(out.rejected.message, `This is not JSON: unexpected character at byte ${offset}. (line 2 column 29)`);
  assert.equal(out.events, 1, "one cd-error");
  assert.equal(out.same, true, "cd-error carries the error load rejects with");
  // Every element before the break stays shown.
  assert.equal(out.size, big.records.length);
  assert.ok(out.rows > 0);
  assert.equal(out.busy, "false");
  assert.equal(out.records, JSON.stringify(big.records));
  await clean(page, watch);
  await page.close();
});

test("find over the module's search text: typed letter by letter, non-ASCII, while it is made and after, then after prepend, replace, upsert and streamed records", async () => {
  // The 10,000 messages with messages in scripts the module lowercases through the engine
  // (Greek with final sigmas, Cyrillic, Turkish dotted I) among them.
  const mixed = big.messages.slice();
  const odd = ["ΟΔΟΣ ΣΑΣ, naïve", "МОСКВА и ΟΔΟΣ", "İstanbul ΟΔΟΣ über 東京"];
  odd.forEach((text, k) => mixed.splice(5 + k * 4500, 0, { role: "user", content: text, status: "complete" }));
  writeFileSync(join(served, "mixed.json"), JSON.stringify(mixed));
  const records = cd.toDisplayMessages(mixed);
  const lower = (record) => {
    const text = cd.toText(record);
    return typeof text === "string" ? text.toLowerCase() : "";
  };
  const hitsOf = (texts, query) => texts.flatMap((x, i) => (x.includes(query.toLowerCase()) ? [i] : []));
  const { page, watch } = await open();
  /** find(prefix) for each prefix of `word`: the count of the records whose lowercased toText holds it. */
  const typed = async (texts, word, label) => {
    const letters = [...word];
    const counts = await page.evaluate((letters) => letters.map((_, k) => t.find(letters.slice(0, k + 1).join(""))), letters);
    assert.deepEqual(counts, letters.map((_, k) => hitsOf(texts, letters.slice(0, k + 1).join("")).length), `${label}: ${word} letter by letter`);
  };
  /** find(query), then findNext through up to `most` hits and findPrevious back over the first. */
  const stepped = async (texts, query, label, most = 6) => {
    const want = hitsOf(texts, query);
    assert.ok(want.length > 0, `${label}: ${query}`);
    assert.equal(await page.evaluate((q) => t.find(q), query), want.length, `${label}: find(${query})`);
    const n = Math.min(most, want.length);
    assert.deepEqual(await stepHits(page, "findNext", n), want.slice(0, n), `${label}: ${query}, the first hits in order`);
    await page.evaluate((q) => t.find(q), query);
    assert.deepEqual(await stepHits(page, "findNext", 1), [want[0]]);
    assert.deepEqual(await stepHits(page, "findPrevious", 1), [want.at(-1)], `${label}: ${query}, the last hit`);
  };
  await page.evaluate(async () => {
    const bytes = new Uint8Array(await (await fetch("/fixtures/mixed.json")).arrayBuffer());
    await t.load(bytes);
  });
  let texts = records.map(lower);
  // At once after load, while the module makes the search text in slices (a search makes the
  // rest first).
  await typed(texts, "ΟΔΟΣ Σ", "while the search text is made");
  await typed(texts, "Naïve c", "while the search text is made");
  await page.waitForTimeout(3000);
  for (const word of ["ΟΔΟΣ ΣΑΣ", "NAÏVE CAF", "über 東京", "İSTANBUL", "москва", "Tool call: get_w"]) await typed(texts, word, "made");
  for (const query of ["ΟΔΟΣ", "ΣΑΣ", "İstanbul", "über 東京"]) await stepped(texts, query, "made");

  // Older records prepended, one record replaced by a hit and a hit by another, a record upserted
  // and one streamed at the end: the hits are those of the records shown, in their order.
  const older = [rec("user", "text", { text: "Older: ΟΔΟΣ and naïve" }), rec("assistant", "text", { text: "older, nothing" })];
  const firstOdos = hitsOf(texts, "οδος")[0];
  const plain = texts.findIndex((x, i) => i > 100 && !x.includes("οδος") && !x.includes("naïve") && records[i].content_type === "text");
  const replacements = [
    { index: firstOdos + older.length, record: rec("user", "text", { text: "no longer a hit" }) },
    { index: plain + older.length, record: rec("assistant", "text", { text: "ΟΔΟΣ, now a hit" }) },
  ];
  const upserted = rec("user", "text", { text: "upserted ΟΔΟΣ naïve" }, { id: "u1" });
  const streamed = rec("assistant", "text", { text: "streamed" }, { metadata: { streaming: true } });
  await page.evaluate(({ older, replacements, upserted, streamed, length }) => {
    t.prepend(older);
    t.applyPatches(replacements.map(({ index, record }) => ({ op: "replace", index, record })), { base: 0 });
    t.upsert([upserted]);
    t.applyPatches([{ op: "add", record: streamed }], { base: length + 3 });
    t.applyPatches([{ op: "append", index: 0, field: "text", text: " ΟΔΟΣ, naïve" }], { base: length + 3 });
  }, { older, replacements, upserted, streamed, length: records.length });
  const shown = [...older, ...records, upserted, { ...streamed, content: { text: "streamed ΟΔΟΣ, naïve" } }];
  for (const { index, record } of replacements) shown[index] = record;
  texts = shown.map(lower);
  for (const word of ["ΟΔΟΣ ΣΑΣ", "NAÏVE CAF"]) await typed(texts, word, "after the changes");
  for (const query of ["ΟΔΟΣ", "naïve", "no longer a hit"]) await stepped(texts, query, "after the changes");
  await clean(page, watch);
  await page.close();
});

test("windowing: at most 3,000 elements at any time with 10,000 messages; scrollToRecord reaches any record", async (context) => {
  const { page, watch } = await open();
  // The most elements the shadow root ever held, checked at every change.
  await page.evaluate(() => {
    window.__max = 0;
    const root = window.__root();
    new MutationObserver(() => { window.__max = Math.max(window.__max, root.querySelectorAll("*").length); })
      .observe(root, { childList: true, subtree: true });
  });
  const paired = new Set();
  big.records.forEach((r, i) => {
    if (r.content_type !== "tool_result") return;
    for (let j = i - 1; j >= Math.max(0, i - 256); j--) if (big.records[j].tool_call_id === r.tool_call_id && big.records[j].content_type === "tool_call") { paired.add(i); break; }
  });
  const n = big.records.length;
  const middle = big.records.findIndex((r, i) => i >= n / 2 && !paired.has(i));
  const last = n - 1 - [...big.records].reverse().findIndex((r, k) => !paired.has(n - 1 - k));
  const check = async (what) => {
    const now = await page.evaluate(() => window.__count());
    assert.ok(now <= MAX_ELEMENTS, `${what}: ${now} elements`);
    assert.ok(now > 10, `${what}: something shows`);
  };
  for (const source of ["bytes", "array"]) {
    await page.evaluate(async (source) => {
      const response = await fetch(source === "bytes" ? "/fixtures/big.json" : "/fixtures/big-records.json");
      if (source === "bytes") await t.load(new Uint8Array(await response.arrayBuffer()));
      else t.records = await response.json();
      await window.__frames(3);
    }, source);
    await check(`${source}: after load`);
    assert.equal(await page.evaluate(() => t.records.length), n);
    for (const [what, i] of [["the middle", middle], ["the end", last], ["the start", 0], ["a record far back", 17]]) {
      await reveal(page, i);
      await page.evaluate(() => window.__frames(3));
      assert.equal(await page.evaluate((i) => window.__inView(window.__record(i)), i), true, `${source}: record ${i} (${what}) stays in view`);
      await check(`${source}: after scrollToRecord(${what})`);
    }
    const hits = await page.evaluate(() => t.find("genserver"));
    assert.equal(hits, big.texts.filter((x) => x.includes("genserver")).length);
    await stepHits(page, "findPrevious", 2);
    await check(`${source}: after find`);
    await page.evaluate(() => t.find(""));
  }
  const max = await page.evaluate(() => window.__max);
  assert.ok(max <= MAX_ELEMENTS, `at most ${MAX_ELEMENTS} elements at any time: ${max}`);
  context.diagnostic(`${n} records: at most ${max} elements in the shadow root`);
  await clean(page, watch);
  await page.close();
});

/** The recorded streams that end (a final body or an expectation), as "protocol/name.sse" (or
 * ".ndjson", Ollama's framing). */
function streamFixtures() {
  return readdirSync(streams, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
    readdirSync(join(streams, d.name)).filter((f) => /\.(sse|ndjson)$/.test(f)).map((f) => `${d.name}/${f}`));
}

test("every recorded stream replays through applyPatches to the accumulator's records and rows", async () => {
  const { page, watch } = await open({ width: 1000, height: 3000 });
  const fixtures = streamFixtures();
  assert.ok(fixtures.length >= 40, "all five protocols' fixtures");
  for (const fixture of fixtures) {
    const [protocol] = fixture.split("/");
    const out = await page.evaluate(async ([fixture, protocol]) => {
      t.records = [];
      const acc = new api.StreamAccumulator(protocol);
      const bytes = new Uint8Array(await (await fetch(`/streams/${fixture}`)).arrayBuffer());
      // About 300 chunks of varied sizes, split anywhere; rows render at a few points mid-stream.
      const unit = Math.max(1, Math.round(bytes.length / 300));
      let k = 0, rendered = 0;
      for (let i = 0; i < bytes.length; k++) {
        const size = 1 + ((k * 37) % (2 * unit));
        t.applyPatches(acc.push(bytes.subarray(i, i + size)));
        i += size;
        if (i / bytes.length > (rendered + 1) / 4) {
          rendered++;
          await window.__frames(1);
        }
      }
      await window.__frames(2);
      const expected = acc.records();
      acc.free();
      // The same records given whole to a second element: the rows must read the same.
      const whole = document.createElement("chat-transcript");
      whole.style.height = "100vh";
      document.querySelector("main").append(whole);
      whole.records = expected;
      t.scrollToRecord(0);
      await window.__frames(3);
      const rows = (e) => Object.fromEntries([...e.shadowRoot.querySelectorAll(".row")].map((r) => [r.dataset.index, { hidden: r.hidden, text: r.textContent }]));
      const result = { records: t.records, expected, streamed: rows(t), whole: rows(whole),
        texts: [...t.shadowRoot.querySelectorAll(".record")].map((e) => {
          // The prose's words, without the citation markers after them.
          const prose = e.querySelector(".prose")?.cloneNode(true) ?? null;
          for (const marker of prose?.querySelectorAll(".citation-ref") ?? []) marker.remove();
          return { index: Number(e.dataset.record), prose: prose?.textContent ?? null, name: e.querySelector(".tool-head .name")?.textContent ?? null };
        }),
        streaming: t.shadowRoot.querySelectorAll(".streaming").length };
      whole.remove();
      return result;
    }, [fixture, protocol]);
    assert.deepEqual(out.records, out.expected, `${fixture}: the element's records are the accumulator's`);
    assert.deepEqual(out.streamed, out.whole, `${fixture}: the rows show what the final records show`);
    // A blocked prompt (google_gemini/blocked-prompt) is a message with no parts: no records, no rows.
    assert.equal(Object.keys(out.streamed).length > 0, out.expected.length > 0, `${fixture}: rows for its records`);
    for (const shown of out.texts) {
      const r = out.expected[shown.index];
      if (r.content_type === "tool_call") assert.equal(shown.name, r.content.name, `${fixture}: tool call ${shown.index}`);
      // A text record that the next continues is one document with it (tested on its own below).
      const next = out.expected[shown.index + 1];
      const merged = next?.content_type === "text" && next.message_type === r.message_type && next.sequence === r.sequence + 1;
      if (r.content_type === "text" && r.message_type === "assistant" && !merged && !/[*_`#\[\]<>|\\~-]/.test(r.content.text)) {
        assert.equal(shown.prose.trim(), r.content.text.trim(), `${fixture}: the final text of ${shown.index}`);
      }
    }
  }
  await clean(page, watch);
  await page.close();
});

test("a stream keeps the view at the end, and 'Jump to latest' shows when the reader scrolled up", async () => {
  const { page, watch } = await open({ width: 600, height: 400 });
  const fixture = "anthropic_messages/long-text-nested-args";
  await page.evaluate(async (fixture) => {
    t.records = [];
    window.__acc = new api.StreamAccumulator("anthropic_messages");
    window.__bytes = new Uint8Array(await (await fetch(`/streams/${fixture}.sse`)).arrayBuffer());
    window.__at = 0;
    /** Pushes `n` of 150 chunks, a frame after each; returns the distance from the end after each. */
    const size = Math.ceil(window.__bytes.length / 150);
    window.__push = async (n) => {
      const out = [];
      for (let k = 0; k < n && window.__at < window.__bytes.length; k++) {
        t.applyPatches(window.__acc.push(window.__bytes.subarray(window.__at, window.__at + size)));
        window.__at += size;
        await window.__frames(1);
        out.push({ fromEnd: window.__fromEnd(), jump: !window.__root().querySelector(".jump").hidden, scrollTop: window.__scroller().scrollTop });
      }
      return out;
    };
  }, fixture);
  const total = await page.evaluate(() => window.__bytes.length);
  const following = await page.evaluate(() => window.__push(70));
  assert.ok(await page.evaluate(() => window.__scroller().scrollHeight > window.__scroller().clientHeight * 2), "the stream is taller than the view");
  const late = following.filter((s) => s.scrollTop > 0);
  assert.ok(late.length > 10, "the view moved with the stream");
  assert.ok(following.every((s) => s.fromEnd <= 2), `the view stays at the end: ${JSON.stringify(following.filter((s) => s.fromEnd > 2).slice(0, 3))}`);
  assert.ok(following.every((s) => !s.jump), "no jump button while following");

  // The reader scrolls up (the mouse wheel over the element): the view stays where they put it.
  await page.mouse.move(400, 200);
  await page.mouse.wheel(0, -600);
  await page.waitForFunction(() => window.__fromEnd() > 200);
  const held = await page.evaluate(() => window.__scroller().scrollTop);
  const reading = await page.evaluate(() => window.__push(30));
  assert.ok(reading.every((s) => s.fromEnd > 48), "the view does not jump to the end while the reader is up");
  assert.ok(reading.every((s) => Math.abs(s.scrollTop - held) <= 2), "and stays where the reader put it");
  assert.ok(reading.at(-1).jump, "a 'Jump to latest' button shows");
  const jump = page.locator("chat-transcript .jump");
  assert.equal(await jump.isVisible(), true);
  assert.match(await jump.textContent(), /latest/i);

  // Jump: back at the end, the button gone, following again until the stream ends.
  await jump.click();
  await page.waitForFunction(() => window.__fromEnd() <= 2, null, { polling: "raf" });
  assert.equal(await jump.isVisible(), false);
  const rest = await page.evaluate(() => window.__push(Infinity));
  assert.ok(rest.length > 0);
  assert.ok(rest.every((s) => s.fromEnd <= 2 && !s.jump), "following again after the jump");
  const done = await page.evaluate(() => ({ records: t.records, expected: window.__acc.records(), done: window.__acc.done, at: window.__at }));
  assert.ok(done.at >= total && done.done);
  assert.deepEqual(done.records, done.expected);
  await clean(page, watch);
  await page.close();
});



/**
 * Visits every row (`expand`: with every tool call opened), opens every fold, fires events inside,
 * and lists what should not be there.
 */
function sweep(page, { expand = true } = {}) {
  return page.evaluate(async (expand) => {
    const found = [];
    const seen = new Set();
    const n = t.records.length;
    const risky = /^(javascript|vbscript|data:text\/html|data:image\/svg)/i;
    let i = 0;
    for (let guard = 0; i < n && guard < 4 * n; guard++) {
      t.scrollToRecord(i);
      await window.__frames(2);
      const root = window.__root();
      if (expand) {
        for (const head of root.querySelectorAll('.tool-head[aria-expanded="false"]')) head.click();
        await window.__frames(2);
      }
      for (const d of root.querySelectorAll("details")) d.open = true;
      for (const e of root.querySelectorAll(".record *:not(a):not(button)")) {
        for (const type of ["mouseover", "focus", "click"]) e.dispatchEvent(new Event(type));
      }
      for (const row of root.querySelectorAll(".row")) seen.add(Number(row.dataset.index));
      for (const e of root.querySelectorAll(".list *")) {
        for (const a of e.attributes) {
          if (a.name.startsWith("on")) found.push(`${e.tagName} ${a.name}`);
          if (["href", "src", "action", "formaction", "xlink:href", "srcset", "data", "background", "poster"].includes(a.name)
              && risky.test(a.value.replace(/[\u0000-\u0020\u2028\u2029]/g, ""))) found.push(`${e.tagName} ${a.name}=${a.value}`);
        }
        // MathML only as the typesetter's output (in a .math span, sanitized: no links, no maction).
        const math = e.tagName.toUpperCase() === "MATH" && e.parentElement?.classList.contains("math");
        if (["SCRIPT", "IFRAME", "OBJECT", "EMBED", "FORM", "BASE", "META", "STYLE", "LINK", "SVG", "MATH", "TEMPLATE", "FRAME", "MACTION", "ANNOTATION-XML"].includes(e.tagName.toUpperCase()) && !math) found.push(`element ${e.tagName}`);
      }
      while (i < n && seen.has(i)) i++;
    }
    return { found, seen: seen.size, n };
  }, expand);
}

test("records set again with the same conversation grown keeps the view, open rows and search (as frameworks set it)", async () => {
  const { page, watch } = await open({ width: 800, height: 500 });
  const state = await page.evaluate(async () => {
    const make = (i) => ({ conversation_id: "c", message_type: i % 2 ? "assistant" : "user", content_type: "text", content: { text: `line ${i} weather` }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} });
    const call = { conversation_id: "c", message_type: "assistant", content_type: "tool_call", content: { call_id: "k", name: "lookup", arguments: { q: 1 }, display_text: null }, sequence: 0, status: "completed", tool_call_id: "k", metadata: {} };
    let records = [call, ...Array.from({ length: 199 }, (_, i) => make(i + 1))];
    t.records = records;
    await window.__frames(3);
    window.__root().querySelector(".tool-head").click();
    await window.__frames(3);
    const hits = t.find("weather");
    const s = window.__scroller();
    s.scrollTop = 3000;
    await window.__frames(4);
    const before = { scrollTop: s.scrollTop, first: window.__root().querySelector(".row:not([hidden])")?.dataset.index };
    // A framework's next render: a new array, the old records in it, one changed, two added.
    records = [...records];
    records[150] = { ...records[150], content: { text: "line 150 edited" } };
    records.push(make(200), make(201));
    t.records = records;
    await window.__frames(4);
    const after = { scrollTop: s.scrollTop, first: window.__root().querySelector(".row:not([hidden])")?.dataset.index };
    t.scrollToRecord(0);
    await window.__frames(4);
    const open = window.__root().querySelector(".tool-head")?.getAttribute("aria-expanded");
    t.scrollToRecord(150);
    await window.__frames(4);
    const edited = window.__record(150)?.textContent;
    // A different conversation: back to the top, nothing kept open.
    t.records = [make(0), ...records.slice(1)];
    await window.__frames(4);
    const reset = { scrollTop: s.scrollTop, length: t.records.length };
    return { hits, before, after, open, edited, length: records.length, shown: t.records.length, refind: t.find("weather"), reset };
  });
  assert.ok(state.before.scrollTop > 1000, "scrolled down first");
  assert.ok(Math.abs(state.after.scrollTop - state.before.scrollTop) <= 2, `the view stays: ${JSON.stringify(state)}`);
  assert.equal(state.after.first, state.before.first);
  assert.equal(state.open, "true", "the open tool row stays open");
  assert.match(state.edited, /line 150 edited/, "the changed record's row is built again");
  assert.equal(state.shown, 202);
  assert.equal(state.hits, 199);
  assert.equal(state.reset.scrollTop, 0, "another conversation starts at the top");
  await clean(page, watch);
  await page.close();
});

test(`XSS: ${vectors.length} vectors in every field, through records and load, run nothing and load nothing`, async () => {
  assert.ok(vectors.length >= 100);
  const hostile = hostileConversation(vectors);
  const { page, watch } = await open({ width: 1280, height: 2400 });
  // Padded to 1 MiB, the bytes load through a Transcript; the parsed array through input.js.
  const text = JSON.stringify(hostile);
  writeFileSync(join(served, "hostile.json"), text + " ".repeat(Math.max(0, (1 << 20) - text.length)));
  const viaArray = await page.evaluate(async (hostile) => {
    await t.load(hostile);
    await window.__frames(2);
    return t.records;
  }, hostile);
  for (const route of ["records", "load"]) {
    const total = await page.evaluate(async ([route, hostile]) => {
      if (route === "records") {
        // Records as an app would set them: the records as they are, the messages' records.
        t.records = hostile.flatMap((e) => ("content_type" in e ? [e] : api.toDisplayMessages([e])));
      } else {
        await t.load(new Uint8Array(await (await fetch("/fixtures/hostile.json")).arrayBuffer()));
      }
      return t.records.length;
    }, [route, hostile]);
    assert.ok(total >= hostile.length, `${route}: everything read`);
    if (route === "load") assert.deepEqual(await page.evaluate(() => t.records), viaArray, "the bytes (a Transcript) and the parsed array give the same records");
    // Every tool call opened on the records route; the load route shows the same strings.
    const { found, seen, n } = await sweep(page, { expand: route === "records" });
    assert.equal(seen, n, `${route}: every row visited`);
    assert.deepEqual(found, [], `${route}: no handlers, no script URLs, no active elements`);
    await page.evaluate(async () => {
      for (const q of ["script", "onerror", "javascript"]) {
        t.find(q);
        t.findNext();
        await window.__frames(2);
        t.findPrevious();
        await window.__frames(2);
      }
      t.find("");
      await window.__frames(2);
    });
    assert.equal(await page.evaluate(() => window.__xssFired), 0, `${route}: no payload ran`);
  }
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "no CSP violation");
  assert.deepEqual(watch.dialogs, [], "no dialog");
  // Nothing reaches another host: images from other hosts, in records and in Markdown alike, wait
  // for a click. (An image record's relative URL is the page's own origin and loads at once: the
  // vectors that are such URLs give this server's 404s.)
  assert.deepEqual(watch.requests, [], "no request to another host");
  assert.deepEqual(watch.console.filter((m) => !m.startsWith("Failed to load resource")), [], "no console errors");
  await page.close();
});

test("Markdown images and image records from other hosts wait behind a placeholder naming the host; imageHosts loads them at once", async () => {
  const { page, watch } = await open();
  const leak = "http://evil.example/leak?d=secret";
  await page.evaluate((leak) => {
    t.records = [{ conversation_id: null, message_type: "assistant", content_type: "text", content: { text: `Look: ![chart](${leak})` }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} }];
  }, leak);
  await page.waitForSelector("chat-transcript .image-hold");
  await page.waitForTimeout(200);
  assert.deepEqual(watch.requests, [], "nothing loads on its own");
  assert.equal(await page.evaluate(() => window.__root().querySelectorAll(".list img").length), 0, "no <img> in the rows");
  const hold = page.locator("chat-transcript .image-hold");
  assert.match(await hold.textContent(), /evil\.example/, "the placeholder names the host");
  await hold.click();
  await page.waitForSelector("chat-transcript .prose img");
  assert.equal(await page.evaluate(() => window.__root().querySelector(".prose img").src), leak, "a click loads it");
  await page.waitForFunction(() => window.__root().querySelector(".prose img").complete);
  assert.deepEqual(watch.requests, [leak]);

  watch.requests.length = 0;
  await page.evaluate((leak) => {
    t.imageHosts = ["evil.example"];
    t.records = [
      { conversation_id: null, message_type: "assistant", content_type: "text", content: { text: `![a](${leak}&n=2) ![b](https://other.example/b.png)` }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} },
    ];
  }, leak);
  await page.waitForSelector("chat-transcript .prose img");
  const shown = await page.evaluate(() => ({
    imgs: [...window.__root().querySelectorAll(".prose img")].map((i) => i.src),
    holds: [...window.__root().querySelectorAll(".image-hold")].map((b) => b.textContent),
    hosts: t.imageHosts,
  }));
  assert.deepEqual(shown.hosts, ["evil.example"]);
  assert.deepEqual(shown.imgs, [`${leak}&n=2`], "an allowed host's image loads at once");
  assert.equal(shown.holds.length, 1, "another host still waits");
  assert.match(shown.holds[0], /other\.example/);
  await page.waitForFunction(() => window.__root().querySelector(".prose img").complete);
  assert.deepEqual(watch.requests, [`${leak}&n=2`]);

  // Image records: inline data (base64 png / jpeg / gif / webp), blob: and the page's own origin
  // load at once, as does a host in imageHosts; any other http(s) host waits behind a
  // placeholder naming it; nothing else is shown.
  watch.requests.length = 0;
  const origin = new URL(url).origin;
  const cases = [
    [{ url: "https://img.example/a.png?d=secret" }, "waits", /img\.example/],
    [{ url: "http://img.example/b.png" }, "waits", /img\.example/],
    [{ url: "https://evil.example/listed.png" }, "loads"],
    [{ url: `${origin}/fixtures/own.png` }, "loads"],
    [{ url: "/fixtures/own.png?relative" }, "loads"],
    [{ data: "iVBORw0KGgo=", mime_type: "image/png" }, "loads"],
    [{ data: "R0lGODlh", mime_type: "image/gif" }, "loads"],
    [{ url: "data:image/webp;base64,UklGRg==" }, "loads"],
    [{ url: "BLOB" }, "loads"], // a blob: URL the page makes
    [{ url: "blob:https://img.example/x" }, "blocked"], // another page's
    [{ url: "javascript:alert(1)" }, "blocked"],
    [{ url: "data:image/svg+xml;base64,PHN2Zz4=" }, "blocked"],
    [{ data: "PHN2Zz4=", mime_type: "image/svg+xml" }, "blocked"],
    [{ url: "data:text/html;base64,PHNjcmlwdD4=" }, "blocked"],
    [{ data: "not base64!", mime_type: "image/png" }, "blocked"],
    [{ url: "file:///etc/passwd" }, "blocked"],
    [{}, "blocked"],
  ];
  const results = await page.evaluate(async (cases) => {
    t.imageHosts = ["evil.example"];
    const blob = URL.createObjectURL(new Blob([Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0))], { type: "image/png" }));
    t.records = cases.map(([content], i) => ({ conversation_id: null, message_type: "assistant", content_type: "image", content: { ...(content.url === "BLOB" ? { url: blob } : content), alt_text: `case ${i}` }, sequence: i, status: "completed", tool_call_id: null, metadata: {} }));
    const out = [];
    for (let i = 0; i < cases.length; i++) {
      t.scrollToRecord(i);
      await window.__frames(3);
      const block = window.__record(i);
      out.push({
        img: block?.querySelector("img")?.getAttribute("src") ?? null,
        hold: block?.querySelector(".image-hold")?.textContent ?? null,
        blocked: block?.querySelector(".image-blocked")?.textContent ?? null,
      });
    }
    return out;
  }, cases);
  results.forEach((r, i) => {
    const [content, outcome, host] = cases[i];
    const what = `case ${i} ${outcome}: ${JSON.stringify(content)}`;
    assert.equal(r.img !== null, outcome === "loads", what);
    assert.equal(r.hold !== null, outcome === "waits", what);
    assert.equal(r.blocked !== null, outcome === "blocked", what);
    if (host) assert.match(r.hold, host, `${what}: the placeholder names the host`);
    if (outcome === "blocked") assert.match(r.blocked, /not shown/);
  });
  await page.waitForTimeout(200);
  assert.deepEqual(watch.requests, ["https://evil.example/listed.png"], "only the listed host's image left the page");

  // A waiting image record loads on a click, after a cancelable cd-image; cancelled, it waits on.
  const clicked = await page.evaluate(async () => {
    const seen = [];
    let cancel = true;
    const listener = (event) => {
      seen.push({ src: event.detail.src, kind: event.detail.kind, index: event.detail.index, type: event.detail.record.content_type, cancelable: event.cancelable, composed: event.composed });
      if (cancel) event.preventDefault();
    };
    document.addEventListener("cd-image", listener);
    t.scrollToRecord(0);
    await window.__frames(3);
    window.__record(0).querySelector(".image-hold").click();
    await window.__frames(2);
    const afterCancel = { img: !!window.__record(0).querySelector("img"), hold: !!window.__record(0).querySelector(".image-hold") };
    cancel = false;
    window.__record(0).querySelector(".image-hold").click();
    await window.__frames(2);
    document.removeEventListener("cd-image", listener);
    return { seen, afterCancel, img: window.__record(0).querySelector("img")?.src ?? null };
  });
  assert.deepEqual(clicked.afterCancel, { img: false, hold: true }, "a cancelled cd-image leaves the placeholder");
  assert.equal(clicked.seen.length, 2);
  assert.deepEqual(clicked.seen[0], { src: "https://img.example/a.png?d=secret", kind: "load", index: 0, type: "image", cancelable: true, composed: true });
  assert.equal(clicked.img, "https://img.example/a.png?d=secret", "then a click loads it");
  await clean(page, watch);
  await page.close();
});

test("load() takes every input shape, counts, puts bad messages in place and rejects invalid JSON", async (t) => {
  const { page, watch } = await open();
  const providers = JSON.parse(readFileSync(join(repo, "tests/fixtures/providers_anthropic_messages.json"), "utf8"));
  const response = providers.from.find((f) => f.detect === "anthropic_messages" && f.payload?.type === "message" && f.display?.length > 0);
  assert.ok(response, "an Anthropic response body among the fixtures");
  const sampleRecords = cd.toDisplayMessages(sampleConversation);
  // Records as a backend stores them: with their conversation.
  const records = sampleRecords.map((r) => {
    const changeset = cd.validateDisplayMessage({ ...r, conversation_id: "sample" });
    assert.equal(changeset.valid, true);
    return changeset.record;
  });
  const providerRecords = cd.toDisplayMessages(cd.fromProvider("anthropic_messages", response.payload));
  assert.equal(providerRecords.length, response.display.length);
  const counts = (rs) => ({ records: rs.length, messages: rs.filter((r) => r.sequence === 0).length, errors: 0 });
  const shapes = [
    ["a string", { string: JSON.stringify(sampleConversation) }, sampleRecords],
    ["a Uint8Array", { bytes: JSON.stringify(sampleConversation) }, sampleRecords],
    ["a parsed array", { value: sampleConversation }, sampleRecords],
    ["{messages: [...]}", { value: { messages: sampleConversation } }, sampleRecords],
    ["display-message records", { value: records }, records],
    ["an Anthropic response body", { value: response.payload }, providerRecords],
  ];
  for (const [name, input, expected] of shapes) {
    const out = await page.evaluate(async (input) => {
      const events = [];
      const listener = (e) => events.push(e.detail);
      t.addEventListener("cd-load", listener);
      const value = "string" in input ? input.string : "bytes" in input ? new TextEncoder().encode(input.bytes) : input.value;
      const counts = await t.load(value);
      t.removeEventListener("cd-load", listener);
      await window.__frames(2);
      return { counts, events, records: t.records, rows: [...window.__root().querySelectorAll(".row:not([hidden]) > .record")].map((e) => e.dataset.contentType) };
    }, input);
    assert.deepEqual(out.counts, counts(expected), `${name}: counts`);
    assert.deepEqual(out.events, [out.counts], `${name}: cd-load with the counts`);
    assert.deepEqual(out.records, expected, `${name}: the records`);
    assert.ok(out.rows.length > 0 && out.rows[0] === expected[0].content_type, `${name}: rows show`);
  }

  // A bad message becomes an error record in its place; the rest shows.
  const mixed = { messages: [
    { role: "user", content: "first" },
    { role: "assistant", content: [{ content: "part without a type" }] },
    { role: "function", content: "unsupported" },
    { role: "assistant", content: "last", tool_calls: [{ call_id: "a", name: "lookup" }] },
  ] };
  const bad = await page.evaluate(async (mixed) => {
    const counts = await t.load(mixed);
    await window.__frames(2);
    return { counts, records: t.records, rows: [...window.__root().querySelectorAll(".row > .record")].map((e) => [e.dataset.contentType, e.textContent]) };
  }, mixed);
  const errors = bad.records.flatMap((r, i) => (r.content_type === "error" ? [i] : []));
  assert.deepEqual(bad.counts, { records: bad.records.length, messages: bad.records.filter((r) => r.sequence === 0).length, errors: 2 });
  assert.deepEqual(errors, [1, 2], "the bad messages' error records stand in their places");
  assert.match(bad.records[1].content.path, /^\$\.messages\[1\]\.content\[0\]/);
  assert.match(bad.records[2].content.path, /^\$\.messages\[2\]\.role/);
  assert.deepEqual(bad.rows.map(([type]) => type), ["text", "error", "error", "text", "tool_call"]);
  assert.equal(bad.rows[0][1], "first");
  assert.match(bad.rows[1][1], /\$\.messages\[1\]/, "the error row names its path");
  assert.equal(bad.rows[3][1].trim(), "last");
  assert.match(bad.rows[4][1], /lookup/);

  // Invalid JSON, small and large (the large goes through a Transcript): rejected with a
  // ChatDisplayError naming line and column, and cd-error.
  const small = '[{"role": "user",\n  "content": "hi"\n  oops}]';
  const large = JSON.stringify([{ role: "user", content: "x".repeat(1 << 20) }]).replace('"x', '\n  "x').slice(0, -1) + ",]";
  for (const [text, where] of [[small, /line 3 column 3/], [large, /line 2 column \d+/]]) {
    const failure = await page.evaluate(async (text) => {
      let detail = null;
      t.addEventListener("cd-error", (e) => { detail = e.detail; }, { once: true });
      try {
        await t.load(text);
        return { resolved: true };
      } catch (error) {
        return { name: error.name, code: error.code, path: error.path, message: error.message, same: detail === error, isError: error instanceof Error };
      }
    }, text);
    assert.equal(failure.resolved, undefined, "rejects");
    assert.equal(failure.name, "ChatDisplayError");
    assert.equal(failure.code, "invalid_input");
    assert.equal(failure.path, "$");
    await t.test(`${text === small ? "small" : "large"} invalid JSON: the error names line and column`,
      () => assert.match(failure.message, where));
    assert.equal(failure.same, true, "cd-error carries the same error");
    assert.equal(failure.isError, true);
  }
  // After a failed load the element still renders (the last good conversation or nothing), and a
  // later load works.
  assert.deepEqual((await page.evaluate(() => t.load([{ role: "user", content: "again" }]))).records, 1);
  await clean(page, watch);
  await page.close();
});

test("load() reads LangChain.js messages as detected: parsed values, and a large file past the Transcript", async () => {
  const { page, watch } = await open();
  const stored = JSON.parse(readFileSync(join(repo, "tests/fixtures/langchain_js/weather.stored.json"), "utf8")).messages;
  // A file of 1 MiB or more goes to a Transcript first; its first message names another format, so
  // the element reads it through detectProtocol and fromProvider instead of showing error records.
  const long = [...stored, { type: "human", data: { content: "y".repeat(1 << 20) } }];
  for (const [name, value, text] of [["parsed", stored, false], ["large text", long, true]]) {
    const expected = cd.toDisplayMessages(cd.fromProvider("langchain_js", value));
    const out = await page.evaluate(async ({ value, text }) => {
      const counts = await t.load(text ? JSON.stringify(value) : value);
      await window.__frames(2);
      return { counts, records: t.records };
    }, { value, text });
    assert.deepEqual(out.records, expected, name);
    assert.equal(out.counts.errors, 0, name);
    assert.ok(expected.some((r) => r.content_type === "tool_call" && r.status === "failed"), `${name}: ToolMessage.status error`);
  }
  await clean(page, watch);
  await page.close();
});

test("the src attribute fetches and loads; theme changes the background; importing twice registers once", async (t) => {
  writeFileSync(join(served, "small.json"), JSON.stringify(sampleConversation.slice(0, 2)));
  writeFileSync(join(served, "other.json"), JSON.stringify([{ role: "user", content: "from another file" }]));
  const { page, watch } = await open();
  const expected = cd.toDisplayMessages(sampleConversation.slice(0, 2));
  const viaMarkup = await page.evaluate(async () => {
    const events = [];
    const done = new Promise((resolve) => {
      document.addEventListener("cd-load", (e) => { events.push(["load", e.detail]); setTimeout(resolve, 300); }, { capture: true });
      document.addEventListener("cd-error", (e) => events.push(["error", e.detail?.message]), { capture: true });
    });
    // In markup: the element is upgraded with its src already set.
    document.querySelector("main").insertAdjacentHTML("beforeend", '<chat-transcript id="m" src="/fixtures/small.json"></chat-transcript>');
    await done;
    const m = document.getElementById("m");
    await window.__frames(2);
    return { events, records: m.records, bubble: m.shadowRoot.querySelector(".bubble")?.textContent };
  });
  assert.deepEqual(viaMarkup.events, [["load", { records: expected.length, messages: 2, errors: 0 }]], "one load, no error");
  assert.deepEqual(viaMarkup.records, expected);
  assert.equal(viaMarkup.bubble, sampleConversation[0].content);

  // Changing src loads the new file; a missing file fires cd-error.
  const changed = await page.evaluate(async () => {
    const m = document.getElementById("m");
    const loaded = new Promise((resolve) => m.addEventListener("cd-load", (e) => resolve(e.detail), { once: true }));
    m.setAttribute("src", "/fixtures/other.json");
    const counts = await loaded;
    await window.__frames(2);
    const failed = new Promise((resolve) => m.addEventListener("cd-error", (e) => resolve({ name: e.detail.name, message: e.detail.message }), { once: true }));
    m.setAttribute("src", "/fixtures/missing.json");
    return { counts, bubble: m.shadowRoot.querySelector(".bubble")?.textContent, failed: await failed };
  });
  assert.deepEqual(changed.counts, { records: 1, messages: 1, errors: 0 });
  assert.equal(changed.bubble, "from another file");
  assert.equal(changed.failed.name, "ChatDisplayError");
  assert.match(changed.failed.message, /404/);
  watch.console = watch.console.filter((m) => !/404/.test(m));

  // Theme: light and dark backgrounds differ, dark is darker; the attribute wins over the system.
  const background = (on = page) => on.evaluate(() => {
    const [r, g, b] = getComputedStyle(t).backgroundColor.match(/\d+(\.\d+)?/g).map(Number);
    return { color: getComputedStyle(t).backgroundColor, luma: 0.2126 * r + 0.7152 * g + 0.0722 * b, text: getComputedStyle(t).color };
  });
  await page.evaluate(() => t.setAttribute("theme", "light"));
  const light = await background();
  await page.evaluate(() => t.setAttribute("theme", "dark"));
  const dark = await background();
  assert.notEqual(light.color, dark.color);
  assert.notEqual(light.text, dark.text);
  assert.ok(dark.luma < light.luma, `dark is darker: ${dark.color} vs ${light.color}`);
  await page.evaluate(() => t.setAttribute("theme", "auto"));
  assert.equal((await background()).color, light.color, "auto follows a light system");
  // A dark system: the attribute wins over it, and auto follows it.
  const onDark = await open({ dark: true });
  await onDark.page.evaluate(() => t.setAttribute("theme", "light"));
  assert.equal((await background(onDark.page)).color, light.color, "theme=light wins over a dark system");
  await onDark.page.evaluate(() => t.setAttribute("theme", "auto"));
  assert.equal((await background(onDark.page)).color, dark.color, "auto follows the system");
  // The system turning light while the page is open.
  await t.test("auto follows the system turning light while the page is open", { skip: engine !== "chromium" && `${engine} over WebDriver cannot change the system's color scheme of an open page (it is set at launch)` }, async () => {
    await onDark.page.emulateMedia({ colorScheme: "light" });
    assert.equal((await background(onDark.page)).color, light.color);
  });
  await clean(onDark.page, onDark.watch);
  await onDark.page.close();

  // Importing the element module again (the same URL, or another copy) does not throw or redefine.
  const imports = await page.evaluate(async () => {
    const first = customElements.get("chat-transcript");
    const again = await import("chat-display/element");
    const copy = await import("/element/index.js?copy");
    return {
      same: again.ChatTranscript === window.ChatTranscript,
      registered: customElements.get("chat-transcript") === first && first === window.ChatTranscript,
      copyExports: typeof copy.ChatTranscript === "function",
      isInstance: t instanceof window.ChatTranscript,
    };
  });
  assert.deepEqual(imports, { same: true, registered: true, copyExports: true, isInstance: true });
  await clean(page, watch);
  await page.close();
});

test("image records have a capped height and open a zoom dialog on click", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 200;
    canvas.height = 1600;
    const g = canvas.getContext("2d");
    g.fillStyle = "#36c";
    g.fillRect(0, 0, 200, 1600);
    const data = canvas.toDataURL("image/png").split(",")[1];
    t.records = [{ conversation_id: null, message_type: "assistant", content_type: "image", content: { data, mime_type: "image/png", alt_text: "A tall blue bar", caption: "Tall" }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} }];
    await window.__frames(2);
    const img = window.__root().querySelector("figure.image img");
    // Loaded, not decode(): Firefox rejects decode() on a lazy image still loading.
    if (!img.complete) await new Promise((resolve) => img.addEventListener("load", resolve, { once: true }));
    await window.__frames(2);
    const style = getComputedStyle(img);
    return { natural: img.naturalHeight, height: img.getBoundingClientRect().height, max: parseFloat(style.maxHeight), fit: style.objectFit, src: img.src, alt: img.alt };
  });
  assert.equal(out.natural, 1600);
  assert.ok(out.height <= out.max + 0.5 && out.height < out.natural, `the height is capped: ${out.height} of ${out.natural} (max ${out.max})`);
  assert.equal(out.fit, "contain", "scaled, not cropped");
  assert.equal(out.alt, "A tall blue bar");
  await page.click("chat-transcript button.zoom");
  await page.waitForFunction(() => window.__root().querySelector("dialog.zoom-view").open);
  const zoomed = await page.evaluate(() => {
    const dialog = window.__root().querySelector("dialog.zoom-view");
    const img = dialog.querySelector("img");
    return { src: img.src, alt: img.alt, height: img.getBoundingClientRect().height, modal: dialog.matches(":modal") };
  });
  assert.equal(zoomed.src, out.src);
  assert.equal(zoomed.alt, out.alt);
  assert.equal(zoomed.modal, true);
  assert.ok(zoomed.height > out.height, "bigger when zoomed");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !window.__root().querySelector("dialog.zoom-view").open);
  await page.click("chat-transcript button.zoom");
  await page.waitForFunction(() => window.__root().querySelector("dialog.zoom-view").open);
  await page.click("chat-transcript dialog.zoom-view .close");
  await page.waitForFunction(() => !window.__root().querySelector("dialog.zoom-view").open);
  await clean(page, watch);
  await page.close();
});

/** The recorded OpenAI Responses stream `name` (tests/fixtures/ai_sdk_ui/recordings/, from the AI
 * SDK's fixtures: see the NOTICE there), one parsed event a line. */
const recording = (name) => readFileSync(join(repo, "tests/fixtures/ai_sdk_ui/recordings", `${name}.chunks.txt`), "utf8")
  .split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));

/** A citation in api.md's shape: every field, null where not given. */
const citation = (fields) => ({
  type: null, cited_text: null, url: null, title: null, source: null, file_id: null, document_index: null,
  document_title: null, start_index: null, end_index: null, unit: null, ...fields,
});

/** The link a citation chip may carry: an absolute http:, https: or mailto: URL, as the URL parser
 * normalizes it, from `url`, else from `source`; else none. */
function expectedHref(c) {
  for (const candidate of [c?.url, c?.source]) {
    if (typeof candidate !== "string" || candidate.trim() === "") continue;
    try {
      const u = new URL(candidate.trim());
      if (["http:", "https:", "mailto:"].includes(u.protocol)) return u.href;
    } catch { /* not an absolute URL */ }
  }
  return null;
}

/** The chips of the record at `i`: number, label, link, tooltip and tag, as the DOM has them. */
function chipsOf(page, i, selector = ".citations") {
  return page.evaluate(async ([i, selector]) => {
    t.scrollToRecord(i);
    await window.__frames(3);
    const block = window.__record(i);
    const list = block?.querySelector(selector);
    if (!list) return null;
    return {
      label: list.getAttribute("aria-label"),
      part: list.getAttribute("part"),
      after: list.previousElementSibling?.className ?? null,
      chips: [...list.querySelectorAll(":scope > li > .citation")].map((c) => ({
        tag: c.tagName.toLowerCase(), part: c.getAttribute("part"), n: c.querySelector(".citation-n").textContent,
        label: c.querySelector(".citation-label").textContent, where: c.querySelector(".citation-where")?.textContent ?? null,
        href: c.getAttribute("href"), target: c.getAttribute("target"), rel: c.getAttribute("rel"), title: c.getAttribute("title"),
      })),
    };
  }, [i, selector]);
}

test("citations show as numbered source chips after the text: links by the link policy, the rest as text", async () => {
  const { page, watch } = await open();
  // The real file-search recording: its answer's file_citation annotations, as api.md's citations.
  const events = recording("openai-file-search-tool.1");
  const message = events.find((e) => e.type === "response.output_item.done" && e.item.type === "message").item;
  const part = message.content[0];
  assert.ok(part.annotations.length >= 2, "the recording cites");
  const recorded = part.annotations.map((a) => citation({ file_id: a.file_id, document_title: a.filename, start_index: a.index, unit: "char" }));
  const long = "A very long page title that goes on ".repeat(5);
  const cases = [
    citation({ type: "web_search_result_location", url: "https://en.wikipedia.org/wiki/Echidna", title: "Echidna - Wikipedia", cited_text: "Echidnas are spiny." }),
    citation({ url: "http://example.com/no-title" }),
    citation({ url: "mailto:editor@example.com", title: "The editor" }),
    citation({ url: "javascript:alert(1)", title: "A script URL" }),
    citation({ url: "data:text/html;base64,PHNjcmlwdD4=" }),
    citation({ url: "/relative/path", title: "Relative" }),
    citation({ type: "search_result_location", source: "https://docs.example.com/guide", title: "Guide" }),
    citation({ type: "search_result_location", source: "internal-kb" }),
    citation({ type: "page_location", document_index: 0, document_title: "report.pdf", start_index: 3, end_index: 4, unit: "page", cited_text: "x".repeat(400) }),
    citation({ type: "page_location", document_title: "report.pdf", start_index: 3, end_index: 6, unit: "page" }),
    citation({ file_id: "file-abc123" }),
    citation({ url: "https://example.org/long", title: long }),
    citation({}),
    null,
    "not an object",
  ];
  const records = [
    rec("assistant", "text", { text: part.text }, { metadata: { citations: recorded } }),
    rec("assistant", "text", { text: "Every kind of citation [1][2]." }, { metadata: { citations: cases } }),
    rec("assistant", "thinking", { text: "Reasoning over the sources." }, { metadata: { citations: [cases[0]] } }),
    rec("user", "text", { text: "A user's quote." }, { metadata: { citations: [cases[6]] } }),
    rec("assistant", "text", { text: "No citations." }),
    rec("assistant", "text", { text: "An empty list." }, { metadata: { citations: [] } }),
    rec("assistant", "text", { text: "Not a list." }, { metadata: { citations: "https://example.com" } }),
  ];
  await page.evaluate((records) => { t.records = records; }, records);

  const file = await chipsOf(page, 0);
  assert.equal(file.label, "Sources");
  assert.equal(file.part, "citations");
  assert.equal(file.after, "prose", "the chips follow the text");
  assert.deepEqual(file.chips.map((c) => [c.tag, c.n, c.label, c.href]),
    recorded.map((c, k) => ["span", String(k + 1), c.document_title, null]), "a file citation is a chip naming its file, not a link");

  const all = await chipsOf(page, 1);
  assert.equal(all.chips.length, cases.length, "one chip per citation, in order");
  all.chips.forEach((chip, k) => {
    const c = cases[k] !== null && typeof cases[k] === "object" ? cases[k] : {};
    const href = expectedHref(c);
    const what = `citation ${k}: ${JSON.stringify(cases[k])}`;
    assert.equal(chip.n, String(k + 1), what);
    assert.equal(chip.part, "citation", what);
    assert.equal(chip.href, href, what);
    assert.equal(chip.tag, href ? "a" : "span", what);
    if (href) assert.deepEqual([chip.target, chip.rel], ["_blank", "noopener noreferrer"], what);
    const host = href && new URL(href).host;
    let label = c.title ?? c.document_title ?? (host || null) ?? c.url ?? c.file_id ?? c.source ?? `Source ${k + 1}`;
    if (label.length > 80) label = `${label.trim().slice(0, 79)}…`;
    assert.equal(chip.label, label.trim(), what);
    if (c.cited_text) assert.ok(chip.title.includes(c.cited_text.slice(0, 200)), `${what}: the cited text is its tooltip`);
  });
  assert.deepEqual(all.chips.filter((c) => c.where).map((c) => c.where), ["p. 3", "pp. 3–5"], "page citations name their pages");
  assert.ok(!all.chips.some((c) => /^(javascript|data):/i.test(c.href ?? "")), "no script or data link");

  const thinking = await chipsOf(page, 2, "details.thinking .citations");
  assert.deepEqual(thinking.chips.map((c) => [c.n, c.label, c.href]), [["1", cases[0].title, cases[0].url]], "thinking shows its citations inside its fold");
  const user = await chipsOf(page, 3);
  assert.equal(user.after, "bubble");
  assert.deepEqual(user.chips.map((c) => c.href), ["https://docs.example.com/guide"]);
  for (const i of [4, 5, 6]) assert.equal(await chipsOf(page, i), null, `record ${i} has no chips`);
  // The chips are text the find bar searches as shown; they never make the row fail.
  assert.equal(await page.evaluate(() => window.__root().querySelectorAll(".banner.error").length), 0);
  await clean(page, watch);
  await page.close();
});

test("a server tool's result shows in its call's row: the readable text, the structured result folded", async () => {
  const { page, watch } = await open();
  const result = [
    { type: "web_search_result", title: "Echidna - Wikipedia", url: "https://en.wikipedia.org/wiki/Echidna", page_age: "3 days ago" },
    { type: "web_search_result", title: "Short-beaked echidna", url: "https://example.org/echidna", page_age: null },
  ];
  const readable = result.map((r) => `${r.title} — ${r.url}`).join("\n");
  const exec = { type: "code_execution_result", stdout: "4\n", stderr: "", return_code: 0, content: [] };
  const records = [
    rec("user", "text", { text: "Search, then compute." }),
    rec("assistant", "tool_call", { call_id: "srvtoolu_1", name: "web_search", arguments: { query: "echidna" } }, { tool_call_id: "srvtoolu_1" }),
    rec("tool", "tool_result", { tool_call_id: "srvtoolu_1", name: "web_search", content: readable, is_error: false }, { tool_call_id: "srvtoolu_1", metadata: { result } }),
    rec("assistant", "tool_call", { call_id: "srvtoolu_2", name: "code_execution", arguments: { code: "print(2 + 2)" } }, { sequence: 1, tool_call_id: "srvtoolu_2" }),
    rec("tool", "tool_result", { tool_call_id: "srvtoolu_2", name: "code_execution", content: "4\n\nexit code 0", is_error: false }, { sequence: 1, tool_call_id: "srvtoolu_2", metadata: { result: exec } }),
    // A result whose call came in an earlier response (no call to pair with here).
    rec("tool", "tool_result", { tool_call_id: "srvtoolu_9", name: "web_fetch", content: "Example Domain\nhttps://example.com/\nThis domain is for use in examples.", is_error: false }, { sequence: 2, tool_call_id: "srvtoolu_9", metadata: { result: { type: "web_fetch_result", url: "https://example.com/" } } }),
  ];
  await page.evaluate((records) => { t.records = records; }, records);
  const rows = await visitAll(page);
  assert.equal(rows[2].hidden, true, "the result shows inside its call's row");
  assert.equal(rows[4].hidden, true);
  assert.equal(rows[1].status, "completed");
  assert.match(rows[1].text, /web_search/);
  assert.doesNotMatch(rows[1].text, /Echidna - Wikipedia/, "collapsed, the row holds no result");
  const open1 = await page.evaluate(async () => {
    t.scrollToRecord(1);
    await window.__frames(3);
    window.__root().querySelector('.row[data-index="1"] .tool-head').click();
    await window.__frames(3);
    const row = window.__root().querySelector('.row[data-index="1"]');
    const fold = row.querySelector("details.result-data");
    const before = fold?.open;
    fold.querySelector("summary").click();
    await window.__frames(2);
    return { result: row.querySelector(".tool-result .result").textContent, label: row.querySelector(".tool-result .tool-label").textContent,
      before, after: fold.open, summary: fold.querySelector("summary").textContent, tree: fold.querySelector(".json-wrap").textContent };
  });
  assert.equal(open1.result, readable, "the readable text is the result shown");
  assert.equal(open1.label, "Result");
  assert.equal(open1.before, false, "the structured result starts folded");
  assert.equal(open1.after, true);
  assert.equal(open1.summary, "Structured result");
  for (const r of result) for (const v of [r.title, r.url]) assert.ok(open1.tree.includes(JSON.stringify(v)), `the tree holds ${v}`);
  const open3 = await page.evaluate(async () => {
    t.scrollToRecord(3);
    await window.__frames(3);
    window.__root().querySelector('.row[data-index="3"] .tool-head').click();
    await window.__frames(3);
    const row = window.__root().querySelector('.row[data-index="3"]');
    return { result: row.querySelector(".tool-result .result").textContent, tree: row.querySelector("details.result-data .json-wrap").textContent };
  });
  assert.equal(open3.result, records[4].content.content);
  assert.ok(open3.tree.includes('"return_code": 0'), open3.tree);
  assert.equal(rows[5].hidden, false, "a result with no call has its own row");
  assert.match(rows[5].text, /web_fetch result/);
  assert.match(rows[5].text, /Example Domain/, "its summary is the readable text");
  // A tool result without metadata.result has no fold.
  assert.equal(await page.evaluate(async () => {
    t.records = [{ conversation_id: null, message_type: "tool", content_type: "tool_result", content: { tool_call_id: "c", name: "f", content: "ok" }, sequence: 0, status: "completed", tool_call_id: "c", metadata: {} }];
    await window.__frames(3);
    window.__root().querySelector(".tool-head").click();
    await window.__frames(3);
    return window.__root().querySelectorAll("details.result-data").length;
  }), 0);
  await clean(page, watch);
  await page.close();
});

test("a generated image record shows as an image; the recording's cut-short data says why it is not shown", async () => {
  const { page, watch } = await open();
  // The real image-generation recording: its base64 result is cut short in the fixture ("..."),
  // so it is not an image; the reply after it still shows.
  const events = recording("openai-image-generation-tool.1");
  const call = events.find((e) => e.type === "response.output_item.done" && e.item.type === "image_generation_call").item;
  assert.ok(call.result.startsWith("UklGR") && call.result.includes("..."), "the recording holds the cut-short WebP");
  const shown = await page.evaluate(async ({ recorded, format, prompt }) => {
    // Generated images as the API returns them: base64 of a PNG or a WebP, drawn here.
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const g = canvas.getContext("2d");
    g.fillStyle = "#2457c5";
    g.fillRect(0, 0, 64, 48);
    g.fillStyle = "#ffe58f";
    g.fillRect(8, 8, 24, 16);
    const base64 = (type) => canvas.toDataURL(type).split(",")[1];
    const record = (content, sequence) => ({ conversation_id: null, message_type: "assistant", content_type: "image", content, sequence, status: "completed", tool_call_id: null, metadata: {} });
    t.records = [
      record({ data: base64("image/png"), mime_type: "image/png" }, 0),
      record({ data: base64("image/webp"), mime_type: "image/webp", alt_text: prompt.slice(0, 100) }, 1),
      record({ data: recorded, mime_type: `image/${format}` }, 2),
      { conversation_id: null, message_type: "assistant", content_type: "text", content: { text: "Here is your echidna." }, sequence: 3, status: "completed", tool_call_id: null, metadata: {} },
    ];
    const out = [];
    for (let i = 0; i < 4; i++) {
      t.scrollToRecord(i);
      await window.__frames(3);
      const img = window.__record(i)?.querySelector("img");
      if (img && !img.complete) await new Promise((resolve) => { img.addEventListener("load", resolve, { once: true }); img.addEventListener("error", resolve, { once: true }); });
      out.push({ src: img?.getAttribute("src")?.slice(0, 22) ?? null, width: img?.naturalWidth ?? null, height: img?.naturalHeight ?? null, alt: img?.alt ?? null,
        blocked: window.__record(i)?.querySelector(".image-blocked")?.textContent ?? null, text: window.__record(i)?.textContent ?? null });
    }
    return out;
  }, { recorded: call.result, format: call.output_format, prompt: call.revised_prompt });
  assert.deepEqual([shown[0].src, shown[0].width, shown[0].height], ["data:image/png;base64,", 64, 48], "a PNG decodes at its size");
  assert.deepEqual([shown[1].src, shown[1].width, shown[1].height], ["data:image/webp;base64", 64, 48], "a WebP decodes at its size");
  assert.equal(shown[1].alt, call.revised_prompt.slice(0, 100));
  assert.equal(shown[2].src, null);
  assert.match(shown[2].blocked, /not shown.*not base64/, "the cut-short recording names its reason");
  assert.equal(shown[3].text.trim(), "Here is your echidna.", "the rest still shows");
  await clean(page, watch);
  await page.close();
});

test("load() shows a user's attachments in their turn: an inline screenshot at once, another host's image behind its placeholder, a file by name", async () => {
  const { page, watch } = await open();
  const png = PNG.toString("base64");
  const messages = [
    { role: "user", content: [{ type: "text", content: "What is wrong here?" }, { type: "image", content: png, options: { media: "image/png" } }] },
    { role: "assistant", content: "The button is cut off." },
    // A user message holding only an image: Sagents' mapping shows nothing for it.
    { role: "user", content: [{ type: "image_url", content: "https://images.example/shot.png" }] },
    { role: "user", content: [{ type: "file", content: "JVBERi0xLjQK", options: { media: "application/pdf", filename: "report.pdf" } }] },
    // LangChain's media as Elixir writes it (`media: :png`): the format alone.
    { role: "user", content: [{ type: "image", content: png, options: { media: "png" } }] },
  ];
  assert.equal(cd.toDisplayMessages([messages[2]]).length, 0, "the case the option is for");
  const expected = cd.toDisplayMessages(messages, { conversation_id: null, media: true });
  assert.deepEqual(expected.map((r) => `${r.message_type} ${r.content_type}`),
    ["user text", "user image", "assistant text", "user image", "user file_reference", "user image"]);
  const shown = await page.evaluate(async (messages) => {
    const counts = await t.load(messages);
    const rows = [];
    for (let i = 0; i < t.records.length; i++) {
      t.scrollToRecord(i);
      await window.__frames(2);
      const block = window.__record(i);
      const img = block?.querySelector("img");
      if (img && !img.complete) await new Promise((resolve) => { img.addEventListener("load", resolve, { once: true }); img.addEventListener("error", resolve, { once: true }); });
      const row = block?.closest(".row");
      const box = (node) => node?.getBoundingClientRect();
      rows.push({
        turn: row?.dataset.turn ?? null, img: img?.getAttribute("src") ?? null, width: img?.naturalWidth ?? null,
        held: block?.querySelector(".image-hold")?.textContent ?? null, file: block?.querySelector(".file-name")?.textContent ?? null,
        right: Math.round(box(img ?? block?.querySelector(".bubble, .image-hold, .file"))?.right ?? -1),
      });
    }
    return { counts, records: t.records, rows };
  }, messages);
  assert.deepEqual(shown.records, expected, "load gives toDisplayMessages' records with media: true");
  assert.equal(shown.counts.records, 6);
  const [question, screenshot, , remote, file, short] = shown.rows;
  assert.equal(screenshot.turn, "user", "the screenshot is in the user's turn");
  assert.equal(screenshot.img, `data:image/png;base64,${png}`);
  assert.equal(screenshot.width, 1, "it decodes");
  assert.equal(screenshot.right, question.right, "it lines up with the user's bubble");
  assert.equal(remote.turn, "user");
  assert.equal(remote.img, null, "another host's image waits for the reader");
  assert.match(remote.held, /images\.example/, "its placeholder names the host");
  assert.equal(file.turn, "user");
  assert.equal(file.file, "report.pdf");
  assert.equal(short.img, `data:image/png;base64,${png}`, "a format named alone is its image type");
  assert.equal(short.width, 1);
  assert.ok(!watch.requests.some((r) => r.includes("images.example")), "nothing was fetched from the other host");
  await clean(page, watch);
  await page.close();
});

test("an approval request shows as awaiting approval until its answer pairs with it", async () => {
  const { page, watch } = await open();
  // The real MCP approval recording: its mcp_approval_request, as api.md's tool_call record.
  const events = recording("openai-mcp-tool-approval.1");
  const item = events.find((e) => e.type === "response.output_item.done" && e.item.type === "mcp_approval_request").item;
  const request = rec("assistant", "tool_call", { call_id: item.id, name: item.name, arguments: JSON.parse(item.arguments) },
    { status: "pending", tool_call_id: item.id, metadata: { approval_request: true } });
  const answer = rec("tool", "tool_result", { tool_call_id: item.id, name: item.name, content: "approved", is_error: false }, { tool_call_id: item.id });
  const state = (records) => page.evaluate(async (records) => {
    t.records = records;
    await window.__frames(3);
    const row = window.__root().querySelector('.row[data-index="0"]');
    const badge = row.querySelector(".tool-head .approval");
    return { badge: badge?.textContent ?? null, part: badge?.getAttribute("part") ?? null, approval: row.querySelector(".tool")?.dataset.approval ?? null,
      status: row.querySelector(".tool-head .status").dataset.status, name: row.querySelector(".tool-head .name").textContent,
      summary: row.querySelector(".tool-head .summary")?.textContent ?? "", head: row.querySelector(".tool-head").textContent };
  }, records);
  const waiting = await state([request]);
  assert.equal(waiting.badge, "Awaiting approval");
  assert.equal(waiting.part, "approval");
  assert.equal(waiting.approval, "pending");
  assert.equal(waiting.status, "pending");
  assert.equal(waiting.name, item.name);
  const args = JSON.parse(item.arguments);
  assert.ok(waiting.summary.includes(`description: ${JSON.stringify(args.description)}`), `the summary shows what is to be approved: ${waiting.summary}`);
  assert.match(waiting.head, /Awaiting approval/, "the button's name says so");
  const answered = await state([request, answer]);
  assert.equal(answered.badge, null, "an answer ends the wait");
  assert.equal(answered.approval, null);
  const done = await state([{ ...request, status: "completed" }]);
  assert.equal(done.badge, null, "a call no longer pending is not awaiting");
  const plain = await state([{ ...request, metadata: {} }]);
  assert.equal(plain.badge, null, "a pending call that is no approval request has no badge");
  assert.equal(plain.status, "pending");
  await clean(page, watch);
  await page.close();
});

/** axe-core over the element (it scans open shadow roots), WCAG 2.2's target size rule included. */
const axe = (page) => {
  const options = { rules: { "target-size": { enabled: true } } };
  return engine === "chromium" ? new AxeBuilder({ page }).include("chat-transcript").options(options).analyze() : page.axe("chat-transcript", options);
};

test("axe-core: no serious or critical violation with the sample, light and dark, 1280 and 390 px wide", async () => {
  const failures = [];
  let runs = 0;
  for (const width of [1280, 390]) {
    const { page, watch } = await open({ width, height: 1600 });
    await page.evaluate(async (sample) => {
      await t.load(sample);
      // A task list: its checkboxes need a name (axe's `label` rule).
      t.records = t.records.concat([{ conversation_id: null, message_type: "assistant", content_type: "text", content: { text: "Plan:\n\n- [x] Read the logs\n- [ ] Fix the bug" }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} }]);
    }, sample);
    const n = await page.evaluate(() => t.records.length);
    // Every row, with its tool calls open, in the DOM at some point; axe checks what is in the DOM.
    const seen = new Set();
    for (let i = 0; i < n;) {
      const rows = await page.evaluate(async (i) => {
        t.scrollToRecord(i);
        await window.__frames(3);
        for (const head of window.__root().querySelectorAll('.tool-head[aria-expanded="false"]')) head.click();
        await window.__frames(3);
        return [...window.__root().querySelectorAll(".row")].map((r) => Number(r.dataset.index));
      }, i);
      for (const theme of ["light", "dark"]) {
        await page.evaluate((theme) => t.setAttribute("theme", theme), theme);
        const result = await axe(page);
        runs++;
        assert.ok(result.passes.some((r) => r.id === "color-contrast"), "contrast is checked");
        for (const v of result.violations) {
          if (v.impact === "serious" || v.impact === "critical") {
            failures.push(`${width}px ${theme} rows ${rows[0]}-${rows.at(-1)}: ${v.id} (${v.impact}): ${v.nodes.map((node) => `${JSON.stringify(node.target)} ${node.failureSummary}`).join(" | ")}`);
          }
        }
      }
      for (const r of rows) seen.add(r);
      while (i < n && seen.has(i)) i++;
    }
    assert.equal(seen.size, n, "every row checked");
    if (width === 390) {
      // The check reaches into the shadow root: a button with no name there is reported.
      await page.evaluate(() => window.__root().querySelector(".row .record").append(document.createElement("button")));
      const result = await axe(page);
      assert.ok(result.violations.some((v) => v.id === "button-name" && v.nodes.some((node) => JSON.stringify(node.target).includes("#t"))), "axe sees inside the element");
    }
    await clean(page, watch);
    await page.close();
  }
  assert.ok(runs >= 4);
  assert.deepEqual([...new Set(failures)], []);
});

// ---------------------------------------------------------------------------------------------
// The element as a component apps build on: renderers, actions, events, style isolation.

/** A short conversation with text, a tool call and its result, thinking, a cited answer. */
function componentConversation() {
  return [
    rec("user", "text", { text: "Weather in Paris?" }),
    rec("assistant", "thinking", { text: "Look it up." }),
    rec("assistant", "tool_call", { call_id: "w1", name: "get_weather", arguments: { city: "Paris" } }, { sequence: 1, tool_call_id: "w1" }),
    rec("tool", "tool_result", { tool_call_id: "w1", name: "get_weather", content: "18°C, sunny" }, { tool_call_id: "w1" }),
    rec("assistant", "text", { text: "It is **18°C** and sunny. See [the forecast](https://weather.example/paris)." }, {
      metadata: { citations: [citation({ url: "https://weather.example/paris", title: "Paris forecast" })] },
    }),
    rec("assistant", "text", { text: "Anything else?" }, { sequence: 1 }),
  ];
}

test("renderers: by tool name and by content type, with the paired results and renderDefault; set again, rows in view change", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (records) => {
    t.records = records;
    await window.__frames(3);
    const calls = [];
    t.renderers = {
      "tool:get_weather": (record, ctx) => {
        calls.push({ key: "tool", index: ctx.index, results: ctx.results.map((r) => r.content.content), streaming: ctx.streaming });
        const card = document.createElement("section");
        card.className = "weather-card";
        card.textContent = `${record.content.arguments.city}: ${ctx.results[0]?.content.content ?? "…"}`;
        return card;
      },
      thinking: (record, ctx) => {
        calls.push({ key: "thinking", index: ctx.index });
        const wrap = document.createElement("div");
        wrap.className = "wrapped";
        wrap.append(ctx.renderDefault());
        return wrap;
      },
      text: () => null, // the default
    };
    await window.__frames(3);
    const root = window.__root();
    const first = {
      card: root.querySelector(".weather-card")?.textContent ?? null,
      cardRecord: root.querySelector(".weather-card")?.closest(".record")?.dataset.record ?? null,
      wrappedThinking: !!root.querySelector(".wrapped details.thinking"),
      text: root.querySelector('.record[data-record="4"] .prose strong')?.textContent ?? null,
      resultRowHidden: root.querySelector('.row[data-index="3"]')?.hidden ?? null,
      renderersKeys: Object.keys(t.renderers).sort(),
    };
    // Set again: the rows in view are built with the new renderers, without scrolling.
    t.renderers = {};
    await window.__frames(3);
    const second = { card: !!root.querySelector(".weather-card"), head: !!root.querySelector('.record[data-record="2"] .tool-head') };
    return { first, second, calls };
  }, componentConversation());
  assert.equal(out.first.card, "Paris: 18°C, sunny", "the tool's card shows the call and its paired result");
  assert.equal(out.first.cardRecord, "2");
  assert.equal(out.first.wrappedThinking, true, "renderDefault gives the element's own block to wrap");
  assert.equal(out.first.text, "18°C", "a renderer that returns null keeps the default");
  assert.equal(out.first.resultRowHidden, true, "the result shows in its call's row, not its own");
  assert.deepEqual(out.first.renderersKeys, ["text", "thinking", "tool:get_weather"]);
  assert.deepEqual(out.calls.find((c) => c.key === "tool"), { key: "tool", index: 2, results: ["18°C, sunny"], streaming: false });
  assert.deepEqual(out.second, { card: false, head: true }, "renderers set to {} bring the default back");
  await clean(page, watch);
  await page.close();
});

test("renderers are called only for rows that come into view, and one that throws or returns no Node costs only its row", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async () => {
    const records = await (await fetch("/fixtures/big-records.json")).json();
    let calls = 0;
    t.renderers = {
      text: (record, ctx) => {
        calls++;
        const node = ctx.renderDefault();
        node.dataset.mine = "yes";
        return node;
      },
    };
    t.records = records;
    await window.__frames(4);
    t.scrollToRecord(5000);
    await window.__frames(4);
    const afterScroll = calls;
    const errors = [];
    t.addEventListener("cd-error", (event) => errors.push({ code: event.detail.code, path: event.detail.path, message: event.detail.message, cause: String(event.detail.cause) }));
    t.renderers = {
      text: (record, ctx) => { if (ctx.index % 2) throw new Error("boom"); return "<b>not a node</b>"; },
      tool_call: () => { throw new Error("tool boom"); },
    };
    await window.__frames(4);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const root = window.__root();
    const rows = [...root.querySelectorAll(".row:not([hidden])")];
    return {
      n: records.length,
      afterScroll,
      errors,
      rows: rows.length,
      defaults: rows.filter((r) => r.querySelector(".record:not(.custom)")).length,
      bold: root.querySelectorAll(".list b").length,
      elements: window.__count(),
    };
  });
  assert.ok(out.afterScroll > 0 && out.afterScroll < 400, `a renderer ran for the rows in view only (${out.afterScroll} calls for ${out.n} records)`);
  assert.ok(out.errors.length > 0, "cd-error fired");
  for (const e of out.errors) {
    assert.equal(e.code, "invalid_input");
    assert.match(e.path, /^\$\[\d+\]$/);
    assert.match(e.message, /The renderer "(text|tool_call)" failed for the record at \$\[\d+\]/);
  }
  assert.ok(out.errors.some((e) => /not a DOM Node/.test(e.message)), "a string is refused");
  assert.ok(out.errors.some((e) => /boom/.test(e.cause)), "the thrown error is the cause");
  assert.equal(out.defaults, out.rows, "every row shows the default");
  assert.equal(out.bold, 0, "a returned string is not parsed as HTML");
  assert.ok(out.elements <= MAX_ELEMENTS);
  await clean(page, watch);
  await page.close();
});

test("actions: Copy under each assistant reply writes its text; the app's own fire cd-action; [] shows none; a throwing handler breaks nothing", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (records) => {
    const copied = [];
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (text) => { copied.push(text); } } });
    t.records = records;
    await window.__frames(3);
    const root = window.__root();
    const bars = [...root.querySelectorAll(".actions")].map((bar) => ({
      row: Number(bar.closest(".row").dataset.index), labels: [...bar.querySelectorAll("button")].map((b) => b.textContent),
    }));
    const seen = [];
    document.addEventListener("cd-action", (event) => {
      seen.push({ ...event.detail, record: event.detail.record.content.text ?? null, composed: event.composed, bubbles: event.bubbles });
    });
    root.querySelector(".actions button").click();
    await new Promise((resolve) => setTimeout(resolve, 10));
    t.actions = [{ id: "copy", label: "Copy" }, { id: "retry", label: "Retry" }];
    await window.__frames(3);
    // A handler that throws does not stop the element.
    t.addEventListener("cd-action", () => { throw new Error("app bug"); });
    window.addEventListener("error", (e) => e.preventDefault(), { once: true });
    root.querySelector('.actions button[data-action="retry"]').click();
    await window.__frames(2);
    const labels = [...root.querySelector(".actions").querySelectorAll("button")].map((b) => b.textContent);
    t.actions = [];
    await window.__frames(3);
    const none = root.querySelectorAll(".actions").length;
    let refused = null;
    try { t.actions = [{ label: "No id" }]; } catch (error) { refused = { name: error.name, code: error.code, path: error.path }; }
    return { bars, copied, seen, labels, none, refused, actions: t.actions };
  }, componentConversation());
  // One bar per assistant message with text: the cited answer's message (records 4 and 5, one Markdown document in row 4).
  assert.deepEqual(out.bars, [{ row: 4, labels: ["Copy"] }], "one document, one bar");
  const text = "It is **18°C** and sunny. See [the forecast](https://weather.example/paris).\n\nAnything else?";
  assert.deepEqual(out.copied, [text], "Copy writes the message's text, Markdown kept");
  assert.equal(out.seen[0].action, "copy");
  assert.equal(out.seen[0].index, 4, "the message's first record");
  assert.equal(out.seen[0].record, "It is **18°C** and sunny. See [the forecast](https://weather.example/paris).");
  assert.equal(out.seen[0].text, text);
  assert.equal(out.seen[0].composed, true);
  assert.equal(out.seen[0].bubbles, true);
  assert.equal(out.seen[1].action, "retry");
  assert.deepEqual(out.labels, ["Copy", "Retry"]);
  assert.equal(out.none, 0);
  assert.deepEqual(out.refused, { name: "ChatDisplayError", code: "invalid_input", path: "$[0]" });
  assert.deepEqual(out.actions, [], "a refused value leaves the actions as they were");
  await page.close();
});

test("events: cd-link and cd-citation can stop a navigation, cd-toggle says what opened, cd-image comes before the zoom", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (records) => {
    t.records = records;
    await window.__frames(3);
    const root = window.__root();
    const seen = [];
    for (const type of ["cd-link", "cd-citation", "cd-toggle", "cd-image"]) {
      document.addEventListener(type, (event) => {
        const d = event.detail;
        seen.push({ type, index: d.index, href: d.href, open: d.open, src: d.src, kind: d.kind, citation: d.citation?.title, cancelable: event.cancelable, composed: event.composed, contentType: d.record?.content_type });
        if (type !== "cd-toggle") event.preventDefault();
      });
    }
    const clicks = [];
    // A navigation that went ahead would be a default the page can see as not prevented.
    document.addEventListener("click", (event) => clicks.push(event.defaultPrevented));
    root.querySelector('.prose a[href="https://weather.example/paris"]').click();
    root.querySelector("a.citation").click();
    root.querySelector('.record[data-record="2"] .tool-head').click();
    await window.__frames(3);
    root.querySelector("details.thinking summary").click();
    await window.__frames(3);
    t.records = [{ conversation_id: null, message_type: "assistant", content_type: "image", content: { data: "iVBORw0KGgo=", mime_type: "image/png", alt_text: "x" }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} }];
    await window.__frames(3);
    root.querySelector("button.zoom").click();
    await window.__frames(2);
    return { seen, clicks, zoomOpen: root.querySelector("dialog.zoom-view").open };
  }, componentConversation());
  const by = (type) => out.seen.filter((e) => e.type === type);
  assert.deepEqual(by("cd-link"), [{ type: "cd-link", index: 4, href: "https://weather.example/paris", open: undefined, src: undefined, kind: undefined, citation: undefined, cancelable: true, composed: true, contentType: "text" }]);
  assert.equal(by("cd-citation").length, 1);
  assert.equal(by("cd-citation")[0].citation, "Paris forecast");
  assert.equal(by("cd-citation")[0].index, 4);
  assert.deepEqual(out.clicks, [true, true, false, false, false], "cancelling cd-link and cd-citation cancels the click's navigation");
  assert.deepEqual(by("cd-toggle").map((e) => [e.index, e.open, e.contentType, e.cancelable]), [[2, true, "tool_call", false], [1, true, "thinking", false]]);
  assert.deepEqual(by("cd-image").map((e) => [e.index, e.kind, e.cancelable]), [[0, "open", true]]);
  assert.equal(out.zoomOpen, false, "a cancelled cd-image does not open the zoom");
  await clean(page, watch);
  await page.close();
});

test("the host page's inherited text styles stop at the element; its custom properties theme it", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (records) => {
    // A constructed sheet: the page's CSP (style-src 'self') refuses a <style> element.
    const style = new CSSStyleSheet();
    style.replaceSync(`main { text-align: center; line-height: 3; letter-spacing: 4px; white-space: pre; font-style: italic; text-transform: uppercase; word-spacing: 9px; font-weight: 900; text-indent: 40px; }
      #t { --cd-accent: rgb(1, 2, 3); --cd-line-height: 1.25; }`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, style];
    const host = getComputedStyle(document.querySelector("main"));
    if (host.textAlign !== "center" || host.fontStyle !== "italic") throw new Error("the host page's styles did not apply");
    t.records = records;
    await window.__frames(3);
    const p = window.__root().querySelector('.record[data-record="4"] .prose p');
    const cs = getComputedStyle(p);
    const link = getComputedStyle(window.__root().querySelector(".prose a"));
    return {
      textAlign: cs.textAlign, letterSpacing: cs.letterSpacing, whiteSpace: cs.whiteSpace, fontStyle: cs.fontStyle,
      textTransform: cs.textTransform, wordSpacing: cs.wordSpacing, fontWeight: cs.fontWeight, textIndent: cs.textIndent,
      lineHeight: parseFloat(cs.lineHeight) / parseFloat(cs.fontSize), accent: link.color,
    };
  }, componentConversation());
  assert.ok(["start", "left"].includes(out.textAlign), out.textAlign);
  assert.equal(out.letterSpacing, "normal");
  assert.equal(out.whiteSpace, "normal");
  assert.equal(out.fontStyle, "normal");
  assert.equal(out.textTransform, "none");
  assert.equal(out.wordSpacing, "0px");
  assert.equal(out.fontWeight, "400");
  assert.equal(out.textIndent, "0px");
  assert.ok(Math.abs(out.lineHeight - 1.25) < 0.01, `--cd-line-height applies (${out.lineHeight})`);
  assert.equal(out.accent, "rgb(1, 2, 3)", "--cd-accent themes the links");
  await clean(page, watch);
  await page.close();
});

test("a reply streamed into a loaded conversation lands after it, and the next reply after that one", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (sample) => {
    await t.load(sample);
    const before = t.records;
    const replies = [];
    for (const name of ["anthropic_messages/thinking-then-text", "anthropic_messages/parallel-tool-calls"]) {
      const acc = new api.StreamAccumulator("anthropic_messages");
      const text = await (await fetch(`/streams/${name}.sse`)).text();
      // Cut anywhere, as a network does.
      for (let i = 0; i < text.length; i += 97) t.applyPatches(acc.push(text.slice(i, i + 97)));
      replies.push(acc.records());
      acc.free();
      await window.__frames(2);
    }
    return { before, after: t.records, replies };
  }, sample);
  assert.ok(out.replies[0].length > 0 && out.replies[1].length > 0);
  assert.deepEqual(out.after, [...out.before, ...out.replies[0], ...out.replies[1]], "the records shown stay; each reply follows the one before");
  await clean(page, watch);
  await page.close();
});

test("fields a reader looks for: shown where they belong, or absent from the records for the reason docs/ELEMENT.md gives", async () => {
  const { page, watch } = await open();
  const inputs = {
    compaction: { id: "m", type: "message", role: "assistant", model: "x", content: [{ type: "compaction", content: "MARK-compaction <b>bold</b>" }, { type: "text", text: "Hi" }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } },
    todo: [{ conversation_id: "c", message_type: "assistant", content_type: "todo_snapshot", content: { todos: [{ id: 1, content: "Write it", status: "pending" }], summary: "MARK-todo <img src=x onerror=window.__xss()>" }, sequence: 0, status: "completed", tool_call_id: null, metadata: {} }],
    status: [{ conversation_id: "c", message_type: "user", content_type: "text", content: { text: "Hi" }, sequence: 0, status: "MARK-status", tool_call_id: null, metadata: {} }],
    summary: [{ __type__: "Message", role: "assistant", content: [{ __type__: "Thinking", text: "The full reasoning.", summary: "MARK-summary" }, { __type__: "Text", text: "Hi" }] }],
    summaryOnly: [{ __type__: "Message", role: "assistant", content: [{ __type__: "Thinking", summary: "MARK-summary-only" }] }],
    serverLabel: { id: "r", object: "response", status: "completed", output: [{ type: "mcp_approval_request", id: "a1", server_label: "MARK-label", name: "delete_repo", arguments: "{}" }] },
    invalidCall: [{ type: "ai", content: "Calling.", invalid_tool_calls: [{ name: "lookup", args: "{bad", id: "c1", error: "MARK-invalid" }] }],
    uiFile: [{ id: "1", role: "user", parts: [{ type: "text", text: "Look" }] }, { id: "2", role: "assistant", parts: [{ type: "file", mediaType: "image/png", url: "https://files.example/MARK-file.png" }, { type: "text", text: "Made it." }] }],
  };
  const seen = await page.evaluate(async (inputs) => {
    const out = {};
    for (const [name, input] of Object.entries(inputs)) {
      await t.load(input);
      const text = [];
      for (let i = 0; i < t.records.length; i++) {
        t.scrollToRecord(i);
        await window.__frames(3);
        for (const head of window.__root().querySelectorAll('.tool-head[aria-expanded="false"], details:not([open]) > summary')) head.click();
        await window.__frames(2);
        const root = window.__root();
        text.push(root.textContent, ...[...root.querySelectorAll("*")].flatMap((e) => [...e.attributes].map((a) => a.value)));
      }
      out[name] = { text: text.join("\n"), records: JSON.stringify(t.records) };
    }
    return out;
  }, inputs);
  assert.match(seen.compaction.text, /MARK-compaction <b>bold<\/b>/, "a compaction's summary is a notification banner, as text");
  assert.match(seen.todo.text, /MARK-todo <img src=x onerror=window\.__xss\(\)>/, "a todo snapshot's summary in words shows under the counts, as text");
  assert.match(seen.status.text, /status is invalid \(got "MARK-status"\)/, "the error names the value it refused");
  assert.match(seen.summary.text, /The full reasoning\./);
  assert.match(seen.summaryOnly.text, /MARK-summary-only/, "a thinking part with only a summary shows the summary");
  // Not shown, with the reason in docs/ELEMENT.md ("What the records do not carry"): the
  // records do not hold these fields, so nothing on screen can.
  for (const [name, marker] of [["summary", "MARK-summary\""], ["serverLabel", "MARK-label"], ["invalidCall", "MARK-invalid"]]) {
    assert.ok(!seen[name].records.includes(marker.replace('"', "")) || name === "summary", `${name}: the records do not carry ${marker}`);
    assert.ok(!seen[name].text.includes(marker.replace('"', "")) || name === "summary", `${name}: not on screen`);
  }
  assert.ok(!seen.summary.records.includes("MARK-summary"), "a thinking part's summary beside its text is not in the record");
  // A UIMessage's file part is an attachment (issue 46): an image record, its URL from another
  // host behind the placeholder that names the host, never loaded on its own.
  assert.ok(seen.uiFile.records.includes("https://files.example/MARK-file.png"), "the file part is an image record");
  assert.match(seen.uiFile.text, /Image from files\.example/, "its placeholder names the host");
  assert.ok(!watch.requests.some((r) => r.includes("files.example")), "nothing loaded from files.example");
  assert.match(seen.invalidCall.text, /failed/, "the invalid call shows as failed");
  await clean(page, watch);
  await page.close();
});

test("Markdown while it streams never shows raw syntax, and once final reads node for node as if never streamed", async () => {
  const { page, watch } = await open();
  const answer = "Here is **bold text** and `inline code` and [a link](https://example.com/docs) and a URL https://example.org/page here.\n\n" +
    "| step | command |\n| --- | --- |\n| 1 | build |\n| 2 | test |\n\n```js\nconst x = 1;\n```\n\n- one *item* and ![a chart](https://img.example/c.png)\n- two __strong__\n";
  const out = await page.evaluate(async (answer) => {
    const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null };
    t.records = [{ ...base, message_type: "user", content: { text: "Show me." }, metadata: {} }, { ...base, content: { text: "" }, metadata: { streaming: true } }];
    await window.__frames(2);
    const bad = [];
    const hrefs = new Set();
    for (let i = 0; i < answer.length; i += 2) {
      t.applyPatches([{ op: "append", index: 1, field: "text", text: answer.slice(i, i + 2) }]);
      await window.__frames(1);
      const prose = window.__record(1)?.querySelector(".prose");
      if (!prose) continue;
      const copy = prose.cloneNode(true);
      for (const code of copy.querySelectorAll(".code-block")) code.remove();
      const text = copy.textContent;
      for (const raw of ["**", "__", "`", "](", "|", "*"]) if (text.includes(raw)) bad.push(`${JSON.stringify(raw)} at ${i}: ${JSON.stringify(text.slice(-60))}`);
      for (const a of prose.querySelectorAll("a[href]")) hrefs.add(a.getAttribute("href"));
      if (prose.querySelector('img, .image-blocked')) bad.push(`an image shown while its source streams, at ${i}`);
    }
    const streamed = { ...t.records[1], metadata: {} };
    t.applyPatches([{ op: "replace", index: 1, record: streamed }]);
    await window.__frames(2);
    const final = window.__record(1).querySelector(".prose").innerHTML;
    const fresh = document.createElement("chat-transcript");
    fresh.style.height = "600px";
    document.body.append(fresh);
    fresh.records = [t.records[0], { ...streamed }];
    await window.__frames(3);
    const whole = fresh.shadowRoot.querySelector('.record[data-record="1"] .prose').innerHTML;
    fresh.remove();
    return { bad, hrefs: [...hrefs], final, whole };
  }, answer);
  assert.deepEqual(out.bad.slice(0, 10), [], "no raw Markdown syntax while streaming");
  assert.deepEqual(out.hrefs.sort(), ["https://example.com/docs", "https://example.org/page"], "no link to half an address");
  assert.equal(out.final, out.whole, "the final render equals the non-streamed one");
  assert.match(out.final, /<table>/);
  await clean(page, watch);
  await page.close();
});

test("a streamed token rebuilds only the last Markdown block, and a long answer lays out as it will once final", async () => {
  const { page, watch } = await open();
  // Blocks of every kind, with margins that collapse through their edges (a loose list's and a
  // quote's paragraphs): the groups finished blocks go into while streaming must not move them.
  const parts = [];
  for (let k = 0; k < 30; k++) {
    parts.push(k % 7 === 0 ? `## Part ${k}\n\n` : "", `Paragraph ${k} with **bold** and \`code\` and [a link](https://example.com/${k}).\n\n`);
    if (k % 3 === 0) parts.push("```js\nconst x = " + k + ";\n```\n\n");
    if (k % 4 === 1) parts.push("- loose item one\n\n  more of it\n\n- loose item two\n\n");
    if (k % 5 === 2) parts.push("> quoted\n>\n> twice\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n---\n\n");
    parts.push("1. first\n2. second\n\n");
  }
  const answer = parts.join("");
  const out = await page.evaluate(async (answer) => {
    const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null };
    // The highlighter loaded first (its arrival builds the rows in view again).
    t.records = [{ ...base, content: { text: "```js\nconst warm = 1;\n```" }, metadata: {} }];
    for (let k = 0; k < 200 && !window.__root().querySelector("code.hljs"); k++) await new Promise((r) => setTimeout(r, 20));
    t.records = [{ ...base, message_type: "user", content: { text: "Show me." }, metadata: {} }, { ...base, content: { text: "" }, metadata: { streaming: true } }];
    await window.__frames(2);
    const prose = () => window.__record(1).querySelector(".prose");
    let kept = 0;
    let checks = 0;
    // The document's blocks, those in groups too, and the nodes inside the first five.
    const blocks = () => [...prose().children].flatMap((c) => (c.classList.contains("stream-group") ? [...c.children] : [c]));
    const firstNodes = () => blocks().slice(0, 5).flatMap((b) => [b, ...b.querySelectorAll("*")]);
    for (let i = 0; i < answer.length; i += 40) {
      // With eight blocks or more, the first five are finished: the next token leaves them as they are.
      const before = blocks().length >= 8 ? firstNodes() : [];
      t.applyPatches([{ op: "append", index: 1, field: "text", text: answer.slice(i, i + 40) }]);
      await window.__frames(1);
      const after = firstNodes();
      if (before.length) {
        checks++;
        if (before.every((node, k) => node === after[k] && node.isConnected)) kept++;
      }
    }
    await window.__frames(3);
    // Where each block sits in the streamed document and in the same text rendered whole.
    // (From the row's top: a group's negative margin may collapse through the document's edge.)
    const tops = (root) => {
      const top = root.closest(".row").getBoundingClientRect().top;
      const blocks = [...root.children].flatMap((c) => (c.classList.contains("stream-group") ? [...c.children] : [c]));
      return blocks.map((b) => `${b.tagName} ${(b.getBoundingClientRect().top - top).toFixed(2)}`);
    };
    const streamedTops = tops(prose());
    const groups = prose().querySelectorAll(".stream-group.sealed").length;
    const fresh = document.createElement("chat-transcript");
    fresh.style.height = "600px";
    fresh.style.width = `${t.getBoundingClientRect().width}px`;
    document.body.append(fresh);
    fresh.records = [t.records[0], { ...t.records[1], metadata: {} }];
    await window.__frames(3);
    const wholeTops = tops(fresh.shadowRoot.querySelector('.record[data-record="1"] .prose'));
    const whole = fresh.shadowRoot.querySelector('.record[data-record="1"] .prose').innerHTML;
    fresh.remove();
    t.applyPatches([{ op: "replace", index: 1, record: { ...t.records[1], metadata: {} } }]);
    await window.__frames(2);
    return { kept, checks, groups, streamedTops, wholeTops, final: prose().innerHTML, whole };
  }, answer);
  assert.ok(out.checks > 50, `checked on ${out.checks} tokens`);
  assert.equal(out.kept, out.checks, "a token leaves the blocks before the last as the same nodes");
  assert.ok(out.groups >= 2, `finished blocks grouped while streaming (${out.groups} groups)`);
  assert.ok(out.streamedTops.length > 100, `${out.streamedTops.length} blocks`);
  assert.deepEqual(out.streamedTops, out.wholeTops, "every block where it is once the text is final");
  assert.equal(out.final, out.whole, "the final render equals the non-streamed one, with no groups");
  assert.doesNotMatch(out.final, /stream-group/);
  await clean(page, watch);
  await page.close();
});

test("a cited answer streams in place too: a token after its citations leaves the blocks before as they are", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async () => {
    const base = { conversation_id: null, message_type: "assistant", content_type: "text", status: "completed", tool_call_id: null };
    const cite = { type: "web_search_result_location", cited_text: "x", url: "https://cite.example/a", title: "Site A" };
    t.records = [
      { ...base, message_type: "user", sequence: 0, content: { text: "Tell me." }, metadata: {} },
      { ...base, sequence: 0, content: { text: "The first point, cited." }, metadata: { citations: [cite] } },
      { ...base, sequence: 1, content: { text: "\n\n" }, metadata: { streaming: true } },
    ];
    await window.__frames(2);
    const prose = () => window.__record(1).closest(".row").querySelector(".prose");
    const first = prose().querySelector("p");
    const marker = first.querySelector(".citation-ref");
    const answer = "Then more.\n\n- a list\n- of **points**\n\nAnd a last paragraph.";
    let same = 0;
    let steps = 0;
    for (let i = 0; i < answer.length; i += 3) {
      t.applyPatches([{ op: "append", index: 2, field: "text", text: answer.slice(i, i + 3) }]);
      await window.__frames(1);
      steps++;
      if (prose().querySelector("p") === first && first.isConnected) same++;
    }
    const chips = window.__record(1).closest(".row").querySelectorAll(".citations li").length;
    t.applyPatches([{ op: "replace", index: 2, record: { ...t.records[2], metadata: {} } }]);
    await window.__frames(2);
    const final = prose().innerHTML;
    const fresh = document.createElement("chat-transcript");
    fresh.style.height = "600px";
    document.body.append(fresh);
    fresh.records = t.records;
    await window.__frames(3);
    const whole = fresh.shadowRoot.querySelector('.record[data-record="1"]').closest(".row").querySelector(".prose").innerHTML;
    fresh.remove();
    return { same, steps, marker: !!marker, chips, final, whole };
  });
  assert.ok(out.marker, "the cited block has its marker");
  assert.equal(out.same, out.steps, "every token left the cited block's paragraph as the same node");
  assert.equal(out.chips, 1, "the sources listed once");
  assert.equal(out.final, out.whole, "the final render equals the non-streamed one");
  await clean(page, watch);
  await page.close();
});

test("a cited answer split into blocks at its citations reads as one document: markers after the cited words, each source once", async () => {
  const { page, watch } = await open();
  // The AI SDK's recorded Anthropic web-search answer (tests/fixtures/recorded, NOTICE there).
  const body = JSON.parse(readFileSync(join(repo, "tests/fixtures/recorded/anthropic_messages/anthropic/anthropic-web-search-tool.1.json"), "utf8"));
  const records = cd.toDisplayMessages(cd.fromProvider("anthropic_messages", body));
  const texts = records.filter((r) => r.content_type === "text");
  assert.ok(texts.length >= 5 && texts.some((r) => r.content.text.trim() === "-"), "the recording splits a list item from its words");
  const cited = texts.flatMap((r) => r.metadata.citations ?? []);
  const urls = [...new Set(cited.map((c) => new URL(c.url).href))];
  assert.ok(cited.length > urls.length, "the recording cites one page twice");
  const out = await page.evaluate(async (body) => {
    await t.load(body);
    await window.__frames(3);
    const root = window.__root();
    const seen = [];
    document.addEventListener("cd-citation", (event) => { seen.push({ index: event.detail.index, url: event.detail.citation?.url }); event.preventDefault(); });
    const rows = [...root.querySelectorAll(".row")].filter((r) => !r.hidden && r.querySelector('.record[data-content-type="text"]'));
    const prose = rows[0].querySelector(".prose");
    const markers = [...prose.querySelectorAll(".citation-marker")];
    markers.at(-1)?.click();
    return {
      textRows: rows.length,
      hiddenTextRows: [...root.querySelectorAll(".row[hidden]")].length,
      emptyItems: [...prose.querySelectorAll("li")].filter((li) => li.textContent.trim() === "").length,
      headings: [...prose.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => h.textContent),
      markers: markers.map((m) => ({ n: m.textContent, href: m.getAttribute("href"), before: m.parentElement.previousSibling?.textContent?.slice(-12) ?? "" })),
      chips: [...rows[0].querySelectorAll(".citations .citation")].map((c) => ({ n: c.querySelector(".citation-n").textContent, href: c.getAttribute("href"), site: c.querySelector(".citation-site")?.textContent ?? null })),
      lists: root.querySelectorAll(".citations").length,
      seen,
    };
  }, body);
  assert.equal(out.textRows, 1, "one row holds the message's text");
  assert.equal(out.emptyItems, 0, "no empty list item");
  const atx = [...texts.map((r) => r.content.text).join("").matchAll(/^#{1,6} (.*)$/gm)].map((m) => m[1].trim());
  assert.ok(atx.length >= 2);
  assert.deepEqual(out.headings, atx, "the answer's own headings and no stray setext one");
  assert.equal(out.lists, 1, "the sources are listed once");
  assert.deepEqual(out.chips.map((c) => c.href), urls, "each source once, deduplicated by URL, in order of first citation");
  assert.deepEqual(out.chips.map((c) => c.n), urls.map((_, k) => String(k + 1)));
  for (const chip of out.chips) assert.equal(chip.site, new URL(chip.href).host.replace(/^www\./, ""), "with the site's name");
  assert.equal(out.markers.length, cited.length, "a marker for each citation of each block");
  for (const m of out.markers) {
    assert.equal(m.href, urls[Number(m.n) - 1], "a marker links to its numbered source");
    assert.ok(m.before.trim() !== "", `a marker follows words: ${JSON.stringify(m.before)}`);
  }
  assert.equal(out.seen.length, 1, "a marker fires cd-citation");
  assert.equal(out.seen[0].url, cited.at(-1).url);
  await clean(page, watch);
  await page.close();
});

test("code is highlighted and math typeset, each library loaded only when a row first needs it; unknown and hostile input stays text", async () => {
  const { page, watch } = await open();
  const chunks = [];
  page.on("request", (r) => { const m = /\/element\/(highlight|math)-[^/]*\.js$/.exec(r.url()); if (m) chunks.push(m[1]); });
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null, metadata: {} };
  const plain = await page.evaluate(async (base) => {
    t.records = [{ ...base, content: { text: "No code, no math: it costs $5 and $10, and `inline` stays code." } }];
    await window.__frames(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return window.__record(0).querySelector(".prose").innerHTML;
  }, base);
  assert.deepEqual(chunks, [], "neither library loads for a page that shows neither");
  assert.match(plain, /\$5 and \$10/, "a single $ is never math");
  const vector = '"><img src=x onerror=window.__xss()>';
  const text = [
    "```js\nconst answer = 42; // the answer\n```",
    "```rust\nfn main() { println!(\"hi\"); }\n```",
    "```brainfuck\n+[-->-[>>+>-----<<]<--<---]>-.\n```",
    "```\nno language <script>window.__xss()</script>\n```",
    "```" + vector + "\n<img src=x onerror=window.__xss()>\n```",
    "Display: $$\\frac{a}{b} + \\sqrt{x^2}$$ and inline \\(e^{i\\pi} = -1\\) and \\[\\sum_{n=1}^{\\infty} n\\]",
    "Broken: $$\\frac{1}{$$ stays its source. Hostile: $$\\href{javascript:window.__xss()}{x} \\class{a}{b}$$ and `$$not math$$` in code.",
  ].join("\n\n");
  const out = await page.evaluate(async ([base, text]) => {
    t.records = [{ ...base, content: { text } }];
    const until = async (check) => { for (let k = 0; k < 200 && !check(); k++) await new Promise((r) => setTimeout(r, 25)); return check(); };
    // The two blocks in known languages (js, rust) are highlighted one a task once the highlighter is in.
    await until(() => window.__record(0)?.querySelectorAll("code.hljs").length >= 2 && window.__record(0)?.querySelector("math"));
    const prose = window.__record(0).querySelector(".prose");
    const blocks = [...prose.querySelectorAll(".code-block")].map((b) => ({
      label: b.querySelector(".code-head span").textContent, highlighted: b.querySelector("code").classList.contains("hljs"),
      spans: b.querySelectorAll("code span[class^='hljs-']").length, text: b.querySelector("code").textContent,
    }));
    const keyword = prose.querySelector(".hljs-keyword");
    const light = getComputedStyle(keyword).color;
    t.setAttribute("theme", "dark");
    const dark = getComputedStyle(keyword).color;
    t.setAttribute("theme", "light");
    return {
      blocks, light, dark,
      maths: [...prose.querySelectorAll(".math")].map((m) => ({ cls: m.className, math: !!m.querySelector("math"), text: m.textContent })),
      inCode: [...prose.querySelectorAll("p code")].map((c) => c.textContent),
      links: [...prose.querySelectorAll("math [href], math a")].length,
    };
  }, [base, text]);
  assert.deepEqual([...new Set(chunks)].sort(), ["highlight", "math"], "each library fetched once needed");
  assert.deepEqual(out.blocks.map((b) => [b.label, b.highlighted]), [["js", true], ["rust", true], ["brainfuck", false], ["code", false], ['"><img', false]]);
  assert.ok(out.blocks[0].spans >= 3 && out.blocks[1].spans >= 2, "keywords, strings, comments get their spans");
  assert.equal(out.blocks[0].text, "const answer = 42; // the answer\n", "the code's text is kept exactly");
  assert.equal(out.blocks[3].text, "no language <script>window.__xss()</script>\n");
  assert.notEqual(out.light, out.dark, "the colours follow the theme");
  const typeset = out.maths.filter((m) => m.math);
  assert.equal(typeset.length, 3, "$$...$$, \\(...\\) and \\[...\\] typeset");
  assert.deepEqual(out.maths.filter((m) => !m.math).map((m) => [m.cls.includes("math-error"), m.text]),
    [[true, "$$\\frac{1}{$$"], [true, "$$\\href{javascript:window.__xss()}{x} \\class{a}{b}$$"]], "TeX it cannot (or may not) read shows as its source");
  assert.deepEqual(out.inCode, ["$$not math$$"]);
  assert.equal(out.links, 0);
  assert.equal(await page.evaluate(() => window.__xssFired), 0);
  await clean(page, watch);
  await page.close();
});

test("code is highlighted in a worker; where none can start, in the page, to the same nodes; only highlight.js's own HTML is parsed", async () => {
  const lines = Array.from({ length: 300 }, (_, i) => (i % 10 === 9 ? "" : `  const value${i} = compute(${i}, "text <${i}> & 'more'"); // step ${i}`));
  const text = ["```js\nconst answer = 42; // the answer\n```", "```python\n" + `def big():\n${lines.join("\n")}\n` + "```"].join("\n\n");
  const base = { conversation_id: null, message_type: "assistant", content_type: "text", sequence: 0, status: "completed", tool_call_id: null, metadata: {} };
  const shown = async (refuse) => {
    const { page, watch } = await open();
    const chunks = [];
    page.on("request", (r) => { const m = /\/element\/(highlight|highlighter)-[^/]*\.js$/.exec(r.url()); if (m) chunks.push(m[1]); });
    if (refuse === "throws") await page.evaluate(() => { window.Worker = function Worker() { throw new DOMException("refused", "SecurityError"); }; });
    if (refuse === "fails") {
      await page.evaluate(() => {
        // A worker refused after it is made (as a policy may): an error event, never a message.
        window.Worker = class extends EventTarget {
          constructor() { super(); setTimeout(() => this.onerror?.(new Event("error")), 10); }
          postMessage() {}
          terminate() {}
        };
      });
    }
    const codes = await page.evaluate(async ([base, text]) => {
      t.records = [{ ...base, content: { text } }];
      for (let k = 0; k < 400 && window.__record(0)?.querySelectorAll("code.hljs").length !== 2; k++) await new Promise((r) => setTimeout(r, 25));
      return [...window.__record(0).querySelectorAll("code")].map((c) => ({ highlighted: c.classList.contains("hljs"), html: c.innerHTML, text: c.textContent }));
    }, [base, text]);
    return { page, watch, chunks, codes };
  };
  // The long block's lines in groups the browser skips out of view, the block as tall as its text
  // shown plain (a language the highlighter does not know).
  const heights = (page) => page.evaluate(async ([base, text]) => {
    const height = () => window.__record(0).querySelectorAll("pre")[1].getBoundingClientRect().height;
    const grouped = height();
    const groups = window.__record(0).querySelectorAll("pre")[1].querySelectorAll(".code-lines").length;
    t.records = [{ ...base, content: { text: text.replace("```python", "```unknown-language") } }];
    await window.__frames(3);
    return { grouped, plain: height(), groups };
  }, [base, text]);
  const worker = await shown(null);
  assert.deepEqual(worker.codes.map((c) => c.highlighted), [true, true]);
  assert.deepEqual(worker.chunks, ["highlight"], "the worker's script comes in highlight.js's chunk; the page's highlighter is not fetched");
  assert.ok(worker.codes[1].html.split("hljs-").length > 500, "a long block's tokens have their spans");
  assert.equal(worker.codes[1].text, `def big():\n${lines.join("\n")}\n`, "the code's text is kept exactly");
  const sizes = await heights(worker.page);
  assert.equal(sizes.groups, 7, "301 lines in groups of 50");
  // (to a pixel a group: a group's height is rounded to the layout's units, a line's place is not)
  assert.ok(Math.abs(sizes.grouped - sizes.plain) <= sizes.groups, `as tall as its text: ${sizes.grouped} against ${sizes.plain}`);
  // The check that lets highlight.js's HTML be parsed without a sanitizer refuses anything else.
  const refused = await worker.page.evaluate(async () => {
    const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/element\/highlight-[^/]*\.js$/.test(n));
    const { fill } = await import(url);
    const into = document.createElement("code");
    const vectors = ['<img src=x onerror="window.__xss()">', '<span class="a" onclick="window.__xss()">x</span>', "<span class=a>x</span>",
      "<script>window.__xss()</script>", "a &nbsp; b", "<span class=\"hljs-string\"><svg onload=window.__xss()></span>", "<!-- x -->", "<"];
    const accepted = ['<span class="hljs-keyword">const</span> a = &lt;b&gt; &amp;&amp; &quot;c&quot; &#x27;d&#x27;', ""];
    return {
      refused: vectors.filter((v) => fill(into, v)),
      accepted: accepted.map((v) => fill(into, v) && into.innerHTML),
    };
  });
  assert.deepEqual(refused.refused, [], "every foreign tag, attribute or entity is refused");
  assert.deepEqual(refused.accepted, ['<span class="hljs-keyword">const</span> a = &lt;b&gt; &amp;&amp; "c" \'d\'', ""]);
  assert.equal(await worker.page.evaluate(() => window.__xssFired), 0);
  await clean(worker.page, worker.watch);
  await worker.page.close();
  for (const refuse of ["throws", "fails"]) {
    const page = await shown(refuse);
    assert.deepEqual(page.codes, worker.codes, `a worker that ${refuse}: the same nodes`);
    assert.deepEqual(page.chunks, ["highlight", "highlighter"], `a worker that ${refuse}: the page's highlighter fetched`);
    await clean(page.page, page.watch);
    await page.page.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Conversations kept on a server: prepend, upsert, participants, cd-reach-start, the new count.

/** `n` records of conversation `conversation`, with ids `${prefix}${k}`: a user question and an answer a pair. */
function stored(n, prefix = "r", conversation = "conv-1") {
  return Array.from({ length: n }, (_, k) => rec(k % 2 ? "assistant" : "user", "text",
    { text: `${prefix} ${k}: ${k % 2 ? "an answer with **some** words, ".repeat(1 + (k % 5)) : "a question?"}` },
    { id: `${prefix}${k}`, conversation_id: conversation }));
}

test("prepend keeps the record under the reader's eyes where it is, with open rows, search and windowing intact", async () => {
  const { page, watch } = await open();
  const shown = stored(2000, "new");
  shown[41] = rec("assistant", "tool_call", { call_id: "c41", name: "lookup", arguments: { q: "x" } }, { id: "new41", conversation_id: "conv-1", sequence: 1, tool_call_id: "c41" });
  const older = stored(1000, "old");
  const out = await page.evaluate(async ([shown, older]) => {
    t.records = shown;
    await window.__frames(3);
    t.scrollToRecord(40);
    await window.__frames(4);
    window.__record(41).querySelector(".tool-head").click();
    await window.__frames(3);
    const hits = t.find("old 99");
    const anchor = window.__record(40);
    const before = anchor.getBoundingClientRect().top;
    t.prepend(older);
    const same = window.__record(1040);
    const after = same?.getBoundingClientRect().top;
    await window.__frames(4);
    const later = window.__record(1040)?.getBoundingClientRect().top;
    const text = window.__record(1040)?.textContent;
    const open = window.__record(1041)?.querySelector(".tool-head")?.getAttribute("aria-expanded");
    return { open, hits, hitsAfter: t.find("old 99"), before, after, later, text, n: t.records.length, first: t.records[0].id, elements: window.__count() };
  }, [shown, older]);
  assert.equal(out.n, 3000);
  assert.equal(out.first, "old0");
  assert.match(out.text, /^new 40:/, "the same record");
  assert.equal(out.open, "true", "the row the reader opened stays open");
  assert.ok(Math.abs(out.after - out.before) <= 1, `no jump at once: ${out.before} -> ${out.after}`);
  assert.ok(Math.abs(out.later - out.before) <= 1, `nor a few frames later: ${out.before} -> ${out.later}`);
  assert.equal(out.hits, 0);
  assert.ok(out.hitsAfter >= 1, "find counts the new records");
  assert.ok(out.elements <= MAX_ELEMENTS);
  await clean(page, watch);
  await page.close();
});

test("records set to [...older, ...shown] is a prepend; cd-reach-start fires near the top, once per prepend", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async ([shown, older, oldest]) => {
    const reached = [];
    t.addEventListener("cd-reach-start", (event) => reached.push({ index: event.detail.index, id: event.detail.record.id, composed: event.composed }));
    t.records = shown;
    await window.__frames(3);
    const s = window.__scroller();
    s.scrollTop = s.scrollHeight;
    await window.__frames(3);
    const upwards = async () => {
      for (let k = 0; k < 60 && s.scrollTop > 0; k++) {
        s.scrollTop = Math.max(0, s.scrollTop - 400);
        await window.__frames(2);
      }
    };
    await upwards();
    const afterFirst = reached.length;
    await upwards();
    const stillOne = reached.length;
    const anchor = window.__record(0).getBoundingClientRect().top;
    t.records = [...older, ...t.records];
    await window.__frames(3);
    const moved = window.__record(older.length).getBoundingClientRect().top - anchor;
    await upwards();
    t.records = [...oldest, ...t.records];
    return { reached, afterFirst, stillOne, moved, first: t.records[0].id, n: t.records.length };
  }, [stored(200, "new"), stored(100, "old"), stored(50, "oldest")]);
  assert.equal(out.afterFirst, 1, "fired once near the top");
  assert.equal(out.stillOne, 1, "and not again before a prepend");
  assert.deepEqual(out.reached[0], { index: 0, id: "new0", composed: true });
  assert.ok(Math.abs(out.moved) <= 1, `the setter kept the view: ${out.moved}`);
  assert.equal(out.reached.length, 2, "again after the prepend");
  assert.equal(out.reached[1].id, "old0");
  assert.equal(out.first, "oldest0");
  assert.equal(out.n, 350);
  await clean(page, watch);
  await page.close();
});

test("upsert replaces by id wherever the record is, rebuilding only its row, and adds the rest at the end; a Transcript's too", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (records) => {
    t.records = records;
    await window.__frames(3);
    t.scrollToRecord(10);
    await window.__frames(3);
    const other = window.__root().querySelector('.row[data-index="11"]');
    t.upsert([{ ...records[10], content: { text: "CHANGED ten" } }, { ...records[0], id: "extra", content: { text: "an added one" } }]);
    await window.__frames(3);
    const replaced = { text: window.__record(10).textContent, otherKept: window.__root().querySelector('.row[data-index="11"]') === other };
    // The same in a conversation held in a Transcript (loaded as bytes).
    const messages = await (await fetch("/fixtures/big-records.json")).text();
    await t.load(new TextEncoder().encode(messages + " ".repeat(1 << 20)));
    const n = t.records.length;
    const target = 5000;
    const withId = t.records[target];
    t.upsert([{ ...withId, id: "ignored-no-such-id", content: { text: "new at end" } }]);
    const added = t.records.length;
    // Records loaded from a Transcript have no ids (toDisplayMessages makes none): an app's ids come
    // with records it sets; here, ids set by an upsert that added them.
    t.upsert([{ ...withId, id: "ignored-no-such-id", content: { text: "replaced at the end" } }]);
    return { replaced, n, added, after: t.records.length, last: t.records.at(-1).content.text, ten: t.records[10]?.content?.text };
  }, stored(40));
  assert.equal(out.replaced.text, "CHANGED ten");
  assert.equal(out.replaced.otherKept, true, "another row is the same node");
  assert.equal(out.added, out.n + 1);
  assert.equal(out.after, out.n + 1, "the second upsert of that id replaced it");
  assert.equal(out.last, "replaced at the end");
  await clean(page, watch);
  await page.close();
});

test("prepend and upsert check the whole call first: not records, no id, another conversation; nothing of it is shown", async () => {
  const { page, watch } = await open();
  const out = await page.evaluate(async (records) => {
    t.records = records;
    await window.__frames(2);
    const attempt = (f) => { try { f(); return null; } catch (e) { return { name: e.name, code: e.code, path: e.path, message: e.message }; } };
    const good = { ...records[0], id: "fine" };
    return {
      notRecords: attempt(() => t.prepend([good, 42])),
      notArray: attempt(() => t.upsert({ ...good })),
      noId: attempt(() => t.upsert([good, { ...good, id: undefined }])),
      other: attempt(() => t.prepend([good, { ...good, conversation_id: "conv-2" }])),
      n: t.records.length,
    };
  }, stored(6));
  assert.deepEqual([out.notRecords.code, out.notRecords.path], ["invalid_input", "$[1]"]);
  assert.deepEqual([out.notArray.code, out.notArray.path], ["invalid_input", "$"]);
  assert.deepEqual([out.noId.code, out.noId.path], ["invalid_input", "$[1].id"]);
  assert.deepEqual([out.other.code, out.other.path], ["invalid_input", "$[1].conversation_id"]);
  assert.match(out.other.message, /"conv-2".*"conv-1"/, "names both conversations");
  assert.equal(out.n, 6, "nothing of a refused call was shown");
  await clean(page, watch);
  await page.close();
});

test("participants: a name as text and an avatar of http(s) or data:image only, at each message's start", async () => {
  const { page, watch } = await open();
  const vector = vectors.find((v) => v.includes("<img")) ?? "<img src=x onerror=window.__xss()>";
  const out = await page.evaluate(async ([records, vector]) => {
    t.participants = {
      user: { name: vector, avatar: "javascript:window.__xss()" },
      assistant: { name: "Helper", avatar: "data:image/png;base64,iVBORw0KGgo=" },
      tool: { avatar: "data:image/svg+xml;base64,PHN2Zz4=" },
    };
    t.records = records;
    await window.__frames(3);
    const speakers = [...window.__root().querySelectorAll(".row:not([hidden])")].map((row) => {
      const sp = row.querySelector(".speaker");
      return sp ? { index: Number(row.dataset.index), name: sp.querySelector(".speaker-name")?.textContent ?? null, img: sp.querySelector("img")?.getAttribute("src") ?? null } : null;
    }).filter(Boolean);
    return { speakers, tags: window.__root().querySelectorAll(".speaker-name *").length };
  }, [[...stored(2), rec("assistant", "text", { text: "more" }, { sequence: 1 })], vector]);
  assert.deepEqual(out.speakers, [
    { index: 0, name: vector, img: null },
    { index: 1, name: "Helper", img: "data:image/png;base64,iVBORw0KGgo=" },
  ], "a name as text; a script or SVG avatar is no img; once per message");
  assert.equal(out.tags, 0);
  assert.equal(await page.evaluate(() => window.__xssFired), 0);
  await clean(page, watch);
  await page.close();
});

test("records added while the reader is scrolled up are counted on 'Jump to latest', and said politely", async () => {
  const { page, watch } = await open({ width: 600, height: 400 });
  const out = await page.evaluate(async (records) => {
    t.records = records;
    await window.__frames(3);
    const s = window.__scroller();
    s.scrollTop = s.scrollHeight;
    await window.__frames(3);
    s.scrollTop = 0;
    await window.__frames(3);
    const more = records.slice(0, 3).map((r, k) => ({ ...r, id: `late${k}` }));
    t.upsert(more);
    await window.__frames(2);
    const jump = window.__root().querySelector(".jump");
    const live = window.__root().querySelector('[role="status"][aria-live="polite"]');
    const shown = { text: jump.textContent, hidden: jump.hidden, live: live.textContent };
    jump.click();
    await window.__frames(4);
    return { shown, after: { text: jump.textContent, hidden: jump.hidden, live: live.textContent } };
  }, stored(60));
  assert.deepEqual(out.shown, { text: "Jump to latest ↓ (3 new)", hidden: false, live: "3 new records below" });
  assert.deepEqual(out.after, { text: "Jump to latest ↓", hidden: true, live: "" });
  await clean(page, watch);
  await page.close();
});

test("scrolling up by 100 px and by 800 px moves the content by exactly that while the rows above are measured", async () => {
  const { page, watch } = await open({ width: 1000, height: 800 });
  const out = await page.evaluate(async () => {
    const records = await (await fetch("/fixtures/big-records.json")).json();
    t.records = records;
    await window.__frames(3);
    const s = window.__scroller();
    const results = {};
    for (const step of [100, 800]) {
      t.scrollToRecord(records.length - 1);
      await window.__frames(4);
      s.scrollTop = s.scrollHeight;
      await window.__frames(4);
      const wrong = [];
      let steps = 0;
      for (; steps < 150 && s.scrollTop > 0; steps++) {
        // A row in view now, and where it is.
        const box = s.getBoundingClientRect();
        const row = [...window.__root().querySelectorAll(".row:not([hidden])")].find((r) => {
          const b = r.getBoundingClientRect();
          return b.top >= box.top && b.bottom <= box.bottom;
        });
        if (!row) continue;
        const index = row.dataset.index;
        const top = row.getBoundingClientRect().top;
        const expected = Math.min(step, s.scrollTop);
        s.scrollBy(0, -step);
        await window.__frames(3);
        const same = window.__root().querySelector(`.row[data-index="${index}"]`);
        const moved = same ? same.getBoundingClientRect().top - top : null;
        if (moved === null || Math.abs(moved - expected) > 2) wrong.push({ step: steps, index, moved, expected });
      }
      results[step] = { steps, wrong: wrong.slice(0, 8), count: wrong.length };
    }
    return results;
  });
  for (const step of [100, 800]) {
    assert.ok(out[step].steps >= 20, `${step} px: ${out[step].steps} steps`);
    assert.deepEqual(out[step].wrong, [], `${step} px steps: the content moved by the step (${out[step].count} of ${out[step].steps} wrong)`);
  }
  await clean(page, watch);
  await page.close();
});
