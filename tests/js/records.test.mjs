// Display-message records and toText through the installed package: the fixture cases of
// tests/records.rs again, compared as JSON text (key order and null-versus-absent count), plus
// what only JavaScript callers can do.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import {
  newDisplayMessage,
  changeDisplayMessage,
  validateDisplayMessage,
  toText,
  toDisplayMessages,
} from "chat-display";
import { checkCase, fixtures } from "../support/kit.mjs";

const require = createRequire(import.meta.url);
/** `c[keyJs]` where JavaScript numbers make the outcome differ, else `c[key]`. */
const expected = (c, key, keyJs) => (keyJs in c ? c[keyJs] : c[key]);

function runRecordCase(c) {
  switch (c.call) {
    case "new":
      return newDisplayMessage(c.conversation_id, c.attrs);
    case "change":
      return changeDisplayMessage(c.record, c.attrs);
    case "validate":
      return validateDisplayMessage(c.record);
    default:
      throw new Error(`unknown call ${c.call}`);
  }
}

test("record fixtures: newDisplayMessage, changeDisplayMessage, validateDisplayMessage", () => {
  const cases = fixtures("records");
  assert.ok(cases.length > 100);
  for (const c of cases) checkCase({ ...c, expected: expected(c, "changeset", "changeset_js") }, "expected", () => runRecordCase(c));
});

test("toText fixtures: every row of docs/API.md, toText", () => {
  const cases = fixtures("to_text");
  assert.ok(cases.length > 60);
  for (const c of cases) {
    assert.equal(JSON.stringify(toText(c.record)), JSON.stringify(expected(c, "text", "text_js")), c.name);
  }
});

test("floats as Elixir prints them, through toText", () => {
  const cases = fixtures("floats");
  assert.ok(cases.length >= 30);
  for (const c of cases) {
    const call = { content_type: "tool_call", content: { name: "f", arguments: c.value } };
    assert.equal(toText(call), `Tool call: f(${expected(c, "inspect", "js")})`, `inspect ${c.value}`);
    const result = { content_type: "tool_result", content: { name: "f", content: c.value } };
    assert.equal(toText(result), `Tool result from f: ${expected(c, "str", "js")}`, `str ${c.value}`);
  }
});

test("every toDisplayMessages record passes validateDisplayMessage, unchanged", () => {
  let checked = 0;
  for (const c of fixtures("to_display_messages")) {
    if (c.error) continue;
    for (const record of toDisplayMessages(c.messages, { conversation_id: "conv-1" })) {
      const changeset = validateDisplayMessage(record);
      assert.equal(changeset.valid, true, `${c.name}: ${JSON.stringify(changeset.errors)}`);
      assert.deepEqual(changeset.record, record, c.name);
      checked++;
    }
  }
  assert.ok(checked > 20);
});

test("changesets are plain objects with the documented key order", () => {
  const changeset = changeDisplayMessage(
    { id: "i", inserted_at: "t", conversation_id: "c", message_type: "user", content_type: "text", content: { text: "x" } },
    { sequence: "2" },
  );
  assert.deepEqual(Object.keys(changeset), ["valid", "errors", "record"]);
  assert.equal(Object.getPrototypeOf(changeset.record), Object.prototype);
  assert.deepEqual(Object.keys(changeset.record), [
    "id", "conversation_id", "message_type", "content_type", "content", "tool_call_id", "sequence", "status", "metadata", "inserted_at",
  ]);
  assert.equal(changeset.record.sequence, 2);
  const { errors } = newDisplayMessage(null, { status: "x", sequence: -1, content: 1 });
  assert.deepEqual(Object.keys(errors), ["content", "content_type", "conversation_id", "message_type", "sequence", "status"]);
});

test("only a non-object attrs or record throws; bad values are errors", () => {
  for (const bad of [undefined, null, 1, "x", [], true]) {
    assert.throws(() => newDisplayMessage("c", bad), { name: "ChatDisplayError", code: "invalid_input", path: "$.attrs" });
    assert.throws(() => changeDisplayMessage(bad, {}), { name: "ChatDisplayError", code: "invalid_input", path: "$.record" });
    assert.throws(() => validateDisplayMessage(bad), { name: "ChatDisplayError", code: "invalid_input", path: "$" });
    assert.equal(toText(bad), "");
  }
  for (const value of [undefined, null, NaN, Infinity, -0, 1.5, 2 ** 60, 10n, Symbol("s"), () => 1, [], {}, "", new Date(0)]) {
    for (const field of ["message_type", "content", "content_type", "sequence", "status", "metadata", "conversation_id"]) {
      const attrs = { [field]: value };
      assert.equal(typeof newDisplayMessage(value, attrs).valid, "boolean");
      assert.equal(typeof changeDisplayMessage(attrs, attrs).valid, "boolean");
      assert.equal(typeof validateDisplayMessage(attrs).valid, "boolean");
      toText(attrs);
    }
  }
});

test("toText hands back the given value and never throws on deep or odd input", () => {
  const text = { toString() { return "x"; } };
  assert.equal(toText({ content_type: "text", content: { text } }), text);
  let deep = 1;
  for (let i = 0; i < 100000; i++) deep = [deep];
  const out = toText({ content_type: "tool_call", content: { name: "t", arguments: deep } });
  assert.ok(out.startsWith("Tool call: t([[[") && out.includes("..."));
  const cyclic = {};
  cyclic.self = cyclic;
  assert.equal(toText({ content_type: "tool_call", content: { name: "t", arguments: cyclic } }).match(/%\{/g).length, 128);
  assert.equal(toText({ content_type: "tool_call", content: { name: "t", arguments: [NaN, 10n, undefined] } }), "Tool call: t([nil, nil, nil])");
});

test("toText stops objects that share or contain themselves from growing without end", () => {
  // 2^40 leaves when written out in full; the work budget (src/elixir.rs, 16,384 values) ends it
  // at once.
  let shared = 1;
  for (let i = 0; i < 40; i++) shared = [shared, shared];
  const out = toText({ content_type: "tool_call", content: { name: "t", arguments: shared } });
  assert.ok(out.length < 2 ** 24 && out.includes("...") && out.endsWith("])"), out.slice(-20));
  // Objects shared at every level, 20 and 30 deep: 21 and 31 objects in memory, 2^21 and 2^31
  // values written out (20 levels took 2.5 s and 10 MB before the budget).
  for (const levels of [20, 30]) {
    let v = {};
    for (let i = 0; i < levels; i++) v = { a: v, b: v };
    const started = performance.now();
    const text = toText({ content_type: "tool_call", content: { name: "t", arguments: v } });
    const took = performance.now() - started;
    assert.ok(took < 1000, `${levels} levels: ${took} ms`);
    assert.ok(text.length < 1 << 20, `${levels} levels: ${text.length} characters`);
    assert.ok(text.startsWith('Tool call: t(%{"a" => %{"a" => %{') && text.endsWith("})"), text.slice(-20));
    assert.ok(text.includes(", ...}"), "cut short");
  }
  // A tree within the budget is written whole: 16,383 numbers and their list.
  const numbers = Array.from({ length: 16383 }, (_, i) => i);
  const whole = toText({ content_type: "tool_call", content: { name: "t", arguments: numbers } });
  assert.equal(whole, `Tool call: t([${numbers.join(", ")}])`);
});

test("the record functions are the same in CommonJS", () => {
  const cjs = require("chat-display");
  assert.equal(cjs.newDisplayMessage, newDisplayMessage);
  assert.equal(cjs.toText, toText);
});
