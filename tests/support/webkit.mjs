// WebKit: Debian's WebKitGTK MiniBrowser, driven over W3C WebDriver (classic) by WebKitWebDriver
// (webkit2gtk-driver), in an Xvfb display this process starts once. Playwright drives only its own
// patched WebKit, which cannot be downloaded on these machines; this file gives the browser tests
// the part of playwright-core's page API they use (as tests/support/firefox.mjs does for Firefox),
// with plain HTTP requests to the driver's port. BROWSER=webkit selects it (tests/support/browser.mjs).
//
// WebDriver classic has commands, not events: no console, page errors, requests or init scripts.
// WebKitWebDriver 2.50 refuses the `webSocketUrl` capability (no WebDriver BiDi), and runs one
// session at a time. So each open page is a session of its own (a WebKitWebDriver and a MiniBrowser
// of its own, 0.4 to 2 s to start; a closed page's is reused by the next, on about:blank, its
// session storage and cookies cleared), whose traffic goes through a proxy of its own in this
// process (MiniBrowser's --proxy; https through it too, by a certificate made here, with
// --ignore-tls-errors):
//  - requests and responses are seen there, exactly, with their page (page.on("request"),
//    "response", "requestfailed"); route() answers them there, for any host;
//  - every HTML document the page loads gets one same-origin <script src> at the top of its head
//    (it removes itself): it runs the page's addInitScript functions before the page's own
//    scripts, as Playwright does, and records console.* calls, uncaught errors, unhandled
//    rejections and CSP violations (as WebKit words them in its console), which reach
//    page.on("console") / ("pageerror") with the next command to the page. The browser's own
//    console lines other than CSP's (e.g. "Failed to load resource") are not seen: in automation
//    mode MiniBrowser does not write them out. A page whose CSP refuses same-origin scripts cannot
//    be watched this way; goto() says so instead of going on unwatched.
//  - dialogs: the driver dismisses them ("dismiss and notify") and reports each with the next
//    command, which page.on("dialog") then gets (already dismissed).
// A dark system is a MiniBrowser started with --dark-mode (launchWebKit({ colorScheme: "dark" }));
// a page's scheme cannot change while it is open (no emulateMedia). Clipboard access is granted to
// every page at launch (--javascript-can-access-clipboard; grantPermissions cannot add it later).
// Playwright's CSS selectors reach into open shadow roots; so do the selectors here (a descendant
// or child combinator crosses from a shadow root to its host). Values cross as Playwright's do
// (undefined, NaN, -0, Dates, Maps, one object reached twice), as JSON text both ways: WebKit's
// WebDriver does not keep an object's key order.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer as netServer } from "node:net";
import { TLSSocket } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** WebKitGTK's MiniBrowser (webkit2gtk-driver's dependency), or $WEBKIT_MINIBROWSER. */
function miniBrowser() {
  if (process.env.WEBKIT_MINIBROWSER) return process.env.WEBKIT_MINIBROWSER;
  for (const dir of readdirSync("/usr/lib")) {
    const path = join("/usr/lib", dir, "webkit2gtk-4.1/MiniBrowser");
    if (existsSync(path)) return path;
  }
  throw new Error("WebKitGTK's MiniBrowser not found (apt-get install webkit2gtk-driver; scripts/setup.sh does)");
}

/** Playwright's default viewport. */
const VIEWPORT = { width: 1280, height: 720 };
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
const INIT_PATH = "/__chat-display-webkit-init.js";

// ---------------------------------------------------------------------------------------------
// Processes: one Xvfb per process, WebKitWebDriver processes (one session each) kept for reuse.

const children = new Set();
process.on("exit", () => { for (const child of children) child.kill("SIGKILL"); });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => { for (const child of children) child.kill("SIGKILL"); process.exit(128 + (signal === "SIGINT" ? 2 : 15)); });
}
function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

let xvfb = null;
let users = 0;
/** The display of this process's Xvfb, started on first use (Xvfb picks a free display itself). */
function display() {
  xvfb ??= new Promise((resolve, reject) => {
    const child = track(spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "2560x1600x24", "-nolisten", "tcp"],
      { stdio: ["ignore", "ignore", "pipe", "pipe"] }));
    let err = "", out = "";
    child.stderr.on("data", (d) => { err += d; });
    child.stdio[3].on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve({ child, display: `:${out.trim()}` });
    });
    child.once("exit", (code) => reject(new Error(`Xvfb exited (${code}): ${err.slice(-500)}`)));
    child.once("error", reject);
  });
  return xvfb;
}
function releaseDisplay() {
  if (--users > 0 || !xvfb) return;
  const pending = xvfb;
  xvfb = null;
  pending.then(({ child }) => child.kill(), () => {});
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = netServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** MiniBrowser's environment: a profile of this process's own (XDG folders in a scratch folder,
 * removed at exit), no accessibility bus to wait for, WebKitGTK's older way of putting frames on
 * screen (the page draws the same; only the copying to the X window differs), and a GTK style
 * that lets its window's
 * toolbar shrink (its buttons and address field would keep the window, and so the viewport, at
 * 447 px or wider; the tests need 390). The page's own rendering does not use GTK's style. */
let profile;
function browserEnv(DISPLAY) {
  if (!profile) {
    profile = mkdtempSync(join(tmpdir(), "chat-display-webkit-"));
    process.on("exit", () => rmSync(profile, { recursive: true, force: true }));
    mkdirSync(join(profile, "config/gtk-3.0"), { recursive: true });
    writeFileSync(join(profile, "config/gtk-3.0/gtk.css"), "toolbar, toolbar *, headerbar, headerbar *, entry, button " +
      "{ min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 1px; -gtk-icon-transform: scale(0.01); }\n");
  }
  return {
    ...process.env, DISPLAY, NO_AT_BRIDGE: "1", GTK_A11Y: "none",
    // Frames with new content take 200 ms on the DMA-BUF renderer under Xvfb, 35-55 ms without it.
    WEBKIT_DISABLE_DMABUF_RENDERER: "1",
    XDG_CONFIG_HOME: join(profile, "config"), XDG_CACHE_HOME: join(profile, "cache"), XDG_DATA_HOME: join(profile, "data"),
  };
}

async function startDriver() {
  const { display: DISPLAY } = await display();
  const port = await freePort();
  // No accessibility bus to wait for under Xvfb.
  const child = track(spawn("WebKitWebDriver", [`--port=${port}`], { env: browserEnv(DISPLAY), stdio: ["ignore", "ignore", "pipe"] }));
  let err = "";
  child.stderr.on("data", (d) => { err = (err + d).slice(-2000); });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}): ${err}`);
    try {
      const status = await driverRequest(base, "GET", "/status");
      if (status.value?.ready !== undefined) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer on ${base}: ${err}`);
    await sleep(50);
  }
  return { child, base };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request to a WebKitWebDriver, its JSON answer. node:http, not fetch: a script may run for
 * minutes, and fetch gives up after five without an answer. */
