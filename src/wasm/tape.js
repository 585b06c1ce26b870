// The JavaScript half of the display functions' fast path (tape.rs, beside this file, has the
// format and the Rust half). Two jobs, one module state:
// - reading: `cdEncode` walks a message or conversation once and writes it as a tape of 32-bit
//   words (tape.rs's table) into the module's memory; `cdWords`, `cdText`, `cdHandle` and
//   `cdString` hand over what did not fit or is not a number, and `cdDone` lets it all go;
// - writing: `cdItems`, `cdRecords` and `cdRecord` build display items and records from the
//   words the module wrote (tape/write.rs) in one call.
// The module seeds it once (`cdSeed`) with the short strings both sides know by number
// (tape/seeds.rs). Names follow the Rust: a "slot" is a word of the tape, a "value" one the glue
// keeps and the tape refers to by index, a "short string" one numbered and sent as text.
//
// Built into the package minified (scripts/build.sh); what is here is the source.

// Slot tags, a slot's low 3 bits (tape.rs's TAG_*).
const SPECIAL = 0, SHORT = 1, STRING = 2, NUMBER = 3, ARRAY = 4, OBJECT = 5, IN_PLACE = 6;
// The special slots: tag 0 with null, `undefined`, false or true above it.
const NULL_SLOT = SPECIAL, UNDEFINED_SLOT = 1 << 3, FALSE_SLOT = 2 << 3, TRUE_SLOT = 3 << 3;
// The flag of an object's head that marks it partial (tape.rs's PARTIAL): only the keys the core
// reads are on the tape.
const PARTIAL = 8;
// The kinds of a value read in place (its slot's bits 3 to 5): an array, an object, or another
// value (a function, symbol or bigint, or an array longer than in_place.rs's ELEMENTS_MAX).
const IN_PLACE_ARRAY = 4, IN_PLACE_OBJECT = 5, IN_PLACE_OTHER = 7, ELEMENTS_MAX = 1 << 22;
// Objects deeper than WALK_DEPTH below a message are read in place; past MAX_SLOTS slots or
// values, or an array of more than LONG_ARRAY elements (a sparse one, most likely), the whole
// input is. A short string is at most SHORT_MAX UTF-16 units.
const WALK_DEPTH = 5, MAX_SLOTS = 1 << 24, LONG_ARRAY = 1 << 20, SHORT_MAX = 32;

// How many short strings are seeds (the call's own follow them), and how many of those are keys
// whose values the display functions only move (tape/seeds.rs's MOVED).
let seedCount = 0, movedCount = 0;
// The key slots the walk writes, as one object of a fixed shape (its reads stay monomorphic).
let keySlot = {};
// The module's memory, and a view of it as 32-bit words (see memoryWords).
let memory = null, memoryView = new Int32Array(0);
// A call is being read (a getter that calls the module again finds the glue busy).
let busy = false;
// The tape: its words, its capacity and its length. `tapeCapacity` is tape.length, kept in a
// variable: the walk asks for it at every object, and reading it from the array measured slower.
let tape = new Int32Array(1 << 14), tapeCapacity = tape.length, tapeLength = 0;
// The call's values, referred to by index.
let values = [], valueCount = 0;
// The short strings (the seeds, then the call's own: `shortCount` in all) and each one's number:
// the seeds' in `seedIds`, the call's own in `ownIds`, which cdDone drops whole. (One map for both,
// emptied key by key, took a tenth of the glue's time over 10,000 messages; issue 45.) Tool call
// ids are not looked up (idSlot).
let shortStrings = [], shortCount = 0, seedIds = new Map(), ownIds = new Map();
// How a tool call id is written: as a short string (the statuses compare ids) or as a value.
let toolCallIdSlot = idSlot;

/** Gives the glue the seeds (joined by "\n"), how many are moved keys, and the module's memory. */
export function cdSeed(joined, moved, wasmMemory) {
  memory = wasmMemory;
  shortStrings = joined.split("\n");
  seedIds = new Map(shortStrings.map((s, i) => [s, i]));
  seedCount = shortCount = shortStrings.length;
  movedCount = moved;
  const slot = (key) => (seedIds.get(key) << 3) | SHORT;
  keySlot = {
    __type__: slot("__type__"), role: slot("role"), content: slot("content"),
    tool_calls: slot("tool_calls"), tool_results: slot("tool_results"), type: slot("type"),
    call_id: slot("call_id"), name: slot("name"), arguments: slot("arguments"),
    display_text: slot("display_text"), message_expansion: slot("message_expansion"),
    tool_call_id: slot("tool_call_id"), is_error: slot("is_error"), is_interrupt: slot("is_interrupt"),
    citations: slot("citations"), options: slot("options"), metadata: slot("metadata"), parts: slot("parts"),
    generated: slot("generated"), media: slot("media"), notification: slot("notification"), filename: slot("filename"),
    approval_request: slot("approval_request"), status: slot("status"), result: slot("result"),
  };
}

