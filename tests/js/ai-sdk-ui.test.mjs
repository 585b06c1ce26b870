// The "ai_sdk_ui" protocol against the real AI SDK (`ai` 7, the repository's devDependency),
// through the installed package. The UI streams in tests/fixtures/ai_sdk_ui were made by the AI
// SDK's own helpers from recorded provider streams (tests/tools/js-inputs.mjs); here the SDK's
// readUIMessageStream reads each of them again at test time, and its final UIMessage is what
// chat-display must agree with:
//   - fromProvider("ai_sdk_ui") of it gives the SDK's texts, reasoning, calls, arguments,
//     outputs and tool states;
//   - the same stream through new StreamAccumulator("ai_sdk_ui") gives the records of it;
//   - toProvider("ai_sdk_ui") of what fromProvider made gives the messages back, which the SDK's
//     validateUIMessages accepts and convertToModelMessages converts.
//
// The scratch directory holds only the packed package, so the SDK is loaded from the
// repository's node_modules: CHAT_DISPLAY_REPO names the repository (scripts/test.sh sets it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { detectProtocol, fromProvider, StreamAccumulator, toDisplayMessages, toProvider } from "chat-display";

const repo = process.env.CHAT_DISPLAY_REPO;
const ai = repo && existsSync(path.join(repo, "node_modules", "ai"))
  ? createRequire(path.join(repo, "package.json"))("ai")
  : null;
const skip = ai ? false : "CHAT_DISPLAY_REPO does not name a repository with node_modules/ai";

const dir = new URL("../fixtures/ai_sdk_ui/", import.meta.url);
const file = (name) => readFileSync(new URL(name, dir), "utf8");
const streams = readdirSync(dir).filter((n) => n.endsWith(".sse")).sort().map((n) => n.slice(0, -4));
const messagesOf = (name) => JSON.parse(file(`${name}.json`)).messages;
const hasBefore = (name) => existsSync(new URL(`${name}.before.json`, dir));

// The SDK's final UIMessage for a stream (continuing the earlier message where the stream does).
async function sdkRead(name) {
  const chunks = ai.parseJsonEventStream({ stream: new Response(file(`${name}.sse`)).body, schema: ai.uiMessageChunkSchema })
    .pipeThrough(new TransformStream({ transform(r, c) { if (!r.success) throw r.error; c.enqueue(r.value); } }));
  const message = hasBefore(name) ? structuredClone(JSON.parse(file(`${name}.before.json`)).messages.at(-1)) : undefined;
  let last;
  for await (const m of ai.readUIMessageStream({ stream: chunks, message, onError: () => {} })) last = m;
  return JSON.parse(JSON.stringify(last));
}

const line = (r) => `${r.message_type} ${r.content_type} ${r.status} ${JSON.stringify(r.content)}`;
const recordsOf = (messages) => toDisplayMessages(fromProvider("ai_sdk_ui", messages));
const toolPart = (p) => p.type === "dynamic-tool" || p.type.startsWith("tool-");

test("readUIMessageStream's messages read as the AI SDK built them", { skip }, async () => {
  let checked = 0;
  const states = new Set();
  for (const name of streams) {
    const message = await sdkRead(name);
    assert.equal(detectProtocol([message]), "ai_sdk_ui", name);
    const lc = fromProvider("ai_sdk_ui", [message]);
    const records = toDisplayMessages(lc);
    const texts = (type) => records.filter((r) => r.content_type === type).map((r) => r.content.text);
    const parts = message.parts;
    assert.deepEqual(texts("text"), parts.filter((p) => p.type === "text" && p.text !== "").map((p) => p.text), name);
    assert.deepEqual(texts("thinking"), parts.filter((p) => p.type === "reasoning" && p.text !== "").map((p) => p.text), name);
    const tools = parts.filter(toolPart);
    const calls = lc.flatMap((m) => m.tool_calls);
    assert.equal(calls.length, tools.length, name);
    tools.forEach((p, i) => {
      const call = calls[i];
      states.add(p.state);
      assert.equal(call.call_id, p.toolCallId, name);
      assert.equal(call.name, p.type === "dynamic-tool" ? p.toolName : p.type.slice(5), name);
      assert.deepEqual(call.arguments, p.input ?? {}, name);
      assert.equal(call.metadata.state, p.state, name);
      assert.equal(call.metadata.approval_request === true, p.state === "approval-requested", name);
      const result = records.find((r) => r.content_type === "tool_result" && r.content.tool_call_id === p.toolCallId);
      const record = records.find((r) => r.content_type === "tool_call" && r.content.call_id === p.toolCallId);
      if (p.state === "output-available") {
        assert.equal(result.content.content, typeof p.output === "string" ? p.output : JSON.stringify(p.output ?? ""), name);
        assert.equal(record.status, "completed", name);
      } else if (p.state === "output-error") {
        assert.equal(result.content.content, p.errorText, name);
        assert.equal(result.content.is_error, true, name);
        assert.equal(record.status, "failed", name);
      } else {
        assert.equal(result, undefined, name);
      }
    });
    checked++;
  }
  assert.ok(checked >= 16, `only ${checked} streams`);
  for (const s of ["input-available", "approval-requested", "approval-responded", "output-available", "output-error", "output-denied"]) {
    assert.ok(states.has(s), `no stream leaves a part ${s}: ${[...states]}`);
  }
});