function driverRequest(base, method, path, body) {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, {
      method,
      headers: data ? { "content-type": "application/json; charset=utf-8", "content-length": data.length } : {},
    }, async (res) => {
      const chunks = [];
      try {
        for await (const chunk of res) chunks.push(chunk);
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(new Error(`WebKitWebDriver ${method} ${path}: ${error.message}`));
      }
    });
    req.on("error", reject);
    req.end(data);
  });
}

/** A self-signed certificate for the proxy's https (MiniBrowser runs with --ignore-tls-errors). */
let certificate;
function tlsIdentity() {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), "chat-display-webkit-tls-"));
  try {
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "2", "-subj", "/CN=chat-display WebKit test proxy"],
    { stdio: "ignore" });
    certificate = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return certificate;
}

// ---------------------------------------------------------------------------------------------
// In the page. These functions are sent as source with every script (the pages' CSP refuses eval;
// WebDriver's own script compilation is not subject to it).

/** Runs first in every HTML document of a page (the proxy puts it in): the page's watch. */
function prelude(init) {
  const KEY = Symbol.for("chat-display.webkit");
  const state = { events: [], doc: `${Date.now()}-${Math.random()}` };
  Object.defineProperty(window, KEY, { value: state });
  const own = document.currentScript;
  const text = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return String(v);
    try { return typeof v === "object" && v !== null ? JSON.stringify(v) ?? String(v) : String(v); } catch { return String(v); }
  };
  const where = () => {
    const line = (new Error().stack ?? "").split("\n").slice(2).find((l) => !l.includes(own?.src ?? "\u0000")) ?? "";
    const m = /@?(\w+:[^\s]*?):(\d+):(\d+)$/.exec(line);
    return m ? { url: m[1], lineNumber: Number(m[2]) - 1, columnNumber: Number(m[3]) - 1 } : { url: "", lineNumber: 0, columnNumber: 0 };
  };
  for (const [method, type] of [["log", "log"], ["debug", "debug"], ["info", "info"], ["error", "error"], ["warn", "warning"], ["trace", "trace"], ["assert", "assert"]]) {
    const original = console[method];
    console[method] = function (...args) {
      if (method === "assert") {
        if (args[0]) return original.apply(this, args);
        args = ["Assertion failed:", ...args.slice(1)];
      }
      state.events.push({ kind: "console", type, text: args.map(text).join(" "), location: where() });
      return original.apply(this, method === "assert" ? [false, ...args.slice(1)] : args);
    };
  }
  const failure = (error, fallback) => ({
    name: error?.name ?? "Error",
    message: error instanceof Error ? error.message : error === undefined ? fallback : text(error),
    stack: error?.stack ?? "",
  });
  addEventListener("error", (e) => {
    if (e instanceof ErrorEvent) state.events.push({ kind: "pageerror", ...failure(e.error, e.message) });
  });
  addEventListener("unhandledrejection", (e) => state.events.push({ kind: "pageerror", ...failure(e.reason, "undefined") }));
  document.addEventListener("securitypolicyviolation", (e) => state.events.push({
    kind: "console", type: "error", location: { url: e.sourceFile ?? "", lineNumber: e.lineNumber, columnNumber: e.columnNumber },
    text: `Refused to load ${e.blockedURI} because it does not appear in the ${e.violatedDirective} directive of the Content Security Policy.`,
  }));
  own?.remove();
  for (const run of init) {
    try { run(); } catch (error) { state.events.push({ kind: "pageerror", ...failure(error) }); }
  }
}

