// Writes the module's bytes as JavaScript, for the consumers that cannot load a .wasm file beside
// the glue (docs/ARCHITECTURE.md, "The package's entries"):
//
//   node scripts/inline-wasm.mjs node DIR   DIR/chat_display_bytes.js (CommonJS): the module,
//                                           gzipped, as base64; and the nodejs glue made to require
//                                           it instead of reading chat_display_bg.wasm beside
//                                           itself, which a server bundle (Next.js, esbuild or
//                                           webpack for Node) leaves behind. The .wasm goes, so
//                                           the tarball holds one .wasm per module (the web one).
//   node scripts/inline-wasm.mjs web DIR    DIR/chat_display_inline.js: the web glue's exports,
//                                           with an `init` that instantiates those bytes when given
//                                           nothing, for the bundlers that do not follow
//                                           `new URL("x.wasm", import.meta.url)` (esbuild, Rollup,
//                                           `bun build`).
//
// Gzipped then base64, the bytes gzip again to within 1% of the .wasm gzipped (143.9 KB against
// 142.7 KB for the whole module), so a bundle that inlines them costs a browser no more than the
// .wasm file would; base64 alone would be 191 KB. The nodejs glue also takes TextDecoder and
// TextEncoder from node:util, so that it loads where a test environment hides Node's globals
// (Jest's jsdom environment).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const [target, dir] = process.argv.slice(2);
const wasm = join(dir, "chat_display_bg.wasm");
// The web glue's inlined entry takes the bytes from the node folder beside it.
const bytesFrom = "../node/chat_display_bytes.js";

function replaceOnce(text, from, to, what) {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(`inline-wasm: ${what}: expected exactly one ${JSON.stringify(from)} in ${dir}`);
  }
  return text.replace(from, to);
}

if (target === "web") {
  writeFileSync(join(dir, "chat_display_inline.js"), `// chat_display.js for bundlers that do not copy chat_display_bg.wasm beside the bundle (esbuild,
// Rollup, \`bun build\`): init() with no argument instantiates the module from its bytes inlined
// in ../../node/chat_display_bytes.js, gzipped (scripts/inline-wasm.mjs).
import __wbg_init, { initSync as __wbg_initSync } from "./chat_display.js";
import gzippedBase64 from "${bytesFrom}";
export * from "./chat_display.js";

function gunzipped() {
  const text = atob(gzippedBase64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream, { headers: { "Content-Type": "application/wasm" } });
}

let started;
export default function init(options) {
  if (options !== undefined) return __wbg_init(options);
  started ??= __wbg_init({ module_or_path: gunzipped() });
  return started;
}

export function initSync(options) {
  if (options === undefined) {
    throw new Error("chat-display: initSync() needs the module ({ module }) in this build, whose inlined " +
      "bytes decompress asynchronously; call \`await init()\` instead");
  }
  return __wbg_initSync(options);
}
`);
} else if (target === "node") {
  writeFileSync(join(dir, "chat_display_bytes.js"), `// The module's bytes, gzipped, as base64 (scripts/inline-wasm.mjs): for chat_display.js and
// ../web/chat_display_inline.js.
"use strict";
module.exports = "${gzipSync(readFileSync(wasm), { level: 9 }).toString("base64")}";
`);
  const gluePath = join(dir, "chat_display.js");
  let glue = readFileSync(gluePath, "utf8");
  glue = replaceOnce(glue, "const wasmPath = `${__dirname}/chat_display_bg.wasm`;\n", "", "the module's path");
  glue = replaceOnce(glue, "require('fs').readFileSync(wasmPath)", "require('zlib').gunzipSync(Buffer.from(require('./chat_display_bytes.js'), 'base64'))", "the module's read");
  if (!/new TextDecoder\(/.test(glue)) throw new Error(`inline-wasm: no TextDecoder in ${gluePath}`);
  glue = glue.replaceAll("new TextDecoder(", "new (require('util').TextDecoder)(")
    .replaceAll("new TextEncoder(", "new (require('util').TextEncoder)(");
  writeFileSync(gluePath, glue);
  rmSync(wasm);
} else {
  throw new Error(`usage: node scripts/inline-wasm.mjs web|node DIR (got ${target})`);
}
