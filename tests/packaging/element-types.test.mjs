// chat-display/element's types in the three situations an app can be in, on the packed package:
// with React 19's types (@types/react), with Vue 3's (vue ships them), and with neither. The entry's
// .d.ts augments the modules "react" and "vue"; an app that has neither must still type-check it
// with --skipLibCheck false, and an app that has one must get <chat-transcript> typed.
//
// Each situation is a folder of the scratch project (PACKAGE_SCRATCH, where scripts/test.sh
// installed the tarball) with a node_modules of its own: a copy of the installed chat-display and
// links to the repository's react, react-dom and their @types, or to vue, or nothing. A copy, not a
// link: tsc resolves the augmented "react" from the real path of chat-display's .d.ts, as it does
// in an app's node_modules, so the framework's types must sit beside that copy. tsc (the
// repository's) runs with --strict --skipLibCheck false over:
// - neither: tests/ts/element.ts (the plain consumer), where no React or Vue file is in the program;
// - React: examples/react (its tsconfig.json) and tests/ts/react/ (react-jsx and classic JSX);
// - Vue: examples/vue (its tsconfig.json) and tests/ts/vue/.
// Their @ts-expect-error lines make misuse (renderers of a number, an action without id, an
// unknown theme, onCdAction in React) fail the run if it ever type-checks. Run alone (no
// PACKAGE_SCRATCH), the file packs pkg/ as it is built (`npm run build` first).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const tsc = join(repo, "node_modules/typescript/bin/tsc");
const strict = ["--noEmit", "--strict", "--skipLibCheck", "false"];
const consumer = [...strict, "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext"];

let scratch = process.env.PACKAGE_SCRATCH;
let ownScratch = null;

before(() => {
  if (scratch) return;
  scratch = ownScratch = mkdtempSync(join(tmpdir(), "chat-display-element-types-"));
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", scratch], { cwd: repo, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(join(scratch, "package.json"), '{"name": "scratch", "private": true, "type": "module"}');
  const tarball = readdirSync(scratch).find((f) => /^chat-display-.*\.tgz$/.test(f));
  execFileSync("npm", ["install", "--silent", "--no-audit", "--no-fund", `./${tarball}`], { cwd: scratch, stdio: "inherit" });
});
after(() => {
  if (ownScratch) rmSync(ownScratch, { recursive: true, force: true });
});

/** A folder `types-<name>` of the scratch project whose node_modules holds a copy of the installed
 * chat-display and links to `packages` of the repository's node_modules. */
function setup(name, packages) {
  const dir = join(scratch, `types-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), `{"name": "types-${name}", "private": true, "type": "module"}`);
  cpSync(join(scratch, "node_modules/chat-display"), join(dir, "node_modules/chat-display"), { recursive: true });
  for (const dependency of packages) {
    const link = join(dir, "node_modules", dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(repo, "node_modules", dependency), link, "dir");
  }
  return dir;
}

/** Copies `from` (relative to the repository) to `to` in `dir`, leaving out node_modules and dist. */
function copy(from, dir, to) {
  const source = join(repo, from);
  cpSync(source, join(dir, to), { recursive: true, filter: (path) => !/^(node_modules|dist)$/.test(relative(source, path).split(/[\\/]/)[0]) });
}

/** Runs tsc in `dir` with `args` and --listFiles; asserts no error and returns the program's files. */
function typecheck(dir, args) {
  const run = spawnSync(process.execPath, [tsc, ...args, "--listFiles"], { cwd: dir, encoding: "utf8" });
  const lines = run.stdout.split("\n").filter(Boolean);
  const errors = lines.filter((line) => !line.startsWith("/"));
  assert.equal(run.status, 0, `tsc ${args.join(" ")} in ${dir}:\n${errors.join("\n")}${run.stderr}`);
  return lines.filter((line) => line.startsWith("/"));
}

const isReact = (file) => /[\\/](react|react-dom|@types[\\/]react(-dom)?)[\\/]/.test(file);
const isVue = (file) => /[\\/](vue|@vue[\\/][^\\/]+)[\\/]/.test(file);
const isElement = (file) => /[\\/]chat-display[\\/]pkg[\\/]element[\\/]index\.d\.ts$/.test(file);

test("with neither React's nor Vue's types, the element's types check (tsc --strict --skipLibCheck false)", (t) => {
  const dir = setup("plain", []);
  copy("tests/ts/element.ts", dir, "element.ts");
  // Nothing of React's or Vue's resolves from here, and no @types folder is seen.
  const files = typecheck(dir, [...consumer, "element.ts"]);
  assert.ok(files.some(isElement), "chat-display/element's .d.ts is in the program");
  assert.deepEqual(files.filter((file) => isReact(file) || isVue(file) || /[\\/]@types[\\/]/.test(file)), [],
    "no React, Vue or @types file is in the program");
  t.diagnostic(`${files.length} files, none of React's or Vue's`);
});

test("with React 19's types, <chat-transcript> is typed in JSX: examples/react and tests/ts/react", (t) => {
  const dir = setup("react", ["react", "react-dom", "@types/react", "@types/react-dom"]);
  copy("examples/react", dir, "example");
  copy("tests/ts/react", dir, "consumer");
  const example = typecheck(dir, ["-p", "example", ...strict]);
  assert.ok(example.some(isElement) && example.some((file) => /@types[\\/]react[\\/]index\.d\.ts$/.test(file)),
    "the example's program has chat-display/element and @types/react");
  const tsx = readdirSync(join(dir, "consumer")).filter((f) => f.endsWith(".tsx")).map((f) => `consumer/${f}`);
  assert.ok(tsx.length >= 2);
  typecheck(dir, [...consumer, "--jsx", "react-jsx", ...tsx]);
  t.diagnostic(`examples/react (${example.length} files) and ${tsx.join(", ")}`);
});

test("with Vue 3's types, <chat-transcript> is a typed global component: examples/vue and tests/ts/vue", (t) => {
  const dir = setup("vue", ["vue"]);
  copy("examples/vue", dir, "example");
  copy("tests/ts/vue", dir, "consumer");
  const example = typecheck(dir, ["-p", "example", ...strict]);
  assert.ok(example.some(isElement) && example.some(isVue), "the example's program has chat-display/element and vue");
  assert.deepEqual(example.filter(isReact), [], "no React file in the Vue example's program");
  const ts = readdirSync(join(dir, "consumer")).filter((f) => f.endsWith(".ts")).map((f) => `consumer/${f}`);
  assert.ok(ts.length >= 1);
  typecheck(dir, [...consumer, ...ts]);
  t.diagnostic(`examples/vue (${example.length} files) and ${ts.join(", ")}`);
});
