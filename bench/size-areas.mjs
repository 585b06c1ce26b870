// Groups twiggy's items (`twiggy top -n 100000 --format csv`, on standard input) by area: the
// module of this crate an item is from, the exported functions' shims, and the libraries.
// Prints a Markdown table of shallow bytes (before gzip). Used by bench/size.sh.
import { readFileSync } from "node:fs";

const rows = readFileSync(0, "utf8").trim().split("\n").slice(1);
const areas = new Map();
let total = 0;
for (const row of rows) {
  // Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent (the name may be quoted)
  const match = /^("(?:[^"]|"")*"|[^,]*),(\d+),/.exec(row);
  if (!match) continue;
  const name = match[1].replace(/^"|"$/g, "").replace(/""/g, '"');
  const bytes = Number(match[2]);
  if (name.includes("function names")) continue; // kept only in the measuring copy
  let area;
  if (name.startsWith("data segment")) area = "data: error message texts, keys, constants";
  else if (name.includes(" shim")) area = "the exported functions' shims, with the core inlined into them";
  else if (/core::fmt|fmt::|as core::fmt/.test(name) || /escape_debug|pad_integral/.test(name)) area = "`core::fmt`: messages made with `format!`, and core's own panic paths";
  else if (/serde/.test(name)) area = "serde `Serialize` impls and glue";
  else if (/chat_display::(\w+)/.test(name)) area = `\`${/chat_display::(\w+)/.exec(name)[1]}.rs\``;
  else if (/talc/.test(name)) area = "allocator (talc)";
  else if (/wasm_bindgen|js_sys|externref|__wbindgen/.test(name)) area = "wasm-bindgen's runtime";
  else area = "other: `core` and `alloc` (iterators, strings, vectors)";
  areas.set(area, (areas.get(area) ?? 0) + bytes);
  total += bytes;
}
console.log("| area | bytes | share |\n|---|---:|---:|");
for (const [area, bytes] of [...areas].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${area} | ${bytes.toLocaleString("en-US")} | ${Math.round((100 * bytes) / total)}% |`);
}
console.log(`| all | ${total.toLocaleString("en-US")} | 100% |`);
