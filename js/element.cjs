// `require("chat-display/element")` (the package's `require` condition for ./element, which runtimes
// such as Node and Bun use; a bundler for browsers takes the `browser` condition first, the ES
// module pkg/element/index.js, for `require` too). <chat-transcript> renders into the DOM, so
// what CommonJS gets is the stand-in that the ES module exports on a server: requiring it defines
// nothing and throws nothing, and `ChatTranscript` is there so that code naming it loads, but
// making one throws a ChatDisplayError saying the element is browser-only. In a browser, import
// the ES module (`import "chat-display/element"`), which registers the element.
"use strict";

class ChatTranscript {
  constructor() {
    const error = new Error("<chat-transcript> is browser-only: it renders into the DOM, and require(\"chat-display/element\") gives only this stand-in. Create it in the browser, where import \"chat-display/element\" (an ES module) registers it.");
    error.name = "ChatDisplayError";
    error.code = "invalid_input";
    error.path = "$";
    throw error;
  }
}

Object.defineProperty(exports, "__esModule", { value: true });
exports.ChatTranscript = ChatTranscript;
