// The wire formats, read from their one list, the registry (src/registry.rs): one row per format,
// `Variant = "name" => module::Type,` with ` (streams)` before the comma when it has a stream.
// The scripts that run every format (tests/tools/diff-builds.mjs, bench/scaling.mjs, fuzz/run.sh)
// take the names from here; tests/registry.rs checks that this reading of the rows gives the
// registry's own list.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROW = /^\s*[A-Z]\w* = "([a-z0-9_]+)" => \w+::\w+( \(streams\))?,\s*$/gm;

/** `[{ name, streams }]` in the registry's order. `root` is the repository's directory. */
export function formats(root = fileURLToPath(new URL("../..", import.meta.url))) {
  const text = readFileSync(`${root}/src/registry.rs`, "utf8");
  return [...text.matchAll(ROW)].map((m) => ({ name: m[1], streams: Boolean(m[2]) }));
}

// `node tests/tools/formats.mjs [--streams]` prints the names, one a line.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const streams = process.argv.includes("--streams");
  for (const f of formats()) if (!streams || f.streams) console.log(f.name);
}
