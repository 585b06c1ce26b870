// The element with no module loaded by the page (tests/element/modules.test.mjs): what it loads
// is its own doing.
import "chat-display/element";

window.t = document.getElementById("t");
document.body.dataset.ready = "true";
