// StreamAccumulator, typed: a consumer that tsc --strict must accept, with misuse it must reject.
import { StreamAccumulator, type Patch, type StreamRecord, type ProviderMessage } from "chat-display";

const acc = new StreamAccumulator("anthropic_messages");
const fromText: Patch[] = acc.push('data: {"type":"ping"}\n\n');
const fromBytes: Patch[] = acc.push(new TextEncoder().encode("data: {}\n\n"));
const fromEvent: Patch[] = acc.push({ type: "message_stop" });
const records: StreamRecord[] = acc.records();
const message: ProviderMessage = acc.message();
const done: boolean = acc.done;
for (const p of [...fromText, ...fromBytes, ...fromEvent]) {
  if (p.op === "append") {
    const grows: "text" | "content" = p.field;
    console.log(p.index, grows, p.text.length);
  } else if (p.op === "replace") {
    console.log(p.index, p.record.content_type);
  } else {
    console.log(p.record.sequence);
  }
}
for (const r of records) {
  // Records keep their content types apart, streaming or not.
  if (r.content_type === "tool_call") console.log(r.content.name, r.content.arguments);
  if (r.content_type === "text" && r.metadata.streaming === true) console.log(r.content.text.length);
}
acc.free();
console.log(records, message, done);

// @ts-expect-error: the protocol is one of the five names
new StreamAccumulator("openai");
// @ts-expect-error: a chunk is text, bytes or an event object
acc.push(42);
// @ts-expect-error: done is read-only
acc.done = true;
declare const patch: Patch;
// @ts-expect-error: only append patches carry text
console.log(patch.text);
