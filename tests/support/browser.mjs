// Debian's Chromium, headless, driven by playwright-core (a test tool's own browser download does
// not work on these machines). Each launch gets a fresh user-data dir. BROWSER=firefox launches
// Debian's Firefox ESR through puppeteer-core instead (tests/support/firefox.mjs), BROWSER=webkit
// WebKitGTK's MiniBrowser over WebDriver (tests/support/webkit.mjs), with the same page methods;
// `engine` says which runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

/** The engine the browser tests run in: "chromium" unless BROWSER=firefox or BROWSER=webkit. */
export const engine = ["firefox", "webkit"].includes(process.env.BROWSER) ? process.env.BROWSER : "chromium";

/** `colorScheme` ("light" or "dark"): the system's prefers-color-scheme that pages see (Chromium
 * can also emulate it per page, `page.emulateMedia`; Firefox and WebKit only this way). */
export async function launchBrowser({ colorScheme } = {}) {
  if (engine === "firefox") return (await import("./firefox.mjs")).launchFirefox({ colorScheme });
  if (engine === "webkit") return (await import("./webkit.mjs")).launchWebKit({ colorScheme });
  const userDataDir = mkdtempSync(join(tmpdir(), "chat-display-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    ...(colorScheme === undefined ? {} : { colorScheme }),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  return {
    engine,
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens `url` in a new page, collecting console errors, page errors and CSP violations. */
export async function openPage(context, url, problems = []) {
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(url);
  return page;
}
