// Node (ES module) entry of `chat-display/core`: the same instance as its CommonJS entry, ready
// on import; every export of the main entry but the provider wire formats and streams, found as
// the main entry's are (./node.mjs).
import wasm from "./core.cjs";

export * from "./core.cjs";
export default wasm.default;
