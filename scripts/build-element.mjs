// Bundles chat-display/element (js/element/) into pkg/element/index.js: one minified ES module
// holding the element, its CSS, marked, DOMPurify and @tanstack/virtual-core, so that a page with
// no bundler needs only an import map entry for "chat-display" (the element imports the package's
// main entry, which an app shares with it). Writes index.d.ts beside it and prints the size.
import { build, transform } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}pkg/element`;
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [`${root}js/element/index.js`],
  outfile: `${out}/index.js`,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  minify: true,
  legalComments: "eof",
  external: ["chat-display"],
  logLevel: "warning",
  plugins: [{
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
const bytes = readFileSync(`${out}/index.js`);
console.log(`built pkg/element/index.js: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