test("a UI stream through StreamAccumulator gives the records of the message readUIMessageStream built", { skip }, async () => {
  for (const name of streams) {
    const sse = file(`${name}.sse`);
    const final = await sdkRead(name);
    let expected = recordsOf([final]).map(line);
    if (hasBefore(name)) {
      // A continuation: the earlier response's records were there already, and the stream does
      // not name the tools of the calls it continues.
      const before = recordsOf([JSON.parse(file(`${name}.before.json`)).messages.at(-1)]);
      const ids = before.filter((r) => r.content_type === "tool_call").map((r) => r.content.call_id);
      const old = new Set(before.map(line));
      expected = recordsOf([final])
        .filter((r) => !old.has(line(r)) && !(r.content_type === "tool_call" && ids.includes(r.content.call_id)))
        .map((r) => (r.content_type === "tool_result" && ids.includes(r.content.tool_call_id)
          ? line({ ...r, content: { ...r.content, name: null } }) : line(r)));
    }
    for (const size of [sse.length, 5]) {
      const acc = new StreamAccumulator("ai_sdk_ui");
      const mirror = [];
      for (let i = 0; i < sse.length; i += size) {
        for (const patch of acc.push(sse.slice(i, i + size))) {
          if (patch.op === "add") mirror.push(patch.record);
          else if (patch.op === "replace") mirror[patch.index] = patch.record;
          else mirror[patch.index] = { ...mirror[patch.index], content: { ...mirror[patch.index].content, [patch.field]: mirror[patch.index].content[patch.field] + patch.text } };
        }
      }
      assert.ok(acc.done, name);
      const records = acc.records();
      assert.deepEqual(mirror, records, `${name}: patches`);
      assert.deepEqual(records.filter((r) => r.content_type !== "error").map(line), expected, `${name} in pieces of ${size}`);
      assert.equal(records.filter((r) => r.content_type === "error").length, sse.includes('data: {"type":"error"') ? 1 : 0, name);
      acc.free();
    }
  }
});

test("toProvider(\"ai_sdk_ui\") gives the UIMessages back, and the AI SDK takes them", { skip }, async () => {
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json") && !n.startsWith("older-clients"))) {
    const messages = JSON.parse(file(name)).messages;
    if (!messages) continue;
    const back = toProvider("ai_sdk_ui", fromProvider("ai_sdk_ui", messages));
    assert.deepEqual(back, messages, name);
    const valid = await ai.safeValidateUIMessages({ messages: back });
    assert.ok(valid.success, `${name}: ${valid.error}`);
  }
  // From another format: the SDK validates and converts what toProvider writes.
  const anthropic = [
    { role: "user", content: "Weather in Paris?" },
    { role: "assistant", content: [
      { type: "text", text: "Checking." },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "18 C" }] },
    { role: "assistant", content: "It is 18 C." },
  ];
  const ui = toProvider("ai_sdk_ui", fromProvider("anthropic_messages", anthropic));
  const valid = await ai.safeValidateUIMessages({ messages: ui });
  assert.ok(valid.success, String(valid.error));
  const model = await ai.convertToModelMessages(ui);
  assert.deepEqual(model.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
  assert.deepEqual(toDisplayMessages(fromProvider("ai_sdk_ui", ui)).map(line), toDisplayMessages(fromProvider("anthropic_messages", anthropic)).map(line));
});
