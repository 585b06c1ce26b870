// Tool-result expansion through the installed package (scripts/test.sh runs this from a scratch
// directory where the packed tarball is installed, with tests/fixtures copied next to it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { expand, expandToolResults, isExpandable, isChatDisplayError, toDisplayMessages } from "chat-display";
import { checkCase, fixtures as readFixtures } from "../support/kit.mjs";

const fixtures = readFixtures("expand");
const check = (c, outputKey, run) => checkCase(c, outputKey, run, { recognizes: isChatDisplayError });

const require = createRequire(import.meta.url);

test("the three functions are exported from ESM and CommonJS alike", () => {
  const cjs = require("chat-display");
  for (const name of ["expand", "isExpandable", "expandToolResults"]) {
    assert.equal(typeof cjs[name], "function", name);
  }
  assert.equal(cjs.expandToolResults, expandToolResults);
});

test("expand fixtures (seed 001 examples and every rule of docs/API.md, expand)", () => {
  assert.ok(fixtures.expand.length > 30);
  for (const c of fixtures.expand) {
    check(c, "result", () => "options" in c ? expand(c.fallbackContent, c.messages, c.options) : expand(c.fallbackContent, c.messages));
  }
});

test("isExpandable fixtures", () => {
  for (const c of fixtures.isExpandable) check(c, "expandable", () => isExpandable(c.toolResult));
});

/** True when the chain's last message is a tool message with an expandable result (an expansion
 * can insert one: inserted messages are kept as they are). */
const endsInAnExpansion = (chain) => {
  const last = Array.isArray(chain) ? chain.at(-1) : chain?.last_message;
  return last?.role === "tool" && Array.isArray(last.tool_results) && last.tool_results.some((r) => {
    try {
      return isExpandable(r);
    } catch {
      return false;
    }
  });
};

test("expandToolResults fixtures, each idempotent unless what it inserted holds an expansion", () => {
  assert.ok(fixtures.expandToolResults.length > 40);
  let again = 0;
  for (const c of fixtures.expandToolResults) {
    const once = check(c, "output", () => expandToolResults(c.input));
    if (once === undefined) continue;
    const twice = JSON.stringify(expandToolResults(once));
    if (endsInAnExpansion(once)) {
      assert.notEqual(twice, JSON.stringify(once), c.name);
      again++;
    } else {
      assert.equal(twice, JSON.stringify(once), c.name);
    }
  }
  assert.ok(again >= 1);
});

test("an expanded conversation displays the trimmed result, then the inserted messages", () => {
  const cases = fixtures.expandToolResults.filter((c) => c.records);
  assert.ok(cases.length >= 3);
  for (const c of cases) {
    const out = expandToolResults(c.input);
    const messages = Array.isArray(out) ? out : out.messages;
    assert.equal(JSON.stringify(toDisplayMessages(messages)), JSON.stringify(c.records), c.name);
  }
});

test("a tool's whole round trip: expand, fill the call identity, apply, display", () => {
  const records = "idempotent: applying twice equals applying once";
  const result = expand(`glossary: 1 record\n\n${records}`, [
    { role: "assistant", content: records },
    { role: "user", content: "Use the records above to answer my question about glossary." },
  ], { result_content: "glossary: 1 record" });
  assert.equal(isExpandable(result), true);
  const chain = {
    llm: { model: "claude" },
    messages: [
      { role: "user", content: "What is idempotent?" },
      { role: "assistant", tool_calls: [{ call_id: "c1", name: "load_reference", arguments: { name: "glossary" } }] },
      { role: "tool", tool_results: [{ ...result, tool_call_id: "c1", name: "load_reference" }] },
    ],
  };
  const out = expandToolResults(chain);
  assert.deepEqual(Object.keys(out), ["messages", "exchanged_messages", "last_message", "needs_response", "llm"]);
  assert.equal(out.llm, chain.llm);
  assert.equal(out.needs_response, true);
  assert.equal(out.last_message, result.message_expansion.messages[1]);
  assert.equal(isExpandable(out.messages[2].tool_results[0]), false);
  assert.equal(chain.messages[2].tool_results[0].message_expansion.messages.length, 2, "input untouched");
  const shown = toDisplayMessages(out.messages, { conversation_id: "conv" }).map((r) => [r.message_type, r.content_type, r.status,
    r.content.text ?? r.content.content ?? r.content.name]);
  assert.deepEqual(shown, [
    ["user", "text", "completed", "What is idempotent?"],
    ["assistant", "tool_call", "completed", "load_reference"],
    ["tool", "tool_result", "completed", "glossary: 1 record"],
    ["assistant", "text", "completed", records],
    ["user", "text", "completed", "Use the records above to answer my question about glossary."],
  ]);
});

