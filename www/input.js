// Turns whatever the user loads into display-message records, one bad element never stopping the
// rest. Accepted shapes: an array of LangChain or Sycophant messages, `{messages: [...]}`, an
// array of DisplayMessage records, or an array mixing messages and records.

/** An element is a record when it has a `content_type`; otherwise it is read as a message. */
const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value) && "content_type" in value;

/** An error item standing in place of an element that could not be read. */
function errorEntry(path, reason) {
  return {
    failed: true,
    record: {
      conversation_id: null, message_type: null, content_type: "error",
      content: { text: reason, path }, sequence: 0, status: "failed", tool_call_id: null, metadata: {},
    },
  };
}

/** `$` of a per-message error path, re-rooted at the element's place in the input. */
function rebase(root, path) {
  return root + (path ?? "$").slice(1);
}

function reasonOf(error) {
  return error && typeof error.message === "string" ? error.message : String(error);
}

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
  const content = m.content;
  const partsOk = content == null || typeof content === "string" ||
    (Array.isArray(content) && content.every((p) => p && PART_TYPES.has(p.type) && !("text" in p)));
  const callsOk = !Array.isArray(m.tool_calls) || m.tool_calls.every((c) => c && !("function" in c) && !("id" in c));
  return partsOk && callsOk;
}

/**
 * A provider payload (a request or response body, or a bare message array of one of the five
 * wire formats) as LangChain messages, or null when the data reads as it is.
 */
export function fromProviderPayload(data, api) {
  const protocol = api.detectProtocol(data);
  if (!protocol) return null;
  const elements = Array.isArray(data) ? data : Array.isArray(data?.messages) && Object.keys(data).length === 1 ? data.messages : null;
  if (elements && elements.every(looksNative)) return null;
  return { protocol, messages: api.fromProvider(protocol, data) };
}

/**
 * Reads the elements in order. Returns entries `{record, failed?}`, in input order.
 * `api` is the chat-display module (extractDisplayItems, toDisplayMessages, validateDisplayMessage).
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
    throw new Error("Expected an array of messages or records, or an object with a messages array.");
  }

  // Messages: check each on its own (so one bad message costs only itself), then make the records
  // of all good ones together, so that tool call statuses see every result.
  const good = [];
  const slots = new Array(elements.length);
  elements.forEach((element, i) => {
    const path = `${root}[${i}]`;
    if (isRecord(element)) return;
    try {
      const count = api.extractDisplayItems(element).length;
      slots[i] = { count };
      good.push(element);
    } catch (error) {
      slots[i] = { error: errorEntry(rebase(path, error.path), reasonOf(error)) };
    }
  });
  const messageRecords = good.length ? api.toDisplayMessages(good, { conversation_id: conversationId }) : [];

  const entries = [];
  let next = 0;
  elements.forEach((element, i) => {
    const path = `${root}[${i}]`;
    const slot = slots[i];
    if (slot?.error) {
      entries.push(slot.error);
    } else if (slot) {
      for (const record of messageRecords.slice(next, next + slot.count)) entries.push({ record });
      next += slot.count;
    } else {
      const changeset = api.validateDisplayMessage(element);
      if (changeset.valid) {
        entries.push({ record: changeset.record });
      } else {
        const reasons = Object.entries(changeset.errors).map(([field, messages]) => `${field} ${messages.join(", ")}`);
        entries.push(errorEntry(path, `Invalid record: ${reasons.join("; ")}.`));
      }
    }
  });
  return entries;
}

/** Parses text as JSON, or throws an Error saying it is not JSON. */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`This is not JSON: ${error.message}`);
  }
}
