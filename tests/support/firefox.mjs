// Debian's Firefox ESR, headless, driven by puppeteer-core over WebDriver BiDi (Playwright drives
// only its own patched Firefox, which cannot be downloaded on these machines). The browser tests
// are written against playwright-core's API; this file gives them the part of it they use, over
// puppeteer's, so that the same test files run in both engines (BROWSER=firefox, see
// tests/support/browser.mjs). Playwright's CSS selectors reach into open shadow roots, so a
// selector that starts at the element (`chat-transcript .x`) goes through its shadow root here
// (puppeteer's `>>>`).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import puppeteer from "puppeteer-core";

const require = createRequire(import.meta.url);

/** Playwright's shadow-piercing `chat-transcript .x` as puppeteer's `chat-transcript >>> .x`,
 * in each selector of a list. */
export function pierce(selector) {
  return selector.split(",").map((one) => one.replace(/^(\s*chat-transcript)\s+(?!>>>)/, "$1 >>> ")).join(",");
}

/** `Control+f`, `Shift+Enter` as puppeteer key names, modifiers first. */
function keys(combo) {
  return combo === "+" ? ["+"] : combo.split("+").map((k) => (k === "Space" ? " " : k === "ControlOrMeta" ? "Control" : k));
}

async function pressCombo(keyboard, combo) {
  const list = keys(combo);
  const key = list.pop();
  for (const modifier of list) await keyboard.down(modifier);
  await keyboard.press(key);
  for (const modifier of list.reverse()) await keyboard.up(modifier);
}

/** Playwright's route pattern (a predicate over the URL, a RegExp, or the URL itself) as a
 * predicate. */
function matcher(match) {
  if (typeof match === "function") return match;
  if (match instanceof RegExp) return (u) => match.test(u.href);
  return (u) => u.href === new URL(match).href;
}

