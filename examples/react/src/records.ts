// Display-message records as an app keeps them, in the shape chat-display's toDisplayMessages makes.
import type { DisplayRecord } from "chat-display";

const shared = { conversation_id: "demo", sequence: 0, status: "completed", metadata: {} } as const;

export const records: DisplayRecord[] = [
  { ...shared, message_type: "user", content_type: "text", content: { text: "Is it warm in Lisbon today?" }, tool_call_id: null },
  {
    ...shared, message_type: "assistant", content_type: "tool_call", tool_call_id: "call_1",
    content: { call_id: "call_1", name: "get_weather", arguments: { city: "Lisbon" }, display_text: null },
  },
  {
    ...shared, message_type: "tool", content_type: "tool_result", tool_call_id: "call_1",
    content: { tool_call_id: "call_1", name: "get_weather", content: "24 °C, sunny", is_error: false, is_interrupt: false },
  },
  { ...shared, message_type: "assistant", content_type: "text", content: { text: "Yes: **24 °C** and sunny in Lisbon." }, tool_call_id: null },
];
