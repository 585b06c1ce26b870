// Hostile shapes, timed at n and 4n: every function's time should grow about 4 times. A case
// that grows more than 8 times is marked QUADRATIC? (the shapes are those a conversation's author
// could choose: ids shared by every call, one message of many parts, calls or results, objects
// with many and repeated keys, long queries, large provider bodies, streams of many blocks). Not part of `npm test`:
// `node bench/scaling.mjs [n]` (default 2,000) through the built package in Node.
import * as cd from "../js/node.mjs";
import { formats } from "../tests/tools/formats.mjs";

const time = (f) => {
  const start = performance.now();
  f();
  return performance.now() - start;
};
// `n` assistant calls, each answered by a tool message; one id for all when `shared`.
function pairs(n, shared) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const id = shared ? "call" : `call_${i}`;
    out.push({ role: "assistant", content: [{ type: "text", content: "Looking." }], tool_calls: [{ call_id: id, name: "lookup", arguments: { i } }] });
    out.push({ role: "tool", tool_results: [{ tool_call_id: id, name: "lookup", content: "found" }] });
  }
  return out;
}
const many = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const loaded = (messages) => cd.Transcript.fromJson(JSON.stringify(messages));

const cases = {
  "toDisplayMessages, one id for every call": (n) => {
    const messages = pairs(n, true);
    return () => cd.toDisplayMessages(messages);
  },
  "Transcript.fromJson, one id for every call": (n) => {
    const text = JSON.stringify(pairs(n, true));
    return () => cd.Transcript.fromJson(text).free();
  },
  "Transcript.append of every message, one id": (n) => {
    const messages = pairs(n, true);
    return () => {
      const t = cd.Transcript.fromJson("[]");
      for (const message of messages) t.append(message);
      t.free();
    };
  },
  "Transcript.append of n pending calls, then one result": (n) => () => {
    const t = cd.Transcript.fromJson("[]");
    for (let i = 0; i < n; i++) t.append({ role: "assistant", content: "", tool_calls: [{ call_id: "call", name: "f", arguments: {} }] });
    t.append({ role: "tool", tool_results: [{ tool_call_id: "call", name: "f", content: "done" }] });
    t.free();
  },
  "extractDisplayItems, one message of n parts": (n) => {
    const message = { role: "assistant", content: many(n, (i) => ({ type: "text", content: `part ${i}` })) };
    return () => cd.extractDisplayItems(message);
  },
  "toDisplayMessages, n calls and n results in two messages": (n) => {
    const messages = [
      { role: "assistant", content: "", tool_calls: many(n, (i) => ({ call_id: `c${i % 3}`, name: "f", arguments: {} })) },
      { role: "tool", tool_results: many(n, (i) => ({ tool_call_id: `c${i % 3}`, name: "f", content: "x" })) },
    ];
    return () => cd.toDisplayMessages(messages);
  },
  "expandToolResults, n expanding results": (n) => {
    const messages = [
      { role: "assistant", content: "", tool_calls: many(n, (i) => ({ call_id: `c${i}`, name: "f", arguments: {} })) },
      { role: "tool", tool_results: many(n, (i) => ({ tool_call_id: `c${i}`, name: "f", content: "x", message_expansion: { messages: [{ role: "user", content: `u${i}` }] } })) },
    ];
    return () => cd.expandToolResults(messages);
  },
  "toText, arguments of n keys": (n) => {
    const args = Object.fromEntries(many(n, (i) => [`k${i}`, i]));
    const [record] = cd.toDisplayMessages([{ role: "assistant", content: "", tool_calls: [{ call_id: "c", name: "f", arguments: args }] }]);
    return () => cd.toText(record);
  },
  "Transcript toText, arguments of n keys written twice": (n) => {
    const keys = many(n, (i) => `"k${i}":${i}`).join(",");
    const text = `[{"role":"assistant","content":"","tool_calls":[{"call_id":"c","name":"f","arguments":{${keys},${keys}}}]}]`;
    return () => {
      const t = cd.Transcript.fromJson(text);
      t.toText(0);
      t.free();
    };
  },
  "Transcript.search, a match in every record": (n) => {
    const t = loaded(pairs(n, false));
    return () => t.search("o");
  },
  "Transcript.search, a query that almost matches everywhere": (n) => {
    const t = loaded([{ role: "user", content: "a".repeat(10 * n) }]);
    const query = "a".repeat(5 * n) + "b";
    return () => t.search(query);
  },
};
// Every format of the registry (src/registry.rs), read through tests/tools/formats.mjs.
for (const { name: protocol } of formats()) {
  cases[`toProvider ${protocol}, one id for every call`] = (n) => {
    const messages = pairs(n, true);
    return () => cd.toProvider(protocol, messages);
  };
  cases[`fromProvider ${protocol}, one id for every call`] = (n) => {
    const body = cd.toProvider(protocol, pairs(n, true));
    return () => cd.fromProvider(protocol, body);
  };
}

// An Anthropic stream of `n` blocks, each of `kind` ("text" or "tool_use"), in 200-byte chunks.
function anthropicStream(n, kind) {
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let text = event("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } });
  for (let i = 0; i < n; i++) {
    const [block, delta] = kind === "text"
      ? [{ type: "text", text: "" }, { type: "text_delta", text: `block ${i}` }]
      : [{ type: "tool_use", id: `toolu_${i}`, name: "f", input: {} }, { type: "input_json_delta", partial_json: `{"i": ${i}}` }];
    text += event("content_block_start", { index: i, content_block: block });
    text += event("content_block_delta", { index: i, delta });
    text += event("content_block_stop", { index: i });
  }
  text += event("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } });
  return (text + event("message_stop", {})).match(/[\s\S]{1,200}/g);
}
for (const kind of ["text", "tool_use"]) {
  cases[`StreamAccumulator, n / 4 ${kind} blocks`] = (n) => {
    const chunks = anthropicStream(n / 4, kind);
    return () => {
      const stream = new cd.StreamAccumulator("anthropic_messages");
      for (const chunk of chunks) stream.push(chunk);
      stream.free();
    };
  };
}

const n = Number(process.argv[2] ?? 2000);
console.log(`case`.padEnd(60), `n=${n} ms`.padStart(12), `n=${4 * n} ms`.padStart(12), "ratio");
for (const [name, make] of Object.entries(cases)) {
  const [small, large] = [make(n), make(4 * n)];
  small();
  large();
  const a = Math.min(time(small), time(small), time(small));
  const b = Math.min(time(large), time(large), time(large));
  const flag = b / a > 8 ? "  QUADRATIC?" : "";
  console.log(name.padEnd(60), a.toFixed(1).padStart(12), b.toFixed(1).padStart(12), (b / a).toFixed(1).padStart(5) + flag);
}
