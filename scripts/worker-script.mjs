// An esbuild plugin: `import text from "./x.js?worker-script"` gives the text of x.js bundled with
// its imports into one minified classic script, for a Worker started from a Blob (the element's
// highlighter: js/element/highlight.js). The script is a string in the importing chunk, so an app's
// bundler has no worker file to find or copy.
import { build } from "esbuild";

export const workerScript = {
  name: "worker-script",
  setup(b) {
    b.onResolve({ filter: /\?worker-script$/ }, ({ path, resolveDir }) => ({
      path: new URL(path.replace(/\?worker-script$/, ""), `file://${resolveDir}/`).pathname,
      namespace: "worker-script",
    }));
    b.onLoad({ filter: /.*/, namespace: "worker-script" }, async ({ path }) => {
      const { outputFiles: [out], metafile } = await build({
        entryPoints: [path], bundle: true, write: false, metafile: true, format: "iife", platform: "browser",
        target: ["es2022"], minify: true, legalComments: "inline", logLevel: "warning",
      });
      return { contents: out.text, loader: "text", watchFiles: Object.keys(metafile.inputs) };
    });
  },
};
