// Shortens the names a wasm-bindgen module imports its JavaScript functions by, in the module and
// in its glue together: `node scripts/minify-imports.mjs DIR...`, each DIR holding
// chat_display_bg.wasm and the chat_display.js wasm-bindgen wrote beside it.
//
// wasm-bindgen names each import after its function and a 16-digit hash
// (`__wbg_set_d2d33b52458e984a`), under the module name "./chat_display_bg.js": 60 such names in
// the core, whose hashes gzip cannot compress. They become "a", "b", ... under module "a", and the
// module of the tape's JavaScript (src/wasm/tape.js; its own export names stay, as the glue passes
// its namespace) "b". The glue keys its import object by those names; each is replaced there, and
// a name that is not found exactly once as a key stops the build, so the two cannot drift apart.
// Running it again on a minified folder changes nothing.
//
// Worth its lines: it saved 1,213 bytes gzipped of the core (73,141 -> 71,928 when it came, on
// 2026-12-02; bench/SIZE.md), about 2% of the core's 64 KB budget.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const GLUE_MODULE = "./chat_display_bg.js";

function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function leb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const utf8 = new TextEncoder();
const name = (text) => [...leb(utf8.encode(text).length), ...utf8.encode(text)];

// The end of one import's description (after its kind byte), which is copied as it is.
function skipDescription(bytes, kind, at) {
  const skipLeb = (p) => readLeb(bytes, p)[1];
  const skipLimits = (p) => {
    const flags = bytes[p];
    p = skipLeb(p + 1);
    return flags & 1 ? skipLeb(p) : p;
  };
  const skipRefType = (p) => (bytes[p] === 0x63 || bytes[p] === 0x64 ? skipLeb(p + 1) : p + 1);
  switch (kind) {
    case 0: return skipLeb(at); // function: its type index
    case 1: return skipLimits(skipRefType(at)); // table
    case 2: return skipLimits(at); // memory
    case 3: return skipRefType(at) + 1; // global: its type, then mutability
    case 4: return skipLeb(at + 1); // tag
    default: throw new Error(`unknown import kind ${kind}`);
  }
}

// "a".."z", "A".."Z", then two letters: valid in any JavaScript object literal without quotes.
function shortName(i) {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  let out = "";
  do {
    out = letters[i % 52] + out;
    i = Math.floor(i / 52) - 1;
  } while (i >= 0);
  return out;
}

function minify(dir) {
  const wasmPath = join(dir, "chat_display_bg.wasm");
  const gluePath = join(dir, "chat_display.js");
  const bytes = readFileSync(wasmPath);
  let glue = readFileSync(gluePath, "utf8");

  let at = 8;
  let section = null;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = readLeb(bytes, at + 1);
    if (id === 2) {
      section = { start: at, body, end: body + size };
      break;
    }
    at = body + size;
  }
  if (!section) return;

  const decoder = new TextDecoder();
  const readName = (p) => {
    const [length, start] = readLeb(bytes, p);
    return [decoder.decode(bytes.subarray(start, start + length)), start + length];
  };
  const [count, first] = readLeb(bytes, section.body);
  const modules = new Map([[GLUE_MODULE, "a"]]);
  const renamed = [];
  const entries = [];
  let p = first;
  for (let i = 0; i < count; i++) {
    let module, field;
    [module, p] = readName(p);
    [field, p] = readName(p);
    const kind = bytes[p];
    const end = skipDescription(bytes, kind, p + 1);
    const description = bytes.subarray(p, end);
    p = end;
    if (!modules.has(module)) modules.set(module, shortName(modules.size));
    let newField = field;
    if (module === GLUE_MODULE) {
      newField = shortName(renamed.length);
      renamed.push([field, newField]);
    }
    entries.push([...name(modules.get(module)), ...name(newField), ...description]);
  }
  if (p !== section.end) throw new Error(`${wasmPath}: the import section did not parse`);
  if (renamed.length === 0) return; // already minified

  const replaceOnce = (pattern, replacement, what) => {
    const found = glue.match(new RegExp(pattern.source, pattern.flags + "g"));
    if (found?.length !== 1) {
      throw new Error(`${gluePath}: ${what} found ${found?.length ?? 0} times, not once`);
    }
    glue = glue.replace(pattern, replacement);
  };
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  for (const [field, short] of renamed) {
    replaceOnce(new RegExp(`(?<=^\\s*)${escape(field)}(?=: )`, "m"), short, `the import ${field}`);
  }
  for (const [module, short] of modules) {
    replaceOnce(new RegExp(`(?<=^\\s*)"${escape(module)}"(?=: import\\d+,$)`, "m"), `"${short}"`,
      `the import module ${module}`);
  }

  const content = [...leb(count), ...entries.flat()];
  const out = Buffer.concat([
    bytes.subarray(0, section.start),
    Buffer.from([2, ...leb(content.length), ...content]),
    bytes.subarray(section.end),
  ]);
  if (!WebAssembly.validate(out)) throw new Error(`${wasmPath}: not valid after renaming`);
  writeFileSync(wasmPath, out);
  writeFileSync(gluePath, glue);
}

for (const dir of process.argv.slice(2)) minify(dir);
