// Sycophant messages through the installed package (scripts/test.sh runs this from a scratch
// directory where the packed tarball is installed, with tests/fixtures copied next to it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "chat-display";
import { checkCase, fixtures } from "../support/kit.mjs";

const require = createRequire(import.meta.url);
const { userMessage, assistantMessage, systemMessage, toolResultMessage, decodeSycophant, extractDisplayItems, toDisplayMessages } = esm;

const constructors = { userMessage, assistantMessage, systemMessage, toolResultMessage };

test("the Sycophant exports are the same functions through import and require", () => {
  const cjs = require("chat-display");
  for (const name of ["userMessage", "assistantMessage", "systemMessage", "toolResultMessage", "decodeSycophant"]) {
    assert.equal(typeof esm[name], "function", name);
    assert.equal(cjs[name], esm[name], name);
  }
});

test("seed 003 examples and the constructor rules (fixtures)", () => {
  const cases = fixtures("sycophant_constructors");
  assert.ok(cases.length > 40);
  for (const c of cases) checkCase(c, "message", () => constructors[c.call](...c.args));
});

test("decodeSycophant (fixtures)", () => {
  const cases = fixtures("sycophant_decode");
  assert.ok(cases.length > 40);
  for (const c of cases) checkCase(c, "decoded", () => decodeSycophant(c.json));
});

test("display items and records from Sycophant messages (fixtures)", () => {
  for (const c of fixtures("sycophant_display")) checkCase(c, "items", () => extractDisplayItems(c.message));
  for (const c of fixtures("sycophant_display_messages")) {
    checkCase(c, "records", () => "options" in c ? toDisplayMessages(c.messages, c.options) : toDisplayMessages(c.messages));
  }
});

test("encode, decode, encode is a fixed point, also through JSON text", () => {
  const built = fixtures("sycophant_constructors").filter((c) => !c.error).map((c) => constructors[c.call](...c.args));
  const decoded = fixtures("sycophant_decode").filter((c) => !c.error).map((c) => c.decoded);
  for (const canonical of [...built, ...decoded]) {
    const text = JSON.stringify(canonical);
    const again = decodeSycophant(JSON.parse(text));
    assert.equal(JSON.stringify(again), text);
    assert.equal(JSON.stringify(decodeSycophant(again)), text);
  }
});

test("a conversation built with the constructors displays with statuses", () => {
  const call = { id: "call_123", name: "get_weather", arguments: { city: "Paris" } };
  const conversation = [
    systemMessage("You are helpful."),
    userMessage("Weather in Paris?"),
    { ...assistantMessage([{ type: "thinking", summary: "Use the tool." }]), tool_calls: [{ __type__: "ToolCall", ...call }] },
    toolResultMessage(call, "72F and sunny"),
  ];
  const records = toDisplayMessages(conversation, { conversation_id: "c-1" });
  assert.deepEqual(records.map((r) => [r.message_type, r.content_type, r.status, r.tool_call_id]), [
    ["system", "text", "completed", null],
    ["user", "text", "completed", null],
    ["assistant", "thinking", "completed", null],
    ["assistant", "tool_call", "completed", "call_123"],
    ["tool", "tool_result", "completed", "call_123"],
  ]);
  assert.deepEqual(records[4].content, {
    tool_call_id: "call_123", name: "get_weather", content: "72F and sunny", is_error: false, is_interrupt: false,
  });
  assert.equal(records[3].content.arguments, call.arguments, "the very same arguments object");
});

test("inputs are not mutated and outputs are fresh plain objects", () => {
  const parts = [{ type: "text", text: "hi", citations: [] }, { type: "document" }];
  const before = JSON.stringify(parts);
  const message = userMessage(parts);
  assert.equal(JSON.stringify(parts), before);
  assert.notEqual(message.content[0], parts[0]);
  assert.equal(Object.getPrototypeOf(message), Object.prototype);
  assert.deepEqual(Object.keys(message.content[1]), ["__type__", "type", "citations"]);
});

test("bad input throws ChatDisplayErrors and the module keeps working", () => {
  const bad = [
    [() => extractDisplayItems({ __type__: "Message", role: "user", content: [{ __type__: "Bogus" }] }), "unknown_type", "$.content[0].__type__"],
    [() => extractDisplayItems({ __type__: "Message", role: "tool", content: "x" }), "unsupported_role", "$.role"],
    [() => extractDisplayItems({ __type__: "Message", role: "assistant", tool_calls: "x" }), "invalid_input", "$.tool_calls"],
    [() => toDisplayMessages([{ role: "user", content: "a" }, { __type__: "Message", role: "tool" }]), "unsupported_role", "$.messages[1].role"],
    [() => decodeSycophant({}), "missing_type", "$.__type__"],
    [() => decodeSycophant({ __type__: "Bogus" }), "unknown_type", "$.__type__"],
    [() => decodeSycophant(undefined), "invalid_input", "$"],
    [() => userMessage(5), "invalid_input", "$"],
    [() => toolResultMessage(null, "x"), "invalid_input", "$.toolCall"],
  ];
  for (const [run, code, path] of bad) {
    assert.throws(run, (e) => e instanceof Error && e.name === "ChatDisplayError" && e.code === code && e.path === path
      && e.message.includes(path) && esm.isChatDisplayError(e));
    assert.equal(userMessage("ok").content, "ok");
  }
  assert.throws(() => decodeSycophant({ __type__: "Bogus" }), { message: /unknown serializable type: "Bogus"/ });
  assert.throws(() => decodeSycophant({ role: "user" }), { message: /missing __type__ key in serialized data/ });
});
