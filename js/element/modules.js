// Which chat-display module the element runs on, loaded by need. Three modules, each able to do
// more than the one before: `chat-display/display` (messages and records into rows, toText),
// `chat-display/core` (with Transcript, for large text, and record validation) and `chat-display`
// (with the provider formats, detectProtocol and streams). A need is met by a module already
// loaded that can meet it, else by loading the smallest that can, once. The imports are bare
// specifiers, so an app that imports `chat-display` itself shares that very instance; a page
// whose import map names only "chat-display" gets the full module for every need.
import { chatDisplayError } from "./errors.js";

export const LEVELS = ["display", "core", "full"];
const SPECIFIERS = { display: "chat-display/display", core: "chat-display/core", full: "chat-display" };
const importers = {
  display: () => import("chat-display/display"),
  core: () => import("chat-display/core"),
  full: () => import("chat-display"),
};

const loading = new Map();
const ready = new Map();

/** The module meeting `level`, when one is loaded already (else null). */
export function loadedFor(level) {
  for (const name of LEVELS.slice(LEVELS.indexOf(level))) if (ready.has(name)) return ready.get(name);
  return null;
}

/**
 * Resolves to an initialized module that can do what `level` names. Rejects with a
 * ChatDisplayError (`module_unavailable`) naming the module that could not be loaded; a later
 * call tries again.
 */
export function need(level) {
  const have = loadedFor(level);
  if (have) return Promise.resolve(have);
  let pending = loading.get(level);
  if (!pending) {
    pending = load(level).finally(() => loading.delete(level));
    loading.set(level, pending);
  }
  return pending;
}

async function load(level) {
  let module;
  try {
    module = await importers[level]();
  } catch (error) {
    // A smaller module's specifier that the page cannot resolve (an import map naming only
    // "chat-display"): the next larger module serves.
    const next = LEVELS[LEVELS.indexOf(level) + 1];
    if (next) return need(next);
    throw unavailable(level, error);
  }
  try {
    await module.default();
  } catch (error) {
    throw unavailable(level, error);
  }
  ready.set(level, module);
  return module;
}

function unavailable(level, error) {
  if (error?.name === "ChatDisplayError") return error;
  const reason = error && typeof error.message === "string" ? error.message : String(error);
  return chatDisplayError("module_unavailable", "$",
    `Could not load ${SPECIFIERS[level]} (its JavaScript or its .wasm file) at $: ${reason}`);
}
