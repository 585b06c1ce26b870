// LangChain-style messages, as an agent keeps them; load() turns them into records.
import type { Message } from "chat-display";

export const messages: Message[] = [
  { role: "user", content: "Is it warm in Lisbon today?" },
  { role: "assistant", content: null, tool_calls: [{ call_id: "call_1", name: "get_weather", arguments: { city: "Lisbon" } }] },
  { role: "tool", tool_results: [{ tool_call_id: "call_1", name: "get_weather", content: "24 °C, sunny" }] },
  { role: "assistant", content: "Yes: **24 °C** and sunny in Lisbon." },
];
