// Bundles chat-display/element (js/element/) into pkg/element/index.js: one minified ES module
// holding the element, its CSS, marked, DOMPurify and @tanstack/virtual-core (and, in chunks beside
// it that it imports on first need: highlight.js (its worker's script as a string, and the same
// highlighter for the page where no worker can start), Temml, remend with the streaming code, and the
// reader of `load`). The package's wasm modules stay imports ("chat-display/display",
// "chat-display/core", "chat-display"), loaded by need (js/element/modules.js) and shared with an
// app that imports them too; a page with no bundler maps them in its import map (only
// "chat-display" is required). Writes index.d.ts beside it and prints the size.
import { build, transform } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { basename } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { workerScript } from "./worker-script.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}pkg/element`;
mkdirSync(out, { recursive: true });
// The parts loaded on first need (js/element/highlight.js, math.js, stream.js, input.js) are
// chunks of their own, fetched from beside index.js by its dynamic imports.
for (const file of readdirSync(out)) if (file.endsWith(".js") && file !== "index.js") rmSync(`${out}/${file}`);
const result = await build({
  entryPoints: [`${root}js/element/index.js`],
  outdir: out,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  splitting: true,
  metafile: true,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  minify: true,
  legalComments: "eof",
  external: ["chat-display", "chat-display/core", "chat-display/display"],
  logLevel: "warning",
  plugins: [workerScript, {
    // The stylesheet, minified, as the text of its import (the element adopts it as a sheet).
    name: "css-text",
    setup(b) {
      b.onLoad({ filter: /\.css$/ }, async ({ path }) => {
        const { code } = await transform(readFileSync(path, "utf8"), { loader: "css", minify: true, target: ["chrome123", "firefox120", "safari17.5"] });
        return { contents: code, loader: "text" };
      });
    },
  }],
});
copyFileSync(`${root}js/element/index.d.ts`, `${out}/index.d.ts`);
for (const path of Object.keys(result.metafile.outputs).filter((p) => p.endsWith(".js")).sort()) {
  const bytes = readFileSync(path);
  console.log(`built pkg/element/${basename(path)}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
}
