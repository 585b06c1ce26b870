// What `load` shows, against what toDisplayMessages gives, over every conversation the tests
// hold: the element's loader (js/element/input.js) runs here in Node on the module as Node loads
// it. Records the loader makes must be toDisplayMessages' records of the good messages, with an
// error record in place of each bad one, in order: none lost, none moved.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as api from "../../js/node.mjs";
import * as core from "../../js/core.mjs";
import * as display from "../../js/display.mjs";
import { isLoadError, openInput, readConversation } from "../../js/element/input.js";

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
const read = (path) => JSON.parse(readFileSync(join(fixtures, path), "utf8"));

/** Every .json file under `dir`, recursively. */
function jsonFiles(dir) {
  return readdirSync(join(fixtures, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(fixtures, path)).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value) && "content_type" in value;

/** Every conversation of messages the fixtures hold, by name. */
function conversations() {
  const out = [];
  const add = (name, messages) => {
    if (Array.isArray(messages) && messages.length && !messages.some(isRecord)) out.push({ name, messages });
  };
  for (const c of read("to_display_messages.json")) add(`to_display_messages: ${c.name}`, c.messages);
  for (const c of read("sycophant_display_messages.json")) add(`sycophant_display_messages: ${c.name}`, c.messages);
  for (const c of read("extract_display_items.json")) add(`extract_display_items: ${c.name}`, [c.message]);
  for (const c of read("sycophant_display.json")) add(`sycophant_display: ${c.name}`, [c.message]);
  for (const file of readdirSync(fixtures).filter((f) => /^providers_.*\.json$/.test(f))) {
    for (const c of read(file).from ?? []) add(`${file}: ${c.name}`, c.messages);
  }
  for (const c of read("transcript.json")) {
    try { add(`transcript: ${c.name}`, JSON.parse(c.text)); } catch { /* not JSON: a case of its own */ }
  }
  // Recordings of the real APIs and the JavaScript libraries' objects, read as the loader reads them.
  for (const file of [...jsonFiles("recorded"), ...jsonFiles("ai_sdk_ui"), ...jsonFiles("langchain_js")]) {
    let data;
    try { data = read(file); } catch { continue; }
    const protocol = api.detectProtocol(data);
    if (!protocol) continue;
    try { add(file, api.fromProvider(protocol, data)); } catch { /* an unreadable body: tested where it lives */ }
  }
  return out;
}

/** A small seeded generator, so that a failure names a case that runs again the same. */
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const BAD = [42, "text", null, { role: "robot", content: "x" }, { role: "user", content: 5 }, { role: "assistant", tool_calls: "nope" }, []];

/** True when toDisplayMessages reads `message` alone. */
function readable(message) {
  try {
    api.toDisplayMessages([message]);
    return true;
  } catch {
    return false;
  }
}

function check(name, elements) {
  const shown = readConversation(elements, api);
  const good = elements.filter(readable);
  // The loader shows attachments (toDisplayMessages' `media: true`).
  const expected = api.toDisplayMessages(good, { conversation_id: null, media: true });
  assert.deepEqual(shown.filter((r) => !isLoadError(r)), expected, `${name}: the good messages' records, all and in order`);
  const errors = shown.filter(isLoadError);
  const bad = elements.map((e, i) => (readable(e) ? -1 : i)).filter((i) => i >= 0);
  assert.equal(errors.length, bad.length, `${name}: one error record per bad message`);
  // Each error record stands where its message stood: after the records of the good messages
  // before it.
  for (const [k, i] of bad.entries()) {
    const at = shown.indexOf(errors[k]);
    const before = api.toDisplayMessages(elements.slice(0, i).filter(readable), { media: true }).length;
    assert.equal(at - k, before, `${name}: the error for $[${i}] follows the records of the messages before it`);
    assert.ok(errors[k].content.path.startsWith(`$[${i}]`), `${name}: the error record names $[${i}] (${errors[k].content.path})`);
  }
}

test("load shows toDisplayMessages' records of every conversation the fixtures hold, with bad messages in place", () => {
  const all = conversations();
  assert.ok(all.length >= 150, `the fixtures' conversations (${all.length})`);
  let mixed = 0;
  for (const [n, { name, messages }] of all.entries()) {
    check(name, messages);
    // The same with bad elements put in at seeded places.
    const next = random(n + 1);
    const elements = messages.slice();
    const count = 1 + Math.floor(next() * 3);
    for (let k = 0; k < count; k++) elements.splice(Math.floor(next() * (elements.length + 1)), 0, BAD[Math.floor(next() * BAD.length)]);
    check(`${name} (with ${count} bad)`, elements);
    mixed++;
  }
  assert.equal(mixed, all.length);
});

test("a message whose records outnumber its display items keeps all of them (issue 41's example)", async () => {
  // Thinking, cited text, a generated image, a compaction notification and a tool call: 3 display
  // items as the seed rules, 5 records.
  const message = {
    role: "assistant",
    content: [
      { type: "thinking", content: "Let me look." },
      { type: "text", content: "Paris is the capital.", options: { citations: [{ type: "web_search_result_location", url: "https://en.wikipedia.org/wiki/Paris", title: "Paris", cited_text: "Paris is the capital of France." }] } },
      { type: "image", content: "iVBORw0KGgo=", options: { generated: true, media: "image/png" } },
      { type: "unsupported", content: null, options: { notification: "Earlier turns were summarized." } },
    ],
    tool_calls: [{ call_id: "c1", name: "lookup", arguments: { q: "Paris" } }],
  };
  const messages = [{ role: "user", content: "Capital of France?" }, message, { role: "user", content: "Thanks" }, message];
  assert.ok(api.toDisplayMessages([message]).length > api.extractDisplayItems(message).length, "the case the bug needs");
  const { records } = await openInput(messages, api);
  assert.deepEqual(records, api.toDisplayMessages(messages, { conversation_id: null, media: true }));
});

test("a user message holding only an image loads as one image record (issue 46, class 10)", async () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  const messages = [{ role: "user", content: [{ type: "image", content: png, options: { media: "image/png" } }] }];
  assert.deepEqual(api.toDisplayMessages(messages), [], "without the option: the seed's mapping, nothing");
  const { records } = await openInput(messages, api);
  assert.deepEqual(records.map((r) => [r.message_type, r.content_type, r.content, r.sequence]),
    [["user", "image", { data: png, mime_type: "image/png" }, 0]]);
});

