// Types of the Node entry js/display.mjs: the glue's declarations (Node's, with no DOM types) and the two
// functions the entry adds (./ready.cjs), which have nothing left to do: the module is ready on load.
export * from "../pkg/display/node/chat_display.js";
/** Resolves to `undefined` at once: in Node the module is ready on import. Kept so that code
 * written for browsers (`await init()`) runs unchanged. */
export default function init(options?: unknown): Promise<void>;
/** Does nothing in Node (the module is ready on import); kept for universal code. */
export function initSync(options?: unknown): void;
