// The records an element shows, wherever they live: a Transcript inside the module (fetched a
// chunk at a time, never all at once), an array (set by the app or built by a stream's patches),
// or a Transcript with records the app's patches replaced or added after it, and older records
// an app prepended before either (paged in from a server).
//
// Indices are the element's: 0 is the first record shown. Prepended records are kept newest
// first (`before`, pushed at its end), so that a prepend costs the records it adds, not the ones
// shown; below them, "local" indices count from the first record of the Transcript or array.

/** Records fetched from a Transcript per call, and how many such chunks stay cached. */
const CHUNK = 256;
const CACHED_CHUNKS = 48;
/** The milliseconds of work a task of `readAll` or `index` does before it yields to the page, and
 * what each of their calls into the module does: elements read, records whose search text is made. */
const SLICE = 8;
const READ_STEP = 256;
const INDEX_STEP = 128;

export class Store {
  /** `transcript`: a Transcript the store owns (freed with it); `records`: an array it takes. */
  constructor({ transcript = null, records = [] } = {}) {
    this.transcript = transcript;
    this.base = transcript ? transcript.length : 0;
    this.tail = records;
    this.replaced = new Map(); // index -> record, for indices below `base`
    this.chunks = new Map(); // chunk number -> records, in least-recently-used order
    this.texts = []; // local index -> lowercased search text of a record held here (not in the
    // Transcript, whose texts the module keeps), filled on demand
    this.before = []; // prepended records, the one nearest the first local record first
    this.beforeTexts = []; // their lowercased search texts, in the same order
    this.api = null;
    // A Transcript opened with elements still to read (`readAll`): its records grow at the end.
    this.reading = transcript ? !transcript.read(0).done : false;
    this.onGrow = null; // (settled, end) => ..., after the Transcript's records grew (`grow`)
    // The error a read met (the text is not JSON past the elements read before it): reading
    // stopped there, the records read stay, and `readAll` rejects with it.
    this.failure = null;
  }

  /**
   * Reads up to `count` more elements of the Transcript, its records added after those there
   * (`base` grows), then calls `onGrow` with the indices of records there before whose status
   * changed (tool calls that results read now answered). True once every element is read, or
   * once reading stopped at text that is not JSON (`failure`, which `readAll` rejects with).
   */
  grow(count) {
    if (!this.reading) return true;
    let done = true, settled = [];
    try {
      ({ done, settled } = this.transcript.read(count));
    } catch (error) {
      // Text that is not JSON past the elements read (a read that throws reads nothing: the
      // elements before the error came with the read before it). The records read stay.
      this.failure = error;
    }
    const before = this.base;
    this.base = this.transcript.length;
    this.reading = !done;
    // The last chunk cached may hold fewer records than there are now, and the records whose
    // status changed are fetched again.
    this.chunks.delete(Math.floor(before / CHUNK));
    for (const i of settled) this.chunks.delete(Math.floor(i / CHUNK));
    const h = this.before.length;
    this.onGrow?.(settled.map((i) => i + h), before + h);
    return done;
  }

  /** Reads the whole Transcript, in tasks of about SLICE ms: the first after `first` resolves,
   * each next after `pause`. */
  async readAll(pause, first = pause) {
    if (this.reading) await this.#inSlices(() => this.grow(READ_STEP), pause, first);
    if (this.failure) throw this.failure;
  }

