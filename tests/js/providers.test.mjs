// The provider wire-format fixtures (tests/fixtures/providers_*.json) through the installed
// package: fromProvider message by message, toDisplayMessages of the result, detectProtocol, and
// toProvider, each compared as JSON text, plus the round trip fromProvider(p, toProvider(p, m)).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { detectProtocol, fromProvider, isChatDisplayError, toDisplayMessages, toProvider } from "chat-display";
import { recordLines } from "../support/kit.mjs";

const require = createRequire(import.meta.url);
const dir = new URL("../fixtures/", import.meta.url);
const files = readdirSync(dir)
  .filter((name) => name.startsWith("providers_") && name.endsWith(".json"))
  .map((name) => JSON.parse(readFileSync(new URL(name, dir), "utf8")));

// Formats whose only error signal is text (`"error_flag": false` in their file): their round
// trip cannot keep `is_error`.
const flagless = (protocol) => files.some((f) => f.protocol === protocol && f.error_flag === false);

// One line per display record, as tests/providers.rs `display` writes them.
const display = (messages, round = false, flagless = false) => recordLines(toDisplayMessages(messages), round, flagless);

function expectError(c, run) {
  assert.throws(run, (e) => {
    assert.ok(e instanceof Error && isChatDisplayError(e), c.name);
    assert.deepEqual({ code: e.code, path: e.path }, c.error, c.name);
    assert.ok(e.message.includes(e.path), `${c.name}: message names the path`);
    return true;
  });
}

function roundTrip(name, protocol, messages) {
  const noFlag = flagless(protocol);
  const request = toProvider(protocol, messages);
  const back = fromProvider(protocol, JSON.parse(JSON.stringify(request)));
  assert.deepEqual(display(back, true, noFlag), display(messages, true, noFlag), `${name}: round trip through ${JSON.stringify(request)}`);
}

test("every format has its fixture file", () => {
  assert.ok(files.length >= 1);
  for (const file of files) assert.ok(file.from.length >= 9, file.protocol);
});

for (const file of files) {
  test(`${file.protocol}: fromProvider, toDisplayMessages and detectProtocol fixtures`, () => {
    for (const c of file.from) {
      assert.equal(detectProtocol(c.payload), c.detect, `${c.name}: detectProtocol`);
      if (c.error) {
        expectError(c, () => fromProvider(file.protocol, c.payload));
        continue;
      }
      const before = JSON.stringify(c.payload);
      const messages = fromProvider(file.protocol, c.payload);
      assert.equal(JSON.stringify(c.payload), before, `${c.name}: the payload is not mutated`);
      c.messages.forEach((m, i) => assert.equal(JSON.stringify(messages[i]), JSON.stringify(m), `${c.name}: message ${i}`));
      assert.equal(JSON.stringify(messages), JSON.stringify(c.messages), c.name);
      assert.deepEqual(display(messages), c.display, `${c.name}: toDisplayMessages`);
      if (!("round_trip" in c)) roundTrip(c.name, file.protocol, messages);
    }
  });

  test(`${file.protocol}: toProvider fixtures and round trips`, () => {
    for (const c of file.to) {
      if (c.error) {
        expectError(c, () => toProvider(file.protocol, c.messages));
        continue;
      }
      assert.equal(JSON.stringify(toProvider(file.protocol, c.messages)), JSON.stringify(c.request), c.name);
      if (!("round_trip" in c)) roundTrip(c.name, file.protocol, c.messages);
    }
  });
}

test("the CommonJS entry has the provider functions too", () => {
  const cjs = require("chat-display");
  assert.equal(cjs.fromProvider, fromProvider);
  assert.equal(cjs.detectProtocol, detectProtocol);
  assert.equal(cjs.toProvider, toProvider);
});

test("an unknown protocol throws unsupported_protocol at $.protocol; the module keeps working", () => {
  for (const protocol of ["openai", "", null, undefined, 7, {}]) {
    assert.throws(() => fromProvider(protocol, []), { name: "ChatDisplayError", code: "unsupported_protocol", path: "$.protocol" });
    assert.throws(() => toProvider(protocol, []), { name: "ChatDisplayError", code: "unsupported_protocol", path: "$.protocol" });
  }
  assert.deepEqual(fromProvider("anthropic_messages", []), []);
});

test("hostile payloads give errors, never a crash", () => {
  let deep = ["x"];
  for (let i = 0; i < 100000; i++) deep = [deep];
  const getter = { get role() { throw new Error("hostile"); } };
  const noKeys = new Proxy({}, { ownKeys() { throw new Error("trap"); } });
  for (const file of files) {
    for (const payload of [deep, { messages: deep }, [getter], new Proxy({}, { get() { throw new Error("trap"); } })]) {
      assert.throws(() => fromProvider(file.protocol, payload), { name: "ChatDisplayError" });
      detectProtocol(payload);
    }
    // A block whose keys cannot be listed: an error, or (Gemini) a part kept as it is; never the
    // trap's own exception.
    try {
      fromProvider(file.protocol, [{ role: "user", content: [noKeys], parts: [noKeys] }]);
    } catch (error) {
      assert.equal(error.name, "ChatDisplayError", `${file.protocol}: ${error.message}`);
    }
  }
  // A function result whose response cannot be listed is still read (as {}).
  const [tool] = fromProvider("google_gemini", [{ parts: [{ functionResponse: { name: "f", response: noKeys } }] }]);
  assert.equal(tool.tool_results[0].content, "{}");
  assert.deepEqual(fromProvider("anthropic_messages", []), []);
});
