// <chat-transcript>: display-message records rendered as a chat, with only the rows near the
// viewport in the DOM. A row is one record; a tool result that pairs with a call shows inside the
// call's row (its own row is empty). Rows are grouped into turns by CSS: a user bubble, then the
// assistant's reply with its thinking, tool calls and results.
//
// Windowing is @tanstack/virtual-core's: heights are estimated, measured as rows render, and cached;
// the scroll position is corrected when rows above the viewport change height.
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from "@tanstack/virtual-core";
import css from "./style.css";
import { chatDisplayError } from "./errors.js";
import { el, renderRecord, updateStreamingText } from "./render.js";
import { highlightBlock, need as loadPart, onLazyLoad, part, plainCodeBlocks } from "./markdown.js";
import { imageSource } from "./policy.js";
import { Store } from "./store.js";
import { loadedFor, need } from "./modules.js";

/** How far apart (in records) a tool call and its result may be and still pair in one row. */
const PAIR_WINDOW = 256;
/** A row's height before it is measured, in pixels. */
const ESTIMATE = 72;
/** How close to the end (in pixels) counts as at the end, for following a stream. */
const AT_END = 48;

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
/** After the next frame's rendering (or at once where no frame comes, a hidden page). */
const afterFrame = () => new Promise((resolve) => {
  requestAnimationFrame(() => setTimeout(resolve, 0));
  if (document.hidden) setTimeout(resolve, 0);
});

let sheet = null;
let codeSheet = null;
/** The element's style sheets: its own, and the highlighter's colours once it has loaded. */
function styles() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  const highlighter = part("highlight");
  if (highlighter && !codeSheet) {
    codeSheet = new CSSStyleSheet();
    codeSheet.replaceSync(highlighter.css);
  }
  return codeSheet ? [sheet, codeSheet] : [sheet];
}

/** Which turn a record belongs to: a tool message's records are part of the assistant's turn. */
function turnOf(record) {
  const role = record?.message_type;
  if (role === "user" || role === "system") return role;
  if (role === "assistant" || role === "tool") return "assistant";
  return record?.content_type === "error" ? "error" : "assistant";
}

/** The message actions an element shows until the app sets its own. */
const DEFAULT_ACTIONS = Object.freeze([Object.freeze({ id: "copy", label: "Copy" })]);
/** Stream starts remembered (a reply streams after the one before; older ones are done). */
const STREAMS_KEPT = 16;

/** True for a value the DOM can insert: a Node of this window or of another (an iframe's). */
const isNode = (value) => value !== null && typeof value === "object" && typeof value.nodeType === "number" && typeof value.cloneNode === "function";

const TURN_LABELS = { user: "You said", assistant: "The assistant said", system: "System", error: "Could not be read" };

/**
 * What reads a conversation for `load` and `src` (input.js), its own chunk of pkg/element/: a page
 * that only sets `records` never fetches it. Rejects with a ChatDisplayError (`module_unavailable`)
 * when it cannot be fetched; a later `load` tries again.
 */
let loading = null;
function loader() {
  loading ??= import("./input.js").catch((error) => {
    loading = null;
    throw chatDisplayError("module_unavailable", "$", `Could not load the element's reader (input.js, beside chat-display/element) at $: ${error?.message ?? error}`);
  });
  return loading;
}

const superseded = () => chatDisplayError("invalid_input", "$", "A later load replaced this one.");

function asError(error) {
  if (error?.name === "ChatDisplayError") return error;
  return chatDisplayError("invalid_input", "$", error?.message ?? String(error));
}

/** Wraps each case-insensitive match of `query` (already lowercased) in `root`'s text in <mark>. */
function highlight(root, query) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest(".copy, .visually-hidden, .chevron") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const lower = node.data.toLowerCase();
    let at = lower.indexOf(query);
    if (at < 0) continue;
    const parts = [];
    let from = 0;
    while (at >= 0) {
      parts.push(node.data.slice(from, at), el("mark", { class: "hit" }, node.data.slice(at, at + query.length)));
      from = at + query.length;
      at = lower.indexOf(query, from);
    }
    parts.push(node.data.slice(from));
    node.replaceWith(...parts);
  }
  for (const details of root.querySelectorAll("details:not([open])")) {
    if (details.querySelector("mark.hit")) {
      details.dataset.searchOpened = "true";
      details.open = true;
    }
  }
}

/**
 * What the element extends: HTMLElement in a browser. On a server (Node, Deno, Bun, the server
 * build of Next.js, Astro or SvelteKit), where frameworks evaluate a page's imports first, a
 * stand-in, so that importing the element there defines nothing and throws nothing; making one
 * there says the element is browser-only.
 */
const Base = typeof HTMLElement === "function" ? HTMLElement : class {
  constructor() {
    throw chatDisplayError("invalid_input", "$", "<chat-transcript> is browser-only: it renders into the DOM, which this runtime does not have. Create it in the browser (a client component, onMount, useEffect).");
  }
};

export class ChatTranscript extends Base {
  static observedAttributes = ["src", "theme"];