/** The helpers every script gets: values across the wire, shadow-piercing selectors, text. */
function helpers() {
  const KEY = Symbol.for("chat-display.webkit");
  const TAG = "__cdwk";
  // Values, as Playwright passes them: undefined, NaN, ±Infinity, -0, BigInt, Date, RegExp, URL,
  // Error, Map, Set, typed arrays, and one object reached twice (or in a cycle) as one object.
  function encode(value, seen = new Map()) {
    if (value === undefined) return { [TAG]: "undefined" };
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") {
      if (Number.isNaN(value)) return { [TAG]: "NaN" };
      if (value === Infinity) return { [TAG]: "Infinity" };
      if (value === -Infinity) return { [TAG]: "-Infinity" };
      if (Object.is(value, -0)) return { [TAG]: "-0" };
      return value;
    }
    if (typeof value === "bigint") return { [TAG]: "bigint", v: String(value) };
    if (typeof value !== "object") return { [TAG]: "undefined" };
    if (seen.has(value)) return { [TAG]: "ref", id: seen.get(value) };
    const id = seen.size;
    seen.set(value, id);
    if (value instanceof Date) return { [TAG]: "date", id, v: value.toISOString() };
    if (value instanceof RegExp) return { [TAG]: "regexp", id, source: value.source, flags: value.flags };
    if (value instanceof URL) return { [TAG]: "url", id, v: value.href };
    if (value instanceof Error) return { [TAG]: "error", id, name: value.name, message: value.message, stack: value.stack ?? "" };
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return { [TAG]: "typed", id, kind: value.constructor.name, v: [...value].map(String) };
    if (value instanceof Map) return { [TAG]: "map", id, v: [...value].map(([k, v]) => [encode(k, seen), encode(v, seen)]) };
    if (value instanceof Set) return { [TAG]: "set", id, v: [...value].map((v) => encode(v, seen)) };
    if (typeof Node !== "undefined" && value instanceof Node) return { [TAG]: "object", id, v: {} };
    if (Array.isArray(value)) return { [TAG]: "array", id, v: value.map((v) => encode(v, seen)) };
    const out = {};
    for (const key of Object.keys(value)) out[key] = encode(value[key], seen);
    return { [TAG]: "object", id, v: out };
  }
  function decode(value, refs = new Map()) {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => decode(v, refs));
    const tag = value[TAG];
    if (tag === undefined) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v, refs)]));
    switch (tag) {
      case "undefined": return undefined;
      case "NaN": return NaN;
      case "Infinity": return Infinity;
      case "-Infinity": return -Infinity;
      case "-0": return -0;
      case "bigint": return BigInt(value.v);
      case "ref": return refs.get(value.id);
      case "date": return keep(refs, value.id, new Date(value.v));
      case "regexp": return keep(refs, value.id, new RegExp(value.source, value.flags));
      case "url": return keep(refs, value.id, new URL(value.v));
      case "error": {
        const error = new Error(value.message);
        error.name = value.name;
        error.stack = `${value.name}: ${value.message}\n${value.stack}`;
        return keep(refs, value.id, error);
      }
      case "typed": {
        const Kind = globalThis[value.kind];
        return keep(refs, value.id, Kind.from(value.v, (v) => (value.kind.startsWith("Big") ? BigInt(v) : Number(v))));
      }
      case "map": {
        const map = keep(refs, value.id, new Map());
        for (const [k, v] of value.v) map.set(decode(k, refs), decode(v, refs));
        return map;
      }
      case "set": {
        const set = keep(refs, value.id, new Set());
        for (const v of value.v) set.add(decode(v, refs));
        return set;
      }
      case "array": {
        const array = keep(refs, value.id, []);
        for (const v of value.v) array.push(decode(v, refs));
        return array;
      }
      default: {
        const object = keep(refs, value.id, {});
        for (const [k, v] of Object.entries(value.v)) object[k] = decode(v, refs);
        return object;
      }
    }
  }
  function keep(refs, id, value) {
    refs.set(id, value);
    return value;
  }

  // Selectors: a descendant (or child) combinator crosses from a shadow root to its host.
  const parentOf = (e) => e.parentElement ?? (e.parentNode instanceof ShadowRoot ? e.parentNode.host : null);
  // Each character of a selector (an escape with the character it escapes), and whether it stands
  // at the top level: outside quotes, brackets and parentheses.
  function* characters(selector) {
    let depth = 0, quote = null;
    for (let i = 0; i < selector.length; i++) {
      const c = selector[i];
      if (c === "\\") { yield [c + (selector[++i] ?? ""), false]; continue; }
      if (quote) {
        if (c === quote) quote = null;
        yield [c, false];
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      yield [c, depth === 0 && !quote && !"()[]".includes(c)];
    }
  }
  function splitTop(selector, separator) {
    const out = [];
    let current = "";
    for (const [c, top] of characters(selector)) {
      if (top && c === separator) { out.push(current); current = ""; } else current += c;
    }
    out.push(current);
    return out;
  }
  function compile(selector) {
    const compounds = [];
    let current = "", combinator = null;
    const push = () => {
      if (current.trim()) {
        compounds.push({ selector: current.trim(), combinator: compounds.length ? (combinator ?? " ") : null });
        combinator = null;
      }
      current = "";
    };
    for (const [c, top] of characters(selector)) {
      if (top && (c === ">" || c === "+" || c === "~")) { push(); combinator = c; }
      else if (top && /\s/.test(c)) push();
      else current += c;
    }
    push();
    return compounds;
  }
  function matchAt(e, compounds, i) {
    if (!e.matches(compounds[i].selector)) return false;
    if (i === 0) return true;
    const combinator = compounds[i].combinator;
    if (combinator === ">") { const p = parentOf(e); return !!p && matchAt(p, compounds, i - 1); }
    if (combinator === "+") { const s = e.previousElementSibling; return !!s && matchAt(s, compounds, i - 1); }
    if (combinator === "~") {
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (matchAt(s, compounds, i - 1)) return true;
      return false;
    }
    for (let p = parentOf(e); p; p = parentOf(p)) if (matchAt(p, compounds, i - 1)) return true;
    return false;
  }
  /** Every element under `scope` (a document or an element), open shadow roots included. */
  function deep(scope) {
    const out = [];
    const walk = (node) => {
      for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
        out.push(c);
        if (c.shadowRoot) walk(c.shadowRoot);
        walk(c);
      }
    };
    if (scope.shadowRoot) walk(scope.shadowRoot);
    walk(scope);
    return out;
  }
  const normal = (s) => s.replace(/\s+/g, " ").trim();
  function textTest({ text, regexp, exact }) {
    if (regexp) {
      const re = new RegExp(regexp.source, regexp.flags);
      return (s) => re.test(s);
    }
    const want = normal(text);
    return exact ? (s) => normal(s) === want : (s) => normal(s).toLowerCase().includes(want.toLowerCase());
  }
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "TITLE"]);
  /** The elements a locator's steps select, in document order. */
  function resolve(steps) {
    let set = [document];
    for (const step of steps) {
      if (step.css !== undefined) {
        const parts = splitTop(step.css, ",").map(compile);
        const found = new Set();
        for (const scope of set) {
          for (const e of deep(scope)) if (parts.some((c) => c.length && matchAt(e, c, c.length - 1))) found.add(e);
        }
        set = [...found];
      } else if (step.text !== undefined || step.regexp !== undefined) {
        const test = textTest(step);
        const found = new Set();
        for (const scope of set) {
          const hits = deep(scope).filter((e) => !SKIP.has(e.tagName.toUpperCase()) && test(e.textContent ?? ""));
          for (const e of hits) if (!hits.some((o) => o !== e && e.contains(o))) found.add(e);
        }
        set = [...found];
      } else if (step.hasText !== undefined) {
        const test = textTest(step.hasText);
        set = set.filter((e) => test(e.textContent ?? ""));
      } else if (step.nth !== undefined) {
        set = step.nth < 0 ? set.slice(step.nth).slice(0, 1) : set.slice(step.nth, step.nth + 1);
      }
    }
    return set.filter((e) => e !== document);
  }
  function visible(e) {
    if (!e || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
  }
  /** The innermost element at a point, through open shadow roots. */
  function hit(x, y) {
    let at = document.elementFromPoint(x, y);
    while (at?.shadowRoot) {
      const inner = at.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === at) break;
      at = inner;
    }
    return at;
  }
  function within(inner, outer) {
    for (let e = inner; e; e = parentOf(e)) if (e === outer) return true;
    return false;
  }
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  function drain() {
    const state = window[KEY];
    return { events: state ? state.events.splice(0) : [], doc: state ? state.doc : null, url: location.href };
  }
  function failure(error) {
    return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack ?? "" } : { name: "Error", message: String(error), stack: "" };
  }
  return { encode, decode, resolve, visible, hit, within, frame, drain, failure };
}

// Node's side of the value format.
const { encode, decode } = helpers.call(null);

/** A script for WebDriver's execute/async: `body` (an async function body that sees `__cdwk`, the
 * helpers, and `__cdwkIn`, the decoded first argument) runs; its value and the page's watch come
 * back. The helpers' names stay out of the scope of the test's own function source. */
