// Syntax highlighting for Markdown code blocks, loaded by markdown.js the first time a code block
// with a language is shown (its own chunk of pkg/element/). The highlighting runs in a worker,
// started from a Blob of the worker's script (highlight-worker.js, bundled into this chunk as
// text), so that a long block costs the page only the building of its nodes (bench/ELEMENT.md,
// "Markdown"). Where no worker can start (a Content-Security-Policy without `worker-src blob:`, a
// runtime without workers), highlighter.js is loaded into the page instead and highlights a block
// a piece at a time, a task each. Answers are kept (by language and text) so that a row built again
// shows its code highlighted at once, and a streaming block shows the highlight of its text so far.
import sheet from "./highlight.css";
import workerScript from "./highlight-worker.js?worker-script";

/** The colours of highlighted code (its classes), light and dark: a style sheet's text. */
export { sheet as css };

/** How long the worker may take to start before the page highlights in its stead. */
const START_WAIT = 3000;
/** The characters of code whose highlight is kept (the oldest go first). */
const KEEP = 4_000_000;

const kept = new Map(); // `${language}\n${text}` -> html, or null for a language not known
let keptChars = 0;
const queue = []; // {key, text, language, resolve}, in order; queue[0] is with the highlighter
let worker = null; // the Worker once asked for; null before and after it failed
let started = false; // the worker said it runs
let inPage = null; // a promise of highlighter.js in the page, once the worker failed
let nextId = 1;

function keep(key, html) {
  kept.delete(key);
  kept.set(key, html);
  keptChars += key.length;
  for (const [old] of kept) {
    if (keptChars <= KEEP) break;
    kept.delete(old);
    keptChars -= old.length;
  }
}

/**
 * `text` highlighted as `language` if it was before: highlight.js's HTML (spans with `hljs-*`
 * classes around the escaped text), null for a language it does not know, undefined when it has
 * not been asked yet or is still under way.
 */
export function known(text, language) {
  return kept.get(`${language}\n${text}`);
}

/**
 * The longest text highlighted as `language` that `text` starts with, `{html, length}`, or null:
 * what a streaming block shows while its whole text is with the highlighter.
 */
export function knownStart(text, language) {
  const prefix = `${language}\n`;
  let best = null;
  for (const [key, html] of kept) {
    const length = key.length - prefix.length;
    if (html === null || length > text.length || (best && length <= best.length)) continue;
    if (key.startsWith(prefix) && text.startsWith(key.slice(prefix.length))) best = { html, length };
  }
  return best;
}

/**
 * Highlights `text` as `language`: resolves to the HTML (as `known` gives it), or to undefined
 * when a longer text of the same language, asked for later, took its place in the queue before it
 * started (a streaming block's earlier text).
 */
export function highlight(text, language) {
  const key = `${language}\n${text}`;
  if (kept.has(key)) return Promise.resolve(kept.get(key));
  const same = queue.find((job) => job.key === key);
  if (same) return same.promise;
  // A streaming block's earlier texts that have not started are not needed any more.
  for (let i = queue.length - 1; i >= 1; i--) {
    const job = queue[i];
    if (job.language === language && text.startsWith(job.text)) {
      queue.splice(i, 1);
      job.resolve(undefined);
    }
  }
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  queue.push({ key, text, language, resolve, promise, id: 0 });
  if (queue.length === 1) next();
  return promise;
}

/** Sends the queue's first job to the highlighter, once it runs. */
function next() {
  const job = queue[0];
  if (!job) return;
  if (inPage) {
    inPage.then((page) => inPageHighlight(page, job));
    return;
  }
  if (!worker) startWorker();
  if (worker && started && job.id === 0) {
    job.id = nextId++;
    worker.postMessage({ id: job.id, text: job.text, language: job.language });
  }
}

/** The first job is done: `html` kept and given, the next one started. */
function finish(html) {
  const job = queue.shift();
  if (!job) return;
  keep(job.key, html);
  job.resolve(html);
  next();
}

function startWorker() {
  let url = null;
  try {
    url = URL.createObjectURL(new Blob([workerScript], { type: "text/javascript" }));
    worker = new Worker(url);
  } catch {
    useThePage();
    return;
  } finally {
    if (url) setTimeout(() => URL.revokeObjectURL(url), START_WAIT);
  }
  const wait = setTimeout(useThePage, START_WAIT);
  worker.onmessage = ({ data }) => {
    if (data?.ready) {
      clearTimeout(wait);
      started = true;
      next();
    } else if (queue[0] && data?.id === queue[0].id) {
      finish(typeof data.html === "string" ? data.html : null);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    clearTimeout(wait);
    useThePage();
  };
}

/** No worker: highlighter.js in the page, the queue's jobs done there from now on. */
function useThePage() {
  if (inPage) return;
  worker?.terminate();
  worker = null;
  started = false;
  for (const job of queue) job.id = 0;
  inPage = import("./highlighter.js");
  inPage.then(() => next(), () => {
    // The chunk could not load either: every block stays plain.
    for (const job of queue.splice(0)) job.resolve(null);
  });
}

/** One job highlighted in the page: its grammar compiled in a task, then a piece a task. */
function inPageHighlight(page, job) {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
  (async () => {
    try {
      page.prepare(job.language);
      await pause();
      let html = "";
      for (let start = 0; ;) {
        const piece = page.highlightPiece(job.text, job.language, start);
        if (piece === null) return null;
        html += piece.html;
        if (piece.end >= job.text.length) return page.inGroups(html);
        start = piece.end;
        await pause();
      }
    } catch {
      return null;
    }
  })().then((html) => {
    if (queue[0] === job) finish(html);
  });
}

/** What highlight.js's HTML never holds: a tag other than `<span class="...">` and `</span>`, or an
 * entity other than the five its escaping writes. */
const FOREIGN = /<(?!span class="[^"<>&]*">|\/span>)|&(?!(?:amp|lt|gt|quot|#x27);)/;

/**
 * Sets `element`'s content to highlight.js's HTML `html`, parsed by the page's HTML parser once it is
 * checked to hold nothing but spans with a class and escaped text, so that no sanitizer needs to
 * walk it (a 500-line block: about 2,500 spans). False, changing nothing, for anything else (the
 * caller sanitizes that instead) or where the page's policy refuses HTML from strings (Trusted
 * Types). The nodes are those a sanitizer that keeps spans and classes gives
 * (tests/element/element.test.mjs).
 */
export function fill(element, html) {
  if (FOREIGN.test(html)) return false;
  try {
    element.innerHTML = html;
    return true;
  } catch {
    return false;
  }
}