// The module's memory as 32-bit words: one view, made again only when the memory has grown
// (which detaches the old one, leaving it empty), so that no call makes a view of its own.
function memoryWords() {
  if (memoryView.length === 0) memoryView = new Int32Array(memory.buffer);
  return memoryView;
}

// The tape's first `length` words into the module's memory at byte address `ptr`.
function copyTape(ptr, length) {
  const words = memoryWords(), at = ptr >>> 2;
  if (length > 64) words.set(tape.subarray(0, length), at);
  else for (let i = 0; i < length; i++) words[at + i] = tape[i];
}

// Room for `count` more slots, the tape doubled as often as it takes.
function makeRoom(count) {
  if (tapeLength + count <= tapeCapacity) return;
  if (tapeLength + count > MAX_SLOTS) throw new RangeError("tape");
  let capacity = tapeCapacity * 2;
  while (capacity < tapeLength + count) capacity *= 2;
  const grown = new Int32Array(capacity);
  grown.set(tape.subarray(0, tapeLength));
  tape = grown;
  tapeCapacity = capacity;
}

// Keeps `value` among the call's values: its index.
function keepValue(value) {
  if (valueCount >= MAX_SLOTS) throw new RangeError("tape");
  values[valueCount] = value;
  return valueCount++;
}

// The slot of one of the call's own short strings `s` (at most SHORT_MAX units), numbered next and
// its text sent; a value if it ends in a high surrogate, which could pair with the next one in the
// joined text.
function ownShortSlot(s) {
  const last = s.charCodeAt(s.length - 1);
  if (last >= 0xd800 && last < 0xdc00) return (keepValue(s) << 3) | STRING;
  const id = shortCount++;
  shortStrings[id] = s;
  return (id << 3) | SHORT;
}

// The slot of a string: a short string, numbered (and its text sent) the first time, or a value.
function stringSlot(s) {
  if (s.length > SHORT_MAX) return (keepValue(s) << 3) | STRING;
  let id = seedIds.get(s);
  if (id === undefined && (id = ownIds.get(s)) === undefined) {
    const slot = ownShortSlot(s);
    if ((slot & 7) === SHORT) ownIds.set(s, slot >>> 3);
    return slot;
  }
  return (id << 3) | SHORT;
}

// The slot of a value left to the module to read in place, with its kind.
function inPlaceSlot(value) {
  const kind = typeof value !== "object" ? IN_PLACE_OTHER
    : !Array.isArray(value) ? IN_PLACE_OBJECT
    : value.length > ELEMENTS_MAX ? IN_PLACE_OTHER : IN_PLACE_ARRAY;
  return (keepValue(value) << 6) | (kind << 3) | IN_PLACE;
}

// Writes `value`, `depth` levels below a message, walked whole: plain objects by their own
// enumerable keys, arrays by index; other objects, the values of moved keys and anything deeper
// than WALK_DEPTH are left in place. (A Sycophant message is read this way.)
function walk(value, depth) {
  makeRoom(4);
  switch (typeof value) {
    case "string": tape[tapeLength++] = stringSlot(value); return;
    case "object": {
      if (value === null) { tape[tapeLength++] = NULL_SLOT; return; }
      if (depth >= WALK_DEPTH) { tape[tapeLength++] = inPlaceSlot(value); return; }
      const head = tapeLength;
      if (Array.isArray(value)) {
        const length = value.length;
        if (length > LONG_ARRAY) throw new RangeError("tape");
        tapeLength += 3;
        for (let i = 0; i < length; i++) walk(value[i], depth + 1);
        tape[head] = (length << 3) | ARRAY;
      } else {
        const prototype = Object.getPrototypeOf(value);
        if (prototype !== Object.prototype && prototype !== null) { tape[tapeLength++] = inPlaceSlot(value); return; }
        tapeLength += 3;
        const keys = Object.keys(value);
        const count = keys.length;
        for (let i = 0; i < count; i++) {
          makeRoom(4);
          const key = keys[i], keyWord = stringSlot(key);
          tape[tapeLength++] = keyWord;
          const entry = value[key];
          const moved = (keyWord & 7) === SHORT && keyWord < movedCount << 3;
          if (moved && typeof entry === "object" && entry !== null) tape[tapeLength++] = inPlaceSlot(entry);
          else walk(entry, depth + 1);
        }
        tape[head] = (count << 4) | OBJECT;
      }
      tape[head + 1] = tapeLength;
      tape[head + 2] = keepValue(value);
      return;
    }
    case "undefined": tape[tapeLength++] = UNDEFINED_SLOT; return;
    case "boolean": tape[tapeLength++] = value ? TRUE_SLOT : FALSE_SLOT; return;
    case "number": tape[tapeLength++] = (keepValue(value) << 3) | NUMBER; return;
    default: tape[tapeLength++] = inPlaceSlot(value);
  }
}

