// The same functions as chat-display, in plain JavaScript, written the way one would by hand for
// LangChain messages: the benchmarks' baseline. It follows the same rules (roles, part types, the
// tool-result join, tool call statuses from later results) and checks what chat-display checks on
// the way (a known role, strings where strings belong), throwing a plain Error; it does not know
// Sycophant messages. The suite checks its output equal to chat-display's before timing anything.

const ROLES = new Set(["system", "user", "assistant", "tool"]);

function stringOrNull(value, what) {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new Error(`Expected a string or null at ${what}`);
  return value;
}

function flag(value) {
  if (value === undefined) return false;
  if (value === null || typeof value === "boolean") return value;
  throw new Error("Expected a boolean or null");
}

export function extractDisplayItems(message) {
  const role = message.role;
  if (!ROLES.has(role)) throw new Error(`Unsupported role ${role}`);
  const items = [];
  const content = message.content;
  if (typeof content === "string") {
    if (content !== "") items.push({ type: "text", message_type: role, content: { text: content } });
  } else if (Array.isArray(content)) {
    for (const part of content) {
      const text = stringOrNull(part.content, "content");
      if (text === null || text === "") continue;
      if (part.type === "text" || part.type === "thinking") {
        items.push({ type: part.type, message_type: role, content: { text } });
      }
    }
  } else if (content !== undefined && content !== null) {
    throw new Error("Expected a string, an array of content parts, or null at content");
  }
  for (const call of message.tool_calls ?? []) {
    items.push({
      type: "tool_call",
      message_type: role,
      content: {
        call_id: stringOrNull(call.call_id, "call_id"),
        name: stringOrNull(call.name, "name"),
        arguments: call.arguments ?? null,
        display_text: stringOrNull(call.display_text, "display_text"),
      },
    });
  }
  for (const result of message.tool_results ?? []) {
    let text = "";
    if (typeof result.content === "string") text = result.content;
    else if (Array.isArray(result.content)) {
      text = result.content.filter((p) => p.type === "text").map((p) => p.content ?? "").join("\n");
    }
    items.push({
      type: "tool_result",
      message_type: role,
      content: {
        tool_call_id: stringOrNull(result.tool_call_id, "tool_call_id"),
        name: stringOrNull(result.name, "name"),
        content: text,
        is_error: flag(result.is_error),
        is_interrupt: flag(result.is_interrupt),
      },
    });
  }
  return items;
}

export function toDisplayMessages(messages, options) {
  const list = Array.isArray(messages) ? messages : [messages];
  const conversationId = options?.conversation_id ?? null;
  // The first result for each call id, with the index of its message.
  const results = new Map();
  list.forEach((message, index) => {
    for (const result of message.tool_results ?? []) {
      if (typeof result.tool_call_id !== "string") continue;
      const status = result.is_error === true ? "failed" : result.is_interrupt === true ? "interrupted" : "completed";
      let seen = results.get(result.tool_call_id);
      if (!seen) results.set(result.tool_call_id, (seen = []));
      seen.push([index, status]);
    }
  });
  const records = [];
  list.forEach((message, index) => {
    extractDisplayItems(message).forEach((item, sequence) => {
      let status = "completed";
      let toolCallId = null;
      if (item.type === "tool_call") {
        toolCallId = item.content.call_id;
        const later = toolCallId === null ? undefined : results.get(toolCallId)?.find(([at]) => at > index);
        status = later ? later[1] : "pending";
      } else if (item.type === "tool_result") {
        toolCallId = item.content.tool_call_id;
      }
      records.push({
        conversation_id: conversationId,
        message_type: item.message_type,
        content_type: item.type,
        content: item.content,
        sequence,
        status,
        tool_call_id: toolCallId,
        metadata: {},
      });
    });
  });
  return records;
}
