// The provider wire-format API as a TypeScript consumer uses it; scripts/test.sh type-checks it
// with `tsc --noEmit --strict`. Each @ts-expect-error line must be an error, or tsc fails.
import init, {
  detectProtocol,
  fromProvider,
  toDisplayMessages,
  toProvider,
  type Message,
  type ProviderMessage,
  type ProviderRequest,
  type WireProtocol,
} from "chat-display";

await init();

const saved: unknown = JSON.parse('{"messages": [{"role": "user", "content": "Hi"}]}');
const protocol: WireProtocol | null = detectProtocol(saved);
if (protocol !== null) {
  const messages: ProviderMessage[] = fromProvider(protocol, saved);
  for (const message of messages) {
    const wire: WireProtocol = message.metadata.wire_protocol;
    const status: "complete" | "cancelled" | "length" | "content_filtered" = message.status;
    const calls = message.tool_calls.map((call) => call.call_id);
    console.log(wire, status, calls, message.metadata.stop_reason);
  }
  // Provider messages are LangChain messages: every other function takes them.
  const asMessages: Message[] = messages;
  console.log(toDisplayMessages(asMessages, { conversation_id: "c-1" }).length);

  const request: ProviderRequest = toProvider("anthropic_messages", messages);
  if (Array.isArray(request)) {
    console.log(request.length);
  } else if ("system" in request) {
    const system: string | { [key: string]: unknown }[] = request.system;
    console.log(system, request.messages.length);
  } else {
    console.log(request.systemInstruction, request.contents.length);
  }
}

// LangChain.js messages are a protocol too (fromProvider and toProvider; no stream).
const fromLangchainJs: ProviderMessage[] = fromProvider("langchain_js", saved);
console.log(toProvider("langchain_js", fromLangchainJs));
// The AI SDK's UIMessages: the first message read from each holds its id.
const ui = fromProvider("ai_sdk_ui", [{ id: "m-1", role: "user", parts: [{ type: "text", text: "Hi" }] }]);
const uiId: string | undefined = ui[0]!.metadata.message_id;
console.log(uiId, toProvider("ai_sdk_ui", ui));

// Ollama's /api/chat: the union is written from the registry, so every format's name is in it.
const fromOllama: ProviderMessage[] = fromProvider("ollama", { model: "llama3.2", messages: [{ role: "user", content: "Hi", images: [] }] });
console.log(toProvider("ollama", fromOllama));

// @ts-expect-error: not one of the protocols
fromProvider("openai", saved);
// @ts-expect-error: toProvider takes LangChain messages, not any value
toProvider("google_gemini", [{ parts: [{ text: "x" }] }]);
// @ts-expect-error: detectProtocol gives a protocol or null, not a string
const wrong: string = detectProtocol(saved);
// @ts-expect-error: metadata.wire_protocol is a WireProtocol
const alsoWrong: "openai" = fromProvider("openai_completions", saved)[0]!.metadata.wire_protocol;
console.log(wrong, alsoWrong);
