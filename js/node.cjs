// Node (CommonJS) entry: the whole module, ready on require (./ready.cjs).
"use strict";
module.exports = require("./ready.cjs")(require("../pkg/node/chat_display.js"));
