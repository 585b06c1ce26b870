// chat-display/element: registers <chat-transcript> on import (once, however often it is imported)
// and exports its class.
import { ChatTranscript } from "./element.js";

if (!customElements.get("chat-transcript")) customElements.define("chat-transcript", ChatTranscript);

export { ChatTranscript };
