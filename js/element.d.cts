// Types of js/element.cjs, what `require("chat-display/element")` gives (TypeScript's node16 and
// nodenext resolution of a CommonJS file): the server stand-in of <chat-transcript>'s class. The
// element itself, its properties and events, and the tag's types for React and Vue are the ES
// module's (pkg/element/index.d.ts), which `import` resolves to.

/**
 * The stand-in for `<chat-transcript>`'s class outside a browser: requiring the module defines
 * nothing, and making one throws a `ChatDisplayError` (`code` `"invalid_input"`) saying that the
 * element is browser-only. In a browser, `import "chat-display/element"` registers the element.
 */
export declare const ChatTranscript: new () => never;
