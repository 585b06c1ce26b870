// Node (ES module) entry: the same instance as the CommonJS entry, ready on import. The default
// export (init) resolves at once, so universal code can always `await init()`.
import wasm from "./node.cjs";

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
  fromProvider,
  detectProtocol,
  toProvider,
  Transcript,
  StreamAccumulator,
} = wasm;
export const initSync = wasm.initSync;
export default wasm.default;