function script(body) {
  return `const __cdwkDone = arguments[arguments.length - 1];
const __cdwkH = (${helpers})();
__cdwkH.run = async (__cdwk, __cdwkIn) => { ${body} };
__cdwkH.run(__cdwkH, __cdwkH.decode(JSON.parse(arguments[0]))).then(
  (value) => __cdwkDone(JSON.stringify({ ok: true, value: __cdwkH.encode(value), watch: __cdwkH.drain() })),
  (error) => __cdwkDone(JSON.stringify({ ok: false, error: __cdwkH.failure(error), watch: __cdwkH.drain() })));`;
}

/** `fn` as an expression to call: a function's source, or Playwright's string expression. */
function callable(fn) {
  return typeof fn === "function" ? `(${fn})` : `(() => (${fn}))`;
}

/** Playwright's key names as WebDriver's. */
const KEYS = {
  Enter: "\uE007", Escape: "\uE00C", Tab: "\uE004", Backspace: "\uE003", Delete: "\uE017", Insert: "\uE016",
  ArrowUp: "\uE013", ArrowDown: "\uE015", ArrowLeft: "\uE012", ArrowRight: "\uE014", Home: "\uE011", End: "\uE010",
  PageUp: "\uE00E", PageDown: "\uE00F", Shift: "\uE008", Control: "\uE009", Alt: "\uE00A", Meta: "\uE03D",
  ControlOrMeta: "\uE009", Space: " ", F1: "\uE031", F2: "\uE032", F3: "\uE033", F4: "\uE034", F5: "\uE035",
  F6: "\uE036", F7: "\uE037", F8: "\uE038", F9: "\uE039", F10: "\uE03A", F11: "\uE03B", F12: "\uE03C",
};
const key = (name) => KEYS[name] ?? name;
function combo(text) {
  const parts = text === "+" ? ["+"] : text.split("+").map((k) => (k === "" ? "+" : k));
  const last = parts.pop();
  const actions = [];
  for (const m of parts) actions.push({ type: "keyDown", value: key(m) });
  actions.push({ type: "keyDown", value: key(last) }, { type: "keyUp", value: key(last) });
  for (const m of parts.reverse()) actions.push({ type: "keyUp", value: key(m) });
  return actions;
}

/** Playwright's route pattern (a predicate over the URL, a RegExp, or the URL itself) as a
 * predicate. */
function matcher(match) {
  if (typeof match === "function") return match;
  if (match instanceof RegExp) return (u) => match.test(u.href);
  return (u) => u.href === new URL(match).href;
}

// ---------------------------------------------------------------------------------------------
// The proxy of one page: every request of its MiniBrowser, http and https, passes here.

class Proxy {
  /** The page open in this proxy's MiniBrowser (null between pages). */
  page = null;
  #server;
  #tls;
  /** The requests in flight to servers, ended with the proxy. */
  #upstreams = new Set();
  constructor() {
    const handler = (req, res) => this.#handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
    this.#server = createServer(handler);
    // Decrypted https: requests arrive here with the CONNECT's host on their socket.
    this.#tls = createServer(handler);
    this.#server.on("connect", (req, socket, head) => {
      socket.on("error", () => {});
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head?.length) socket.unshift(head);
      const secure = new TLSSocket(socket, { isServer: true, ...tlsIdentity() });
      secure.on("error", () => {});
      secure.cdAuthority = req.url;
      this.#tls.emit("connection", secure);
    });
    // WebSocket handshakes are seen (page.on("request")) and refused: no test page opens one.
    const upgrade = (req, socket) => {
      const authority = socket.cdAuthority;
      const href = authority ? `wss://${authority.replace(/:443$/, "")}${req.url}` : req.url.replace(/^http/, "ws");
      const request = { url: () => href, method: () => req.method, headers: () => ({ ...req.headers }), postData: () => null,
        resourceType: () => "websocket", isNavigationRequest: () => false, failure: () => ({ errorText: "refused by the test proxy" }) };
      this.page?.emit("request", request);
      this.page?.emit("requestfailed", request);
      socket.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
    };
    this.#server.on("upgrade", upgrade);
    this.#tls.on("upgrade", upgrade);
    this.#server.on("clientError", (error, socket) => socket.destroy());
    this.#tls.on("clientError", (error, socket) => socket.destroy());
  }
  async start() {
    await new Promise((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return this.#server.address().port;
  }
  close() {
    for (const upstream of this.#upstreams) upstream.destroy();
    this.#server.closeAllConnections?.();
    this.#server.close();
    this.#tls.closeAllConnections?.();
    this.#tls.close();
  }

  async #handle(req, res) {
    const authority = req.socket.cdAuthority;
    const href = authority ? `https://${authority.replace(/:443$/, "")}${req.url}` : req.url;
    let url;
    try {
      url = new URL(href);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.pathname === INIT_PATH) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
        .end(this.page?.initSource() ?? "");
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["accept-encoding"]; // bodies come back as they are, to add the init script to
    const document = req.method === "GET" && /text\/html/.test(req.headers.accept ?? "");
    const request = {
      url: () => url.href,
      method: () => req.method,
      headers: () => ({ ...req.headers }),
      postData: () => (body.length ? body.toString("utf8") : null),
      resourceType: () => (document ? "document" : "other"),
      isNavigationRequest: () => document,
      failure: () => null,
    };
    this.page?.emit("request", request);
    const respond = (status, responseHeaders, responseBody) => {
      const type = String(responseHeaders["content-type"] ?? "");
      let out = responseBody;
      if (document && /text\/html/i.test(type)) out = withInit(responseBody);
      const sent = { ...responseHeaders };
      delete sent["content-length"];
      delete sent["transfer-encoding"];
      sent["content-length"] = String(out.length);
      res.writeHead(status, sent).end(req.method === "HEAD" ? undefined : out);
      responded(status, responseHeaders);
    };
    const responded = (status, responseHeaders) => {
      this.page?.emit("response", { url: () => url.href, status: () => status, headers: () => responseHeaders, request: () => request });
    };
    const upstreams = this.#upstreams;
    const fail = (errorText) => {
      request.failure = () => ({ errorText });
      this.page?.emit("requestfailed", request);
      res.destroy();
    };
    const route = this.page?.routeFor(url) ?? null;
    if (route) {
      let handled = false;
      await route({
        request: () => request,
        fulfill: async ({ status = 200, contentType, body: answer = "", headers: extra = {} } = {}) => {
          handled = true;
          const h = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), String(v)]));
          if (contentType) h["content-type"] = contentType;
          respond(status, h, Buffer.isBuffer(answer) ? answer : Buffer.from(String(answer)));
        },
        continue: async () => { handled = true; await forward(); },
        fallback: async () => { handled = true; await forward(); },
        abort: async (errorText = "aborted") => { handled = true; fail(errorText); },
      });
      if (!handled) await new Promise(() => {}); // Playwright leaves an unanswered route hanging too
      return;
    }
    await forward();

    async function forward() {
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      await new Promise((resolve) => {
        const upstream = send(url, { method: req.method, headers, rejectUnauthorized: false }, async (r) => {
          upstreams.add(upstream);
          r.on("close", () => upstreams.delete(upstream));
          if (document && /text\/html/i.test(String(r.headers["content-type"] ?? ""))) {
            // A document: whole, to put the init script in.
            const chunks = [];
            try {
              for await (const chunk of r) chunks.push(chunk);
            } catch (error) {
              fail(error.code ?? String(error));
              return resolve();
            }
            respond(r.statusCode, r.headers, Buffer.concat(chunks));
            return resolve();
          }
          // Anything else as it comes (event streams never end).
          res.writeHead(r.statusCode, r.headers);
          responded(r.statusCode, r.headers);
          r.pipe(res);
          r.on("error", () => res.destroy());
          res.on("close", () => upstream.destroy());
          r.on("end", resolve);
          r.on("close", resolve);
        });
        upstream.on("error", (error) => { fail(error.code ?? String(error)); resolve(); });
        upstream.end(body);
      });
    }
  }
}

