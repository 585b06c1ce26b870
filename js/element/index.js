// chat-display/element: registers <chat-transcript> on import (once, however often it is imported)
// and exports its class. Safe to import on a server, where it registers nothing.
import { ChatTranscript } from "./element.js";

// On a server there is no registry: importing does nothing there (the class says it is
// browser-only when made).
if (typeof customElements !== "undefined" && !customElements.get("chat-transcript")) customElements.define("chat-transcript", ChatTranscript);

export { ChatTranscript };