  /** Calls `step` until it returns true, in tasks of about SLICE ms (the first after `first`
   * resolves, each next after `pause`), while the store holds the Transcript it held at the start. */
  async #inSlices(step, pause, first) {
    const transcript = this.transcript;
    if (!transcript) return;
    await first();
    while (this.transcript === transcript) {
      const start = performance.now();
      let done = false;
      while (!done && performance.now() - start < SLICE) done = step();
      if (done) return;
      await pause();
    }
  }

  /** What a change to the records needs first: every record read, so that indices stay. */
  settle() {
    if (this.reading) this.grow(Infinity);
  }

  get length() {
    return this.before.length + this.base + this.tail.length;
  }

  /** Shows `records` (in order) before the first record. */
  prepend(records) {
    this.settle();
    for (let k = records.length - 1; k >= 0; k--) {
      this.before.push(records[k]);
      this.beforeTexts.push(undefined);
    }
  }

  /** Record `i` (undefined past the end). */
  get(i) {
    const h = this.before.length;
    if (i < h) return i >= 0 ? this.before[h - 1 - i] : undefined;
    return this.#get(i - h);
  }

  #get(i) {
    if (i >= this.base) return this.tail[i - this.base];
    if (i < 0) return undefined;
    const replaced = this.replaced.get(i);
    if (replaced) return replaced;
    const n = Math.floor(i / CHUNK);
    let chunk = this.chunks.get(n);
    if (chunk) {
      this.chunks.delete(n);
    } else {
      chunk = this.transcript.records(n * CHUNK, Math.min(this.base, (n + 1) * CHUNK));
      if (this.chunks.size >= CACHED_CHUNKS) this.chunks.delete(this.chunks.keys().next().value);
    }
    this.chunks.set(n, chunk);
    return chunk[i - n * CHUNK];
  }

  set(i, record) {
    this.settle();
    const h = this.before.length;
    if (i < h) {
      this.before[h - 1 - i] = record;
      this.beforeTexts[h - 1 - i] = undefined;
      return;
    }
    i -= h;
    if (i >= this.base) this.tail[i - this.base] = record;
    else this.replaced.set(i, record);
    this.texts[i] = undefined;
  }

  push(record) {
    this.settle();
    this.tail.push(record);
  }

  /** Every record, as an array (the `records` getter): a Transcript's are fetched whole here. */
  all() {
    this.settle();
    const out = this.transcript ? this.transcript.records(0, this.base) : [];
    for (const [i, record] of this.replaced) out[i] = record;
    return this.before.slice().reverse().concat(out, this.tail);
  }

  /** The lowercased `toText` of record `i`, computed once. */
  text(i) {
    const h = this.before.length;
    if (i >= h) return this.#text(i - h);
    let text = this.beforeTexts[h - 1 - i];
    if (text === undefined) {
      if (!this.api) return "";
      text = this.#lower(this.before[h - 1 - i]);
      this.beforeTexts[h - 1 - i] = text;
    }
    return text;
  }

  #lower(record) {
    if (!this.api) return "";
    let raw = null;
    try {
      raw = this.api.toText(record);
    } catch {
      raw = null;
    }
    return typeof raw === "string" ? raw.toLowerCase() : "";
  }

  #text(i) {
    let text = this.texts[i];
    if (text === undefined) {
      // Not kept: the module that makes the text is still loading.
      if (!this.api && !(i < this.base && !this.replaced.has(i))) return "";
      let raw = null;
      try {
        raw = i < this.base && !this.replaced.has(i) ? this.transcript.toText(i) : this.api.toText(this.#get(i));
      } catch {
        raw = null;
      }
      text = typeof raw === "string" ? raw.toLowerCase() : "";
      this.texts[i] = text;
    }
    return text;
  }

  /** The indices of the records whose `toText` holds `query`, ignoring case, in order. The
   * Transcript's records are searched inside the module, over the search text it keeps (made once:
   * `index`), which hands back only the hits; the records held here are searched here. */
  search(query) {
    this.settle();
    const q = query.toLowerCase();
    const h = this.before.length;
    const hits = [];
    for (let i = 0; i < h; i++) if (this.text(i).includes(q)) hits.push(i);
    if (this.transcript) {
      const found = this.transcript.search(query);
      if (!h && !this.replaced.size && !this.tail.length) return found;
      if (this.replaced.size) {
        const local = [];
        for (const i of found) if (!this.replaced.has(i)) local.push(i);
        for (const i of this.replaced.keys()) if (this.#text(i).includes(q)) local.push(i);
        local.sort((a, b) => a - b);
        for (const i of local) hits.push(i + h);
      } else {
        for (const i of found) hits.push(i + h);
      }
    }
    const end = this.base + this.tail.length;
    for (let i = this.base; i < end; i++) if (this.#text(i).includes(q)) hits.push(i + h);
    return hits;
  }

  /**
   * Has the module make the search text of every record of the Transcript, in tasks of about
   * SLICE ms, so that the first `find` finds it made (the first search would otherwise make it at
   * once: 0.6 to 1.4 s of one task at 100,000 messages; bench/ELEMENT.md). Every element is read
   * first (by `readAll` before it, as `load` calls them; prepareSearch would read what is left).
   */
  async index(pause, first = pause) {
    await this.#inSlices(() => {
      this.settle();
      return this.transcript.prepareSearch(INDEX_STEP);
    }, pause, first);
  }

  /** Counts over every record: `messages` (records that start one: sequence 0) and `errors`
   * (records the loader put in place of what it could not read). The Transcript counts its own
   * (`counts()`, without making its records); the records patches replaced are counted as they
   * are now. */
  count(isLoadError) {
    let messages = 0, errors = 0;
    const tally = (record, by = 1) => {
      if (record?.sequence === 0) messages += by;
      if (isLoadError(record)) errors += by;
    };
    if (this.transcript) {
      this.settle();
      ({ messages, errors } = this.transcript.counts());
      for (const [i, record] of this.replaced) {
        tally(this.transcript.records(i, i + 1)[0], -1);
        tally(record);
      }
    }
    for (const record of this.tail) tally(record);
    for (const record of this.before) tally(record);
    return { records: this.length, messages, errors };
  }

  free() {
    this.transcript?.free();
    this.transcript = null;
    this.chunks.clear();
  }
}