/** The HTML with the init script first in its head (after the doctype, so no quirks mode). */
function withInit(html) {
  const tag = Buffer.from(`<script src="${INIT_PATH}"></script>`);
  const head = html.subarray(0, 8192).toString("latin1");
  const at = /<head\b[^>]*>/i.exec(head) ?? /<html\b[^>]*>/i.exec(head) ?? /<!doctype[^>]*>/i.exec(head);
  const index = at ? at.index + at[0].length : 0;
  return Buffer.concat([html.subarray(0, index), tag, html.subarray(index)]);
}

// ---------------------------------------------------------------------------------------------
// Pages.

class WebDriverError extends Error {}

/** An element (or several) found by selector, as Playwright's locator is used in the tests. */
class Locator {
  constructor(page, steps) {
    this.page = page;
    this.steps = steps;
  }
  locator(selector, { hasText } = {}) {
    const steps = [...this.steps, { css: selector }];
    if (hasText !== undefined) steps.push({ hasText: textStep(hasText) });
    return new Locator(this.page, steps);
  }
  getByText(text, { exact = false } = {}) { return new Locator(this.page, [...this.steps, textStep(text, exact)]); }
  filter({ hasText }) { return new Locator(this.page, [...this.steps, { hasText: textStep(hasText) }]); }
  first() { return this.nth(0); }
  last() { return this.nth(-1); }
  nth(n) { return new Locator(this.page, [...this.steps, { nth: n }]); }
  async count() { return this.page.run("return __cdwk.resolve(__cdwkIn).length;", this.steps); }
  waitFor({ state = "visible", timeout } = {}) { return this.page.waitForSteps(this.steps, { state, timeout }); }
  async click(options) { await this.page.clickSteps(this.steps, options); }
  async focus() {
    await this.waitFor({ state: "attached" });
    await this.page.run("__cdwk.resolve(__cdwkIn)[0].focus();", this.steps);
  }
  async textContent() {
    await this.waitFor({ state: "attached" });
    return this.page.run("return __cdwk.resolve(__cdwkIn)[0].textContent;", this.steps);
  }
  async innerText() {
    await this.waitFor({ state: "attached" });
    return this.page.run("return __cdwk.resolve(__cdwkIn)[0].innerText;", this.steps);
  }
  async getAttribute(name) {
    await this.waitFor({ state: "attached" });
    return this.page.run("return __cdwk.resolve(__cdwkIn.steps)[0].getAttribute(__cdwkIn.name);", { steps: this.steps, name });
  }
  async isVisible() { return this.page.run("return __cdwk.visible(__cdwk.resolve(__cdwkIn)[0]);", this.steps); }
  async boundingBox() {
    await this.waitFor({ state: "attached" });
    return this.page.run(`const e = __cdwk.resolve(__cdwkIn)[0];
      if (!__cdwk.visible(e)) return null;
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };`, this.steps);
  }
  async evaluate(fn, arg) {
    await this.waitFor({ state: "attached" });
    return this.page.run(`return ${callable(fn)}(__cdwk.resolve(__cdwkIn.steps)[0], __cdwkIn.arg);`, { steps: this.steps, arg });
  }
  async evaluateAll(fn, arg) {
    return this.page.run(`return ${callable(fn)}(__cdwk.resolve(__cdwkIn.steps), __cdwkIn.arg);`, { steps: this.steps, arg });
  }
}

function textStep(text, exact = false) {
  return text instanceof RegExp ? { regexp: { source: text.source, flags: text.flags } } : { text: String(text), exact };
}

/** A MiniBrowser session with the playwright-core page methods the browser tests call. */
class Page {
  #browser;
  #tab;
  #driver;
  #session;
  #listeners = new Map();
  #routes = [];
  #init = [];
  #doc = undefined;
  #url = "about:blank";
  #frame;
  #queue = Promise.resolve();
  #mouse = { x: 0, y: 0 };
  #chrome = null;
  #closed = false;

