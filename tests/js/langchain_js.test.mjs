// LangChain.js messages through the installed package, against the real library: messages built
// with @langchain/core's own classes and serialized with its own toJSON() and
// mapChatMessagesToStoredMessages read by fromProvider("langchain_js") give the texts, reasoning,
// calls, arguments, results and statuses LangChain itself sees in them (contentBlocks, tool_calls,
// text, status); what toProvider("langchain_js") writes, LangChain's mapStoredMessagesToChatMessages
// reads back to the same (the content_blocks trap included). And the wrong-shape error of issue 33
// item 4, from the full entry and from chat-display/display.
//
// @langchain/core is a devDependency of the repository, not of the scratch directory the package is
// installed in: CHAT_DISPLAY_REPO names the repository (scripts/test.sh sets it), whose
// node_modules it is loaded from.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  StreamAccumulator, detectProtocol, extractDisplayItems, fromProvider, isChatDisplayError,
  toDisplayMessages, toProvider,
} from "chat-display";
import initDisplay, * as display from "chat-display/display";
import { sorted, text as s } from "../support/kit.mjs";

const repo = process.env.CHAT_DISPLAY_REPO;
const from = repo ? createRequire(join(repo, "package.json")) : createRequire(import.meta.url);
let lc;
try {
  lc = from("@langchain/core/messages");
} catch (e) {
  throw new Error(`@langchain/core not found: set CHAT_DISPLAY_REPO to the repository (${e.message})`);
}
const {
  AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage,
  mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages,
} = lc;

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9GtQAAAABJRU5ErkJggg==";

// A conversation built with the classes, each kind of content the reader knows.
function conversation() {
  const chunk = [
    new AIMessageChunk({ content: "Zooming ", id: "run-z" }),
    new AIMessageChunk({ content: "in.", tool_call_chunks: [{ id: "call_zoom", name: "zoom", args: "{\"fac", index: 0 }] }),
    new AIMessageChunk({ content: "", tool_call_chunks: [{ args: "tor\": 2}", index: 0 }] }),
  ].reduce((a, b) => a.concat(b));
  return [
    new SystemMessage("You are a weather assistant."),
    new HumanMessage({ content: [
      { type: "text", text: "Weather in Paris and Berlin? Chart attached." },
      { type: "image", mimeType: "image/png", data: PNG },
    ] }),
    new AIMessage({
      content: "Let me check both cities.",
      tool_calls: [
        { id: "call_paris", name: "get_weather", args: { city: "Paris" }, type: "tool_call" },
        { id: "call_berlin", name: "get_weather", args: { city: "Berlin", days: [1, 2.5] }, type: "tool_call" },
      ],
      usage_metadata: { input_tokens: 50, output_tokens: 30, total_tokens: 80 },
    }),
    new ToolMessage({ content: "18 °C, cloudy", tool_call_id: "call_paris", name: "get_weather", status: "success" }),
    new ToolMessage({ content: "Error: service unavailable", tool_call_id: "call_berlin", name: "get_weather", status: "error" }),
    new AIMessage({ contentBlocks: [
      { type: "reasoning", reasoning: "Paris worked, Berlin failed." },
      { type: "text", text: "Paris is 18 °C [1].", annotations: [
        { type: "citation", url: "https://example.com/paris", title: "Paris weather", startIndex: 9, endIndex: 14, citedText: "18 °C" },
      ] },
      { type: "tool_call", id: "call_plot", name: "plot", args: { kind: "bar" } },
    ] }),
    new ToolMessage({ content: [{ type: "text", text: "plotted" }], tool_call_id: "call_plot" }),
    chunk,
    new HumanMessage("Thanks!"),
  ];
}


// The records as lines.
const lines = (records) => records.map((r) => {
  const c = r.content;
  switch (r.content_type) {
    case "tool_call": return `${r.message_type} tool_call ${r.status} ${s(c.call_id)} ${s(c.name)}(${sorted(c.arguments)})`;
    case "tool_result": return `tool tool_result ${s(c.tool_call_id)} ${s(c.name)}${c.is_error ? " error" : ""}: ${s(c.content)}`;
    default: return `${r.message_type} ${r.content_type}: ${s(c.text)}`;
  }
});

// The same lines from LangChain's own view of the messages: contentBlocks' text and reasoning,
// tool_calls after them, a ToolMessage's text and status; a call's status from the ToolMessage
// answering it, a result's name from its call when the ToolMessage has none.
function expected(messages) {
  const calls = messages.flatMap((m) => m.tool_calls ?? []);
  const answer = (id) => messages.find((m) => m.getType() === "tool" && m.tool_call_id === id);
  const out = [];
  for (const m of messages) {
    const type = m.getType();
    if (type === "tool") {
      const name = m.name ?? calls.find((c) => c.id === m.tool_call_id)?.name ?? null;
      out.push(`tool tool_result ${m.tool_call_id} ${s(name)}${m.status === "error" ? " error" : ""}: ${m.text}`);
      continue;
    }
    const mt = { human: "user", ai: "assistant", system: "system" }[type];
    for (const b of m.contentBlocks) {
      if (b.type === "text" && b.text !== "") out.push(`${mt} text: ${b.text}`);
      if (b.type === "reasoning" && b.reasoning !== "") out.push(`${mt} thinking: ${b.reasoning}`);
    }
    for (const c of m.tool_calls ?? []) {
      const result = answer(c.id);
      const status = !result ? "pending" : result.status === "error" ? "failed" : "completed";
      out.push(`${mt} tool_call ${status} ${c.id} ${c.name}(${sorted(c.args)})`);
    }
  }
  return out;
}

