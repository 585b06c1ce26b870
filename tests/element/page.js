// The element's test page: the element alone, with the module and the element entry as the
// package ships them. Tests drive it through window.api and window.t.
import init, * as api from "chat-display";
import { ChatTranscript } from "chat-display/element";

await init();
window.api = api;
window.ChatTranscript = ChatTranscript;
window.t = document.getElementById("t");
document.body.dataset.ready = "true";
