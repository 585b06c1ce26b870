// Node (ES module) entry of `chat-display/core`: the same instance as its CommonJS entry, ready
// on import; every export of the main entry but the provider wire formats and streams.
import wasm from "./core.cjs";

export const {
  extractDisplayItems,
  toDisplayMessages,
  isChatDisplayError,
  newDisplayMessage,
  changeDisplayMessage,
  validateDisplayMessage,
  toText,
  expand,
  isExpandable,
  expandToolResults,
  userMessage,
  assistantMessage,
  systemMessage,
  toolResultMessage,
  decodeSycophant,
  Transcript,
} = wasm;
export const initSync = wasm.initSync;
export default wasm.default;
