// The sample conversation the viewer shows on start. It mixes LangChain messages (as a Sagents
// backend sends them; their records come from toDisplayMessages) with display-message records of
// the content types messages do not produce, so that every content type and every status shows.
const swatch = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAB4ElEQVR4nA3LIc6GIACA4f843wE8gAfwAByAAxgJjmRwJAMjERiJ4EgGZzIw9gYDM3uY36c/fz9Fp+gVg0IopGJUTIpFYRVBsSkORVE0xav4+2k6Ta8ZNEIjNaNm0iwaqwmaTXNoiqZpXv2FmW6mnxlmxIycGWemmWXGzoSZbeaYKTNt5p2/YOgMvWEwCIM0jIbJsBisIRg2w2EohmZ4zRdWupV+ZVgRK3JlXJlWlhW7Ela2lWOlrLSVd/2Co3P0jsEhHNIxOibH4rCO4Ngch6M4muN1X/B0nt4zeIRHekbP5Fk81hM8m+fwFE/zvP4LkS7SR4aIiMjIGJkiS8RGQmSLHJESaZE3fiHRJfrEkBAJmRgTU2JJ2ERIbIkjURIt8aYvZLpMnxkyIiMzY2bKLBmbCZktc2RKpmXe/IWdbqffGXbEjtwZd6adZcfuhJ1t59gpO23n3b9w0p30J8OJOJEn48l0spzYk3CynRwn5aSdvOcXLrqL/mK4EBfyYryYLpYLexEutovjoly0i/f6QqWr9JWhIiqyMlamylKxlVDZKkelVFrlrV+46W76m+FG3Mib8Wa6WW7sTbjZbo6bctNu3vsLD91D/zA8iAf5MD5MD8uDfQgP28PxUB7aw/vwD3tW7xD9NWSiAAAAAElFTkSuQmCC";

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
    content: [{
      type: "text",
      content: [
        "## Weather report",
        "",
        "| City | Weather |",
        "| --- | --- |",
        "| Paris | 18°C, light rain |",
        "| Berlin | *unavailable* |",
        "",
        "1. Paris: take an umbrella.",
        "2. Berlin: try again later, or see [the forecast](https://example.com/forecast).",
        "",
        "```python",
        "def umbrella(rain_mm):",
        "    return rain_mm > 0.5",
        "```",
      ].join("\n"),
    }],
    tool_calls: [
      { call_id: "call_alert", name: "send_alert", arguments: { channel: "ops", text: "Berlin weather service down" } },
      { call_id: "call_ask", name: "ask_user", arguments: { question: "Retry Berlin now?" } },
    ],
  },
  {
    role: "tool",
    tool_results: [
      { tool_call_id: "call_ask", name: "ask_user", content: "Waiting for the user's answer", is_interrupt: true },
    ],
  },
  { role: "user", content: "Show me what you found, with the sources." },
];

const record = (message_type, content_type, content, extra = {}) => ({
  conversation_id: "sample", message_type, content_type, content, sequence: 0, status: "completed",
  tool_call_id: null, metadata: {}, ...extra,
});

/** A citation (api.md, Rich provider content): every field present, null where none is given. */
const citation = (fields) => ({
  type: null, cited_text: null, url: null, title: null, source: null, file_id: null, document_index: null,
  document_title: null, start_index: null, end_index: null, unit: null, ...fields,
});

/** Records for the content types and statuses that messages alone do not produce, and for what
 * providers send beside them: a server tool's result, citations, an approval request. */
export const sampleRecords = [
  record("assistant", "tool_call", { call_id: "srvtoolu_sample", name: "web_search", arguments: { query: "Paris weather this week" } }, { tool_call_id: "srvtoolu_sample" }),
  record("tool", "tool_result", {
    tool_call_id: "srvtoolu_sample", name: "web_search", is_error: false,
    content: "Paris: rain until Thursday — https://weather.example/paris\nBerlin outage notice — https://status.example/berlin",
  }, {
    tool_call_id: "srvtoolu_sample",
    metadata: { result: [
      { type: "web_search_result", title: "Paris: rain until Thursday", url: "https://weather.example/paris", page_age: "2 hours ago" },
      { type: "web_search_result", title: "Berlin outage notice", url: "https://status.example/berlin", page_age: null },
    ] },
  }),
  record("assistant", "text", { text: "Paris stays rainy until Thursday, and the Berlin service is down for maintenance." }, {
    metadata: { citations: [
      citation({ type: "web_search_result_location", url: "https://weather.example/paris", title: "Paris: rain until Thursday", cited_text: "Light rain is expected in Paris until Thursday." }),
      citation({ type: "web_search_result_location", url: "https://status.example/berlin", title: "Berlin outage notice", cited_text: "The Berlin endpoint is down for maintenance." }),
      citation({ type: "page_location", document_index: 0, document_title: "forecast.pdf", start_index: 2, end_index: 3, unit: "page", cited_text: "Rain: 1.2 mm at noon." }),
    ] },
  }),
  record("assistant", "image", { data: swatch, mime_type: "image/png", caption: "Rain radar over Paris (sample)", alt_text: "A small gradient" }),
  record("assistant", "image", { url: "javascript:alert(1)", alt_text: "An image with a script URL" }, { sequence: 1 }),
  record("assistant", "file_reference", { name: "forecast.csv", path: "/reports/2026-11/forecast.csv" }, { sequence: 2 }),
  record("assistant", "structured_data", { format: "json", data: { city: "Paris", hourly: [{ h: 9, t: 16.5 }, { h: 12, t: 18 }], source: { name: "Météo", ok: true } } }, { sequence: 3 }),
  record("assistant", "structured_data", { format: "csv", data: "hour,temp_c,rain_mm\n09:00,16.5,0.4\n12:00,18.0,1.2\n\"15:00, late\",17.2,0.0" }, { sequence: 4 }),
  record("assistant", "structured_data", { format: "yaml", data: "city: Paris\nrain: light" }, { sequence: 5 }),
  record("assistant", "tool_call", { call_id: "call_radar", name: "fetch_radar", arguments: { region: "IDF" }, display_text: "Fetching the radar image" }, { sequence: 6, status: "executing", tool_call_id: "call_radar" }),
  record("assistant", "tool_call", { call_id: "call_retry", name: "get_weather", arguments: { city: "Berlin" } }, { sequence: 7, status: "cancelled", tool_call_id: "call_retry" }),
  record("assistant", "tool_call", { call_id: "mcpr_sample", name: "create_short_url", arguments: { url: "https://example.com/forecast", max_clicks: 100 } },
    { sequence: 8, status: "pending", tool_call_id: "mcpr_sample", metadata: { approval_request: true } }),
  record("system", "notification", { text: "The Berlin weather service is degraded; results may be missing.", level: "warning" }),
  record("system", "error", { text: "Tool get_weather failed 3 times in a row for Berlin." }, { sequence: 1 }),
  record("assistant", "todo_snapshot", {
    todos: [
      { id: 1, content: "Get Paris weather", status: "completed" },
      { id: 2, content: "Get Berlin weather", status: "in_progress" },
      { id: 3, content: "Send the report", status: "pending" },
      { id: 4, content: "Page the on-call engineer", status: "cancelled" },
    ],
    summary: { pending: 1, in_progress: 1, completed: 1, cancelled: 1, total: 4 },
  }),
];

/** The embedded sample: messages first, then the extra records. */
export const sample = [...sampleConversation, ...sampleRecords];
