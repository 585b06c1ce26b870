// Serves the viewer (www/), the built browser package (pkg/web/ at /pkg/) and the element
// (pkg/element/ at /element/) on localhost, with a strict Content-Security-Policy.
// `node www/serve.mjs` prints the URL; tests import `startServer` and pass port 0.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The package as pages import it: the browser builds at /pkg/ (chat-display), /pkg-core/ and
 * /pkg-display/, the element at /element/ (the import maps of www/*.html, tests/element/*.html
 * and bench/element-bench.html name these). */
export const packageMounts = [
  ["/pkg/", join(root, "pkg", "web")],
  ["/pkg-core/", join(root, "pkg", "core", "web")],
  ["/pkg-display/", join(root, "pkg", "display", "web")],
  ["/element/", join(root, "pkg", "element")],
];
/** `packageMounts` with another build of the element (a bench's before and after). */
export const packageMountsWith = (elementDir) =>
  packageMounts.map(([at, path]) => [at, at === "/element/" ? elementDir : path]);
/** The viewer: www/ at the root, the package beside it. */
export const viewerMounts = [
  ...packageMounts,
  // The recorded provider streams, for the viewer's ?stream= replay.
  ["/streams/", join(root, "tests", "fixtures", "streams")],
  ["/", join(root, "www")],
];
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".sse": "text/event-stream; charset=utf-8",
};

/** The policy for a page: its inline import map is allowed by hash, nothing else inline. The
 * type's quotes are optional (Parcel's minified HTML writes `<script type=importmap>`). */
function policyFor(html) {
  const hashes = [...html.matchAll(/<script type=(?:"importmap"|'importmap'|importmap)>([\s\S]*?)<\/script>/g)]
    .map((m) => `'sha256-${createHash("sha256").update(m[1]).digest("base64")}'`);
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(" ")}`,
    "style-src 'self'",
    "img-src 'self' https: http: data: blob:",
    "connect-src 'self'",
    // The element's highlighter runs in a worker started from a Blob (js/element/highlight.js).
    "worker-src blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function resolve(mounts, urlPath) {
  for (const [prefix, dir] of mounts) {
    if (!urlPath.startsWith(prefix)) continue;
    let rel = decodeURIComponent(urlPath.slice(prefix.length));
    if (rel === "" || rel.endsWith("/")) rel += "index.html";
    const file = normalize(join(dir, rel));
    if (file !== dir && !file.startsWith(dir + sep)) return null;
    return file;
  }
  return null;
}

/**
 * Serves `mounts` ([url prefix, folder] pairs, first match wins) on `host:port` (port 0: any free
 * one). Resolves to `{server, url}`.
 */
export function startServer({ port = 8080, host = "127.0.0.1", mounts = viewerMounts } = {}) {
  const server = createServer(async (req, res) => {
    // A chat app's server: a stored conversation, a page at a time, and live updates
    // (www/conversations.mjs, loaded on first use).
    if (req.url.startsWith("/api/")) {
      const { handleApi } = await import("./conversations.mjs");
      try {
        if (handleApi(req, res, new URL(req.url, "http://localhost"))) return;
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error?.message ?? error));
        return;
      }
    }
    let file;
    try {
      file = resolve(mounts, new URL(req.url, "http://localhost").pathname);
    } catch {
      file = null;
    }
    if (!file || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(file ? 405 : 400).end();
      return;
    }
    try {
      const body = await readFile(file);
      const headers = {
        "content-type": types[extname(file)] ?? "application/octet-stream",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
      };
      if (extname(file) === ".html") headers["content-security-policy"] = policyFor(body.toString("utf8"));
      res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      ok({ server, url: `http://${host}:${actual}/` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let port = Number(process.env.PORT ?? 8080);
  for (let tries = 0; ; tries++) {
    try {
      const { url } = await startServer({ port });
      console.log(`chat-display viewer: ${url}`);
      console.log(`a conversation of 100,000 messages paged in from this server, with live updates: ${url}server.html`);
      break;
    } catch (error) {
      if (error.code !== "EADDRINUSE" || tries > 20) throw error;
      port += 1;
    }
  }
}