// A LangChain message is read by what the core asks of it: each of its objects (the message, its
// content parts, tool calls and tool results) by property access of the keys the core reads,
// written in this order whether present or not, with the object marked partial (the core reads
// any other key of it in place); strings the core compares (roles, types, and for the statuses
// ids) are short strings; the rest (texts, names, arguments) are kept as values, read in place if
// ever asked.

// Appends one slot.
function push(slot) {
  if (tapeLength >= tapeCapacity) makeRoom(1);
  tape[tapeLength++] = slot;
}

// The slot of a value the core only moves, or reads by its kind: not walked.
function valueSlot(value) {
  switch (typeof value) {
    case "string": return value === "" ? stringSlot(value) : (keepValue(value) << 3) | STRING;
    case "object": return value === null ? NULL_SLOT : inPlaceSlot(value);
    case "undefined": return UNDEFINED_SLOT;
    case "boolean": return value ? TRUE_SLOT : FALSE_SLOT;
    case "number": return (keepValue(value) << 3) | NUMBER;
    default: return inPlaceSlot(value);
  }
}

// The slot of a tool call id the statuses compare: a short string numbered anew at each use, its
// text sent each time. The core compares short strings by their text, and an id is most often
// written twice (its call and its result), so looking it up saved little text for a Map's get
// and set: numbered without them, the walk of the bench's 10,000 messages (4,529 ids) took 0.81
// of its time (issue 45).
function idSlot(value) {
  return typeof value === "string" && value.length <= SHORT_MAX ? ownShortSlot(value) : valueSlot(value);
}

// The slot of a value the core compares as a string.
function wordSlot(value) { return typeof value === "string" ? stringSlot(value) : valueSlot(value); }

function isObject(value) { return typeof value === "object" && value !== null && !Array.isArray(value); }

// Opens a partial object of `count` keys: its head; the caller writes the keys and the slot after.
function openObject(value, count) {
  makeRoom(3 + 2 * count);
  const head = tapeLength;
  tape[head] = (count << 4) | PARTIAL | OBJECT;
  tape[head + 2] = keepValue(value);
  tapeLength += 3;
  return head;
}

// What a list's elements are: a loop for each, so that every call of writePart, writeCall,
// writeResult and writeMessage has one target.
const PARTS = 0, CALLS = 1, RESULTS = 2, MESSAGES = 3;

// An array, its elements written as `of` says; anything else as a value.
function writeList(value, of) {
  if (!Array.isArray(value)) return push(valueSlot(value));
  const length = value.length;
  if (length > LONG_ARRAY) throw new RangeError("tape");
  makeRoom(3);
  const head = tapeLength;
  tapeLength += 3;
  switch (of) {
    case PARTS: for (let i = 0; i < length; i++) writePart(value[i]); break;
    case CALLS: for (let i = 0; i < length; i++) writeCall(value[i]); break;
    case RESULTS: for (let i = 0; i < length; i++) writeResult(value[i]); break;
    default: for (let i = 0; i < length; i++) writeMessage(value[i]);
  }
  tape[head] = (length << 3) | ARRAY;
  tape[head + 1] = tapeLength;
  tape[head + 2] = keepValue(value);
}

