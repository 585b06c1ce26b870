// Uses the Sycophant API as a TypeScript consumer would; scripts/test.sh type-checks it with
// `tsc --noEmit --strict`. Each @ts-expect-error line must be an error, or tsc fails.
import init, {
  assistantMessage,
  decodeSycophant,
  extractDisplayItems,
  systemMessage,
  toDisplayMessages,
  toolResultMessage,
  userMessage,
  type DisplayItem,
  type DisplayRecord,
  type Message,
  type SycophantContentPart,
  type SycophantMessage,
  type SycophantPartInput,
  type SycophantToolCall,
  type SycophantValue,
} from "chat-display";

await init();

const hello: SycophantMessage = userMessage("Hello!");
const system: SycophantMessage = systemMessage("You are helpful.");
const parts: SycophantPartInput[] = [
  { type: "text", text: "What's in this image?" },
  { __type__: "Image", url: "https://example.com/photo.jpg" },
  { __type__: "Document", type: "document", data: null, citations: true },
  { type: "thinking", summary: "Short." },
  { type: "redacted_thinking", data: "x" },
];
const multimodal = assistantMessage(parts);
const role: "assistant" = multimodal.role;

const call: SycophantToolCall = { __type__: "ToolCall", id: "call_123", name: "get_weather", arguments: { city: "Paris" } };
const result = toolResultMessage({ id: call.id, name: call.name }, "72F and sunny");
const toolCallId: string = result.tool_call_id;
const toolName: string = result.metadata.tool_name;

const decoded: SycophantMessage = decodeSycophant(JSON.parse(JSON.stringify(hello)) as object);
const content: string | SycophantContentPart[] = decoded.content ?? "";
for (const p of Array.isArray(content) ? content : []) {
  switch (p.__type__) {
    case "Text": {
      const text: string = p.text;
      console.log(text, p.citations?.length);
      break;
    }
    case "Document": {
      const citations: boolean = p.citations;
      console.log(citations);
      break;
    }
    case "Image":
    case "Thinking":
      console.log(p.type);
      break;
    case "RedactedThinking": {
      const data: string = p.data;
      console.log(data);
      break;
    }
    default: {
      const never: never = p;
      console.log(never);
    }
  }
}
const anything: SycophantValue = call;
console.log(anything.__type__, role, toolCallId, toolName, system.role);

const langchain: Message = { role: "user", content: "Hi" };
const items: DisplayItem[] = extractDisplayItems(multimodal);
const records: DisplayRecord[] = toDisplayMessages([langchain, hello, { ...multimodal, tool_calls: [call] }, result]);
console.log(items.length, records.length, toDisplayMessages(result).length);

// @ts-expect-error: content is a string or a list of parts
userMessage(42);
// @ts-expect-error: a part needs its __type__ or its type
userMessage([{ text: "no tag" }]);
// @ts-expect-error: "video" is not a content part type
userMessage([{ type: "video", url: "v.mp4" }]);
// @ts-expect-error: a Text part needs text
assistantMessage([{ type: "text" }]);
// @ts-expect-error: __type__ and type must agree
userMessage([{ __type__: "Text", type: "image", text: "x" }]);
// @ts-expect-error: Document.citations is a boolean
userMessage([{ type: "document", citations: "yes" }]);
// @ts-expect-error: a tool call needs a name
toolResultMessage({ id: "call_1" }, "x");
// @ts-expect-error: "tool" is not a Sycophant role
const wrongRole: SycophantMessage = { __type__: "Message", role: "tool" };
// @ts-expect-error: role is required
extractDisplayItems({ __type__: "Message", content: "x" });
// @ts-expect-error: the result of a constructor is not a LangChain message with role tool
const notTool: { role: "tool" } = result;
console.log(wrongRole, notTool);
