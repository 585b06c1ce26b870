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

// toText (the DisplayMessage template's to_text/1) for the records above, with Elixir's inspect of
// tool call arguments, as one would write it by hand for the values JSON holds.

/** Elixir's float printing (shortest round-trip digits, decimal or scientific, whichever is shorter). */
function floatText(x) {
  if (Number.isInteger(x) && Math.abs(x) >= 1 && Math.abs(x) < 1e16) return `${x}.0`;
  const [mantissa, exp] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const point = Number(exp) + 1;
  const len = digits.length;
  const e = String(point - 1);
  const cost = e.length + 1 + (len === 1 ? 2 : 1);
  const sci = () => `${digits[0]}.${digits.slice(1) || "0"}e${e}`;
  let body;
  if (point === 0) body = `0.${digits}`;
  else if (point > 0 && point < len) body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (point < 0) body = 2 - point <= cost ? `0.${"0".repeat(-point)}${digits}` : sci();
  else body = point - len + 2 <= cost && Math.abs(x) < 2 ** 53 ? `${digits}${"0".repeat(point - len)}.0` : sci();
  return x < 0 ? `-${body}` : body;
}

const ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u0007": "\\a", "\b": "\\b",
  "\u007f": "\\d", "\u001b": "\\e", "\f": "\\f", "\u000b": "\\v", "\0": "\\0" };
const quote = (s) => `"${s.replace(/["\\\n\r\t\u0007\b\u007f\u001b\f\u000b\0]|#\{/g, (m) => (m === "#{" ? "\\#{" : ESCAPES[m]))}"`;
const printableCode = (c) => (c >= 7 && c <= 13) || c === 27 || (c >= 32 && c <= 126);
const utf8 = new TextEncoder();
const byteOrder = (a, b) => {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

export function inspect(v) {
  if (v === null || v === undefined) return "nil";
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) <= 2 ** 53 ? String(v) : floatText(v);
  if (typeof v === "string") return quote(v);
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((c) => Number.isInteger(c) && printableCode(c))) return `~c${quote(String.fromCharCode(...v))}`;
    return `[${v.map(inspect).join(", ")}]`;
  }
  const keys = Object.keys(v).sort(byteOrder);
  return `%{${keys.map((k) => `${quote(k)} => ${inspect(v[k])}`).join(", ")}}`;
}

export function toText(record) {
  const c = record.content;
  switch (record.content_type) {
    case "text":
    case "thinking":
    case "error":
      return c.text;
    case "tool_call":
      return `Tool call: ${c.name ?? ""}(${inspect(c.arguments)})`;
    case "tool_result":
      return `Tool result from ${c.name ?? ""}: ${c.content}`;
    default:
      return "";
  }
}

/** The indices of the records whose toText contains `query`, ignoring case. */
export function search(records, query, limit = Infinity) {
  const q = query.toLowerCase();
  const found = [];
  for (let i = 0; i < records.length && found.length < limit; i++) {
    if (toText(records[i]).toLowerCase().includes(q)) found.push(i);
  }
  return found;
}
