// Tests of the package as users install it: scripts/test.sh packs the tarball, installs it in a
// scratch directory and runs this file there, so `chat-display` below is the installed package
// with its optimized .wasm.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import init, * as esm from "chat-display";
import { checkCase, fixtures } from "../support/kit.mjs";

const require = createRequire(import.meta.url);

test("the ESM import is ready to call and the default export resolves", async () => {
  assert.equal(typeof init, "function");
  await init();
  await init(); // idempotent
  assert.equal(typeof esm.initSync, "function");
  assert.deepEqual(esm.extractDisplayItems({ role: "user", content: "hi" }), [
    { type: "text", message_type: "user", content: { text: "hi" } },
  ]);
});

test("the entry exports docs/API.md's names, with init and initSync, and nothing else", () => {
  // The module's own start function, for one, is private: a `#[wasm_bindgen(start)]` is also
  // exported to JavaScript unless it is marked `private`.
  // `__esModule` is the CommonJS entry's mark for default-import interop (js/node.cjs).
  const names = Object.keys(esm).filter((k) => k !== "default" && k !== "__esModule").sort();
  assert.deepEqual(names, [
    "StreamAccumulator", "Transcript", "assistantMessage", "changeDisplayMessage", "decodeSycophant",
    "detectProtocol", "expand", "expandToolResults", "extractDisplayItems", "fromProvider", "initSync",
    "isChatDisplayError", "isExpandable", "newDisplayMessage", "systemMessage", "toDisplayMessages",
    "toProvider", "toText", "toolResultMessage", "userMessage", "validateDisplayMessage",
  ]);
});

test("require() gives the same ready instance as import", () => {
  const cjs = require("chat-display");
  const names = (m) => Object.keys(m).filter((k) => k !== "default" && k !== "__esModule").sort();
  assert.deepEqual(names(esm), names(cjs));
  assert.equal(cjs.extractDisplayItems, esm.extractDisplayItems);
  assert.equal(typeof cjs.default, "function");
});

test("seed 000 examples and every extraction rule (fixtures)", () => {
  const cases = fixtures("extract_display_items");
  assert.ok(cases.length > 40);
  for (const c of cases) checkCase(c, "items", () => esm.extractDisplayItems(c.message));
});

test("toDisplayMessages fixtures", () => {
  for (const c of fixtures("to_display_messages")) {
    checkCase(c, "records", () => "options" in c ? esm.toDisplayMessages(c.messages, c.options) : esm.toDisplayMessages(c.messages));
  }
});

test("toDisplayMessages records pass the DisplayMessage shape: every key, in the template's order", () => {
  const [conversation] = fixtures("to_display_messages");
  const records = esm.toDisplayMessages(conversation.messages, { conversation_id: "c-1" });
  for (const record of records) {
    assert.deepEqual(Object.keys(record), [
      "conversation_id", "message_type", "content_type", "content", "sequence", "status", "tool_call_id", "metadata",
    ]);
    assert.equal(record.conversation_id, "c-1");
    assert.equal(Object.getPrototypeOf(record), Object.prototype);
  }
});

test("errors are ChatDisplayErrors and the module keeps working after each", () => {
  const bad = [undefined, null, 1, "x", [], {}, { role: null }, { role: "function" }, { role: "user", content: 42 },
    { role: "assistant", tool_calls: "x" }, { role: "assistant", tool_calls: [1] }, { role: "user", content: [{}] }];
  for (const input of bad) {
    assert.throws(() => esm.extractDisplayItems(input), (e) => e instanceof Error && e.name === "ChatDisplayError"
      && typeof e.code === "string" && e.path.startsWith("$") && esm.isChatDisplayError(e));
    assert.equal(esm.extractDisplayItems({ role: "user", content: "ok" }).length, 1);
  }
  assert.throws(() => esm.toDisplayMessages(5), { name: "ChatDisplayError", code: "invalid_input", path: "$.messages" });
  assert.equal(esm.isChatDisplayError(new Error("x")), false);
});

test("a long conversation converts (no limit on message count)", () => {
  const messages = [];
  for (let i = 0; i < 5000; i++) {
    messages.push({ role: "assistant", content: `step ${i}`, tool_calls: [{ call_id: `c${i}`, name: "t", arguments: { i } }] });
    messages.push({ role: "tool", tool_results: [{ tool_call_id: `c${i}`, name: "t", content: "ok", is_error: i % 2 === 0 }] });
  }
  const records = esm.toDisplayMessages(messages);
  assert.equal(records.length, 15000);
  assert.equal(records[1].status, "failed");
  assert.equal(records[4].status, "completed");
});

