// Recovery in Node, against the installed package (the same checks run in Chromium from tests/packaging).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "chat-display";
import { badValues, runRecovery } from "./recovery.shared.mjs";

test("every export survives every kind of bad input, and the next call works", () => {
  assert.ok(badValues().length >= 40);
  const { failures, calls } = runRecovery(api);
  assert.ok(calls > 500, `${calls} calls`);
  assert.deepEqual(failures, []);
});

test("moved values come back as themselves: 100,000-deep, __proto__ keys, lone surrogates", async () => {
  const { runPassThrough } = await import("./recovery.shared.mjs");
  assert.deepEqual(runPassThrough(api), []);
});

test("an array too long to read in place (2^25 elements, sparse) is an error, not a trap", () => {
  const big = [];
  big.length = 2 ** 25;
  big[3] = { type: "text", content: "x" };
  const calls = {
    extractDisplayItems: () => api.extractDisplayItems({ role: "user", content: big }),
    toDisplayMessages: () => api.toDisplayMessages([{ role: "user", content: big }]),
    expandToolResults: () => api.expandToolResults(big),
    decodeSycophant: () => api.decodeSycophant({ __type__: "Message", role: "user", content: big }),
    fromProvider: () => api.fromProvider("openai_completions", { messages: big }),
    userMessage: () => api.userMessage(big),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, (e) => api.isChatDisplayError(e) && e.code === "invalid_input" && /non-JSON value/.test(e.message), name);
    assert.deepEqual(api.extractDisplayItems({ role: "user", content: "next" }).map((i) => i.content.text), ["next"], name);
  }
  // Moved, it comes back as itself.
  const [record] = api.toDisplayMessages([{ role: "assistant", tool_calls: [{ call_id: "c", name: "n", arguments: big }] }]);
  assert.equal(record.content.arguments, big);
});