// Every key the core reads of a message's objects in the usual case is written, those of the
// objects below them included (a part's options, a call's metadata, a result's options): a key
// left off is read in place, a few calls out of wasm each time, and for every part, call or
// result of a conversation that adds up. Issue 45: the keys message.rs's readers came to read
// (a part's citations and options, a call's metadata, a result's options, and a message's parts
// and tool_call_id when it has no content) and this glue did not write took toDisplayMessages from
// 1.5 to 2.5 times the plain-JavaScript baseline in Node, with the same output.
// tests/js/tape.test.mjs fails on any key read in place.

function writePart(part) {
  if (!isObject(part)) return push(valueSlot(part));
  const head = openObject(part, 4);
  const type = part.type, at = tapeLength;
  tape[at] = keySlot.type; tape[at + 1] = wordSlot(type);
  tape[at + 2] = keySlot.content; tape[at + 3] = valueSlot(part.content);
  tape[at + 4] = keySlot.citations; tape[at + 5] = valueSlot(part.citations);
  tape[at + 6] = keySlot.options;
  tapeLength += 7;
  // parse_part reads the options of an image, unsupported or attachment part only.
  if (type === "image" || type === "unsupported" || type === "image_url" || type === "file" || type === "file_url") writePartOptions(part.options);
  else push(valueSlot(part.options));
  tape[head + 1] = tapeLength;
}

// An image, unsupported or attachment part's options: whether the image is one a model made, its
// media type, a notification's text, and what an attachment record reads (toDisplayMessages'
// `media`): the file's name and whether the content is a provider's file id (`type`).
function writePartOptions(options) {
  if (!isObject(options)) return push(valueSlot(options));
  const head = openObject(options, 5);
  const at = tapeLength;
  tape[at] = keySlot.generated; tape[at + 1] = valueSlot(options.generated);
  tape[at + 2] = keySlot.media; tape[at + 3] = valueSlot(options.media);
  tape[at + 4] = keySlot.notification; tape[at + 5] = valueSlot(options.notification);
  tape[at + 6] = keySlot.filename; tape[at + 7] = valueSlot(options.filename);
  tape[at + 8] = keySlot.type; tape[at + 9] = valueSlot(options.type);
  tape[head + 1] = tapeLength += 10;
}

function writeCall(call) {
  if (!isObject(call)) return push(valueSlot(call));
  const head = openObject(call, 5);
  const at = tapeLength;
  tape[at] = keySlot.call_id; tape[at + 1] = toolCallIdSlot(call.call_id);
  tape[at + 2] = keySlot.name; tape[at + 3] = valueSlot(call.name);
  tape[at + 4] = keySlot.arguments; tape[at + 5] = valueSlot(call.arguments);
  tape[at + 6] = keySlot.display_text; tape[at + 7] = valueSlot(call.display_text);
  tape[at + 8] = keySlot.metadata;
  tapeLength += 9;
  writeCallMetadata(call.metadata);
  tape[head + 1] = tapeLength;
}

// A tool call's metadata: an approval request, and the status its reader gave it (compared).
function writeCallMetadata(metadata) {
  if (!isObject(metadata)) return push(valueSlot(metadata));
  const head = openObject(metadata, 2);
  const at = tapeLength;
  tape[at] = keySlot.approval_request; tape[at + 1] = valueSlot(metadata.approval_request);
  tape[at + 2] = keySlot.status; tape[at + 3] = wordSlot(metadata.status);
  tape[head + 1] = tapeLength += 4;
}

function writeResult(result) {
  if (!isObject(result)) return push(valueSlot(result));
  const head = openObject(result, 7);
  push(keySlot.content); writeList(result.content, PARTS);
  makeRoom(11);
  const at = tapeLength;
  tape[at] = keySlot.message_expansion; tape[at + 1] = valueSlot(result.message_expansion);
  tape[at + 2] = keySlot.tool_call_id; tape[at + 3] = toolCallIdSlot(result.tool_call_id);
  tape[at + 4] = keySlot.name; tape[at + 5] = valueSlot(result.name);
  tape[at + 6] = keySlot.is_error; tape[at + 7] = valueSlot(result.is_error);
  tape[at + 8] = keySlot.is_interrupt; tape[at + 9] = valueSlot(result.is_interrupt);
  tape[at + 10] = keySlot.options;
  tapeLength += 11;
  writeResultOptions(result.options);
  tape[head + 1] = tapeLength;
}

