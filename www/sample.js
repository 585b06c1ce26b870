// The sample conversation the viewer shows on start: LangChain messages as a Sagents backend
// would send them.
export const sampleConversation = [
  { role: "user", content: "What's the weather in Paris and Berlin?" },
  {
    role: "assistant",
    content: [
      { type: "thinking", content: "The user wants two cities. I'll call get_weather once for each." },
      { type: "text", content: "Let me check both cities for you." },
    ],
    tool_calls: [
      { call_id: "call_paris", name: "get_weather", arguments: { city: "Paris", units: "celsius" }, display_text: "Checking the weather in Paris" },
      { call_id: "call_berlin", name: "get_weather", arguments: { city: "Berlin", units: "celsius" } },
    ],
  },
  {
    role: "tool",
    tool_results: [
      { tool_call_id: "call_paris", name: "get_weather", content: [{ type: "text", content: "18°C, light rain" }] },
      { tool_call_id: "call_berlin", name: "get_weather", content: "Weather service unavailable for Berlin", is_error: true },
    ],
  },
  {
    role: "assistant",
    content: "Paris is 18°C with light rain. I couldn't get Berlin's weather: the service returned an error.",
  },
];
