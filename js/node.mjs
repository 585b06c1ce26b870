// Node (ES module) entry: the same instance as the CommonJS entry, ready on import. Its named
// exports are the CommonJS entry's, which Node finds by reading node.cjs (the spread `require` of
// the glue is a re-export to cjs-module-lexer), so they are the glue's exports and `initSync`
// with no list kept here; tests/js/package.test.mjs and entries.test.mjs hold every entry to the
// same names in both module systems. The default export (init) resolves at once, so universal
// code can always `await init()`.
import wasm from "./node.cjs";

export * from "./node.cjs";
export default wasm.default;