// A tool result's options: a server tool's structured result, moved whole.
function writeResultOptions(options) {
  if (!isObject(options)) return push(valueSlot(options));
  const head = openObject(options, 1);
  tape[tapeLength] = keySlot.result; tape[tapeLength + 1] = valueSlot(options.result);
  tape[head + 1] = tapeLength += 2;
}

// A message: a Sycophant one (with a `__type__`) walked whole, a LangChain one as above.
function writeMessage(message) {
  if (!isObject(message)) return push(valueSlot(message));
  const type = message.__type__;
  if (type !== undefined && type !== null) return walk(message, 0);
  const head = openObject(message, 7);
  const at = tapeLength;
  tape[at] = keySlot.__type__; tape[at + 1] = valueSlot(type);
  tape[at + 2] = keySlot.role; tape[at + 3] = wordSlot(message.role);
  tape[at + 4] = keySlot.content;
  tapeLength += 5;
  writeList(message.content, PARTS);
  push(keySlot.tool_calls); writeList(message.tool_calls, CALLS);
  push(keySlot.tool_results); writeList(message.tool_results, RESULTS);
  // What parse_message asks of a message with no content (a tool message, an assistant's with
  // calls only) or a tool message with no results, to tell an AI SDK UIMessage or an OpenAI tool
  // message from a LangChain one.
  makeRoom(4);
  tape[tapeLength] = keySlot.parts; tape[tapeLength + 1] = valueSlot(message.parts);
  tape[tapeLength + 2] = keySlot.tool_call_id; tape[tapeLength + 3] = valueSlot(message.tool_call_id);
  tapeLength += 4;
  tape[head + 1] = tapeLength;
}

/**
 * Writes the tape of `input` into the module's memory at byte address `ptr` when it fits in
 * `bufferWords` words: returns its length when it is there, minus its length when it is to be
 * fetched with cdWords, -1 when the glue gave up. Tool call ids are short strings when `compare`
 * (the statuses compare them) and values otherwise (an item only moves them, and a short string
 * costs its text). The tape's first word is the count of the call's own short strings, and their
 * lengths (in UTF-16 units) are its last words.
 */
export function cdEncode(input, ptr, bufferWords, compare) {
  if (busy) return -1;
  busy = true;
  try {
    tapeLength = 1; valueCount = 0; toolCallIdSlot = compare ? idSlot : valueSlot;
    if (Array.isArray(input)) writeList(input, MESSAGES);
    else writeMessage(input);
    const count = shortCount - seedCount;
    makeRoom(count);
    for (let i = 0; i < count; i++) tape[tapeLength + i] = shortStrings[seedCount + i].length;
    tape[0] = count;
    tapeLength += count;
    if (tapeLength > bufferWords) return -tapeLength;
    copyTape(ptr, tapeLength);
    return tapeLength;
  } catch {
    cdDone();
    return -1;
  }
}

/** The tape's first `length` words, into the module's memory at `ptr` (when it did not fit). */
export function cdWords(ptr, length) { copyTape(ptr, length); }

/** The text of the call's own short strings, joined. */
export function cdText() { return seedCount === shortCount ? "" : shortStrings.slice(seedCount, shortCount).join(""); }

/** The call's value `i`. */
export function cdHandle(i) { return values[i]; }

/** Short string `i`. */
export function cdString(i) { return shortStrings[i]; }

/** Lets go of the call's values and short strings. */
export function cdDone() {
  if (shortCount > seedCount) {
    ownIds = new Map();
    // Let go, the array keeping its room (as `values` below).
    if (shortCount > 1 << 16) shortStrings.length = seedCount;
    else shortStrings.fill(undefined, seedCount, shortCount);
    shortCount = seedCount;
  }
  // The values are let go; the array keeps its room for the next call (truncating it gave the
  // room up, to be grown again), unless it grew large (10,000 messages keep about 70,000).
  if (valueCount > 1 << 18) values = [];
  else values.fill(undefined, 0, valueCount);
  valueCount = 0; busy = false;
  if (tapeCapacity > 1 << 20) tapeCapacity = (tape = new Int32Array(1 << 14)).length;
}

// The builders read the words the module wrote: per item or record `[shape, type, role,
// sequence, status, ...content]` (tape/write.rs), whose values are references: low 2 bits 0 for
// null, `undefined`, false and true (0 to 3 above them), 1 for one of the call's values, 2 for a
// short string, 3 for one of `extra` (the values the module made or read in place).

