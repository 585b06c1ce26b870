// Uses the API as a TypeScript consumer would; scripts/test.sh type-checks it with
// `tsc --noEmit --strict` against the installed package. The @ts-expect-error lines prove the
// types are precise: each must be an error, or tsc fails.
import init, {
  extractDisplayItems,
  isChatDisplayError,
  toDisplayMessages,
  type ChatDisplayError,
  type DisplayItem,
  type DisplayRecord,
  type Message,
} from "chat-display";

await init();

const message: Message = {
  role: "assistant",
  content: [{ type: "text", content: "Let me search..." }],
  tool_calls: [{ call_id: "1", name: "search", arguments: { q: "elixir", nested: [1, { deep: null }] } }],
};

const items: DisplayItem[] = extractDisplayItems(message);
for (const item of items) {
  switch (item.type) {
    case "text":
    case "thinking": {
      const text: string = item.content.text;
      console.log(text.length);
      break;
    }
    case "tool_call": {
      const id: string | null = item.content.call_id;
      const display: string | null = item.content.display_text;
      console.log(id, display, item.content.arguments);
      break;
    }
    case "tool_result": {
      const failed: boolean = item.content.is_error;
      const body: string = item.content.content;
      console.log(failed, body);
      break;
    }
    default: {
      const never: never = item;
      console.log(never);
    }
  }
}

const records: DisplayRecord[] = toDisplayMessages([message], { conversation_id: "c-1" });
const one: DisplayRecord[] = toDisplayMessages(message);
const first = records[0];
if (first && first.content_type === "tool_call") {
  const status: "pending" | "completed" | "failed" | "interrupted" = first.status;
  const name: string | null = first.content.name;
  console.log(status, name, one.length);
}

try {
  extractDisplayItems({ role: "user", content: "x" });
} catch (e) {
  if (isChatDisplayError(e)) {
    const err: ChatDisplayError = e;
    const code: "invalid_input" | "unsupported_role" | string = err.code;
    console.log(code, err.path, err.message);
  }
}

// @ts-expect-error: role is required
extractDisplayItems({ content: "who?" });
// @ts-expect-error: "function" is not a role
extractDisplayItems({ role: "function", content: "x" });
// @ts-expect-error: content is a string, parts or null
extractDisplayItems({ role: "user", content: 42 });
// @ts-expect-error: a content part needs a known type
extractDisplayItems({ role: "user", content: [{ type: "video", content: "x" }] });
// @ts-expect-error: conversation_id is a string or null
toDisplayMessages([], { conversation_id: 5 });
// @ts-expect-error: items are not records
const wrong: DisplayRecord[] = extractDisplayItems(message);
console.log(wrong);
