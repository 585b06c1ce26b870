// Highlighting a long code block a piece at a time (js/element/highlighter.js, `highlightPiece`, what the page does where no worker can start) gives
// exactly the HTML that highlighting it whole gives, in every language the element bundles, over
// the repository's own files and generated blocks whose comments and strings span blank lines.
// Runs in Node on the chunk's source, bundled as scripts/build-element.mjs bundles it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const { outputFiles: [bundle] } = await build({
  entryPoints: [join(repo, "js/element/highlighter.js")], bundle: true, write: false, format: "esm",
  platform: "neutral", loader: { ".css": "text" }, logLevel: "warning",
});
const { highlight, highlightPiece, inGroups, GROUP_LINES, PIECE_LINES } = await import(`data:text/javascript;base64,${Buffer.from(bundle.text).toString("base64")}`);

/** `code` highlighted a piece at a time, and how many pieces it took. */
function inPieces(code, language) {
  let html = "";
  let pieces = 0;
  for (let start = 0; start < code.length || pieces === 0;) {
    const piece = highlightPiece(code, language, start);
    assert.ok(piece.end > start || code.length === 0, `${language}: a piece moves on`);
    html += piece.html;
    pieces++;
    start = piece.end;
    if (code.length === 0) break;
  }
  return { html, pieces };
}

const LANGUAGE_OF = { ".js": "javascript", ".mjs": "javascript", ".rs": "rust", ".sh": "bash", ".css": "css", ".md": "markdown",
  ".html": "xml", ".ts": "typescript", ".json": "json" };
function files(dir, out = []) {
  for (const name of readdirSync(join(repo, dir))) {
    const path = join(dir, name);
    if (statSync(join(repo, path)).isDirectory()) files(path, out);
    else if (LANGUAGE_OF[extname(name)] && statSync(join(repo, path)).size < 300_000) out.push(path);
  }
  return out;
}

/** Blocks in the bundled languages the repository has no files of, with blank lines inside and
 * between their comments, strings and blocks. */
function generated() {
  const unit = {
    python: (i) => `def step_${i}(x):\n    """Docs ${i}\n\n    spanning a blank line."""\n    return x * ${i}  # done\n\n\nclass K${i}:\n    pass\n`,
    go: (i) => `// Step ${i}\nfunc step${i}(x int) int {\n\t/* a comment\n\n\tover a blank line */\n\treturn x * ${i}\n}\n\n`,
    java: (i) => `public class S${i} {\n  /** Docs\n\n   * more. */\n  int f() { return ${i}; }\n}\n\n`,
    c: (i) => `#include <stdio.h>\n/* step\n\n${i} */\nint f${i}(void) { return printf("%d\\n", ${i}); }\n\n`,
    cpp: (i) => `template <typename T>\nT f${i}(T x) {\n  auto s = R"(raw\n\nstring)";\n  return x + ${i};\n}\n\n`,
    sql: (i) => `SELECT a, b FROM t${i}\nWHERE c = '${i}\n\nstill the string'\nORDER BY a;\n\n`,
    yaml: (i) => `step_${i}:\n  name: "s${i}"\n  text: |\n    line one\n\n    line two\n\n`,
    diff: (i) => `--- a/f${i}.txt\n+++ b/f${i}.txt\n@@ -1,3 +1,3 @@\n-old ${i}\n+new ${i}\n context\n\n`,
    shell: (i) => `$ echo ${i}\n${i}\n$ cat <<EOF\nline\n\nEOF\n\n`,
    typescript: (i) => `export function f${i}(\n  a: number,\n\n  b: string,\n): string {\n  return \`\${a}\n\n\${b}\`;\n}\n\n`,
  };
  return Object.entries(unit).map(([language, make]) => ({ name: `generated ${language}`, language, code: Array.from({ length: 40 }, (_, i) => make(i)).join("") }));
}

