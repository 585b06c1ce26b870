// The `chat-display/core` entry, as users install it: the module built without the provider wire
// formats and streams. It must be that smaller module (its own .wasm, without their code), offer
// every other export of the main entry, and give the main entry's result, or its error, on every
// fixture of the features it has.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as full from "chat-display";
import init, * as core from "chat-display/core";

const require = createRequire(import.meta.url);
const fixtures = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8"));
const PROVIDER_EXPORTS = ["fromProvider", "detectProtocol", "toProvider", "StreamAccumulator"];
const names = (m) => Object.keys(m).filter((k) => k !== "default" && k !== "__esModule").sort();
const root = dirname(require.resolve("chat-display/package.json"));

test("the core entry has every export of the main one but the provider readers and streams", async () => {
  assert.deepEqual(names(core), names(full).filter((n) => !PROVIDER_EXPORTS.includes(n)));
  for (const name of PROVIDER_EXPORTS) assert.equal(typeof full[name], "function", name);
  assert.equal(typeof init, "function");
  await init();
  const cjs = require("chat-display/core");
  assert.deepEqual(names(cjs), names(core));
  assert.equal(cjs.extractDisplayItems, core.extractDisplayItems);
  assert.notEqual(core.extractDisplayItems, full.extractDisplayItems);
});

test("the core entry runs its own module, built without the provider code", () => {
  assert.equal(require.resolve("chat-display/core"), join(root, "js/core.cjs"));
  const exportsOf = (path) => WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(root, path))))
    .map((e) => e.name);
  const fullExports = exportsOf("pkg/node/chat_display_bg.wasm");
  const coreExports = exportsOf("pkg/core/node/chat_display_bg.wasm");
  const provider = (n) => /^(fromProvider|detectProtocol|toProvider|streamaccumulator_)/i.test(n);
  assert.ok(fullExports.filter(provider).length >= 4, fullExports.join(" "));
  assert.deepEqual(coreExports.filter(provider), []);
  assert.deepEqual(coreExports.filter((n) => !fullExports.includes(n)), []);
  // The browser build of the core is the same module.
  assert.deepEqual(readFileSync(join(root, "pkg/core/web/chat_display_bg.wasm")),
    readFileSync(join(root, "pkg/core/node/chat_display_bg.wasm")));
});

/** The result or the error of `f`, as data. */
function outcome(f) {
  try {
    return { value: JSON.stringify(f()) };
  } catch (e) {
    return { error: { name: e.name, code: e.code, path: e.path, message: e.message, ours: e.name === "ChatDisplayError" } };
  }
}

/** Every fixture case of the core's features, as a call on one entry. */
function cases() {
  const expandFixtures = fixtures("expand");
  const record = (m, c) => {
    if (c.call === "new") return m.newDisplayMessage(c.conversation_id, c.attrs);
    if (c.call === "change") return m.changeDisplayMessage(c.record, c.attrs);
    return m.validateDisplayMessage(c.record);
  };
  const transcript = (m, c) => {
    const t = m.Transcript.fromJson(c.text);
    try {
      const out = { records: t.records(0, t.length), texts: c.texts?.map((_, i) => t.toText(i)) };
      out.found = (c.searches ?? []).map((s) => t.search(s.query, s.limit === undefined ? undefined : { limit: s.limit }));
      for (const message of c.append ?? []) t.append(message);
      out.after = t.records(0, t.length);
      return out;
    } finally {
      t.free();
    }
  };
  return [
    ...fixtures("extract_display_items").map((c) => [c.name, (m) => m.extractDisplayItems(c.message)]),
    ...fixtures("sycophant_display").map((c) => [c.name, (m) => m.extractDisplayItems(c.message)]),
    ...fixtures("to_display_messages").map((c) => [c.name, (m) => m.toDisplayMessages(c.messages, c.options)]),
    ...fixtures("sycophant_display_messages").map((c) => [c.name, (m) => m.toDisplayMessages(c.messages, c.options)]),
    ...fixtures("records").map((c) => [c.name, (m) => record(m, c)]),
    ...fixtures("to_text").map((c) => [c.name, (m) => m.toText(c.record)]),
    ...expandFixtures.expand.map((c) => [c.name, (m) => m.expand(c.fallbackContent, c.messages, c.options)]),
    ...expandFixtures.isExpandable.map((c) => [c.name, (m) => m.isExpandable(c.toolResult)]),
    ...expandFixtures.expandToolResults.map((c) => [c.name, (m) => m.expandToolResults(c.input)]),
    ...fixtures("sycophant_constructors").map((c) => [c.name, (m) => m[c.call](...c.args)]),
    ...fixtures("sycophant_decode").map((c) => [c.name, (m) => m.decodeSycophant(c.json)]),
    ...fixtures("transcript").map((c) => [c.name, (m) => transcript(m, c)]),
  ];
}

test("every fixture of the core's features gives the main entry's result, or its error", () => {
  const all = cases();
  assert.ok(all.length > 400, `${all.length} cases`);
  let errors = 0;
  for (const [name, run] of all) {
    const expected = outcome(() => run(full));
    assert.deepEqual(outcome(() => run(core)), expected, name);
    if (expected.error) {
      assert.ok(expected.error.ours, `${name}: ${expected.error.message}`);
      errors += 1;
    }
  }
  // Both outcomes are compared: errors as well as results.
  assert.ok(errors > 20 && errors < all.length / 2, `${errors} errors`);
});

test("the core's errors are its ChatDisplayErrors, and the module keeps working after each", () => {
  for (const input of [undefined, 1, { role: "function" }, { role: "user", content: [{}] }]) {
    assert.throws(() => core.extractDisplayItems(input),
      (e) => e instanceof Error && e.name === "ChatDisplayError" && e.path.startsWith("$") && core.isChatDisplayError(e));
    assert.equal(core.extractDisplayItems({ role: "user", content: "ok" }).length, 1);
  }
});
