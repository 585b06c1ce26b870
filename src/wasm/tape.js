let base = 0, moved = 0, busy = false, K = {}, mem = null, M = new Int32Array(0);
// `cap` is t.length, kept in a variable: the walk asks for it at every object, and reading it
// from the array measured slower.
let t = new Int32Array(1 << 14), cap = t.length, n = 0, h = [], hn = 0, strs = [], ids = new Map(), idw = word;
// Objects deeper than DEPTH are read in place; past MAX slots or values, or an array of more than
// LONG elements (a sparse one, most likely), the whole input is.
const DEPTH = 5, MAX = 1 << 24, LONG = 1 << 20;
export function cdSeed(joined, movedCount, memory) {
  mem = memory;
  strs = joined.split("\n");
  ids = new Map(strs.map((s, i) => [s, i]));
  base = strs.length;
  moved = movedCount;
  // The key slots the walk writes, as one object of a fixed shape (its reads stay monomorphic).
  const slot = (key) => (ids.get(key) << 3) | 1;
  K = {
    __type__: slot("__type__"), role: slot("role"), content: slot("content"),
    tool_calls: slot("tool_calls"), tool_results: slot("tool_results"), type: slot("type"),
    call_id: slot("call_id"), name: slot("name"), arguments: slot("arguments"),
    display_text: slot("display_text"), message_expansion: slot("message_expansion"),
    tool_call_id: slot("tool_call_id"), is_error: slot("is_error"), is_interrupt: slot("is_interrupt"),
  };
}
// The module's memory, as 32-bit words: one view, made again only when the memory has grown
// (which detaches the old one), so that no call makes a view of its own.
function view() {
  if (M.length === 0) M = new Int32Array(mem.buffer);
  return M;
}
// The tape's first `len` words into the module's memory at byte address `ptr`.
function copy(ptr, len) {
  const m = view(), at = ptr >>> 2;
  if (len > 64) m.set(t.subarray(0, len), at);
  else for (let i = 0; i < len; i++) m[at + i] = t[i];
}
function room(k) {
  if (n + k <= cap) return;
  if (n + k > MAX) throw new RangeError("tape");
  let len = cap * 2;
  while (len < n + k) len *= 2;
  const u = new Int32Array(len);
  u.set(t.subarray(0, n));
  t = u;
  cap = len;
}
function handle(v) {
  if (hn >= MAX) throw new RangeError("tape");
  h[hn] = v;
  return hn++;
}
function str(v) {
  if (v.length <= 32) {
    let id = ids.get(v);
    if (id === undefined) {
      // A string ending in a high surrogate could pair with the next one in the joined text.
      const c = v.charCodeAt(v.length - 1);
      if (c >= 0xd800 && c < 0xdc00) return (handle(v) << 3) | 2;
      id = strs.length;
      strs.push(v);
      ids.set(v, id);
    }
    return (id << 3) | 1;
  }
  return (handle(v) << 3) | 2;
}
// A value left to JsVal, with its kind: an array longer than ELEMENTS_MAX is not one it takes.
function foreign(v) {
  const kind = typeof v === "object" ? (Array.isArray(v) ? (v.length > 1 << 22 ? 7 : 4) : 5) : 7;
  return (handle(v) << 6) | (kind << 3) | 6;
}
function enc(v, d) {
  room(4);
  switch (typeof v) {
    case "string": t[n++] = str(v); return;
    case "object": {
      if (v === null) { t[n++] = 0; return; }
      if (d >= DEPTH) { t[n++] = foreign(v); return; }
      const at = n;
      let len = 0;
      if (Array.isArray(v)) {
        len = v.length;
        if (len > LONG) throw new RangeError("tape");
        n += 3;
        for (let i = 0; i < len; i++) enc(v[i], d + 1);
        t[at] = (len << 3) | 4;
      } else {
        const p = Object.getPrototypeOf(v);
        if (p !== Object.prototype && p !== null) { t[n++] = foreign(v); return; }
        n += 3;
        const keys = Object.keys(v);
        len = keys.length;
        for (let i = 0; i < len; i++) {
          room(4);
          const k = keys[i], key = str(k);
          t[n++] = key;
          const x = v[k];
          if ((key & 7) === 1 && key < moved << 3 && typeof x === "object" && x !== null) t[n++] = foreign(x);
          else enc(x, d + 1);
        }
        t[at] = (len << 4) | 5;
      }
      t[at + 1] = n;
      t[at + 2] = handle(v);
      return;
    }
    case "undefined": t[n++] = 8; return;
    case "boolean": t[n++] = v ? 24 : 16; return;
    case "number": t[n++] = (handle(v) << 3) | 3; return;
    default: t[n++] = foreign(v);
  }
}
// The messages themselves are read by what the core asks of them: each object of a LangChain
// message (the message, its content parts, tool calls and tool results) by property access of
// the keys the core reads, written in this order whether present or not, with the object marked
// partial (the core reads any other key of it in place); strings the core compares (roles, types,
// and for the statuses ids) numbered; the rest (texts, names, arguments) kept as values, read in
// place if ever asked.
// A Sycophant message (one with a `__type__`) is walked whole, as above.
function put(w) {
  if (n >= cap) room(1);
  t[n++] = w;
}
// A value the core only moves, or reads by its kind: not walked.
function val(v) {
  switch (typeof v) {
    case "string": return v === "" ? str(v) : (handle(v) << 3) | 2;
    case "object": return v === null ? 0 : foreign(v);
    case "undefined": return 8;
    case "boolean": return v ? 24 : 16;
    case "number": return (handle(v) << 3) | 3;
    default: return foreign(v);
  }
}
// A value the core compares as a string.
function word(v) { return typeof v === "string" ? str(v) : val(v); }
function object(v) { return typeof v === "object" && v !== null && !Array.isArray(v); }
function open(v, count) {
  room(3 + 2 * count);
  const at = n;
  t[at] = (count << 4) | 13;
  t[at + 2] = handle(v);
  n += 3;
  return at;
}
// An array's head, with its elements written as `of` says (a loop each, so that every call of
// part, call, result and message has one target).
const PARTS = 0, CALLS = 1, RESULTS = 2, MESSAGES = 3;
function list(v, of) {
  if (!Array.isArray(v)) return put(val(v));
  const len = v.length;
  if (len > LONG) throw new RangeError("tape");
  room(3);
  const at = n;
  n += 3;
  switch (of) {
    case PARTS: for (let i = 0; i < len; i++) part(v[i]); break;
    case CALLS: for (let i = 0; i < len; i++) call(v[i]); break;
    case RESULTS: for (let i = 0; i < len; i++) result(v[i]); break;
    default: for (let i = 0; i < len; i++) message(v[i]);
  }
  t[at] = (len << 3) | 4;
  t[at + 1] = n;
  t[at + 2] = handle(v);
}
function part(p) {
  if (!object(p)) return put(val(p));
  const at = open(p, 2);
  t[n] = K.type; t[n + 1] = word(p.type);
  t[n + 2] = K.content; t[n + 3] = val(p.content);
  t[at + 1] = n += 4;
}
function call(c) {
  if (!object(c)) return put(val(c));
  const at = open(c, 4);
  t[n] = K.call_id; t[n + 1] = idw(c.call_id);
  t[n + 2] = K.name; t[n + 3] = val(c.name);
  t[n + 4] = K.arguments; t[n + 5] = val(c.arguments);
  t[n + 6] = K.display_text; t[n + 7] = val(c.display_text);
  t[at + 1] = n += 8;
}
function result(r) {
  if (!object(r)) return put(val(r));
  const at = open(r, 6);
  put(K.content); list(r.content, PARTS);
  room(10);
  t[n] = K.message_expansion; t[n + 1] = val(r.message_expansion);
  t[n + 2] = K.tool_call_id; t[n + 3] = idw(r.tool_call_id);
  t[n + 4] = K.name; t[n + 5] = val(r.name);
  t[n + 6] = K.is_error; t[n + 7] = val(r.is_error);
  t[n + 8] = K.is_interrupt; t[n + 9] = val(r.is_interrupt);
  t[at + 1] = n += 10;
}
function message(m) {
  if (!object(m)) return put(val(m));
  const type = m.__type__;
  if (type !== undefined && type !== null) return enc(m, 0);
  const at = open(m, 5);
  t[n] = K.__type__; t[n + 1] = val(type);
  t[n + 2] = K.role; t[n + 3] = word(m.role);
  t[n + 4] = K.content;
  n += 5;
  list(m.content, PARTS);
  put(K.tool_calls); list(m.tool_calls, CALLS);
  put(K.tool_results); list(m.tool_results, RESULTS);
  t[at + 1] = n;
}
// Writes the tape of `v` into the module's memory at byte address `ptr` when it fits in `cap`
// words: returns its length when it is there, minus its length when it is to be fetched with
// cdWords, -1 when the glue gave up. Tool call ids are numbered (`compare`, for the statuses) or
// kept as values (an item only moves them, and numbering costs a Map entry and their text).
export function cdEncode(v, ptr, cap, compare) {
  if (busy) return -1;
  busy = true;
  try {
    n = 1; hn = 0; idw = compare ? word : val;
    if (Array.isArray(v)) list(v, MESSAGES);
    else message(v);
    const count = strs.length - base;
    room(count);
    for (let i = 0; i < count; i++) t[n + i] = strs[base + i].length;
    t[0] = count;
    n += count;
    if (n > cap) return -n;
    copy(ptr, n);
    return n;
  } catch {
    cdDone();
    return -1;
  }
}
export function cdWords(ptr, len) { copy(ptr, len); }
export function cdText() { return base === strs.length ? "" : strs.slice(base).join(""); }
export function cdHandle(i) { return h[i]; }
export function cdString(i) { return strs[i]; }
export function cdDone() {
  if (strs.length > base) {
    for (let i = base; i < strs.length; i++) ids.delete(strs[i]);
    strs.length = base;
  }
  // The values are let go; the array keeps its room for the next call (truncating it gave the
  // room up, to be grown again), unless it grew large.
  if (hn > 1 << 14) h = [];
  else h.fill(undefined, 0, hn);
  hn = 0; busy = false;
  if (cap > 1 << 20) cap = (t = new Int32Array(1 << 14)).length;
}
function ref(r, x) {
  switch (r & 3) {
    case 0: return r === 0 ? null : r === 4 ? undefined : r === 8 ? false : true;
    case 1: return h[r >>> 2];
    case 2: return strs[r >>> 2];
    default: return x[r >>> 2];
  }
}
function content(o, i, x) {
  switch (o[i]) {
    case 0: return { text: ref(o[i + 5], x) };
    case 1: return { call_id: ref(o[i + 5], x), name: ref(o[i + 6], x), arguments: ref(o[i + 7], x), display_text: ref(o[i + 8], x) };
    case 2: return { tool_call_id: ref(o[i + 5], x), name: ref(o[i + 6], x), content: ref(o[i + 7], x), is_error: ref(o[i + 8], x), is_interrupt: ref(o[i + 9], x) };
    default: return { tool_call_id: ref(o[i + 5], x), name: ref(o[i + 6], x), content: joined(o, i + 10, o[i + 7], x), is_error: ref(o[i + 8], x), is_interrupt: ref(o[i + 9], x) };
  }
}
// The "\n" join of text parts the core named (null joins as "").
function joined(o, at, count, x) {
  const parts = new Array(count);
  for (let k = 0; k < count; k++) parts[k] = ref(o[at + k], x);
  return parts.join("\n");
}
const WIDTH = [6, 9, 10, 10];
function width(o, i) { return o[i] === 3 ? 10 + o[i + 7] : WIDTH[o[i]]; }
function record(o, i, x, cid) {
  return {
    conversation_id: cid, message_type: strs[o[i + 2]], content_type: strs[o[i + 1]],
    content: content(o, i, x), sequence: o[i + 3], status: strs[o[i + 4]],
    tool_call_id: o[i] === 0 ? null : ref(o[i + 5], x), metadata: {},
  };
}
// The builders read the `len` numbers at byte address `ptr` of the module's memory, the seeds,
// `extra` and (for a tape's values) the values of the tape being read, so they serve every call,
// and cdDone stays the caller's.
export function cdItems(ptr, len, x) {
  const o = view(), out = [], end = (ptr >>> 2) + len;
  for (let i = ptr >>> 2; i < end; i += width(o, i)) {
    out.push({ type: strs[o[i + 1]], message_type: strs[o[i + 2]], content: content(o, i, x) });
  }
  return out;
}
export function cdRecords(ptr, len, x, cid) {
  const o = view(), out = [], end = (ptr >>> 2) + len;
  for (let i = ptr >>> 2; i < end; i += width(o, i)) out.push(record(o, i, x, cid));
  return out;
}
export function cdRecord(ptr, x, cid) { return record(view(), ptr >>> 2, x, cid); }
