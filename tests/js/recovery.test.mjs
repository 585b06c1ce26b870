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