/** An element found by selector, as Playwright's locator is used in the tests. */
class Locator {
  constructor(page, selector) {
    this.page = page;
    this.selector = pierce(selector);
  }
  async #handle() {
    return this.page.waitForSelector(this.selector, { state: "visible" });
  }
  async click() { await (await this.#handle()).click(); }
  async focus() { await (await this.#handle()).focus(); }
  async textContent() {
    return (await this.page.waitForSelector(this.selector, { state: "attached" })).evaluate((e) => e.textContent);
  }
  async isVisible() {
    const handle = await this.page.page.$(this.selector);
    if (!handle) return false;
    return handle.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
    });
  }
}

/** A puppeteer page with the playwright-core methods the browser tests call. */
class Page {
  #routes = [];
  #contextRoutes;
  #intercepting = false;
  constructor(page, contextRoutes) {
    this.page = page;
    this.#contextRoutes = contextRoutes;
    this.keyboard = {
      press: (combo) => pressCombo(page.keyboard, combo),
      down: (key) => page.keyboard.down(key),
      up: (key) => page.keyboard.up(key),
      type: (text) => page.keyboard.type(text),
    };
    this.mouse = {
      move: (x, y) => page.mouse.move(x, y),
      wheel: (deltaX, deltaY) => page.mouse.wheel({ deltaX, deltaY }),
      click: (x, y) => page.mouse.click(x, y),
    };
  }

  /** The viewport's size, by WebDriver BiDi's browsingContext.setViewport alone: puppeteer's
   * setViewport also sends emulation.setScreenOrientationOverride, which Firefox ESR 140 lacks. */
  async setViewportSize({ width, height }) {
    await this.page.mainFrame().browsingContext.setViewport({ viewport: { width, height }, devicePixelRatio: null });
    const inner = await this.page.evaluate(() => [innerWidth, innerHeight]);
    if (inner[0] !== width || inner[1] !== height) throw new Error(`viewport ${inner} instead of ${width}x${height}`);
  }
  async addInitScript(fn, arg) { await this.page.evaluateOnNewDocument(fn, arg); }
  /** `fn(arg)` in the page, its value copied back. A value that holds one object twice comes
   * back from WebDriver BiDi with the second as a bare reference, which puppeteer reads as
   * undefined (Playwright gives both): the value is copied in the page first, each place its own. */
  async evaluate(fn, arg) {
    const handle = await this.page.evaluateHandle(fn, arg);
    try {
      return await handle.evaluate(function unshare(value, depth = 0) {
        if (value === null || typeof value !== "object" || depth > 200) return value;
        const proto = Object.getPrototypeOf(value);
        if (Array.isArray(value)) return value.map((v) => unshare(v, depth + 1));
        if (proto !== Object.prototype && proto !== null) return value;
        const out = {};
        for (const key of Object.keys(value)) out[key] = unshare(value[key], depth + 1);
        return out;
      });
    } finally {
      await handle.dispose().catch(() => {});
    }
  }
  /** Polls `fn(arg)` in the page until it is truthy. Not puppeteer's waitForFunction: its poller
   * builds functions from strings in the page, which the test pages' CSP (no unsafe-eval) refuses.
   * Each poll waits for a frame (`polling: "raf"`, Playwright's default) or `polling` ms. */
  async waitForFunction(fn, arg, { timeout = 30000, polling = "raf" } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await this.page.evaluate(fn, arg);
      if (value) return value;
      if (Date.now() > end) throw new Error(`waitForFunction: ${timeout} ms exceeded: ${String(fn).slice(0, 200)}`);
      if (polling === "raf") await this.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
      else await new Promise((resolve) => setTimeout(resolve, polling));
    }
  }
  waitForTimeout(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  on(event, listener) {
    if (event === "framenavigated") this.page.on("framenavigated", listener);
    else this.page.on(event, listener);
  }
  mainFrame() { return this.page.mainFrame(); }

  /** Playwright's `page.route(predicate, handler)`: `handler` gets `{fulfill}` for the requests
   * whose URL (a URL object) matches; the others go on. */
  async route(match, handler) {
    this.#routes.push([matcher(match), handler]);
    await this.#intercept();
  }
  async #intercept() {
    if (this.#intercepting) return;
    this.#intercepting = true;
    await this.page.setRequestInterception(true);
    this.page.on("request", (request) => {
      if (request.isInterceptResolutionHandled()) return;
      const url = new URL(request.url());
      const route = [...this.#routes, ...this.#contextRoutes].find(([match]) => match(url));
      // A request of a page that closed meanwhile is gone: answering it is no error.
      const gone = (error) => {
        if (!/no such request/i.test(String(error?.message))) throw error;
      };
      if (!route) {
        request.continue().catch(gone);
        return;
      }
      route[1]({
        request: () => ({ url: () => request.url() }),
        fulfill: ({ status = 200, contentType, body, headers = {} }) =>
          request.respond({ status, contentType, body, headers }).catch(gone),
        continue: () => request.continue().catch(gone),
      });
    });
  }

  async goto(url) {
    if (this.#routes.length || this.#contextRoutes.length) await this.#intercept();
    return this.page.goto(url, { waitUntil: "load" });
  }
  /** Playwright's waitForSelector, polled from here (puppeteer's own polls in the page the way
   * its waitForFunction does, which the CSP refuses): `attached`, `visible` (the default), or
   * `hidden` / `detached`. */
  async waitForSelector(selector, { state = "visible", timeout = 30000 } = {}) {
    const end = Date.now() + timeout;
    const query = pierce(selector);
    for (;;) {
      const handle = await this.page.$(query);
      const visible = handle ? await handle.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
      }) : false;
      if (state === "attached" && handle) return handle;
      if (state === "visible" && visible) return handle;
      if (state === "hidden" && !visible) return handle;
      if (state === "detached" && !handle) return null;
      if (Date.now() > end) throw new Error(`waitForSelector: ${timeout} ms exceeded: ${selector} (${state})`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }
  locator(selector) { return new Locator(this, selector); }
  async $eval(selector, fn, arg) { return (await this.waitForSelector(selector, { state: "attached" })).evaluate(fn, arg); }
  async $$eval(selector, fn, arg) { return this.page.$$eval(pierce(selector), fn, arg); }
  async textContent(selector) { return this.locator(selector).textContent(); }
  async getAttribute(selector, name) {
    return (await this.waitForSelector(selector, { state: "attached" })).evaluate((e, name) => e.getAttribute(name), name);
  }
  async isVisible(selector) { return this.locator(selector).isVisible(); }
  async isDisabled(selector) {
    return (await this.waitForSelector(selector, { state: "attached" })).evaluate((e) => e.disabled === true);
  }
  async click(selector) { await this.locator(selector).click(); }
  async focus(selector) { await this.locator(selector).focus(); }
  /** Playwright's fill: the field's value replaced, with an input event. */
  async fill(selector, value) {
    const handle = await this.waitForSelector(selector, { state: "attached" });
    await handle.evaluate((e, value) => {
      e.focus();
      e.value = value;
      e.dispatchEvent(new Event("input", { bubbles: true }));
      e.dispatchEvent(new Event("change", { bubbles: true }));
    }, value);
  }
  /** Playwright's setInputFiles with `{name, mimeType, buffer}`: written to a scratch file of
   * that name, then chosen (WebDriver BiDi's input.setFiles takes paths). */
  async setInputFiles(selector, { name, buffer }) {
    const dir = mkdtempSync(join(tmpdir(), "chat-display-upload-"));
    const path = join(dir, name);
    writeFileSync(path, buffer);
    const handle = await this.waitForSelector(selector, { state: "attached" });
    await handle.uploadFile(path);
  }
  async press(selector, combo) {
    await this.focus(selector);
    await pressCombo(this.page.keyboard, combo);
  }
  /** Firefox ESR 140's WebDriver BiDi cannot set prefers-color-scheme on a page (puppeteer needs
   * CDP for it): a dark system is a browser launched with one (`launchFirefox({ colorScheme })`). */
  async emulateMedia() {
    throw new Error("emulateMedia: not available in Firefox through WebDriver BiDi; launch with colorScheme");
  }
  screenshot(options) { return this.page.screenshot(options); }
  close() { return this.page.close(); }

  /** axe-core run in the page (the source injected, as @axe-core/playwright does), over `include`,
   * with `options`: the same result object as AxeBuilder's `analyze()`. */
  async axe(include, options) {
    const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
    await this.page.evaluate(source);
    return this.page.evaluate(({ include, options }) => window.axe.run({ include: [include] }, options), { include, options });
  }
}

/** `colorScheme` ("light" or "dark") is what pages see as the system's prefers-color-scheme, by the
 * pref behind about:preferences' website appearance (0 dark, 1 light); without it, headless
 * Firefox's own, light. */
export async function launchFirefox({ colorScheme } = {}) {
  const scheme = colorScheme === undefined ? {} : { "layout.css.prefers-color-scheme.content-override": colorScheme === "dark" ? 0 : 1 };
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: process.env.FIREFOX ?? "/usr/bin/firefox-esr",
    headless: true,
    // No update checks, telemetry or first-run pages from a test profile.
    extraPrefsFirefox: {
      "app.update.enabled": false, "browser.shell.checkDefaultBrowser": false, "datareporting.policy.dataSubmissionEnabled": false,
      ...scheme,
    },
  });
  const routes = [];
  return {
    engine: "firefox",
    context: {
      async newPage() {
        return new Page(await browser.newPage(), routes);
      },
      async route(match, handler) { routes.push([matcher(match), handler]); },
      /** Firefox grants no clipboard permission to a page through WebDriver BiDi: the tests that
       * need one check `engine`. */
      async grantPermissions() {},
    },
    async close() { await browser.close(); },
  };
}
