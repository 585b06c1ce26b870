// Display-message records as an app keeps them, in the shape chat-display's toDisplayMessages makes.
const record = (message_type, sequence, content_type, content, tool_call_id = null) => ({
  conversation_id: "demo", message_type, sequence, content_type, content, tool_call_id,
  status: "completed", metadata: {},
});

export const records = [
  record("user", 0, "text", { text: "Is it warm in Lisbon today?" }),
  record("assistant", 0, "tool_call", { call_id: "call_1", name: "get_weather", arguments: { city: "Lisbon" } }, "call_1"),
  record("tool", 0, "tool_result", { tool_call_id: "call_1", name: "get_weather", content: "24 °C, sunny" }, "call_1"),
  record("assistant", 0, "text", { text: "Yes: **24 °C** and sunny in Lisbon." }),
];
