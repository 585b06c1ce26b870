// Size limits, measured: a 50 MB string content, 100,000-deep arguments and a 100,000-message
// conversation through the installed package in Node. Prints time and peak memory for each case;
// run each case in its own process (`node bench/limits.mjs <case>`) so peaks do not mix.
import { performance } from "node:perf_hooks";
import { extractDisplayItems, toDisplayMessages, toText, Transcript } from "../js/node.mjs";

function conversation(n) {
  const out = [];
  for (let i = 0; out.length < n; i++) {
    out.push({ role: "user", content: `Question ${i}: what is the weather in city ${i}?` });
    out.push({ role: "assistant", content: [{ type: "thinking", content: `Plan ${i}` }, { type: "text", content: `Checking city ${i}.` }],
      tool_calls: [{ call_id: `c${i}`, name: "get_weather", arguments: { city: `city ${i}`, days: [1, 2, 3] } }] });
    out.push({ role: "tool", tool_results: [{ tool_call_id: `c${i}`, name: "get_weather", content: [{ type: "text", content: `${i % 30}°C` }], is_error: i % 10 === 0 }] });
  }
  return out.slice(0, n);
}

const cases = {
  "50mb-text": () => {
    const text = "x".repeat(50 * 1024 * 1024);
    return () => extractDisplayItems({ role: "user", content: text })[0].content.text.length;
  },
  "50mb-tool-result": () => {
    const text = "x".repeat(50 * 1024 * 1024);
    return () => extractDisplayItems({ role: "tool", tool_results: [{ tool_call_id: "1", content: [{ type: "text", content: text }] }] })[0].content.content.length;
  },
  "50mb-totext": () => {
    const text = "x".repeat(50 * 1024 * 1024);
    return () => toText({ content_type: "text", content: { text } }).length;
  },
  "deep-arguments": () => {
    const root = {};
    let v = root;
    for (let i = 0; i < 100_000; i++) v = v.next = {};
    return () => extractDisplayItems({ role: "assistant", tool_calls: [{ call_id: "1", name: "t", arguments: root }] })[0].content.arguments === root;
  },
  // A query that matches all but its last character at every place of a text: a search that
  // goes back to the next place after each partial match does 1,000 comparisons per byte here.
  "search-worst-case": () => {
    const t = Transcript.fromJson(JSON.stringify([
      { role: "user", content: "a".repeat(1 << 20) },
      { role: "user", content: "é".repeat(1 << 19) },
    ]));
    return () => [t.search("a".repeat(1000) + "b").length, t.search("é".repeat(500) + "e").length];
  },
  "100k-messages": () => {
    const messages = conversation(100_000);
    return () => toDisplayMessages(messages, { conversation_id: "c" }).length;
  },
};

const name = process.argv[2];
if (!cases[name]) {
  console.log(`usage: node bench/limits.mjs <${Object.keys(cases).join("|")}>`);
  process.exit(2);
}
const run = cases[name]();
const before = process.memoryUsage().rss;
let peak = before;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 1);
const start = performance.now();
const result = run();
const ms = performance.now() - start;
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(timer);
console.log(JSON.stringify({ case: name, result, ms: Math.round(ms * 10) / 10, rss_before_mb: Math.round(before / 1e6), rss_peak_mb: Math.round(peak / 1e6) }));
