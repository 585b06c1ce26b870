// Node (CommonJS) entry of `chat-display/display`: the module of the display functions alone
// (extractDisplayItems, toDisplayMessages, isChatDisplayError, toText), within 35 KB gzipped.
// Ready on require, like the main entry (./node.cjs, which says how its exports are
// re-exported).
"use strict";
// The shape of ./node.cjs (which says why).
var __exportStar = function (m, e) { for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(e, p)) e[p] = m[p]; };
Object.defineProperty(exports, "__esModule", { value: true });
const { init, initSync } = require("./ready.cjs");
exports.default = init;
exports.initSync = initSync;
__exportStar(require("../pkg/display/node/chat_display.js"), exports);
