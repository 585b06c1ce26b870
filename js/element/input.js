// Turns whatever an app loads into display-message records, one bad element never stopping the
// rest. Accepted: an array of LangChain or Sycophant messages, `{messages: [...]}`, an array of
// DisplayMessage records (or a mix of messages and records), and any payload that `detectProtocol`
// recognizes (the provider formats, AI SDK UIMessages, LangChain.js messages). Large JSON text goes
// into a Transcript, parsed inside the module, unless its first message is of another format.

/** Elements of a large conversation read before its first rows are shown: more than a window holds. */
const FIRST_READ = 512;

/** From this size on (characters or bytes), JSON text loads through a Transcript. */
export const LARGE = 1 << 20;

/**
 * A ChatDisplayError made on the JavaScript side, shaped as the module's own. (errors.js's, again:
 * this file is a chunk of its own, and importing the element's copy would put those lines in a
 * third chunk that the element's module would have to fetch before its first row.)
 */
export function chatDisplayError(code, path, message) {
  const error = new Error(message);
  error.name = "ChatDisplayError";
  error.code = code;
  error.path = path;
  return error;
}

/** The error record put in place of an element that could not be read, as a Transcript makes it. */
export function errorRecord(path, text) {
  return {
    conversation_id: null, message_type: null, content_type: "error",
    content: { text, path }, sequence: 0, status: "failed", tool_call_id: null, metadata: {},
  };
}

/** True for an error record the loader put in place of an element it could not read. */
export const isLoadError = (record) =>
  record?.content_type === "error" && record.message_type === null && typeof record.content?.path === "string";

/** An element is a record when it has a `content_type`; otherwise it is read as a message. */
const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value) && "content_type" in value;

/**
 * What an invalid record's error says it got in `field`, worded as the module's Transcript words
 * it (src/record.rs, `refused`): a short printable-ASCII string quoted, else the value's kind;
 * nothing for an object or an absent field.
 */
function refused(record, field) {
  if (!Object.hasOwn(record, field) || record[field] === undefined) return "";
  const value = record[field];
  if (typeof value === "string") {
    return value.length <= 60 && /^[\x20-\x7e]*$/.test(value) ? ` (got "${value.replace(/["\\]/g, "\\$&")}")` : " (got a string)";
  }
  if (typeof value === "number") return " (got a number)";
  if (typeof value === "boolean") return ` (got ${value})`;
  if (value === null) return " (got null)";
  if (Array.isArray(value)) return " (got an array)";
  if (typeof value === "object") return "";
  return " (got a value that is not JSON)";
}

/** A changeset's errors as words, each with the value it refused. */
function invalidReasons(record, errors) {
  return Object.entries(errors).map(([field, messages]) => `${field} ${messages.join(", ")}${refused(record, field)}`).join("; ");
}

/** A per-message error path (`toDisplayMessages([message])` roots it at `$.messages[0]`),
 * re-rooted at the element's place in the input. */
const rebase = (root, path) => root + (typeof path === "string" ? path : "$").replace(/^\$(\.messages\[0\])?/, "");

const reasonOf = (error) => (error && typeof error.message === "string" ? error.message : String(error));

const ROLES = new Set(["user", "assistant", "system", "tool"]);
const PART_TYPES = new Set(["text", "thinking", "image_url", "image", "file", "file_url", "unsupported"]);

/**
 * True for what reads as a LangChain message, a Sycophant message or a record as it is: provider
 * formats share roles with LangChain but write text parts as `{type, text}`, put `tool_call_id` on
 * the message and nest calls under `function`.
 */
function looksNative(m) {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return false;
  if ("__type__" in m || "content_type" in m) return true;
  if (!ROLES.has(m.role) || "tool_call_id" in m) return false;
  // An AI SDK UIMessage: `parts` and no `content` (docs/INPUT-FORMATS.md "Messages of another format").
  if (Array.isArray(m.parts) && m.content == null) return false;
  const content = m.content;
  const partsOk = content == null || typeof content === "string" ||
    (Array.isArray(content) && content.every((p) => p && PART_TYPES.has(p.type) && !("text" in p)));
  const callsOk = !Array.isArray(m.tool_calls) || m.tool_calls.every((c) => c && !("function" in c) && !("id" in c));
  return partsOk && callsOk;
}

/** The elements of a message list: the array itself, or an object's only key `messages`. */
function elementsOf(data) {
  if (Array.isArray(data)) return data;
  return Array.isArray(data?.messages) && Object.keys(data).length === 1 ? data.messages : null;
}

