// Node (CommonJS) entry: the whole module, ready on require (./ready.cjs). Its exports are the
// glue's own, spread into a literal, so that Node can read their names from this file for the ES
// module entry (node.mjs): the names are kept nowhere by hand.
"use strict";
const { init, initSync } = require("./ready.cjs");
module.exports = { ...require("../pkg/node/chat_display.js"), default: init, initSync };
