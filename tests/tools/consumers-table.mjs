// Writes the table of README-npm.md's "Where it works" from tests/packaging/consumers.json, the
// rows that tests/packaging/consumers.test.mjs builds and runs; `--check` fails when the README
// is not what this would write (the test runs that).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const rows = JSON.parse(readFileSync(`${repo}tests/packaging/consumers.json`, "utf8"));
const start = "<!-- consumers: generated from tests/packaging/consumers.json by tests/tools/consumers-table.mjs -->\n";
const end = "<!-- /consumers -->";

export function table() {
  return ["| consumer | what to set up | what it loads |", "|---|---|---|",
    ...rows.map((r) => `| ${r.consumer} | ${r.setup} | ${r.loads} |`)].join("\n") + "\n";
}

export function withTable(readme) {
  const a = readme.indexOf(start), b = readme.indexOf(end);
  if (a < 0 || b < a) throw new Error("README-npm.md: no consumers table markers");
  return readme.slice(0, a + start.length) + table() + readme.slice(b);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = `${repo}README-npm.md`;
  const readme = readFileSync(path, "utf8");
  if (process.argv[2] === "--check") {
    if (withTable(readme) !== readme) {
      console.error("README-npm.md's table is not tests/packaging/consumers.json's: run node tests/tools/consumers-table.mjs");
      process.exit(1);
    }
  } else {
    writeFileSync(path, withTable(readme));
  }
}
