// The element's test page: the element alone, with the module and the element entry as the
// package ships them. Tests drive it through window.api and window.t.
import init, * as api from "chat-display";
import initDisplay from "chat-display/display";
import { ChatTranscript } from "chat-display/element";

// The module the element shows records with (it starts loading it when it connects), ready
// before the tests run, so that find counts at once.
await Promise.all([init(), initDisplay()]);
window.api = api;
window.ChatTranscript = ChatTranscript;
window.t = document.getElementById("t");
document.body.dataset.ready = "true";
