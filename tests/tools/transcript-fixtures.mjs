// Writes tests/fixtures/transcript.json: each case's expected records come from the viewer's own
// reading of the same input (js/element/input.js readConversation over the built package), its texts from
// toText of each record, its search results from filtering those texts, and the records after
// appending from reading the input with the appended messages added. Run after a build:
//   node tests/tools/transcript-fixtures.mjs
import { writeFileSync } from "node:fs";
import * as api from "../../js/node.mjs";
import { readConversation } from "../../js/element/input.js";

const seed = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Find Elixir docs about GenServer, please." },
  {
    role: "assistant",
    content: [
      { type: "thinking", content: "The user wants docs." },
      { type: "text", content: "Searching for Elixir docs" },
      { type: "image", content: "aGVsbG8=" },
    ],
    tool_calls: [
      { call_id: "c1", name: "search", arguments: { q: "GenServer", limit: 5, ratio: 2.5, tags: [104, 105], opts: { deep: [null, true] } } },
      { call_id: "c2", name: "fetch", arguments: "{\"url\": \"raw json text\"}" },
    ],
  },
  {
    role: "tool",
    tool_results: [
      { tool_call_id: "c1", name: "search", content: [{ type: "text", content: "Found 3 results" }, { type: "text", content: "CAFÉ über" }] },
      { tool_call_id: "c2", name: "fetch", content: "timeout", is_error: true },
    ],
  },
  { role: "assistant", content: "Here is what I found about GenServer." },
];

const cases = [
  { name: "an array of LangChain messages", rule: "records as toDisplayMessages gives them", json: seed,
    searches: [{ query: "genserver" }, { query: "CAFÉ" }, { query: "GenServer", limit: 2 }, { query: "" , limit: 3 }, { query: "nowhere" }, { query: "%{\"limit\" => 5" }] },
  { name: "an object with a messages array", rule: "{messages: [...]} reads its messages", json: { title: "x", messages: seed.slice(0, 3) },
    searches: [{ query: "tool call: SEARCH" }] },
  { name: "a bad message becomes an error record in place", rule: "the others still load; paths are the element's",
    json: [seed[1], { role: "robot", content: "hi" }, { role: "assistant", tool_calls: [{ call_id: 7 }] }, "not a message", seed[4]],
    searches: [{ query: "unsupported role" }] },
  { name: "records given in the input", rule: "a valid record is kept with defaults applied; an invalid one is an error record",
    json: [
      { conversation_id: "c-1", message_type: "user", content_type: "text", content: { text: "A given record" } },
      { content_type: "bogus", content: { text: "bad" }, message_type: "user" },
      { conversation_id: "c-1", content_type: "tool_call", message_type: "assistant", content: { call_id: "x", name: "lookup", arguments: { a: [1, 2.25] } }, status: "pending" },
      seed[1],
    ],
    searches: [{ query: "given" }, { query: "invalid record" }, { query: "lookup" }] },
  { name: "escapes and non-ASCII text", rule: "strings come back decoded exactly; JSON.parse semantics",
    text: '[{"role": "user", "content": "caf\\u00e9 \\"quoted\\"\\n\\ud83d\\ude00 tab\\there"}, ' +
      '{"role": "assistant", "tool_calls": [{"call_id": "e1", "name": "n\\u0061me", "arguments": {"k": "\\u0041", "n": -0.5, "big": 1e21, "x": 1.5e-7}}]}]',
    searches: [{ query: "CAFÉ \"QUOTED\"" }, { query: "😀" }, { query: "1.5e-7" }] },
  { name: "Sycophant messages mixed in", rule: "any object with __type__ is read as a Sycophant message",
    json: [
      { __type__: "Message", role: "user", content: "Weather?" },
      { __type__: "Message", role: "assistant", tool_calls: [{ __type__: "ToolCall", id: "w1", name: "get_weather", arguments: { city: "Paris" } }] },
      { __type__: "Message", role: "tool_result", content: "72F", tool_call_id: "w1", metadata: { tool_name: "get_weather" } },
    ],
    searches: [{ query: "paris" }] },
  { name: "an empty array", rule: "no records", json: [], searches: [{ query: "" }] },
  { name: "appending settles earlier pending calls", rule: "the earliest later result decides; records are added at the end",
    json: seed.slice(0, 3),
    append: [seed[3], seed[4], { role: "tool", tool_results: [{ tool_call_id: "c1", name: "search", content: "late", is_interrupt: true }] }],
    searches: [{ query: "late" }] },
  { name: "text that is not JSON", rule: "throws invalid_input at $", text: "[{\"role\": \"user\",", error: { code: "invalid_input", path: "$" } },
  { name: "trailing text after the value", rule: "throws", text: "[] []", error: { code: "invalid_input", path: "$" } },
  { name: "a top level that is a number", rule: "throws", text: "42", error: { code: "invalid_input", path: "$" } },
  { name: "an object without a messages array", rule: "throws", json: { messages: "no" }, error: { code: "invalid_input", path: "$" } },
];

const recordsOf = (data) => readConversation(data, api);
const out = [];
for (const c of cases) {
  const text = c.text ?? JSON.stringify(c.json, null, 1);
  const entry = { name: c.name, rule: c.rule, text };
  if (c.error) {
    entry.error = c.error;
    out.push(entry);
    continue;
  }
  const data = JSON.parse(text);
  const records = recordsOf(data);
  entry.records = records;
  entry.texts = records.map((r) => api.toText(r));
  entry.searches = (c.searches ?? []).map(({ query, limit }) => {
    const q = query.toLowerCase();
    const all = entry.texts.flatMap((t, i) => (typeof t === "string" && t.toLowerCase().includes(q) ? [i] : []));
    return { query, ...(limit === undefined ? {} : { limit }), indices: limit === undefined ? all : all.slice(0, limit) };
  });
  if (c.append) {
    entry.append = c.append;
    const list = Array.isArray(data) ? data : data.messages;
    entry.after = recordsOf([...list, ...c.append]);
  }
  out.push(entry);
}
writeFileSync(new URL("../fixtures/transcript.json", import.meta.url), JSON.stringify(out, null, 2) + "\n");
console.log(`wrote ${out.length} cases`);