test("an invalid record's error names the field and the value it refused", () => {
  const record = api.toDisplayMessages([{ role: "user", content: "Hi" }], { conversation_id: "c" })[0];
  const [shown] = readConversation([{ ...record, status: "<img src=x onerror=alert(1)>" }], api);
  assert.ok(isLoadError(shown));
  assert.match(shown.content.text, /status is invalid \(got "<img src=x onerror=alert\(1\)>"\)/);
});

test("a provider's error body loads as one error record quoting the provider's message", async () => {
  const bodies = [
    { type: "error", error: { type: "overloaded_error", message: "Overloaded <b>now</b>" } },
    { error: { code: 429, message: "You exceeded your current quota.", status: "RESOURCE_EXHAUSTED" } },
    { error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } },
    { message: "The security token included in the request is invalid." },
  ];
  for (const body of bodies) {
    const { records } = await openInput(body, api);
    assert.equal(records.length, 1, JSON.stringify(body));
    assert.ok(isLoadError(records[0]));
    const message = body.error?.message ?? body.message;
    assert.ok(records[0].content.text.includes(message), `${records[0].content.text} quotes ${message}`);
    assert.match(records[0].content.path, /^\$\.(error\.)?message$/);
  }
  // Anything else that is not a conversation still throws.
  await assert.rejects(openInput({ hello: "world" }, api), { name: "ChatDisplayError", code: "invalid_input" });
});

test("load reads with the smallest module that can: display for messages, core for records and large text, full for the rest", async () => {
  const modules = { display, core, full: api };
  /** openInput with a `need` that hands out only the module asked for, and lists what was asked. */
  const open = async (input) => {
    const asked = [];
    const opened = await openInput(input, async (level) => { asked.push(level); return modules[level]; });
    opened.transcript?.free();
    return { asked, opened };
  };
  const messages = [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello", tool_calls: [{ call_id: "c", name: "f", arguments: {} }] }];
  const records = api.toDisplayMessages(messages, { conversation_id: "c" });
  const anthropic = { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [{ type: "text", text: "Hi" }], stop_reason: "end_turn" };
  const cases = [
    ["LangChain messages", messages, ["display"]],
    ["the same as JSON text", JSON.stringify(messages), ["display"]],
    ["an object with only messages", { messages }, ["display"]],
    ["records", records, ["core"]],
    ["messages and records", [...messages, ...records], ["core"]],
    ["an Anthropic response", anthropic, ["full"]],
    ["AI SDK UI messages", [{ id: "u", role: "user", parts: [{ type: "text", text: "Hi" }] }], ["full"]],
    ["a provider's error body", { error: { message: "Overloaded", type: "overloaded_error" } }, ["full"]],
    ["text of 1 MiB", JSON.stringify([{ role: "user", content: "x".repeat(1 << 20) }]), ["core"]],
  ];
  for (const [name, input, expected] of cases) {
    const { asked, opened } = await open(input);
    assert.deepEqual(asked, expected, name);
    // What it shows is what the full module shows.
    const full = await openInput(input, api);
    assert.deepEqual(opened.records, full.records, name);
    full.transcript?.free();
  }
});

test("a module that cannot be loaded rejects the load with the loader's error, and nothing is read", async () => {
  const failure = Object.assign(new Error("Could not load chat-display (its JavaScript or its .wasm file) at $: 404"), { name: "ChatDisplayError", code: "module_unavailable", path: "$" });
  await assert.rejects(openInput({ id: "msg_1", type: "message", role: "assistant", content: [] }, async () => { throw failure; }), (error) => error === failure);
});
