// The highlighter's worker: bundled whole (highlighter.js with highlight.js and its languages) into
// a script that highlight.js's chunk holds as text and starts from a Blob, so that it needs no file
// of its own beside the bundle an app's bundler writes. A block is highlighted whole here, off the
// page's main thread; the page only builds the answer's nodes.
import { highlight, inGroups } from "./highlighter.js";

self.onmessage = ({ data }) => {
  let html = null;
  try {
    html = highlight(String(data.text), data.language);
    if (html !== null) html = inGroups(html);
  } catch {
    html = null; // a grammar that fails on this text: the block stays plain
  }
  self.postMessage({ id: data.id, html });
};
// Started: the page sends blocks here from now on (it waits for this before it trusts the worker).
self.postMessage({ ready: true });