test("result_content: absent or undefined gives the default, null is kept", () => {
  const messages = [{ role: "user", content: "go" }];
  const sentence = "The requested content has been added to the conversation.";
  assert.equal(expand("x", messages).message_expansion.result_content, sentence);
  assert.equal(expand("x", messages, undefined).message_expansion.result_content, sentence);
  assert.equal(expand("x", messages, { result_content: undefined }).message_expansion.result_content, sentence);
  assert.equal(expand("x", messages, { result_content: null }).message_expansion.result_content, null);
  assert.equal(expand("x", messages).message_expansion.messages, messages, "the very same list");
});

test("bad input throws ChatDisplayErrors and the module keeps working", () => {
  const ok = () => assert.equal(expandToolResults([{ role: "user" }]).length, 1);
  const cases = [
    [() => expand("x", "just text"), "invalid_expansion", "$.messages"],
    [() => expand("x", []), "empty_expansion", "$.messages"],
    [() => expand("x", [{ content: "no role" }]), "invalid_expansion", "$.messages[0]"],
    [() => expand("x", [{ role: "system" }]), "invalid_expansion_role", "$.messages[0].role"],
    [() => expand(null, [{ role: "user" }]), "invalid_input", "$.fallbackContent"],
    [() => isExpandable(42), "invalid_input", "$"],
    [() => expandToolResults("x"), "invalid_input", "$"],
    [() => expandToolResults({ messages: "x" }), "invalid_input", "$.messages"],
    [() => expandToolResults([{ content: "no role" }]), "invalid_input", "$[0].role"],
    [() => expandToolResults([{ role: "tool", tool_results: ["x"] }]), "invalid_input", "$[0].tool_results[0]"],
  ];
  for (const [run, code, path] of cases) {
    assert.throws(run, (e) => e instanceof Error && e.name === "ChatDisplayError" && e.code === code && e.path === path,
      `${code} at ${path}`);
    ok();
  }
});

test("an error message shows a received number as Kernel.inspect does, and NaN and Infinity by name", () => {
  const floats = readFixtures("floats");
  const shown = (value) => {
    try {
      expand("x", value);
    } catch (error) {
      return /received: (.*)\.$/.exec(error.message)?.[1];
    }
    assert.fail(`expand("x", ${value}) did not throw`);
  };
  // JavaScript numbers: a whole float within 2^53 is an integer here, as JSON.parse gives it.
  for (const c of floats) assert.equal(shown(c.value), c.js ?? c.inspect, `${c.value}`);
  assert.equal(shown(NaN), "NaN");
  assert.equal(shown(-Infinity), "-Infinity");
});

test("an error message naming objects shared at every level is bounded and made at once", () => {
  // `v = {a: v, b: v}` 20 levels deep is 21 objects but 2^21 values written out: the message took
  // 10 s and 20 MB before the work budget (src/elixir.rs), and 30 levels never ended.
  for (const levels of [20, 30]) {
    let v = {};
    for (let i = 0; i < levels; i++) v = { a: v, b: v };
    const started = performance.now();
    let error;
    try {
      expand("x", [{ role: v }]);
    } catch (e) {
      error = e;
    }
    const took = performance.now() - started;
    assert.ok(isChatDisplayError(error), `${levels} levels: throws`);
    assert.equal(error.code, "invalid_expansion_role");
    assert.equal(error.path, "$.messages[0].role");
    assert.ok(took < 1000, `${levels} levels: ${took} ms`);
    assert.ok(error.message.length < 1 << 20, `${levels} levels: ${error.message.length} characters`);
    assert.ok(error.message.startsWith('Cannot expand into a message with role %{"a" => %{"a" => %{'), error.message.slice(0, 80));
    assert.ok(error.message.endsWith("} at $.messages[0].role; supported roles: [:user, :assistant]."), error.message.slice(-80));
    assert.ok(error.message.includes(", ...}"), "cut short");
  }
});

test("a 100,000-deep tool message is compared without overflowing", () => {
  let v = "bottom";
  for (let i = 0; i < 100000; i++) v = [v];
  const tool = { role: "tool", tool_results: [{ processed_content: v, message_expansion: { messages: [{ role: "user", content: "go" }] } }] };
  const out = expandToolResults({ messages: [tool] });
  assert.equal(out.messages.length, 2);
  assert.equal(out.messages[0].tool_results[0].processed_content, v);
});