// The value a reference stands for.
function fromRef(ref, extra) {
  switch (ref & 3) {
    case 0: return ref === 0 ? null : ref === 4 ? undefined : ref === 8 ? false : true;
    case 1: return values[ref >>> 2];
    case 2: return shortStrings[ref >>> 2];
    default: return extra[ref >>> 2];
  }
}

// Shapes (the low 4 bits of an item's first word): 0 a text, thinking or notification item, 1 a
// tool call, 2 a tool result, 3 a tool result whose text is the join of the parts that follow it
// (its `content` word is their count), 4 an image, 5 an image by URL or file id, 6 a file
// reference (issue 46: toDisplayMessages' `media` option). Bit 4 set: the item's last word refers to its
// record's `metadata` object.
function itemContent(words, i, extra) {
  switch (words[i] & 15) {
    case 0: return { text: fromRef(words[i + 5], extra) };
    case 1: return {
      call_id: fromRef(words[i + 5], extra), name: fromRef(words[i + 6], extra),
      arguments: fromRef(words[i + 7], extra), display_text: fromRef(words[i + 8], extra),
    };
    case 2: return {
      tool_call_id: fromRef(words[i + 5], extra), name: fromRef(words[i + 6], extra),
      content: fromRef(words[i + 7], extra),
      is_error: fromRef(words[i + 8], extra), is_interrupt: fromRef(words[i + 9], extra),
    };
    case 3: return {
      tool_call_id: fromRef(words[i + 5], extra), name: fromRef(words[i + 6], extra),
      content: joinedText(words, i + 10, words[i + 7], extra),
      is_error: fromRef(words[i + 8], extra), is_interrupt: fromRef(words[i + 9], extra),
    };
    case 4: return { data: fromRef(words[i + 5], extra), mime_type: fromRef(words[i + 6], extra) };
    case 5: return {
      url: fromRef(words[i + 5], extra), file_id: fromRef(words[i + 6], extra), mime_type: fromRef(words[i + 7], extra),
    };
    default: return {
      path: fromRef(words[i + 5], extra), name: fromRef(words[i + 6], extra), mime_type: fromRef(words[i + 7], extra),
    };
  }
}

// The "\n" join of the text parts the core named (null joins as "").
function joinedText(words, at, count, extra) {
  const parts = new Array(count);
  for (let k = 0; k < count; k++) parts[k] = fromRef(words[at + k], extra);
  return parts.join("\n");
}

// The words of an item of each shape, and one more with its metadata.
const ITEM_WIDTH = [6, 9, 10, 10, 7, 8, 8];
function itemWidth(words, i) {
  const shape = words[i] & 15, width = shape === 3 ? 10 + words[i + 7] : ITEM_WIDTH[shape];
  return width + ((words[i] >>> 4) & 1);
}

function makeRecord(words, i, extra, conversationId) {
  const shape = words[i] & 15;
  return {
    conversation_id: conversationId, message_type: shortStrings[words[i + 2]],
    content_type: shortStrings[words[i + 1]], content: itemContent(words, i, extra),
    sequence: words[i + 3], status: shortStrings[words[i + 4]],
    tool_call_id: shape === 0 || shape >= 4 ? null : fromRef(words[i + 5], extra),
    metadata: words[i] & 16 ? fromRef(words[i + itemWidth(words, i) - 1], extra) : {},
  };
}

// Each builder reads the `length` words at byte address `ptr` of the module's memory, the seeds,
// `extra` and (for a tape's values) the values of the tape being read, so they serve every call,
// and cdDone stays the caller's.

/** Display items. */
export function cdItems(ptr, length, extra) {
  const words = memoryWords(), out = [], end = (ptr >>> 2) + length;
  for (let i = ptr >>> 2; i < end; i += itemWidth(words, i)) {
    out.push({ type: shortStrings[words[i + 1]], message_type: shortStrings[words[i + 2]], content: itemContent(words, i, extra) });
  }
  return out;
}

/** The records of one conversation. */
export function cdRecords(ptr, length, extra, conversationId) {
  const words = memoryWords(), out = [], end = (ptr >>> 2) + length;
  for (let i = ptr >>> 2; i < end; i += itemWidth(words, i)) out.push(makeRecord(words, i, extra, conversationId));
  return out;
}

/** One record. */
export function cdRecord(ptr, extra, conversationId) { return makeRecord(memoryWords(), ptr >>> 2, extra, conversationId); }
