// The smaller entries, as users install them: `chat-display/core`, the module built without the
// provider wire formats and streams, and `chat-display/display`, the display functions alone.
// Each must be its own smaller module (its own .wasm, without the other code), offer exactly its
// exports of the main entry, give the main entry's result, or its error, on every fixture of the
// features it has, and survive bad input as the main entry does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import * as full from "chat-display";
import initCore, * as core from "chat-display/core";
import initDisplay, * as display from "chat-display/display";
import { runRecovery } from "./recovery.shared.mjs";
import { fixtures } from "../support/kit.mjs";

const require = createRequire(import.meta.url);
const names = (m) => Object.keys(m).filter((k) => k !== "default" && k !== "__esModule").sort();
const root = dirname(require.resolve("chat-display/package.json"));
const exportsOf = (path) => WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(root, path))))
  .map((e) => e.name);

const PROVIDER_EXPORTS = ["fromProvider", "detectProtocol", "toProvider", "StreamAccumulator"];
const DISPLAY_EXPORTS = ["extractDisplayItems", "toDisplayMessages", "isChatDisplayError", "toText"];
// Each entry: its module, its folder, and which of the main entry's exports it has.
const ENTRIES = [
  { entry: "chat-display/core", m: core, init: initCore, dir: "pkg/core", cjs: "js/core.cjs",
    has: (n) => !PROVIDER_EXPORTS.includes(n) },
  { entry: "chat-display/display", m: display, init: initDisplay, dir: "pkg/display", cjs: "js/display.cjs",
    has: (n) => DISPLAY_EXPORTS.includes(n) },
];
// The module's own export names of the main entry's exports (wasm-bindgen's: a function by its
// JavaScript name, a class's methods as `class_method`).
const wasmNames = {
  fromProvider: /^fromProvider$/, detectProtocol: /^detectProtocol$/, toProvider: /^toProvider$/,
  StreamAccumulator: /^streamaccumulator_/, Transcript: /^transcript_/,
};
const wasmName = (name) => wasmNames[name] ?? new RegExp(`^${name}$`);

for (const { entry, m, init, dir, cjs: cjsPath, has } of ENTRIES) {
  test(`${entry} has exactly its exports of the main entry, with init and initSync`, async () => {
    assert.deepEqual(names(m), names(full).filter((n) => n === "initSync" || has(n)));
    assert.ok(names(m).length < names(full).length);
    assert.equal(typeof init, "function");
    await init();
    const cjs = require(entry);
    assert.deepEqual(names(cjs), names(m));
    assert.equal(cjs.extractDisplayItems, m.extractDisplayItems);
    assert.notEqual(m.extractDisplayItems, full.extractDisplayItems);
    assert.equal(require.resolve(entry), join(root, cjsPath));
  });

  test(`${entry} runs its own module, built without the other exports' code`, () => {
    const fullExports = exportsOf("pkg/web/chat_display_bg.wasm");
    const own = exportsOf(`${dir}/web/chat_display_bg.wasm`);
    for (const name of names(full).filter((n) => n !== "initSync")) {
      const found = (list) => list.filter((e) => wasmName(name).test(e));
      assert.ok(found(fullExports).length >= 1, `${name} in the main module`);
      assert.equal(found(own).length >= 1, has(name), `${name} in ${dir}`);
    }
    assert.deepEqual(own.filter((n) => !fullExports.includes(n)), []);
    assert.ok(readFileSync(join(root, dir, "web/chat_display_bg.wasm")).length
      < readFileSync(join(root, "pkg/web/chat_display_bg.wasm")).length);
    // Node runs the same module, from its bytes inlined (scripts/inline-wasm.mjs).
    assert.deepEqual(gunzipSync(Buffer.from(require(join(root, dir, "node/chat_display_bytes.js")), "base64")),
      readFileSync(join(root, dir, "web/chat_display_bg.wasm")));
  });
}

