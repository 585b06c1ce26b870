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
