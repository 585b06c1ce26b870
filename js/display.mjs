// Node (ES module) entry of `chat-display/display`: the same instance as its CommonJS entry, ready
// on import; the display functions of the main entry alone.
import wasm from "./display.cjs";

export const { extractDisplayItems, toDisplayMessages, isChatDisplayError, toText } = wasm;
export const initSync = wasm.initSync;
export default wasm.default;
