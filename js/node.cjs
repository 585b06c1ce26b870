// Node (CommonJS) entry: the whole module, ready on require (./ready.cjs). Its exports are the
// glue's own, re-exported in a form Node can read their names from for the ES module entry
// (node.mjs): the names are kept nowhere by hand.
"use strict";
// The shape TypeScript gives a compiled ES module: `__esModule`, so that a default import compiled
// to CommonJS (tsc, Babel, esbuild) gets `default` (init) rather than the whole object, and the
// glue's exports copied by `__exportStar(require(...), exports)`, a form Node's cjs-module-lexer
// reads as a re-export (and @arethetypeswrong/cli as exports of this module, typed by node.d.cts).
var __exportStar = function (m, e) { for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(e, p)) e[p] = m[p]; };
Object.defineProperty(exports, "__esModule", { value: true });
const { init, initSync } = require("./ready.cjs");
exports.default = init;
exports.initSync = initSync;
__exportStar(require("../pkg/node/chat_display.js"), exports);
