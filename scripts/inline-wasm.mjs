// Writes the module's bytes as JavaScript, for the consumers that cannot load a .wasm file beside
// the glue (docs/ARCHITECTURE.md, "The package's entries"):
//
//   node scripts/inline-wasm.mjs node DIR   DIR/chat_display_bytes.js (CommonJS): the module,
//                                           gzipped, as base64; and the nodejs glue made to require
//                                           it instead of reading chat_display_bg.wasm beside
//                                           itself, which a server bundle (Next.js, esbuild or
//                                           webpack for Node) leaves behind. The .wasm goes, so
//                                           the tarball holds one .wasm per module (the web one).
//   node scripts/inline-wasm.mjs web DIR [--own-bytes]
//                                           DIR/index.js, the browsers' entry: the web glue
//                                           (DIR/chat_display.js) whose `init` instantiates the
//                                           .wasm where a bundler copied it, and else those bytes
//                                           (DIR/chat_display_inline.js, imported only then), for
//                                           the bundlers that do not follow
//                                           `new URL("x.wasm", import.meta.url)` (esbuild, Rollup,
//                                           `bun build`). The bytes are the Node folder's, the same
//                                           module, unless --own-bytes: then DIR/chat_display_bytes.js
//                                           (an ES module), for a module whose Node build is
//                                           another (the whole one, built for speed in Node).
//
// Gzipped then base64, the bytes gzip again to within 1% of the .wasm gzipped (143.9 KB against
// 142.7 KB for the whole module), so a bundle that inlines them costs a browser no more than the
// .wasm file would; base64 alone would be 191 KB. The nodejs glue also takes TextDecoder and
// TextEncoder from node:util, so that it loads where a test environment hides Node's globals
// (Jest's jsdom environment).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const [target, dir, option] = process.argv.slice(2);
const usage = "usage: node scripts/inline-wasm.mjs web DIR [--own-bytes] | node DIR";
if (option !== undefined && (target !== "web" || option !== "--own-bytes")) throw new Error(`${usage} (got ${option})`);
const wasm = join(dir, "chat_display_bg.wasm");
// The module's bytes, gzipped, as base64.
const gzippedBase64 = () => gzipSync(readFileSync(wasm), { level: 9 }).toString("base64");
// The web glue's inlined entry takes the bytes from the node folder beside it, or its own.
const ownBytes = option === "--own-bytes";
const bytesFrom = ownBytes ? "./chat_display_bytes.js" : "../node/chat_display_bytes.js";

function replaceOnce(text, from, to, what) {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(`inline-wasm: ${what}: expected exactly one ${JSON.stringify(from)} in ${dir}`);
  }
  return text.replace(from, to);
}

if (target === "web") {
  // The browsers' entry: the web glue itself, with its init() taking the inlined bytes only where
  // no bundler rewrote the module's URL. In place rather than a wrapper that re-exports the glue,
  // which webpack pays for with a namespace object (docs/ARCHITECTURE.md, "The package's entries").
  const glue = readFileSync(join(dir, "chat_display.js"), "utf8");
  const url = "        module_or_path = new URL('chat_display_bg.wasm', import.meta.url);\n";
  // After the glue's leading `@ts-self-types` comment, which Deno reads there.
  const [, first = "", rest] = /^(\/\*[^\n]*\*\/\n)?([\s\S]*)$/.exec(glue);
  writeFileSync(join(dir, "index.js"), `${first}// The browsers' entry (scripts/inline-wasm.mjs): chat_display.js, whose init() with no argument
// instantiates chat_display_bg.wasm when a bundler rewrote its \`new URL\` to the file it copied
// (Vite, webpack, Parcel, Next.js) or when this file runs unbundled beside it, and else (esbuild,
// Rollup, \`bun build\`, which leave the URL pointing beside their bundle) the same module inlined
// in ./chat_display_inline.js, imported only then. Vite and webpack define import.meta.env, so
// they fold the test below to false and drop the import with it; webpackIgnore keeps Turbopack
// (Next.js) from making a chunk of it.
${replaceOnce(rest, url, `${url}        if (typeof import.meta.env !== 'object') {
            const base = import.meta.url, wasm = 'chat_display_bg.wasm';
            if (module_or_path.href === new URL(wasm, base).href && !/\\/web\\/index\\.js(?:[?#].*)?$/.test(base)) {
                module_or_path = (await import(/* webpackIgnore: true */ './chat_display_inline.js')).default();
            }
        }
`, "the module's URL")}`);
  writeFileSync(join(dir, "chat_display_inline.js"), `// The module's bytes for ./index.js where no bundler copied the .wasm (scripts/inline-wasm.mjs):
// ${bytesFrom}, gzipped, as a Response that instantiateStreaming takes.
import gzippedBase64 from "${bytesFrom}";

export default function gunzipped() {
  const text = atob(gzippedBase64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream, { headers: { "Content-Type": "application/wasm" } });
}
`);
  if (ownBytes) {
    writeFileSync(join(dir, "chat_display_bytes.js"), `// The module's bytes, gzipped, as base64 (scripts/inline-wasm.mjs): for ./chat_display_inline.js.
export default "${gzippedBase64()}";
`);
  }
} else if (target === "node") {
  writeFileSync(join(dir, "chat_display_bytes.js"), `// The module's bytes, gzipped, as base64 (scripts/inline-wasm.mjs): for chat_display.js, and for
// ../web/chat_display_inline.js where the browsers' module is the same build.
"use strict";
module.exports = "${gzippedBase64()}";
`);
  const gluePath = join(dir, "chat_display.js");
  let glue = readFileSync(gluePath, "utf8");
  glue = replaceOnce(glue, "const wasmPath = `${__dirname}/chat_display_bg.wasm`;\n", "", "the module's path");
  glue = replaceOnce(glue, "require('fs').readFileSync(wasmPath)", "__cd_builtin('zlib').gunzipSync(Buffer.from(require('./chat_display_bytes.js'), 'base64'))", "the module's read");
  // wasm-bindgen requires the tape's snippet by a String.raw template, which bundlers take for a
  // dynamic require (esbuild: "Dynamic require ... is not supported"); its path has no backslash.
  glue = glue.replace(/require\(String\.raw`([^`\\]*)`\)/g, (_, path) => `require(${JSON.stringify(path)})`);
  if (!/new TextDecoder\(/.test(glue)) throw new Error(`inline-wasm: no TextDecoder in ${gluePath}`);
  glue = glue.replaceAll("new TextDecoder(", "new (typeof TextDecoder === 'function' ? TextDecoder : __cd_builtin('util').TextDecoder)(")
    .replaceAll("new TextEncoder(", "new (typeof TextEncoder === 'function' ? TextEncoder : __cd_builtin('util').TextEncoder)(");
  // Node's modules through process.getBuiltinModule where there is one (Node 20.16+, Bun, Deno):
  // an ES module bundle of this CommonJS file (esbuild --platform=node --format=esm) cannot
  // require them. Each name is a literal, so that a bundler that follows require sees it.
  // After the glue's leading `@ts-self-types` comment, which Deno reads there.
  glue = glue.replace(/^(\/\*[^\n]*\*\/\n)?/, (first) => `${first}const __cd_builtin = (name) =>
  typeof process === 'object' && typeof process.getBuiltinModule === 'function'
    ? process.getBuiltinModule(name) : name === 'zlib' ? require('zlib') : require('util');
`);
  writeFileSync(gluePath, glue);
  rmSync(wasm);
} else {
  throw new Error(`${usage} (got ${target})`);
}