test("the whole module for Node is another build of the browsers' module: the same exports, as many imports, its own bytes", async () => {
  const nodeBytes = gunzipSync(Buffer.from(require(join(root, "pkg/node/chat_display_bytes.js")), "base64"));
  const webBytes = readFileSync(join(root, "pkg/web/chat_display_bg.wasm"));
  const shape = (bytes) => {
    const m = new WebAssembly.Module(bytes);
    // Imports are named short by scripts/minify-imports.mjs, in each module's own order.
    return [WebAssembly.Module.exports(m).map((e) => `${e.kind} ${e.name}`).sort(), WebAssembly.Module.imports(m).length];
  };
  assert.deepEqual(shape(nodeBytes), shape(webBytes));
  assert.notDeepEqual(nodeBytes, webBytes);
  // The browsers' inlined bytes (for bundlers that do not copy the .wasm) are the browsers' module.
  const { default: inlined } = await import(join(root, "pkg/web/chat_display_bytes.js"));
  assert.deepEqual(gunzipSync(Buffer.from(inlined, "base64")), webBytes);
  assert.match(readFileSync(join(root, "pkg/web/chat_display_inline.js"), "utf8"), /from "\.\/chat_display_bytes\.js"/);
});

test("the display entry's module is smaller than the core's", () => {
  const size = (dir) => readFileSync(join(root, dir, "web/chat_display_bg.wasm")).length;
  assert.ok(size("pkg/display") < size("pkg/core"));
});

/** The result or the error of `f`, as data. */
function outcome(f) {
  try {
    return { value: JSON.stringify(f()) };
  } catch (e) {
    return { error: { name: e.name, code: e.code, path: e.path, message: e.message, ours: e.name === "ChatDisplayError" } };
  }
}

/** Every fixture case, as a call on one entry, with the export it needs. */
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
  const each = (name, list, run) => list.map((c) => [c.name, name, (m) => run(m, c)]);
  return [
    ...each("extractDisplayItems", fixtures("extract_display_items"), (m, c) => m.extractDisplayItems(c.message)),
    ...each("extractDisplayItems", fixtures("sycophant_display"), (m, c) => m.extractDisplayItems(c.message)),
    ...each("toDisplayMessages", fixtures("to_display_messages"), (m, c) => m.toDisplayMessages(c.messages, c.options)),
    ...each("toDisplayMessages", fixtures("sycophant_display_messages"), (m, c) => m.toDisplayMessages(c.messages, c.options)),
    ...each("toText", fixtures("to_text"), (m, c) => m.toText(c.record)),
    ...each("newDisplayMessage", fixtures("records"), record),
    ...each("expand", expandFixtures.expand, (m, c) => m.expand(c.fallbackContent, c.messages, c.options)),
    ...each("isExpandable", expandFixtures.isExpandable, (m, c) => m.isExpandable(c.toolResult)),
    ...each("expandToolResults", expandFixtures.expandToolResults, (m, c) => m.expandToolResults(c.input)),
    ...each("userMessage", fixtures("sycophant_constructors"), (m, c) => m[c.call](...c.args)),
    ...each("decodeSycophant", fixtures("sycophant_decode"), (m, c) => m.decodeSycophant(c.json)),
    ...each("Transcript", fixtures("transcript"), transcript),
  ];
}

for (const { entry, m, has } of ENTRIES) {
  test(`every fixture of ${entry}'s features gives the main entry's result, or its error`, () => {
    const all = cases().filter(([, name]) => has(name));
    assert.ok(all.length > 150, `${all.length} cases`);
    let errors = 0;
    for (const [name, , run] of all) {
      const expected = outcome(() => run(full));
      assert.deepEqual(outcome(() => run(m)), expected, name);
      if (expected.error) {
        assert.ok(expected.error.ours, `${name}: ${expected.error.message}`);
        errors += 1;
      }
    }
    // Both outcomes are compared: errors as well as results.
    assert.ok(errors > 10 && errors < all.length / 2, `${errors} errors`);
  });

  test(`${entry}'s exports survive every kind of bad input, and the next call works`, () => {
    const { failures, calls } = runRecovery(m, names(m).filter(has));
    assert.ok(calls > 100, `${calls} calls`);
    assert.deepEqual(failures, []);
  });
}