/**
 * Which module reading `value` needs (./modules.js): "display" for LangChain and Sycophant
 * messages, "core" when records are among them (they are validated), "full" for anything else
 * (a provider payload, another format's messages, a shape to report).
 */
export function levelOf(value) {
  const elements = elementsOf(value);
  if (!elements || !elements.every(looksNative)) return "full";
  return elements.some(isRecord) ? "core" : "display";
}

/**
 * A provider payload (a request or response body, or a bare message array of a wire format) as
 * LangChain messages with its protocol, or null when the data reads as it is.
 */
export function fromProviderPayload(data, api) {
  const elements = elementsOf(data);
  if (elements && elements.every(looksNative)) return null;
  const protocol = api.detectProtocol(data);
  if (!protocol) return null;
  return { protocol, messages: api.fromProvider(protocol, data) };
}

/**
 * Reads the elements in order into records: a message's records, a valid record as it is, and an
 * error record in place of anything that cannot be read. `api` is the chat-display module.
 */
export function readConversation(data, api, { conversationId = null } = {}) {
  let elements, root;
  if (Array.isArray(data)) {
    elements = data;
    root = "$";
  } else if (data && typeof data === "object" && Array.isArray(data.messages)) {
    elements = data.messages;
    root = "$.messages";
  } else {
    throw chatDisplayError("invalid_input", "$", "Expected an array of messages or records, an object with a messages array, or a provider payload at $.");
  }

  // Messages: each read on its own by toDisplayMessages (so one bad message costs only itself),
  // then the records of all good ones made together, so that tool call statuses see every result.
  // A message's records are the next `count` of those, starting at sequence 0; should the two
  // ever disagree, its own records show (with the statuses its own message gives), never fewer.
  const good = [];
  const slots = new Array(elements.length);
  // `media: true`: image and file parts are records too, so a user's screenshot shows in their
  // bubble (docs/ELEMENT.md "Attachments"); image records keep policy.js's rules.
  const options = { conversation_id: conversationId, media: true };
  elements.forEach((element, i) => {
    if (isRecord(element)) return;
    try {
      slots[i] = { own: api.toDisplayMessages([element], options) };
      good.push(element);
    } catch (error) {
      const path = rebase(`${root}[${i}]`, error?.path);
      const reason = typeof error?.path === "string" ? reasonOf(error).replaceAll(error.path, path) : reasonOf(error);
      slots[i] = { error: errorRecord(path, reason) };
    }
  });
  let together = good.length ? api.toDisplayMessages(good, options) : [];
  const expected = slots.reduce((n, slot) => n + (slot?.own ? slot.own.length : 0), 0);
  if (together.length !== expected) together = null;

  const records = [];
  let next = 0;
  elements.forEach((element, i) => {
    const slot = slots[i];
    if (slot?.error) {
      records.push(slot.error);
    } else if (slot) {
      const count = slot.own.length;
      const mine = together?.slice(next, next + count);
      const lined = mine?.every((record, k) => record.sequence === slot.own[k].sequence && record.content_type === slot.own[k].content_type);
      records.push(...(lined ? mine : slot.own));
      next += count;
    } else {
      const changeset = api.validateDisplayMessage(element);
      if (changeset.valid) {
        records.push(changeset.record);
      } else {
        records.push(errorRecord(`${root}[${i}]`, `Invalid record: ${invalidReasons(element, changeset.errors)}.`));
      }
    }
  });
  return records;
}

/** Line and column (1-based) of UTF-8 byte `offset` in `bytes`. */
function lineColumn(bytes, offset) {
  let line = 1, column = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 10) { line++; column = 1; }
    else if ((bytes[i] & 0xc0) !== 0x80) column++;
  }
  return { line, column };
}

/** The byte offset a Transcript's syntax error ("Expected JSON text at $: ... at byte N.") names,
 * or null for any other error. */
function syntaxOffset(error) {
  const offset = /^Expected JSON text at \$: .* at byte (\d+)\.$/s.exec(error?.message ?? "");
  return offset ? Number(offset[1]) : null;
}

/** The byte offset at which the wasm module's JSON reader stops on `text`, or null. */
function failingOffset(text, api) {
  let transcript = null;
  try {
    // (A top-level array is parsed as it is read: the error may come from `read`.)
    transcript = api.Transcript.open(text);
    transcript.read();
  } catch (error) {
    return syntaxOffset(error);
  } finally {
    transcript?.free?.();
  }
  return null;
}

/**
 * Parses JSON text, or rejects with an `invalid_input` ChatDisplayError naming line and column:
 * from the engine's message where it gives a position (V8, SpiderMonkey), else (WebKit's names
 * none) from where the wasm module's reader stops on the same text (`need("core")`).
 */
