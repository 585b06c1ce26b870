// Every ```js example of the README, run as users would paste it: scripts/test.sh installs the
// packed tarball in a scratch directory and runs this file there, so the README read here is the
// one inside the installed package and `import ... from "chat-display"` in an example is that
// package. Each block runs as an ES module of its own and must not throw.
//
// A comment `// → value` after an expression statement (on its line or on the next lines) is the
// output the README promises: `value` is a JavaScript expression, compared with the statement's
// value by deep strict equality. After a declaration (`const x = f(); // → v`) it is compared
// with `x`. Every such comment must run at least once (one inside a `catch`, for instance).
// Browser-only examples are ```html blocks; tests/element/readme.test.mjs runs those.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const readme = readFileSync(join(dirname(require.resolve("chat-display/package.json")), "README.md"), "utf8");
const here = dirname(fileURLToPath(import.meta.url));
// The tarball's README is README-npm.md (scripts/pack-readme.mjs); scripts/test.sh copies both
// READMEs to ../readmes/, so that the repository's examples run too.
const readmes = join(here, "../readmes");
const others = existsSync(readmes) ? readdirSync(readmes).sort()
  .map((file) => ({ file, text: readFileSync(join(readmes, file), "utf8") }))
  .filter(({ text }) => text !== readme) : [];

/** The fenced blocks of `markdown` in `language`, each with the README line it starts on and the
 * heading it is under. */
export function blocks(markdown, language) {
  const found = [];
  for (const m of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (m[1] !== language) continue;
    const before = markdown.slice(0, m.index);
    const heading = [...before.matchAll(/^#+ (.*)$/gm)].pop()?.[1] ?? "";
    found.push({ code: m[2], line: before.split("\n").length + 1, heading });
  }
  return found;
}

/**
 * Scans `text` for brackets outside strings and comments: the depth it ends at (opening minus
 * closing brackets) and where a trailing `//` comment starts (or -1).
 */
function scan(text) {
  let depth = 0, quote = null, comment = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      else if (c === "\n" && quote !== "`") quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      if (end < 0) { comment = i; break; }
      i = end;
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
  }
  return { depth, comment };
}

const ARROW = "// → ";

/**
 * Turns every `// → value` comment of `code` into a check of the statement before it. Returns the
 * rewritten code and the checks' README lines.
 */
export function withChecks(code, firstLine) {
  const lines = code.split("\n");
  const out = [];
  const checks = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    const at = line.indexOf(ARROW);
    const inline = at > 0 && line.slice(0, at).trim() !== "" && scan(line.slice(0, at)).comment < 0;
    const standalone = !inline && line.trim().startsWith(ARROW.trim());
    if (!inline && !standalone) {
      out.push(line);
      continue;
    }
    // The expected value: the rest of this comment, and the next comment lines while its brackets
    // are open.
    let value = line.slice(line.indexOf(ARROW) + ARROW.length);
    while (scan(value).depth > 0 && i + 1 < lines.length && /^\s*\/\//.test(lines[i + 1])) {
      value += "\n" + lines[++i].replace(/^\s*\/\/ ?/, "");
    }
    // The statement: this line's code (inline), or the lines before this comment back to where
    // their brackets balance (standalone), without a trailing comment.
    let statement, indent;
    if (inline) {
      statement = line.slice(0, at);
      indent = /^\s*/.exec(line)[0];
    } else {
      let start = out.length - 1;
      while (start > 0 && scan(out.slice(start).join("\n")).depth !== 0) start--;
      statement = out.splice(start).join("\n");
      const comment = scan(statement).comment;
      if (comment >= 0) statement = statement.slice(0, comment);
      indent = /^\s*/.exec(statement)[0];
    }
    statement = statement.trim().replace(/;$/, "");
    const readmeLine = firstLine + i;
    const id = checks.push(readmeLine) - 1;
    const declared = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(statement);
    const check = declared
      ? `${statement}; __expect(${id}, () => ${declared[1]}, () => (${value}));`
      : `__expect(${id}, () => (${statement}), () => (${value}));`;
    out.push(indent + check);
  }
  return { code: out.join("\n"), checks };
}

const examples = [...blocks(readme, "js"),
  ...others.flatMap(({ file, text }) => blocks(text, "js").map((b) => ({ ...b, heading: `${file}: ${b.heading}` })))];

test("the installed package's README has its JavaScript examples", () => {
  assert.ok(blocks(readme, "js").length >= 1, "the installed README's own");
  assert.ok(examples.length >= 8, `${examples.length} js blocks`);
  assert.ok(blocks(readme, "html").length >= 1, "and browser examples as html blocks");
});

let n = 0;
for (const { code, line, heading } of examples) {
  test(`README example "${heading}" (line ${line}) runs as pasted`, async () => {
    const { code: checked, checks } = withChecks(code, line);
    const ran = new Set();
    globalThis.__readmeExpect = (id, actual, expected) => {
      ran.add(id);
      assert.deepStrictEqual(actual(), expected(), `README line ${checks[id]}`);
    };
    // A file beside this one, so that "chat-display" resolves to the installed package.
    const file = join(here, `.readme-example-${process.pid}-${n++}.mjs`);
    writeFileSync(file, `const __expect = globalThis.__readmeExpect;\n${checked}\n`);
    try {
      await import(pathToFileURL(file).href);
    } finally {
      rmSync(file, { force: true });
      delete globalThis.__readmeExpect;
    }
    const skipped = checks.filter((_, id) => !ran.has(id));
    assert.deepEqual(skipped, [], "every `// →` output of the example was checked (README lines)");
  });
}