  constructor(browser) {
    this.#browser = browser;
    const page = this;
    this.#frame = { url: () => page.#url, name: () => "", parentFrame: () => null, page: () => page };
    this.keyboard = {
      press: (text) => this.#actions([{ type: "key", id: "keyboard", actions: combo(text) }]),
      down: (name) => this.#actions([{ type: "key", id: "keyboard", actions: [{ type: "keyDown", value: key(name) }] }]),
      up: (name) => this.#actions([{ type: "key", id: "keyboard", actions: [{ type: "keyUp", value: key(name) }] }]),
      type: (text) => this.#actions([{ type: "key", id: "keyboard", actions: [...text].flatMap((c) => [{ type: "keyDown", value: c }, { type: "keyUp", value: c }]) }]),
      insertText: (text) => this.keyboard.type(text),
    };
    this.mouse = {
      move: (x, y) => this.#pointer(x, y, []),
      down: () => this.#pointer(this.#mouse.x, this.#mouse.y, [{ type: "pointerDown", button: 0 }]),
      up: () => this.#pointer(this.#mouse.x, this.#mouse.y, [{ type: "pointerUp", button: 0 }]),
      click: (x, y) => this.#pointer(x, y, [{ type: "pointerDown", button: 0 }, { type: "pointerUp", button: 0 }]),
      wheel: (deltaX, deltaY) => this.#actions([{ type: "wheel", id: "wheel", actions: [
        { type: "scroll", x: Math.round(this.#mouse.x), y: Math.round(this.#mouse.y), deltaX: Math.round(deltaX), deltaY: Math.round(deltaY), origin: "viewport", duration: 0 },
      ] }]),
    };
  }

  /** Opens the page in `tab` (a MiniBrowser session with its proxy: see openTab). */
  async open(tab) {
    this.#tab = tab;
    tab.proxy.page = this;
    this.#session = tab.session;
    this.#driver = tab.driver;
    await this.setViewportSize(VIEWPORT);
    return this;
  }

  // -- plumbing

  async #raw(method, path, body) {
    const json = await driverRequest(this.#driver.base, method, path, body);
    const value = json.value;
    if (value && typeof value === "object" && typeof value.error === "string") {
      const error = new WebDriverError(`WebKitWebDriver ${method} ${path.replace(/^\/session\/[^/]+/, "")}: ${value.error}: ${value.message}`);
      error.code = value.error;
      error.data = value.data;
      throw error;
    }
    return value;
  }
  /** One WebDriver command of this page's session, after the ones before it. A dialog the driver
   * dismissed is reported to page.on("dialog"), and the command sent again. */
  #command(method, path, body) {
    const run = this.#queue.then(async () => {
      for (let tries = 0; ; tries++) {
        try {
          return await this.#raw(method, this.#session + path, body);
        } catch (error) {
          if (error.code !== "unexpected alert open" || tries > 20) throw error;
          this.#dialog(error.data?.text ?? "");
        }
      }
    });
    this.#queue = run.catch(() => {});
    return run;
  }
  /** A dialog the driver (or this file) dismissed, to page.on("dialog"): its type is not told. */
  #dialog(message) {
    this.emit("dialog", { message: () => message, type: () => "alert", defaultValue: () => "", dismiss: async () => {}, accept: async () => {} });
  }
  /** Runs `body` in the page (see script()) with `input`; the page's watch is dispatched. */
  async run(body, input) {
    this.#check();
    // JSON both ways, as text: WebKit's WebDriver does not keep the order of an object's keys.
    const answer = await this.#command("POST", "/execute/async", { script: script(body), args: [JSON.stringify(encode(input))] });
    if (typeof answer !== "string") {
      // A dialog that opens while the script's answer is on its way takes the answer with it.
      const message = await this.#command("GET", "/alert/text").catch(() => null);
      if (message === null) throw new Error(`page.evaluate: no answer from the page (${JSON.stringify(answer)})`);
      await this.#command("POST", "/alert/dismiss", {}).catch(() => {});
      this.#dialog(message);
      throw new Error(`page.evaluate: a dialog ("${message}") opened as the answer came back, and WebKit's WebDriver lost the answer`);
    }
    const result = JSON.parse(answer);
    this.#watch(result.watch);
    if (!result.ok) {
      const error = new Error(`page.evaluate: ${result.error.name}: ${result.error.message}`);
      error.stack = `${error.message}\n${result.error.stack}`;
      throw error;
    }
    return decode(result.value);
  }
  /** Collects what the page recorded since the last command. */
  async #poll() {
    if (this.#closed) return;
    try {
      await this.run("return null;");
    } catch (error) {
      if (!/javascript error|no such window/.test(String(error))) throw error;
    }
  }
  #watch(watch) {
    if (!watch) return;
    this.#url = watch.url;
    if (watch.doc !== this.#doc) {
      this.#doc = watch.doc;
      this.emit("framenavigated", this.#frame);
    }
    for (const event of watch.events) {
      if (event.kind === "console") {
        this.emit("console", { type: () => event.type, text: () => event.text, location: () => event.location, args: () => [] });
      } else if (event.kind === "pageerror") {
        const error = new Error(event.message);
        error.name = event.name;
        error.stack = `${event.name}: ${event.message}\n${event.stack}`;
        this.emit("pageerror", error);
      }
    }
  }
  #check() {
    if (this.#closed) throw new Error("the page is closed");
  }
  emit(event, value) {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        const out = listener(value);
        if (out?.catch) out.catch(() => {});
      } catch {}
    }
  }
  routeFor(url) {
    const found = [...this.#routes, ...this.#browser.routes].find(([match]) => match(url));
    return found?.[1];
  }
  initSource() {
    return `(${prelude})([${this.#init.join(",\n")}]);\n`;
  }
  async #actions(actions) {
    this.#check();
    await this.#command("POST", "/actions", { actions });
    await this.#poll();
  }
  #pointer(x, y, then) {
    this.#mouse = { x, y };
    return this.#actions([{ type: "pointer", id: "mouse", parameters: { pointerType: "mouse" }, actions: [
      { type: "pointerMove", x: Math.round(x), y: Math.round(y), origin: "viewport", duration: 0 }, ...then,
    ] }]);
  }

  // -- Playwright's page API

  on(event, listener) {
    if (!this.#listeners.has(event)) this.#listeners.set(event, []);
    this.#listeners.get(event).push(listener);
    return this;
  }
  once(event, listener) {
    const wrapped = (value) => { this.off(event, wrapped); return listener(value); };
    return this.on(event, wrapped);
  }
  off(event, listener) {
    const list = this.#listeners.get(event) ?? [];
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
    return this;
  }
  mainFrame() { return this.#frame; }
  url() { return this.#url; }
  context() { return this.#browser.context; }

  /** The viewport's size, by the window's: MiniBrowser's toolbar above the page is the window's
   * size less the viewport's, once the page has been laid out at the new size. */
  async setViewportSize({ width, height }) {
    this.#check();
    // The window resizes after the command returns: the size is read when two frames agree.
    const settled = async () => {
      let last = null;
      for (let i = 0; i < 40; i++) {
        const now = await this.#command("POST", "/execute/async", {
          script: "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done([innerWidth, innerHeight])));", args: [],
        });
        if (last && now[0] === last[0] && now[1] === last[1]) return now;
        last = now;
      }
      return last;
    };
    for (let tries = 0; tries < 4; tries++) {
      const chrome = this.#chrome ?? { width: 0, height: 20 };
      await this.#command("POST", "/window/rect", { width: width + chrome.width, height: height + chrome.height });
      const [w, h] = await settled();
      if (w === width && h === height) return;
      const rect = await this.#command("GET", "/window/rect");
      this.#chrome = { width: Math.max(0, rect.width - w), height: Math.max(0, rect.height - h) };
    }
    throw new Error(`setViewportSize: the viewport is ${await settled()} instead of ${width}x${height}`);
  }
  viewportSize() { return null; }

  /** Runs before the page's own scripts in every document the page loads from now on. */
  async addInitScript(fn, arg) {
    this.#init.push(typeof fn === "function" ? `() => (${fn})(${JSON.stringify(arg) ?? "undefined"})` : `() => { ${fn}\n}`);
  }
  async evaluate(fn, arg) { return this.run(`return await ${callable(fn)}(__cdwkIn);`, arg); }
  async evaluateHandle() { throw new Error("evaluateHandle: not available over WebDriver classic in these tests"); }

  /** Polls `fn(arg)` in the page until it is truthy: on each animation frame (`polling: "raf"`,
   * Playwright's default) or every `polling` ms, in rounds of up to a quarter second in the page. */
  async waitForFunction(fn, arg, { timeout = 30000, polling = "raf" } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const { done, value } = await this.run(`const __cdwkFn = ${callable(fn)};
        const __cdwkUntil = performance.now() + 250;
        for (;;) {
          const __cdwkValue = await __cdwkFn(__cdwkIn.arg);
          if (__cdwkValue) return { done: true, value: __cdwkValue };
          if (performance.now() > __cdwkUntil) return { done: false };
          if (__cdwkIn.polling === "raf") await __cdwk.frame();
          else await new Promise((r) => setTimeout(r, __cdwkIn.polling));
        }`, { arg, polling });
      if (done) return { jsonValue: async () => value, value };
      if (Date.now() > end) throw new Error(`page.waitForFunction: Timeout ${timeout}ms exceeded: ${String(fn).slice(0, 200)}`);
    }
  }
  async waitForTimeout(ms) {
    await sleep(ms);
    await this.#poll();
  }
  async waitForSteps(steps, { state = "visible", timeout = 30000 } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const done = await this.run(`const until = performance.now() + 250;
        for (;;) {
          const e = __cdwk.resolve(__cdwkIn.steps)[0];
          const visible = __cdwk.visible(e);
          if (__cdwkIn.state === "attached" ? !!e : __cdwkIn.state === "visible" ? visible
            : __cdwkIn.state === "hidden" ? !visible : !e) return true;
          if (performance.now() > until) return false;
          await new Promise((r) => setTimeout(r, 30));
        }`, { steps, state });
      if (done) return;
      if (Date.now() > end) throw new Error(`waitFor: Timeout ${timeout}ms exceeded: ${JSON.stringify(steps)} (${state})`);
    }
  }
  /** Playwright's waitForSelector: `attached`, `visible` (the default), `hidden` or `detached`.
   * (Resolves to a locator of the first match, not an element handle.) */
  async waitForSelector(selector, options) {
    const steps = [{ css: selector }];
    await this.waitForSteps(steps, options);
    return options?.state === "hidden" || options?.state === "detached" ? null : new Locator(this, [...steps, { nth: 0 }]);
  }
  /** Playwright's click: the element visible, enabled, scrolled into view, still for a frame and
   * the topmost at its centre, then a mouse click there. */
  async clickSteps(steps, { timeout = 30000, button = "left", clickCount = 1 } = {}) {
    const end = Date.now() + timeout;
    let point, why = "";
    while (!point) {
      ({ point, why } = await this.run(`const e = __cdwk.resolve(__cdwkIn)[0];
        if (!e) return { why: "no element" };
        if (!__cdwk.visible(e)) return { why: "not visible" };
        if (e.disabled) return { why: "disabled" };
        let r = e.getBoundingClientRect();
        if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
          e.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
        }
        await __cdwk.frame();
        r = e.getBoundingClientRect();
        await __cdwk.frame();
        const again = e.getBoundingClientRect();
        if (r.x !== again.x || r.y !== again.y || r.width !== again.width || r.height !== again.height) return { why: "moving" };
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const at = __cdwk.hit(x, y);
        if (!__cdwk.within(at, e)) return { why: "covered by " + (at ? at.outerHTML.slice(0, 120) : "nothing") };
        return { point: { x, y } };`, steps));
      if (point) break;
      if (Date.now() > end) throw new Error(`click: Timeout ${timeout}ms exceeded: ${JSON.stringify(steps)}: ${why}`);
      await sleep(30);
    }
    const index = { left: 0, middle: 1, right: 2 }[button];
    const presses = [];
    for (let i = 0; i < clickCount; i++) presses.push({ type: "pointerDown", button: index }, { type: "pointerUp", button: index });
    await this.#pointer(point.x, point.y, presses);
  }
  locator(selector, options) { return new Locator(this, []).locator(selector, options); }
  getByText(text, options) { return new Locator(this, []).getByText(text, options); }

  async goto(url) {
    this.#check();
    await this.#command("POST", "/url", { url });
    await this.#poll();
    if (/^https?:/.test(url) && this.#doc === null) {
      throw new Error(`goto ${url}: WebKit's watch did not run in this document (init scripts, console, errors): ` +
        "its Content-Security-Policy refuses same-origin scripts, or it is not HTML");
    }
    return null;
  }
  async reload() {
    await this.#command("POST", "/refresh", {});
    await this.#poll();
  }
  async title() { return this.run("return document.title;"); }
  async content() { return this.run("return document.documentElement.outerHTML;"); }
  async $eval(selector, fn, arg) {
    await this.waitForSteps([{ css: selector }], { state: "attached" });
    return this.run(`return await ${callable(fn)}(__cdwk.resolve(__cdwkIn.steps)[0], __cdwkIn.arg);`, { steps: [{ css: selector }], arg });
  }
  async $$eval(selector, fn, arg) {
    return this.run(`return await ${callable(fn)}(__cdwk.resolve(__cdwkIn.steps), __cdwkIn.arg);`, { steps: [{ css: selector }], arg });
  }
  textContent(selector) { return this.locator(selector).textContent(); }
  innerText(selector) { return this.locator(selector).innerText(); }
  getAttribute(selector, name) { return this.locator(selector).getAttribute(name); }
  isVisible(selector) { return this.locator(selector).isVisible(); }
  async isDisabled(selector) {
    await this.waitForSteps([{ css: selector }], { state: "attached" });
    return this.run("return __cdwk.resolve(__cdwkIn)[0].disabled === true;", [{ css: selector }]);
  }
  click(selector, options) { return this.clickSteps([{ css: selector }], options); }
  focus(selector) { return this.locator(selector).focus(); }
  /** Playwright's fill: the field's value replaced, with input and change events. */
  async fill(selector, value) {
    await this.waitForSteps([{ css: selector }], { state: "attached" });
    await this.run(`const e = __cdwk.resolve(__cdwkIn.steps)[0];
      e.focus();
      e.value = __cdwkIn.value;
      e.dispatchEvent(new Event("input", { bubbles: true }));
      e.dispatchEvent(new Event("change", { bubbles: true }));`, { steps: [{ css: selector }], value });
  }
  async press(selector, text) {
    await this.focus(selector);
    await this.keyboard.press(text);
  }
  async type(selector, text) {
    await this.focus(selector);
    await this.keyboard.type(text);
  }
  /** Playwright's setInputFiles with `{name, mimeType, buffer}` (or paths): written to scratch
   * files of those names, then sent to the <input type=file> as WebDriver does, by path. */
  async setInputFiles(selector, files) {
    const list = Array.isArray(files) ? files : [files];
    const dir = mkdtempSync(join(tmpdir(), "chat-display-upload-"));
    const paths = list.map((file) => {
      if (typeof file === "string") return file;
      const path = join(dir, file.name);
      writeFileSync(path, file.buffer);
      return path;
    });
    await this.waitForSteps([{ css: selector }], { state: "attached" });
    // The element itself, as WebDriver's reference (the value format above would hide it).
    const element = await this.#command("POST", "/execute/sync", {
      script: `return (${helpers})().resolve(arguments[0])[0];`, args: [[{ css: selector }]],
    });
    await this.#command("POST", `/element/${element[ELEMENT]}/value`, { text: paths.join("\n") });
    await this.#poll();
  }
  async screenshot({ path } = {}) {
    this.#check();
    const shot = Buffer.from(await this.#command("GET", "/screenshot"), "base64");
    if (path) writeFileSync(path, shot);
    return shot;
  }
  /** Playwright's page.route: `handler` gets `{request, fulfill, continue, abort}` for the requests
   * whose URL (a URL object) matches, on any host (they all pass the page's proxy). */
  async route(match, handler) { this.#routes.unshift([matcher(match), handler]); }
  async unroute() { this.#routes = []; }
  /** A page's prefers-color-scheme is fixed when its MiniBrowser starts: no WebDriver command
   * changes it. A dark system is a browser launched with one (`launchWebKit({ colorScheme })`). */
  async emulateMedia() {
    throw new Error("emulateMedia: WebKit over WebDriver cannot change a page's color scheme; launch with colorScheme");
  }
  /** axe-core run in the page (its source sent as a script, as @axe-core/playwright injects it),
   * over `include`, with `options`: the same result object as AxeBuilder's `analyze()`. */
  async axe(include, options) {
    const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
    await this.#command("POST", "/execute/sync", { script: `${source}\n;window.axe = axe; return typeof axe;`, args: [] });
    return this.evaluate(({ include, options }) => window.axe.run({ include: [include] }, options), { include, options });
  }
  isClosed() { return this.#closed; }
  /** The page's MiniBrowser goes back to the browser's pool, on about:blank, its session storage
   * and cookies cleared (a new page in the other engines starts with neither; local storage is
   * the browser's, shared by its pages, as in the other engines). */
  async close() {
    if (this.#closed) return;
    await this.#poll().catch(() => {});
    this.#closed = true;
    let reusable = true;
    try {
      await this.#command("POST", "/execute/sync", { script: "try { sessionStorage.clear(); } catch {}", args: [] });
      await this.#command("DELETE", "/cookie");
      await this.#command("POST", "/url", { url: "about:blank" });
    } catch {
      reusable = false;
    }
    await this.#queue;
    this.#tab.proxy.page = null;
    this.#browser.released(this, this.#tab, reusable);
  }
}

/** A MiniBrowser in a WebDriver session of its own, with its proxy; reused page after page. */
async function openTab(driver, colorScheme) {
  const proxy = new Proxy();
  const port = await proxy.start();
  const args = ["--automation", `--proxy=http://127.0.0.1:${port}`, "--ignore-tls-errors", "--javascript-can-access-clipboard=true"];
  if (colorScheme === "dark") args.push("--dark-mode");
  const { value } = await driverRequest(driver.base, "POST", "/session", { capabilities: { alwaysMatch: {
    "webkitgtk:browserOptions": { binary: miniBrowser(), args },
    unhandledPromptBehavior: "dismiss and notify",
    pageLoadStrategy: "normal",
    timeouts: { script: 30 * 60 * 1000, pageLoad: 120000, implicit: 0 },
  } } });
  if (!value?.sessionId) {
    proxy.close();
    throw new Error(`WebKitWebDriver: no session: ${JSON.stringify(value)}`);
  }
  const session = `/session/${value.sessionId}`;
  return {
    driver, proxy, session,
    async close() {
      await driverRequest(driver.base, "DELETE", session).catch(() => {});
      proxy.close();
      driver.child.kill();
    },
  };
}

/** `colorScheme` ("light" or "dark") is what pages see as the system's prefers-color-scheme
 * (MiniBrowser's --dark-mode); without it, light. */
export async function launchWebKit({ colorScheme } = {}) {
  users++;
  await display();
  const idle = [];
  const pages = new Set();
  let closed = false;
  const browser = {
    colorScheme,
    routes: [],
    released(page, tab, reusable) {
      pages.delete(page);
      if (closed || !reusable) tab.close();
      else idle.push(tab);
    },
  };
  browser.context = {
    async newPage() {
      if (closed) throw new Error("the browser is closed");
      let tab = idle.pop();
      if (!tab) {
        const driver = await startDriver();
        tab = await openTab(driver, colorScheme).catch((error) => { driver.child.kill(); throw error; });
      }
      const page = new Page(browser);
      pages.add(page);
      try {
        return await page.open(tab);
      } catch (error) {
        pages.delete(page);
        await tab.close();
        throw error;
      }
    },
    async route(match, handler) { browser.routes.unshift([matcher(match), handler]); },
    /** Every page already may use the clipboard (MiniBrowser's --javascript-can-access-clipboard,
     * set at launch: WebDriver cannot grant permissions later). */
    async grantPermissions() {},
    pages: () => [...pages],
  };
  return {
    engine: "webkit",
    context: browser.context,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...pages].map((page) => page.close().catch(() => {})));
      await Promise.all(idle.splice(0).map((tab) => tab.close()));
      releaseDisplay();
    },
  };
}