  #store = new Store();
  #virtualizer = null;
  #unmount = null;
  #scroller;
  #spacer;
  #list;
  #jump;
  #zoom;
  #mounted = new Map(); // record index -> row element in the DOM
  #dirty = new Set(); // record indices whose rows must be built again
  #grown = new Set(); // streaming text records that grew: their document is updated in place
  #frame = 0;
  #open = new Map(); // record index -> open, for foldable blocks the reader or the search set
  #searchOpened = new Set();
  #calls = new Map(); // memo: result index -> the index of the call it pairs with, or -1
  #leads = new Map(); // memo: text record index -> the first text record of its run in one message
  #query = "";
  #hits = [];
  #hit = -1;
  #follow = true;
  #imageHosts = new Set();
  #loads = 0;
  #src = null; // the src attribute value last fetched (or being fetched)
  #refocus = null;
  #pendingScroll = null;
  #patched = false; // patches have changed the records: the view follows the end while at it
  #renderers = {};
  #lazyOff = null;
  #residue = 0; // the part of a pixel of an anchoring correction not made yet
  #participants = {};
  #keyShift = 0; // records prepended since the store was set: a row's key is its index minus this
  #reachedStart = false; // cd-reach-start fired, and no prepend since
  #unseen = 0; // records added at the end while the reader was scrolled away
  #ids = null; // memo: record id -> index, for upsert
  #announce;
  #actions = DEFAULT_ACTIONS;
  #highlighting = false; // #highlightShown is under way
  #highlightAgain = false; // and is asked for again
  #streams = new Map(); // a StreamAccumulator's id (its patches' `stream`) -> where its records start

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = styles();
    this.#list = el("div", { class: "list", role: "feed", "aria-label": "Conversation", "aria-busy": "false" });
    this.#spacer = el("div", { class: "spacer" }, this.#list);
    this.#scroller = el("div", { class: "scroller", part: "scroller", tabindex: "0" }, this.#spacer);
    this.#jump = el("button", { type: "button", class: "jump", part: "jump", hidden: true }, "Jump to latest ↓");
    // What arrived while the reader was away, said politely (the button's own words change too).
    this.#announce = el("div", { class: "visually-hidden", role: "status", "aria-live": "polite" });
    this.#jump.addEventListener("click", () => {
      this.#follow = true;
      this.#hideJump();
      this.#toEnd();
    });
    const zoomed = el("img", { alt: "", referrerpolicy: "no-referrer" });
    this.#zoom = el("dialog", { class: "zoom-view", part: "zoom", "aria-label": "Image" },
      el("form", { method: "dialog" }, el("button", { class: "close", "aria-label": "Close" }, "✕")), zoomed);
    this.#zoom.addEventListener("click", (event) => { if (event.target !== zoomed) this.#zoom.close(); });
    this.#scroller.addEventListener("scroll", () => {
      const s = this.#scroller;
      this.#follow = s.scrollHeight - s.scrollTop - s.clientHeight < AT_END;
      if (this.#follow) this.#hideJump();
      // Within a screen of the first record: the app may page older ones in (once per prepend).
      if (!this.#reachedStart && this.#store.length && s.scrollTop < s.clientHeight && this.#virtualizer) {
        this.#reachedStart = true;
        this.#emit("cd-reach-start", { index: 0, record: this.#store.get(0) }, false);
      }
    }, { passive: true });
    this.#list.addEventListener("click", (event) => this.#clicked(event));
    root.append(this.#scroller, this.#jump, this.#announce, this.#zoom);
  }

  connectedCallback() {
    // A part loaded on first need arrived: the highlighter (its colours adopted, the code shown
    // highlighted in place), the typesetter (the rows in view built again) or the streaming part
    // (the streaming documents shown updated in place). One that could not be fetched says so.
    this.#lazyOff ??= onLazyLoad((name, error) => {
      if (!error && name === "highlight") this.shadowRoot.adoptedStyleSheets = styles();
      if (!error && name === "highlight" && !this.#query) this.#highlightShown();
      else if (!error && name === "stream") this.#streamArrived();
      else if (!error) this.#invalidate();
      else if (this.isConnected) {
        const what = { highlight: "the syntax highlighter", math: "the math typesetter", stream: "the streaming renderer" }[name];
        const then = { highlight: "code shows plain", math: "math shows as its source", stream: "streaming text shows as it arrives" }[name];
        const failure = chatDisplayError("module_unavailable", "$", `Could not load ${what} (${error?.message ?? error}); ${then}.`);
        if (name === "stream") this.#invalidate();
        this.#emit("cd-error", failure, false);
      }
    });
    // The smallest module, which records need for their search text, starts loading now, so
    // that find counts at once when records are set (ELEMENT.md "What it loads, when").
    need("display").catch(() => {});
    this.#mount();
    const src = this.getAttribute("src");
    // Upgraded from markup, attributeChangedCallback has already started this src.
    if (src && src !== this.#src && this.#loads === 0) this.#loadSrc(src);
  }

  /**
   * The highlighter (or a language's grammar) arrived: the code blocks shown that wait for it are
   * highlighted in place, a block a task, the rows and the streaming document staying as they are
   * (building the rows in view again put a message's whole document, and every block's first
   * highlight, in one task: bench/ELEMENT.md, 2026-12-06 13:10 UTC). Blocks built later are highlighted
   * as they are built.
   */
  async #highlightShown() {
    if (this.#highlighting) {
      this.#highlightAgain = true;
      return;
    }
    this.#highlighting = true;
    try {
      do {
        this.#highlightAgain = false;
        for (const code of [...this.#mounted.values()].flatMap((row) => plainCodeBlocks(row))) {
          if (this.#query) {
            this.#invalidate();
            return;
          }
          highlightBlock(code);
          await pause();
        }
      } while (this.#highlightAgain);
    } finally {
      this.#highlighting = false;
    }
  }

  /** The streaming part arrived: the streaming documents shown show their last block, healed,
   * in place (the blocks before stay the same nodes); one inside an app's renderer, by building
   * its row again. */
  #streamArrived() {
    for (const [index, row] of this.#mounted) {
      const prose = [...row.querySelectorAll(".prose")].find((node) => node.streamed);
      if (!prose) continue;
      if (row.querySelector(":scope > .record > .prose") === prose) this.#grown.add(index);
      else this.#dirty.add(index);
    }
    this.#schedule();
  }

  disconnectedCallback() {
    this.#lazyOff?.();
    this.#lazyOff = null;
    this.#unmount?.();
    this.#unmount = null;
    this.#virtualizer = null;
  }

  attributeChangedCallback(name, previous, value) {
    if (name === "src" && value && value !== previous && value !== this.#src && this.isConnected) this.#loadSrc(value);
  }

  /** Hosts whose Markdown images load at once (`["images.example.com"]`); others wait for a click. */
  get imageHosts() {
    return [...this.#imageHosts];
  }

  set imageHosts(hosts) {
    this.#imageHosts = new Set(Array.from(hosts ?? [], String));
    this.#invalidate();
  }

  /**
   * The app's own rendering, per content type (`"text"`, `"tool_call"`, ...) and per tool name
   * (`"tool:get_weather"`, for that tool's call row). Setting it builds the rows in view again.
   */
  get renderers() {
    return { ...this.#renderers };
  }

  set renderers(renderers) {
    if (renderers !== null && renderers !== undefined && (typeof renderers !== "object" || Array.isArray(renderers))) {
      throw chatDisplayError("invalid_input", "$", "Expected an object of renderers (content type or \"tool:<name>\" to a function) at $.");
    }
    const kept = {};
    for (const [key, renderer] of Object.entries(renderers ?? {})) {
      if (renderer === null || renderer === undefined) continue;
      if (typeof renderer !== "function") throw chatDisplayError("invalid_input", `$.${key}`, `Expected a function at $.${key}.`);
      kept[key] = renderer;
    }
    this.#renderers = kept;
    this.#leads.clear(); // a text renderer takes text records one by one
    this.#invalidate();
  }

  /** The buttons under each assistant message (`[{id, label}]`); `[]` shows none. */
  get actions() {
    return this.#actions.map((action) => ({ ...action }));
  }

  set actions(actions) {
    const list = actions === null || actions === undefined ? DEFAULT_ACTIONS : actions;
    if (!Array.isArray(list)) throw chatDisplayError("invalid_input", "$", "Expected an array of actions ({id, label}) at $.");
    list.forEach((action, i) => {
      if (typeof action?.id !== "string" || action.id === "" || typeof action.label !== "string") {
        throw chatDisplayError("invalid_input", `$[${i}]`, `Expected an action with a string id and label at $[${i}].`);
      }
    });
    this.#actions = Object.freeze(list.map(({ id, label }) => Object.freeze({ id, label })));
    this.#invalidate();
  }

  /**
   * Loads a conversation: JSON text (a string or UTF-8 bytes) or a parsed value of any shape that
   * `Transcript.fromJson` or `detectProtocol` accepts. Resolves to the counts; rejects (and fires
   * `cd-error`) with a ChatDisplayError for input that is not a conversation at all.
   */
  async load(input) {
    const load = ++this.#loads;
    this.#list.setAttribute("aria-busy", "true");
    try {
      if (input instanceof ArrayBuffer) input = new Uint8Array(input);
      // Text this large goes into a Transcript (input.js, LARGE): chat-display/core is fetched
      // beside the reader, not after it (a failure rejects below, where openInput needs it).
      if ((typeof input === "string" || input instanceof Uint8Array) && input.length >= 1 << 20) need("core").catch(() => {});
      const { openInput, isLoadError, notJson } = await loader();
      const opened = await openInput(input, need);
      if (load !== this.#loads) {
        opened.transcript?.free();
        throw superseded();
      }
      this.#setStore(new Store(opened), opened.api);
      const store = this.#store;
      // A large conversation's first rows are shown from the elements read so far; the rest are
      // read after the first frame, a slice a task, the list growing at its end.
      // Text that is not JSON past the first rows rejects here, those read staying shown.
      await store.readAll(pause, afterFrame).catch((error) => {
        throw notJson(error, input) ?? error;
      });
      if (store !== this.#store) throw superseded();
      // The module makes the search text next, a slice a task, while `load` resolves to the
      // counts it has at once (Transcript.counts); a search makes what is left itself.
      store.index(pause).catch(() => {});
      const counts = store.count(isLoadError);
      this.#list.setAttribute("aria-busy", "false");
      this.dispatchEvent(new CustomEvent("cd-load", { detail: counts }));
      return counts;
    } catch (error) {
      const failure = asError(error);
      // A load that a later one (or a records assignment) replaced is no error to show.
      if (load === this.#loads) {
        this.#list.setAttribute("aria-busy", "false");
        this.dispatchEvent(new CustomEvent("cd-error", { detail: failure }));
      }
      throw failure;
    }
  }

  async #loadSrc(src) {
    this.#src = src;
    const loads = this.#loads;
    // Dropped when another src, a load() or a records assignment came while it was fetched.
    const current = () => this.#src === src && this.#loads === loads;
    let bytes;
    try {
      const response = await fetch(new URL(src, document.baseURI), { credentials: "same-origin" });
      if (!response.ok) throw new Error(`Could not load ${src}: HTTP ${response.status}.`);
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (current()) this.dispatchEvent(new CustomEvent("cd-error", { detail: asError(error) }));
      return;
    }
    if (current()) await this.load(bytes).catch(() => {});
  }

  /** Every record shown, as an array (for a large conversation this makes every record object). */
  get records() {
    return this.#store.all();
  }

  set records(records) {
    if (!Array.isArray(records)) throw chatDisplayError("invalid_input", "$", "Expected an array of display-message records at $.");
    this.#loads++;
    this.#list.setAttribute("aria-busy", "false");
    const shown = this.#store.transcript ? null : this.#store.all();
    if (shown?.length && records.length > shown.length && this.#virtualizer &&
        records[records.length - shown.length] === shown[0] && records.at(-1) === shown.at(-1)) {
      // The records shown before, with older ones in front (`[...older, ...old]`): a prepend.
      let same = true;
      for (let i = 0, k = records.length - shown.length; same && i < shown.length; i++) same = records[k + i] === shown[i];
      if (same) {
        this.prepend(records.slice(0, records.length - shown.length));
        return;
      }
    }
    if (shown?.length && records.length >= shown.length && records[0] === shown[0] && this.#virtualizer) {
      // The same conversation again, grown or changed in place (what a framework sets on each
      // render): the view, open blocks and search stay; only rows whose record changed are built
      // again, and added records follow the end while the reader is at it.
      const patches = [];
      for (let i = 0; i < shown.length; i++) if (records[i] !== shown[i]) patches.push({ op: "replace", index: i, record: records[i] });
      for (let i = shown.length; i < records.length; i++) patches.push({ op: "add", record: records[i] });
      if (patches.length) this.#apply(patches, 0);
      return;
    }
    this.#setStore(new Store({ records: records.slice() }));
  }

  /**
   * Applies `StreamAccumulator.push`'s patches; only the rows they touch are built again. A patch's
   * `index` counts from the first record of its own stream: the array `push` returns names its
   * accumulator (`stream`), whose records start where the records ended when its first patches
   * came. `base` says where instead (for patches copied out of that array, or made by hand).
   */
  applyPatches(patches, { base } = {}) {
    loadPart("stream"); // a page that streams: the healer, before the first token needs it
    let start = 0;
    if (Number.isInteger(base) && base >= 0) {
      start = base;
    } else if (Array.isArray(patches) && Number.isInteger(patches.stream)) {
      start = this.#streams.get(patches.stream);
      if (start === undefined) {
        start = this.#store.length;
        this.#streams.set(patches.stream, start);
        if (this.#streams.size > STREAMS_KEPT) this.#streams.delete(this.#streams.keys().next().value);
      }
    }
    this.#apply(patches, start);
  }

  #apply(patches, start) {
    const store = this.#store;
    const s = this.#scroller;
    const atEnd = s.scrollHeight - s.scrollTop - s.clientHeight < AT_END;
    let added = false;
    let addedCount = 0;
    const at = (index) => Number.isInteger(index) && index >= 0 && start + index < store.length;
    for (const patch of Array.isArray(patches) ? patches : []) {
      if (patch?.op === "add") {
        // The record before it may have ended its message: its row (and actions) change.
        if (store.length) this.#dirty.add(store.length - 1);
        const id = patch.record?.id;
        if (this.#ids && id !== undefined && id !== null && !this.#ids.has(id)) this.#ids.set(id, store.length);
        store.push(patch.record);
        added = true;
        addedCount++;
      } else if (patch?.op === "replace" && at(patch.index)) {
        const old = store.get(start + patch.index)?.id;
        if (this.#ids && old !== patch.record?.id) this.#ids = null; // an id changed: made again on need
        store.set(start + patch.index, patch.record);
        this.#dirty.add(start + patch.index);
      } else if (patch?.op === "append" && at(patch.index) && typeof patch.field === "string") {
        const index = start + patch.index;
        const record = store.get(index);
        if (!record) continue;
        const before = record.content?.[patch.field];
        store.set(index, { ...record, content: { ...record.content, [patch.field]: (typeof before === "string" ? before : "") + patch.text } });
        // A streaming text that grew: its document is updated in place (#render), not rebuilt.
        if (patch.field === "text" && record.content_type === "text" && record.metadata?.streaming === true) this.#grown.add(index);
        else this.#dirty.add(index);
      }
    }
    this.#calls.clear();
    this.#leads.clear();
    if (this.#query) this.#hits = store.search(this.#query);
    this.#patched = true;
    if (atEnd) this.#follow = true;
    else if (!this.#follow) this.#showJump(addedCount);
    if (added) this.#resize();
    this.#schedule();
  }

  /**
   * Shows older records before the first one shown, the record the reader looks at staying where it
   * is on screen. The whole call is checked first: anything that is not a record, or a record of
   * another conversation, throws `invalid_input` and nothing of the call is shown.
   */
  prepend(records) {
    this.#check(records, "prepend");
    if (!records.length) return;
    const k = records.length;
    const v = this.#virtualizer;
    // The row the reader's eyes are on: the first one wholly in view of the first message that
    // starts among those shown, or after it. The rows before it may change: the first record's turn
    // label and spacing depend on the record before it, and a message cut by the page boundary
    // becomes one Markdown document with its older part.
    // The rows wholly in view, from the first message that starts among those shown on, with where
    // they are: the first of them still shown afterwards is put back where it was. (The rows before
    // may change: the first record's turn label depends on the record before it, a message the page
    // boundary cut becomes one document with its older part, and a tool result may pair with a call
    // the prepend brings.)
    const eyes = [];
    if (v && this.isConnected) {
      let stable = 1;
      // (A tool message starts a message but its results may pair with a call the prepend brings.)
      const settled = (record) => record?.sequence === 0 && record.message_type !== "tool";
      while (stable < this.#store.length && stable < 4096 && !settled(this.#store.get(stable))) stable++;
      const top = this.#scroller.getBoundingClientRect().top;
      for (const index of [...this.#mounted.keys()].sort((a, b) => a - b)) {
        const row = this.#mounted.get(index);
        if (index < stable || row.hidden) continue;
        const at = row.getBoundingClientRect().top;
        if (at >= top - 0.5) eyes.push({ index: index + k, at });
      }
    }
    this.#store.prepend(records);
    this.#keyShift += k;
    this.#shift(k);
    this.#reachedStart = false;
    if (!v) return;
    // The rows above the reader's have their estimated heights until they are measured; the scroll
    // position moves by as much as they take, and the render puts the reader's row back exactly.
    this.#resize();
    const estimate = v.getMeasurements()[k]?.start ?? k * ESTIMATE;
    this.#spacer.style.height = `${v.getTotalSize()}px`;
    this.#scroller.scrollTop += estimate;
    v.scrollOffset = this.#scroller.scrollTop; // what the scroll event will tell it
    this.#render(eyes);
    this.#warmIds();
  }

  /**
   * Replaces each record whose `id` is shown, in place (only its row is built again; the view, open
   * rows and search stay), and adds the others after the last record, as a stream adds them. Every
   * record needs an `id`; the whole call is checked first, as `prepend`'s is.
   */
  upsert(records) {
    this.#check(records, "upsert");
    const ids = this.#idIndex();
    const patches = [];
    for (const record of records) {
      const at = ids.get(record.id);
      if (at !== undefined) patches.push({ op: "replace", index: at, record });
      else patches.push({ op: "add", record });
    }
    if (patches.length) this.#apply(patches, 0);
  }

  /** Who speaks, by `message_type`: `{name, avatar}` shown at each message's start. */
  get participants() {
    return Object.fromEntries(Object.entries(this.#participants).map(([k, v]) => [k, { ...v }]));
  }

  set participants(participants) {
    if (participants !== null && participants !== undefined && (typeof participants !== "object" || Array.isArray(participants))) {
      throw chatDisplayError("invalid_input", "$", "Expected an object of participants (message_type to {name, avatar}) at $.");
    }
    const kept = {};
    for (const [type, who] of Object.entries(participants ?? {})) {
      if (who === null || who === undefined) continue;
      if (typeof who !== "object") throw chatDisplayError("invalid_input", `$.${type}`, `Expected {name, avatar} at $.${type}.`);
      kept[type] = {
        ...(typeof who.name === "string" ? { name: who.name } : {}),
        ...(typeof who.avatar === "string" ? { avatar: who.avatar } : {}),
      };
    }
    this.#participants = kept;
    this.#invalidate();
  }

  /** Throws `invalid_input` for a call of `prepend` / `upsert` that is not records of the
   * conversation shown (an upsert's each with an `id`), naming the first bad record. */
  #check(records, method) {
    if (!Array.isArray(records)) throw chatDisplayError("invalid_input", "$", `${method} takes an array of display-message records ($).`);
    const shownId = this.#conversationId();
    records.forEach((record, i) => {
      const path = `$[${i}]`;
      if (record === null || typeof record !== "object" || Array.isArray(record) || !("content_type" in record)) {
        throw chatDisplayError("invalid_input", path, `Expected a display-message record (an object with content_type) at ${path}.`);
      }
      if (method === "upsert" && (typeof record.id !== "string" || record.id === "") && !Number.isInteger(record.id)) {
        throw chatDisplayError("invalid_input", `${path}.id`, `upsert needs each record's id; the record at ${path} has none.`);
      }
      const id = record.conversation_id;
      if (shownId !== null && id !== null && id !== undefined && id !== shownId) {
        throw chatDisplayError("invalid_input", `${path}.conversation_id`,
          `The record at ${path} is of conversation ${JSON.stringify(id)}, not of the one shown (${JSON.stringify(shownId)}).`);
      }
    });
  }

  /** The conversation shown: the first `conversation_id` among the first and last records. */
  #conversationId() {
    const n = this.#store.length;
    for (const i of n ? [0, n - 1] : []) {
      const id = this.#store.get(i)?.conversation_id;
      if (id !== null && id !== undefined) return id;
    }
    return null;
  }

  /** Record id -> index over every record shown, made on first need (or ahead of it, a slice a task
   * after the records are set: #warmIds) and kept up to date as records are added. */
  #idIndex() {
    if (this.#ids) return this.#ids;
    const ids = new Map();
    const store = this.#store;
    store.settle(); // every record read
    for (let i = 0; i < store.length; i++) {
      const id = store.get(i)?.id;
      if (id !== undefined && id !== null && !ids.has(id)) ids.set(id, i);
    }
    return (this.#ids = ids);
  }

  /** Makes the id map a slice of 8,192 records a task, so that the first `upsert` finds it made. */
  async #warmIds() {
    const store = this.#store;
    const shift = this.#keyShift; // a prepend meanwhile moves every index: start again then
    if (this.#ids || !store.length || store.transcript) return;
    const ids = new Map();
    for (let start = 0; start < store.length; start += 8192) {
      await pause();
      if (store !== this.#store || this.#ids || shift !== this.#keyShift) return; // another conversation, a prepend, or made meanwhile
      const end = Math.min(store.length, start + 8192);
      for (let i = start; i < end; i++) {
        const id = store.get(i)?.id;
        if (id !== undefined && id !== null && !ids.has(id)) ids.set(id, i);
      }
    }
    if (store === this.#store && !this.#ids && shift === this.#keyShift && ids.size !== 0) this.#ids = ids;
  }

  /** Every index the element keeps moves `k` down: `k` records came before the first. */
  #shift(k) {
    const moved = (map) => new Map([...map].map(([i, v]) => [i + k, v]));
    this.#open = moved(this.#open);
    this.#searchOpened = new Set([...this.#searchOpened].map((i) => i + k));
    for (const [id, start] of this.#streams) this.#streams.set(id, start + k);
    this.#calls.clear();
    this.#leads.clear();
    this.#ids = null;
    const current = this.#hits[this.#hit];
    if (this.#query) {
      this.#hits = this.#store.search(this.#query);
      this.#hit = current === undefined ? -1 : this.#hits.indexOf(current + k);
    }
    // The rows in the DOM carry their indices: they are built again.
    for (const row of this.#mounted.values()) row.remove();
    this.#mounted.clear();
    this.#dirty.clear();
    if (this.#pendingScroll !== null) this.#pendingScroll += k;
  }

  #showJump(added) {
    this.#unseen += added;
    this.#jump.hidden = false;
    const words = this.#unseen ? `${this.#unseen} new` : "";
    this.#jump.textContent = words ? `Jump to latest ↓ (${words})` : "Jump to latest ↓";
    if (words) this.#announce.textContent = `${this.#unseen} new ${this.#unseen === 1 ? "record" : "records"} below`;
  }

  #hideJump() {
    this.#unseen = 0;
    this.#jump.hidden = true;
    this.#jump.textContent = "Jump to latest ↓";
    this.#announce.textContent = "";
  }

  /** Marks the records whose `toText` holds `query` (case-insensitive); returns how many there are. */
  find(query) {
    const q = String(query ?? "");
    for (const index of this.#searchOpened) this.#open.delete(index);
    this.#searchOpened.clear();
    this.#query = q.toLowerCase();
    this.#hits = q ? this.#store.search(q) : [];
    this.#hit = -1;
    this.#invalidate();
    return this.#hits.length;
  }

  /** Scrolls the next hit of `find` into view and marks it with `aria-current`. */
  findNext() {
    if (!this.#hits.length) return;
    this.#hit = (this.#hit + 1) % this.#hits.length;
    this.#showHit();
  }

  /** Scrolls the previous hit of `find` into view and marks it with `aria-current`. */
  findPrevious() {
    if (!this.#hits.length) return;
    this.#hit = (this.#hit - 1 + this.#hits.length) % this.#hits.length;
    this.#showHit();
  }

  /** Scrolls record `index` into view (a paired tool result: its call's row). */
  scrollToRecord(index) {
    const n = this.#store.length;
    if (!n) return;
    const i = Math.min(n - 1, Math.max(0, Math.trunc(Number(index) || 0)));
    this.#follow = false;
    const row = this.#rowOf(i);
    if (!this.#virtualizer) {
      this.#pendingScroll = row;
      return;
    }
    this.#virtualizer.scrollToIndex(row, { align: "center" });
    this.#schedule();
  }

  // ---------------------------------------------------------------------------------------------

  /** Shows `store`; `api` is the module its records were read with (else the smallest that makes
   * their search texts, loaded now if it is not yet: until it is, find sees no text in them). */
  #setStore(store, api = loadedFor("display")) {
    this.#store.free();
    store.api = api;
    store.onGrow = (settled, end) => this.#grew(store, settled, end);
    if (!api) {
      need("display").then((module) => {
        if (store.api) return;
        store.api = module;
        if (this.#store === store && this.#query) this.#hits = store.search(this.#query);
      }, (error) => this.dispatchEvent(new CustomEvent("cd-error", { detail: error })));
    }
    this.#store = store;
    this.#open.clear();
    this.#searchOpened.clear();
    this.#calls.clear();
    this.#leads.clear();
    this.#hits = this.#query ? store.search(this.#query) : [];
    this.#hit = -1;
    this.#follow = true;
    this.#patched = false;
    this.#streams.clear();
    this.#keyShift = 0;
    this.#reachedStart = false;
    this.#ids = null;
    this.#hideJump();
    for (const row of this.#mounted.values()) row.remove();
    this.#mounted.clear();
    this.#unmount?.();
    this.#unmount = null;
    this.#virtualizer = null;
    this.#scroller.scrollTop = 0;
    if (this.isConnected) this.#mount();
    this.#warmIds();
  }

  /** `store`'s Transcript read more records, after record `end - 1`; `settled`: records shown before
   * whose status changed. */
  #grew(store, settled, end) {
    if (store !== this.#store) return;
    // The last record before may now be followed by more of its turn or by its tool calls'
    // results: its row changes, as the rows whose status changed do.
    if (end) this.#dirty.add(end - 1);
    for (const i of settled) this.#dirty.add(i);
    this.#calls.clear();
    this.#leads.clear();
    this.#resize(); // (#render sets each row's aria-setsize)
    this.#schedule();
  }

  #options() {
    return {
      count: this.#store.length,
      getScrollElement: () => this.#scroller,
      estimateSize: () => ESTIMATE,
      // Keys stay with their records when older ones are prepended, and so do measured heights.
      getItemKey: (index) => index - this.#keyShift,
      overscan: 4,
      scrollToFn: elementScroll,
      observeElementRect,
      observeElementOffset,
      // A row's exact height, fractions of a pixel included: virtual-core's own measure rounds it,
      // and rows entering at the top while the reader scrolls up then moved the rows below them by
      // the sum of the roundings (up to 3 px a page).
      measureElement: (element, entry) => entry?.borderBoxSize?.[0]?.blockSize ?? element.getBoundingClientRect().height,
      onChange: () => this.#schedule(),
    };
  }

  #mount() {
    if (this.#virtualizer) return;
    this.#virtualizer = new Virtualizer(this.#options());
    // The element keeps the view itself (#render's anchor), so virtual-core's own corrections for
    // rows measured above the view are off (an instance property, not an option, in virtual-core).
    this.#virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => false;
    this.#unmount = this.#virtualizer._didMount();
    this.#render();
    if (this.#pendingScroll !== null) {
      this.#virtualizer.scrollToIndex(this.#pendingScroll, { align: "center" });
      this.#pendingScroll = null;
    }
  }

  #resize() {
    this.#virtualizer?.setOptions(this.#options());
  }

  #invalidate() {
    for (const index of this.#mounted.keys()) this.#dirty.add(index);
    this.#schedule();
  }

  #schedule() {
    if (!this.#frame && this.#virtualizer) this.#frame = requestAnimationFrame(() => this.#render());
  }

  #toEnd() {
    const n = this.#store.length;
    if (n && this.#virtualizer) this.#virtualizer.scrollToIndex(n - 1, { align: "end" });
  }

  /**
   * Builds the rows in the virtualizer's range. The view is kept by an anchor: the first row the
   * reader sees that stays in the DOM (or, after a prepend, the rows it names) is put back exactly
   * where it was on screen once the new rows are in and measured. The list is laid out from its
   * first row's virtual start, so rows added above the anchor push it by their real heights, which
   * their estimates did not foresee; virtual-core's own correction, which assumes rows positioned
   * one by one, is off. Whole pixels of scroll carry the fractions left over to the next correction.
   */
  #render(eyes = null) {
    this.#frame = 0;
    const v = this.#virtualizer;
    if (!v) return;
    v._willUpdate();
    // Streaming text that grew: the last Markdown block of its document is rebuilt in place, so a
    // token costs that block, not the message (or the row's layout) so far.
    for (const index of this.#grown) {
      const lead = this.#rowOf(index);
      const row = this.#mounted.get(lead);
      const prose = row?.querySelector(":scope > .record > .prose");
      const inPlace = row && !this.#dirty.has(lead) && !this.#query && this.#merges(lead) &&
        updateStreamingText(prose, this.#groupOf(lead), {
          imageHosts: this.#imageHosts,
          emit: (type, detail) => this.#emit(type, { ...detail, index: lead, record: this.#store.get(lead) }),
        });
      if (!inPlace) this.#dirty.add(index);
    }
    this.#grown.clear();
    // A result's change shows in its call's row, a text block's in its message's first block's.
    for (const index of [...this.#dirty]) {
      const row = this.#rowOf(index);
      if (row !== index) this.#dirty.add(row);
    }
    const items = v.getVirtualItems();
    const inRange = new Set(items.map((item) => item.index));
    // The anchor, unless a scrollToRecord / findNext is under way (virtual-core aims at its row).
    let anchor = null;
    if (!v.scrollState && this.isConnected) {
      const top = this.#scroller.getBoundingClientRect().top;
      if (eyes) {
        anchor = eyes;
      } else {
        for (const index of [...this.#mounted.keys()].sort((a, b) => a - b)) {
          const row = this.#mounted.get(index);
          if (row.hidden || !inRange.has(index) || this.#dirty.has(index)) continue;
          const box = row.getBoundingClientRect();
          if (box.bottom > top + 0.5) {
            anchor = [{ index, at: box.top }];
            break;
          }
        }
      }
    }
    this.#spacer.style.height = `${v.getTotalSize()}px`;
    const wanted = [];
    const total = String(this.#store.length);
    for (const item of items) {
      let row = this.#mounted.get(item.index);
      if (!row || this.#dirty.has(item.index)) {
        const fresh = this.#row(item.index);
        row?.replaceWith(fresh);
        row = fresh;
        this.#mounted.set(item.index, row);
      } else if (row.getAttribute("aria-setsize") !== total) {
        row.setAttribute("aria-setsize", total);
      }
      wanted.push(row);
    }
    const keep = new Set(wanted);
    for (const [index, row] of this.#mounted) {
      if (!keep.has(row)) {
        row.remove();
        this.#mounted.delete(index);
      }
    }
    let cursor = this.#list.firstChild;
    for (const row of wanted) {
      if (row === cursor) cursor = cursor.nextSibling;
      else this.#list.insertBefore(row, cursor);
    }
    this.#dirty.clear();
    for (const row of wanted) v.measureElement(row);
    this.#spacer.style.height = `${v.getTotalSize()}px`;
    this.#list.style.transform = `translateY(${items.length ? v.getMeasurements()[items[0].index]?.start ?? 0 : 0}px)`;
    for (const { index, at } of anchor ?? []) {
      const row = this.#mounted.get(index);
      if (!row || row.hidden) continue;
      const moved = row.getBoundingClientRect().top - at + this.#residue;
      const whole = Math.round(moved);
      this.#residue = moved - whole;
      if (whole) {
        this.#scroller.scrollTop += whole;
        v.scrollOffset = this.#scroller.scrollTop;
      }
      break;
    }
    if (this.#refocus) {
      const { index, selector } = this.#refocus;
      this.#refocus = null;
      this.#mounted.get(index)?.querySelector(selector)?.focus({ preventScroll: true });
    }
    if (this.#follow && this.#patched) {
      const s = this.#scroller;
      if (s.scrollHeight - s.scrollTop - s.clientHeight > 1) s.scrollTop = s.scrollHeight;
    }
  }

  /** The index of the tool call the result at `i` pairs with, or -1. */
  #callOf(i) {
    let call = this.#calls.get(i);
    if (call !== undefined) return call;
    call = -1;
    const record = this.#store.get(i);
    if (record?.content_type === "tool_result" && typeof record.tool_call_id === "string") {
      for (let j = i - 1; j >= Math.max(0, i - PAIR_WINDOW); j--) {
        const candidate = this.#store.get(j);
        if (candidate?.content_type === "tool_call" && candidate.tool_call_id === record.tool_call_id) {
          call = j;
          break;
        }
      }
    }
    this.#calls.set(i, call);
    return call;
  }

  /** The results that pair with the call at `j`, as `{index, record}`. */
  #resultsOf(j, call) {
    const results = [];
    if (typeof call.tool_call_id !== "string") return results;
    const end = Math.min(this.#store.length, j + 1 + PAIR_WINDOW);
    for (let i = j + 1; i < end; i++) {
      const record = this.#store.get(i);
      if (record?.content_type === "tool_result" && record.tool_call_id === call.tool_call_id && this.#callOf(i) === j) {
        results.push({ index: i, record });
      }
    }
    return results;
  }

  #rowOf(i) {
    const call = this.#callOf(i);
    return call >= 0 ? call : this.#leadOf(i);
  }

  /** True when record `j` continues record `i`'s message (the next `sequence`, the same role). */
  #continues(i, j) {
    const a = this.#store.get(i);
    const b = this.#store.get(j);
    return !!a && !!b && b.message_type === a.message_type && Number.isInteger(a.sequence) && b.sequence === a.sequence + 1;
  }

  /** True for a text record that a message's Markdown document takes in (not a user's bubble),
   * while no app renderer takes text records one by one. */
  #merges(i) {
    const record = this.#store.get(i);
    return record?.content_type === "text" && record.message_type !== "user" && !Object.hasOwn(this.#renderers, "text");
  }

  /**
   * The first text record of the run of text records in one message that record `i` is part of
   * (`i` itself for any other record): the run is one Markdown document, in that record's row.
   */
  #leadOf(i) {
    let lead = this.#leads.get(i);
    if (lead !== undefined) return lead;
    lead = i;
    if (this.#merges(i)) {
      for (let k = 0; k < 4096 && lead > 0 && this.#merges(lead - 1) && this.#continues(lead - 1, lead); k++) lead--;
    }
    this.#leads.set(i, lead);
    return lead;
  }

  /** The text records of the document led by `lead`, as `{index, record}`. */
  #groupOf(lead) {
    const group = [{ index: lead, record: this.#store.get(lead) }];
    for (let j = lead + 1; j < this.#store.length && group.length < 4096 && this.#merges(j) && this.#continues(j - 1, j); j++) {
      group.push({ index: j, record: this.#store.get(j) });
    }
    return group;
  }

  #row(i) {
    const store = this.#store;
    const record = store.get(i);
    const turn = turnOf(record);
    const row = el("div", {
      class: "row", role: "article", part: "message", "data-index": i,
      "aria-posinset": i + 1, "aria-setsize": store.length, data: { turn },
    });
    if (this.#callOf(i) >= 0 || this.#leadOf(i) !== i) {
      row.hidden = true; // shown inside its call's row, or in its message's document
      return row;
    }
    const previous = i > 0 ? store.get(i - 1) : null;
    if (i === 0 || turnOf(previous) !== turn || (turn === "user" && record?.sequence === 0)) {
      row.classList.add("turn-start");
      row.append(el("span", { class: "visually-hidden turn-label" }, TURN_LABELS[turn]));
    }
    const who = this.#participants[record?.message_type];
    if (who && (who.name || who.avatar) && record?.sequence === 0 && !(previous && previous.message_type === record.message_type)) {
      row.append(this.#speaker(who));
    }
    try {
      this.#fill(row, i, record);
    } catch {
      // Never a row that breaks the list: a record that cannot be shown says so.
      row.replaceChildren(el("div", { class: "record", data: { contentType: "unknown", record: i } },
        el("div", { class: "banner error", role: "status" }, "This record could not be shown.")));
    }
    return row;
  }

  #fill(row, i, record) {
    const results = record?.content_type === "tool_call" ? this.#resultsOf(i, record) : [];
    const group = this.#merges(i) ? this.#groupOf(i) : null;
    const ctx = {
      index: i,
      results,
      group: group && group.length > 1 ? group : undefined,
      open: this.#open.get(i),
      imageHosts: this.#imageHosts,
      emit: (type, detail) => this.#emit(type, { ...detail, index: i, record }),
      onToggle: (open) => {
        this.#open.set(i, open);
        this.#searchOpened.delete(i);
        this.#emit("cd-toggle", { index: i, record, open }, false);
        if (record?.content_type === "tool_call" || record?.content_type === "tool_result") {
          this.#dirty.add(i);
          // The head is built again: focus moves to the new one if the reader had it focused.
          if (row.contains(this.shadowRoot.activeElement)) this.#refocus = { index: i, selector: ".tool-head" };
          this.#schedule();
        }
      },
      onZoom: (src, alt) => {
        if (!this.#emit("cd-image", { src, kind: "open", index: i, record })) return;
        const img = this.#zoom.querySelector("img");
        img.src = src;
        img.alt = alt;
        this.#zoom.showModal();
      },
    };
    row.append(this.#rendered(record, ctx));
    const actions = this.#actionsOf(i, record);
    if (actions) row.append(actions);
    if (this.#query) highlight(row, this.#query);
    const current = this.#hits[this.#hit];
    if (current !== undefined && this.#rowOf(current) === i) {
      const target = row.querySelector(`[data-record="${current}"]`) ?? row;
      target.setAttribute("aria-current", "true");
      target.classList.add("current");
    }
    return row;
  }

  /** Who speaks at a message's start: the avatar (http(s) or a data:image/ URL only; app data, so
   * it loads at once) and the name, as text. */
  #speaker({ name, avatar }) {
    const box = el("div", { class: "speaker", part: "speaker" });
    const { src } = typeof avatar === "string" ? imageSource({ url: avatar }) : {};
    if (src) {
      const img = el("img", { class: "avatar", part: "avatar", alt: "", referrerpolicy: "no-referrer", decoding: "async" });
      img.src = src;
      box.append(img);
    }
    if (name) box.append(el("span", { class: "speaker-name", dir: "auto" }, name));
    return box;
  }

  /** The app's renderer for a record (by tool name for a call, then by content type), or null. */
  #rendererOf(record) {
    const renderers = this.#renderers;
    const type = record?.content_type;
    if (type === "tool_call" && typeof record.content?.name === "string" && Object.hasOwn(renderers, `tool:${record.content.name}`)) {
      return { key: `tool:${record.content.name}`, renderer: renderers[`tool:${record.content.name}`] };
    }
    if (typeof type === "string" && Object.hasOwn(renderers, type)) return { key: type, renderer: renderers[type] };
    return null;
  }

  /**
   * A record's block: the app's renderer's Node when it gives one, else the element's own. A
   * renderer that throws or gives something that is not a Node costs only its row: the default
   * shows, and `cd-error` says why.
   */
  #rendered(record, ctx) {
    const found = this.#rendererOf(record);
    const own = () => renderRecord(record, ctx);
    if (!found) return own();
    const i = ctx.index;
    let node;
    try {
      node = found.renderer(record, {
        index: i,
        streaming: record?.metadata?.streaming === true,
        results: ctx.results.map((r) => r.record),
        renderDefault: own,
      });
      if (node === null || node === undefined) return own();
      if (!isNode(node)) throw new TypeError(`it returned ${node === null ? "null" : typeof node}, not a DOM Node`);
      const name = typeof record?.content_type === "string" ? record.content_type : "unknown";
      const block = el("div", { class: "record custom", data: { contentType: name, record: i, renderer: found.key } });
      block.append(node);
      if (record?.metadata?.streaming === true) block.setAttribute("aria-busy", "true");
      return block;
    } catch (error) {
      const failure = chatDisplayError("invalid_input", `$[${i}]`,
        `The renderer ${JSON.stringify(found.key)} failed for the record at $[${i}]: ${error?.message ?? String(error)}`);
      failure.cause = error;
      // After this row is built: a cd-error listener that reads the element sees it whole.
      queueMicrotask(() => this.#emit("cd-error", failure, false));
      return own();
    }
  }

  /** The first record of the message that record `i` belongs to (records of one message count
   * `sequence` up from 0). */
  #messageStart(i) {
    let k = i;
    while (k > 0) {
      const here = this.#store.get(k);
      const before = this.#store.get(k - 1);
      if (!(here?.sequence > 0) || before?.message_type !== here.message_type || before?.sequence !== here.sequence - 1) break;
      k--;
    }
    return k;
  }

  /**
   * The message's text for Copy and `cd-action`: its text records' `toText`, Markdown kept. For a
   * text record that is its `content.text` as it is (behavior.md 5.3), so it is read here, with no
   * call into the module (which an element given only `records` may not have loaded yet).
   */
  #messageText(first, last) {
    const texts = [];
    for (let k = first; k <= last; k++) {
      const record = this.#store.get(k);
      const text = record?.content_type === "text" ? record.content?.text : undefined;
      if (typeof text === "string" && text !== "") texts.push(text);
    }
    return texts.join("\n\n");
  }

  /**
   * The action buttons under an assistant message, on its last record's row, or null: none while
   * it streams, none for a message with no text (a tool call alone) and none when `actions` is [].
   */
  #actionsOf(i, record) {
    if (!this.#actions.length || record?.message_type !== "assistant") return null;
    // The message's last record, and the row that shows it: the bar goes under that row.
    let last = i;
    for (let k = 0; k < 4096 && this.#continues(last, last + 1); k++) last++;
    if (this.#rowOf(last) !== i || this.#store.get(last)?.metadata?.streaming === true) return null;
    const first = this.#messageStart(i);
    const text = this.#messageText(first, last);
    if (text === "") return null;
    const bar = el("div", { class: "actions", part: "actions", role: "group", "aria-label": "Message actions" });
    for (const { id, label } of this.#actions) {
      const button = el("button", { type: "button", class: "action", part: "action", data: { action: id } }, label);
      button.addEventListener("click", async () => {
        const message = this.#store.get(first);
        const go = this.#emit("cd-action", { action: id, index: first, record: message, text });
        if (id !== "copy" || !go) return;
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = "Copied";
        } catch {
          button.textContent = "Copy failed";
        }
        setTimeout(() => { button.textContent = label; }, 1500);
      });
      bar.append(button);
    }
    return bar;
  }

  /** Fires `type` on the element (bubbling, composed); false when a listener cancelled it. */
  #emit(type, detail, cancelable = true) {
    const event = new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable });
    this.dispatchEvent(event);
    return !event.defaultPrevented;
  }

  /** Clicks on links and source chips in the rows: `cd-link` and `cd-citation`, which an app may
   * cancel (a "leave this site?" dialog, its own source panel). */
  #clicked(event) {
    const target = event.target instanceof Element ? event.target : null;
    const chip = target?.closest(".citation, .citation-marker");
    const link = target?.closest("a[href]");
    if (!chip && !link) return;
    const holder = (chip ?? link).closest("[data-record]");
    const index = Number(holder?.dataset.record);
    if (!Number.isInteger(index)) return;
    const record = this.#store.get(index);
    let go;
    if (chip) {
      const k = Number(chip.dataset.citation);
      const citation = Array.isArray(record?.metadata?.citations) ? record.metadata.citations[k] ?? null : null;
      go = this.#emit("cd-citation", { citation, index, record });
    } else {
      go = this.#emit("cd-link", { href: link.href, index, record });
    }
    if (!go) event.preventDefault();
  }

  #showHit() {
    const index = this.#hits[this.#hit];
    const row = this.#rowOf(index);
    const record = this.#store.get(row);
    const foldable = record?.content_type === "tool_call" || record?.content_type === "tool_result" || record?.content_type === "thinking";
    if (foldable && this.#open.get(row) !== true) {
      this.#open.set(row, true);
      this.#searchOpened.add(row);
    }
    this.#invalidate();
    this.scrollToRecord(index);
  }
}
