// Node (ES module) entry of `chat-display/display`: the same instance as its CommonJS entry, ready
// on import; the display functions of the main entry alone, found as the main entry's are
// (./node.mjs).
import wasm from "./display.cjs";

export * from "./display.cjs";
export default wasm.default;