const serialized = (messages) => JSON.parse(JSON.stringify(messages));
const stored = (messages) => JSON.parse(JSON.stringify(mapChatMessagesToStoredMessages(messages)));

test("messages made by @langchain/core, serialized and stored, read as LangChain sees them", () => {
  const messages = conversation();
  const want = expected(messages);
  assert.equal(want.length, 14, want.join("\n"));
  for (const [form, payload] of [["toJSON", serialized(messages)], ["stored", stored(messages)]]) {
    assert.equal(detectProtocol(payload), "langchain_js", form);
    const read = fromProvider("langchain_js", payload);
    assert.deepEqual(lines(toDisplayMessages(read)), want, form);
    assert.ok(read.every((m) => m.metadata.wire_protocol === "langchain_js"), form);
  }
});

test("a v1 citation annotation rides on its text part with exactly the Citation fields", () => {
  const read = fromProvider("langchain_js", stored(conversation()));
  const cited = read.flatMap((m) => m.content ?? []).filter((p) => p.citations);
  assert.equal(cited.length, 1);
  assert.deepEqual(cited[0].citations, [{
    type: null, cited_text: "18 °C", url: "https://example.com/paris", title: "Paris weather", source: null,
    file_id: null, document_index: null, document_title: null, start_index: 9, end_index: 14, unit: "char",
  }]);
});

// LangChain's own view of a message, for comparing a round trip: type, text, calls, result.
const view = (m) => ({
  type: m.getType(),
  text: m.text,
  tool_calls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args })),
  tool_call_id: m.tool_call_id ?? null,
  status: m.getType() === "tool" ? (m.status ?? "success") : null,
});

test("toProvider(\"langchain_js\") writes what mapStoredMessagesToChatMessages reads back the same", () => {
  const messages = conversation();
  for (const payload of [serialized(messages), stored(messages)]) {
    const written = toProvider("langchain_js", fromProvider("langchain_js", payload));
    const back = mapStoredMessagesToChatMessages(JSON.parse(JSON.stringify(written)));
    // Every message comes back, in order (the ToolMessage of blocks as its text).
    assert.deepEqual(back.map(view), messages.map(view));
    // And reads again to the same records.
    assert.deepEqual(lines(toDisplayMessages(fromProvider("langchain_js", written))), expected(messages));
  }
});

test("the content_blocks trap: LangChain's own stored round trip loses the content, toProvider keeps it", () => {
  const made = new AIMessage({ id: "run-trap", contentBlocks: [
    { type: "text", text: "Made with contentBlocks." },
    { type: "tool_call", id: "call_t", name: "noop", args: {} },
  ] });
  const own = stored([made]);
  assert.equal(own[0].data.content, undefined, "the trap: no content in the stored form");
  assert.deepEqual(mapStoredMessagesToChatMessages(own)[0].content, [], "LangChain reads it back empty");
  const written = toProvider("langchain_js", fromProvider("langchain_js", own));
  assert.equal(written[0].data.content, "Made with contentBlocks.");
  assert.equal(written[0].data.content_blocks, undefined);
  const back = mapStoredMessagesToChatMessages(JSON.parse(JSON.stringify(written)));
  assert.equal(back[0].text, "Made with contentBlocks.");
  assert.deepEqual(back[0].tool_calls.map((c) => c.id), ["call_t"]);
});

test("StreamAccumulator(\"langchain_js\") is a ChatDisplayError: the format has no stream", () => {
  assert.throws(() => new StreamAccumulator("langchain_js"), (e) => {
    assert.ok(isChatDisplayError(e));
    assert.equal(e.code, "unsupported_protocol");
    assert.equal(e.path, "$.protocol");
    assert.match(e.message, /fromProvider\("langchain_js", messages\)/);
    return true;
  });
});

// Issue 33 item 4: a message of another format, from the full entry and chat-display/display.
const WRONG = [
  ["openai_completions", [{ role: "assistant", content: null, tool_calls: [
    { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Paris\"}" } }] }],
    "$.messages[0].tool_calls[0]"],
  ["openai_completions", [{ role: "tool", tool_call_id: "call_1", content: "18 °C" }], "$.messages[0]"],
  ["ai_sdk_ui", [{ id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] }], "$.messages[0]"],
  ["langchain_js", () => serialized([new AIMessage("Hello")]), "$.messages[0]"],
  ["langchain_js", () => stored([new HumanMessage("Hi")]), "$.messages[0]"],
  ["langchain_js", [{ type: "ai", content: "Hello" }], "$.messages[0]"],
];

test("toDisplayMessages and extractDisplayItems name the format of a wrong shape and the call to make", async () => {
  await initDisplay();
  for (const [protocol, given, path] of WRONG) {
    const messages = typeof given === "function" ? given() : given;
    for (const [entry, m] of [["chat-display", { toDisplayMessages, extractDisplayItems }], ["chat-display/display", display]]) {
      const check = (run, where) => assert.throws(run, (e) => {
        assert.ok(isChatDisplayError(e), `${entry} ${protocol}`);
        assert.equal(e.code, "invalid_input");
        assert.equal(e.path, where);
        assert.ok(e.message.includes(`fromProvider("${protocol}", messages)`), `${entry}: ${e.message}`);
        return true;
      });
      check(() => m.toDisplayMessages(messages), path);
      check(() => m.extractDisplayItems(messages[0]), path.replace("$.messages[0]", "$"));
    }
  }
});