test("a long code block highlighted a piece at a time is highlighted exactly as it is whole", () => {
  const cases = [
    ...files("js").concat(files("src"), files("docs"), files("www"), files("scripts"), files("bench"))
      .map((path) => ({ name: path, language: LANGUAGE_OF[extname(path)], code: readFileSync(join(repo, path), "utf8") })),
    ...generated(),
  ];
  const seen = new Map();
  let split = 0;
  for (const { name, language, code } of cases) {
    const { html, pieces } = inPieces(code, language);
    assert.equal(html, highlight(code, language), `${name} (${language}) in ${pieces} pieces`);
    if (pieces > 1) split++;
    seen.set(language, (seen.get(language) ?? 0) + 1);
  }
  assert.ok(split >= 50, `pieces were made (${split} blocks split)`);
  assert.ok(seen.size >= 15, [...seen.keys()].join(" "));
});

test("pieces end before a blank line at the top level, at least PIECE_LINES lines on; a block without one is one piece", () => {
  const lines = (n, blankEvery) => Array.from({ length: n }, (_, i) => (blankEvery && i % blankEvery === blankEvery - 1 ? "" : `const v${i} = ${i};`)).join("\n");
  const code = lines(200, 10);
  const first = highlightPiece(code, "javascript", 0);
  const head = code.slice(0, first.end);
  assert.ok(head.split("\n").length - 1 >= PIECE_LINES, "at least PIECE_LINES lines");
  assert.equal(code[first.end], "\n", "ends before a blank line");
  // A comment open across the first blank lines: the piece ends at a later one, outside it.
  const commented = `/*\n${lines(60, 10)}\n*/\n${lines(100, 10)}`;
  const piece = highlightPiece(commented, "javascript", 0);
  assert.ok(piece.end > commented.indexOf("*/"), "not inside the comment");
  assert.equal(highlightPiece(lines(500, 0), "javascript", 0).end, lines(500, 0).length, "no blank line: whole");
  assert.equal(highlightPiece("x", "brainfuck", 0), null, "an unknown language");
});

test("a long block's HTML goes into groups of GROUP_LINES lines, cut only outside every span, its text unchanged", () => {
  const unescape = (html) => html.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
  const lines = (n) => Array.from({ length: n }, (_, i) => `const v${i} = "<${i}>"; // & ${i}`).join("\n");
  // A comment over lines 40 to 60 and 90 to 130: the groups that would end inside it run on.
  const code = `${lines(40)}\n/*\n${lines(20)}\n*/\n${lines(30)}\n/*\n${lines(40)}\n*/\n${lines(300)}\n`;
  const html = highlight(code, "javascript");
  const grouped = inGroups(html);
  const groups = [...grouped.matchAll(/<span class="code-lines">/g)].length;
  assert.ok(groups >= 7, `${groups} groups`);
  assert.equal(unescape(grouped), code, "the same text, in order");
  assert.equal(grouped.replace(/<span class="code-lines">/g, "").replace(/<\/span>/g, "").length, html.replace(/<\/span>/g, "").length, "nothing else added");
  // Each group is whole (its spans close inside it) and holds GROUP_LINES lines or more, but the last.
  const parts = [];
  let depth = 0, from = 0;
  for (const m of grouped.matchAll(/<span[^>]*>|<\/span>/g)) {
    if (m[0].startsWith("<span")) { if (depth === 0) from = m.index; depth++; } else if (--depth === 0) parts.push(grouped.slice(from, m.index + 7));
  }
  assert.equal(parts.length, groups, "groups side by side, each closed");
  parts.forEach((part, k) => {
    const n = unescape(part).split("\n").length - 1;
    if (k < parts.length - 1) assert.ok(n >= GROUP_LINES, `group ${k}: ${n} lines`);
  });
  assert.ok(parts.some((part) => unescape(part).split("\n").length - 1 > GROUP_LINES), "a group ran on past a comment");
  const short = highlight(lines(2 * GROUP_LINES - 2), "javascript");
  assert.equal(inGroups(short), short, "a block under two groups' lines as it is");
});