test("the tarball holds only what a user needs", () => {
  const root = join(require.resolve("chat-display/package.json"), "..");
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path.slice(root.length + 1));
    }
  };
  walk(root);
  // The tape's JavaScript (src/wasm/tape.js), in a folder wasm-bindgen names by a hash.
  const snippet = /^pkg\/((?:core\/|display\/)?(?:node|web))\/snippets\/chat-display-[0-9a-f]{16}\/src\/wasm\/tape\.js$/;
  assert.deepEqual(files.filter((f) => f.includes("/snippets/")).map((f) => snippet.exec(f)?.[1]).sort(),
    ["core/node", "core/web", "display/node", "display/web", "node", "web"]);
  // One .wasm per module, the web one; node/ has its bytes gzipped as base64 (chat_display_bytes.js),
  // which web/chat_display_inline.js shares (scripts/inline-wasm.mjs), but for the whole module,
  // whose Node build is another (built for speed) and whose web/ has its own.
  const moduleFiles = (dir) => [
    `${dir}/node/chat_display.d.ts`, `${dir}/node/chat_display.js`, `${dir}/node/chat_display_bytes.js`, `${dir}/node/package.json`,
    `${dir}/web/chat_display.d.ts`, `${dir}/web/chat_display.js`, `${dir}/web/chat_display_bg.wasm`, `${dir}/web/chat_display_inline.js`, `${dir}/web/index.js`,
    `${dir}/web/package.json`,
  ];
  const entryFiles = (name) => [`js/${name}.cjs`, `js/${name}.mjs`, `js/${name}.d.cts`, `js/${name}.d.mts`];
  // The element's chunks, fetched on first need (the highlighter's worker script, the highlighter
  // for a page where no worker starts, the typesetter, the reader of `load`, the streaming part, and what esbuild shares between them), are named by a hash.
  const chunk = /^pkg\/element\/(highlight|highlighter|math|input|stream|chunk)-[A-Z0-9]{8}\.js$/;
  assert.deepEqual(files.filter((f) => chunk.test(f)).map((f) => chunk.exec(f)[1]).sort(), ["chunk", "highlight", "highlighter", "input", "math", "stream"]);
  assert.deepEqual(files.filter((f) => !f.includes("/snippets/") && !chunk.test(f)).sort(), [
    "LICENSE-APACHE", "LICENSE-MIT", "README.md", "package.json", "js/ready.cjs",
    // The subpaths for resolvers that do not read `exports` (Parcel by default, TypeScript's node10).
    "core/package.json", "display/package.json", "element/package.json",
    ...entryFiles("node"), ...moduleFiles("pkg"), "pkg/web/chat_display_bytes.js",
    // The `chat-display/core` and `chat-display/display` entries' modules (tests/js/entries.test.mjs).
    ...entryFiles("core"), ...moduleFiles("pkg/core"),
    ...entryFiles("display"), ...moduleFiles("pkg/display"),
    // The `chat-display/element` entry: its bundled ES module and its types (tests/element/), and
    // what `require` of it gives, the server stand-in and its types.
    "pkg/element/index.d.ts", "pkg/element/index.js", "js/element.cjs", "js/element.d.cts",
  ].sort());
  assert.equal(files.filter((f) => f.endsWith(".wasm")).length, 3);
});

test("every shipped module imports its JavaScript by short names, as its glue provides them", async () => {
  const root = join(require.resolve("chat-display/package.json"), "..");
  for (const dir of ["pkg/web", "pkg/core/web", "pkg/display/web"]) {
    const module = new WebAssembly.Module(readFileSync(join(root, dir, "chat_display_bg.wasm")));
    const imports = WebAssembly.Module.imports(module);
    assert.ok(imports.length > 10, dir);
    // scripts/minify-imports.mjs: wasm-bindgen's "./chat_display_bg.js" and hashed function names
    // become "a" and one or two letters; the module of src/wasm/tape.js "b", its names kept.
    assert.deepEqual([...new Set(imports.map((i) => i.module))].sort(), ["a", "b"], dir);
    for (const { module: from, name } of imports) {
      if (from === "a") assert.match(name, /^[a-zA-Z]{1,2}$/, dir);
      else assert.match(name, /^cd[A-Z]\w+$/, dir);
    }
  }
  // The Node glue instantiates on require: its import object has every name the module asks for.
  for (const entry of ["chat-display", "chat-display/core", "chat-display/display"]) {
    const m = require(entry);
    assert.equal(m.toText({ message_type: "user", content_type: "text", content: { text: "x" } }), "x");
  }
});