export async function parseJson(text, need) {
  try {
    return JSON.parse(text);
  } catch (error) {
    let where = "";
    if (!/line \d+/.test(error.message)) {
      const position = /position (\d+)/.exec(error.message);
      const bytes = new TextEncoder().encode(position ? text.slice(0, Number(position[1])) : text);
      const offset = position ? bytes.length : failingOffset(text, await need("core"));
      if (offset !== null) {
        const { line, column } = lineColumn(bytes, offset);
        where = ` (line ${line} column ${column})`;
      }
    }
    throw chatDisplayError("invalid_input", "$", `This is not JSON: ${error.message}${where}`);
  }
}

/**
 * A Transcript's syntax error ("Expected JSON text at $: ... at byte N.") on `input` (the text or
 * bytes it was opened with) as the ChatDisplayError the element gives for text that is not JSON,
 * with line and column; null for any other error.
 */
export function notJson(error, input) {
  const offset = syntaxOffset(error);
  if (offset === null) return null;
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const { line, column } = lineColumn(bytes, offset);
  return chatDisplayError("invalid_input", "$", `This is not JSON: ${error.message.replace(/^Expected JSON text at \$: /, "")} (line ${line} column ${column})`);
}

/** True when a Transcript's first record says its message is of another format (the error names
 * the fromProvider call that reads it). */
function ofAnotherFormat(transcript) {
  if (transcript.length === 0) return false;
  const first = transcript.records(0, 1)[0];
  return isLoadError(first) && first.content.text.includes("fromProvider(\"");
}

/**
 * A provider's error body (the JSON of an HTTP error: `{error: {...}}`, Bedrock's `{message}`) as
 * the error record that quotes the provider's message, or null for anything else. `fromProvider`
 * recognizes such a body whatever the format it is asked for (`provider_error`).
 */
function providerFailure(value, api) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  if (!("error" in value || "Error" in value || "message" in value)) return null;
  try {
    api.fromProvider("openai_completions", value);
  } catch (error) {
    if (error?.code !== "provider_error") return null;
    const path = typeof error.path === "string" ? error.path.replace(/^\$\.payload(?![\w$])/, "$") : "$";
    return errorRecord(path, reasonOf(error).replaceAll(error.path ?? "\0", path));
  }
  return null;
}

/**
 * Opens any input as `{transcript, api}` (large JSON text) or `{records, protocol, api}`, where
 * `api` is the module it was read with. `modules` is `need` of ./modules.js (a level to a promise
 * of a module), or one module that does everything (the full one). Rejects with a
 * ChatDisplayError for text that is not JSON (with line and column), a shape that is not a
 * conversation, or a module that could not be loaded.
 */
export async function openInput(input, modules) {
  const need = typeof modules === "function" ? modules : async () => modules;
  let value = input;
  if (typeof input === "string" || input instanceof Uint8Array) {
    if (input.length >= LARGE) {
      const api = await need("core");
      let transcript = null;
      try {
        // Parsed and read only as far as a first window needs (a top-level array is parsed as it
        // is read): the Store reads the rest a slice a task once the first rows are shown
        // (bench/ELEMENT.md, first paint). Text that is not JSON past them is an error of a later
        // read, the Store's, which keeps the rows read (the element words it as notJson does).
        transcript = api.Transcript.open(input);
        transcript.read(FIRST_READ);
        // (A read that meets an error after reading elements throws it from the next read.)
        transcript.read(0);
        if (!ofAnotherFormat(transcript)) return { transcript, protocol: null, api };
        // Messages of a format detectProtocol may know (a large LangChain.js or UIMessage file):
        // read below.
        transcript.free?.();
      } catch (error) {
        transcript?.free?.();
        const failure = notJson(error, input);
        if (failure) throw failure;
        // Only a top level of another shape may still be a provider payload; text that is not
        // UTF-8 (or anything else) stays an error.
        if (!/^Expected an array of messages or records/.test(error?.message ?? "")) throw error;
        // Not a conversation at its top level: perhaps a provider payload, read below.
      }
    }
    value = await parseJson(typeof input === "string" ? input : new TextDecoder().decode(input), need);
  }
  const api = await need(levelOf(value));
  const provider = levelOf(value) === "full" ? fromProviderPayload(value, api) : null;
  if (!provider) {
    const failure = providerFailure(value, api);
    if (failure) return { records: [failure], protocol: null, api };
  }
  return { records: readConversation(provider ? provider.messages : value, api), protocol: provider?.protocol ?? null, api };
}
