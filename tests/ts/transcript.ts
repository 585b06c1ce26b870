// Transcript, typed: a consumer that tsc --strict must accept, with misuse it must reject.
import { Transcript, toText, validateDisplayMessage, type DisplayMessage, type DisplayRecord, type TranscriptRecord } from "chat-display";

const t: Transcript = Transcript.fromJson('[{"role": "user", "content": "hi"}]');
const fromBytes: Transcript = Transcript.fromJson(new TextEncoder().encode("[]"));
const n: number = t.length;
const window: TranscriptRecord[] = t.records(0, 50);
// The union narrows on content_type, and each record still goes wherever a record is taken.
for (const record of window) {
  if (record.content_type === "tool_call") {
    const id = record.content.call_id; // a tool call's content has its call_id
    console.log(id);
  }
  toText(record);
  validateDisplayMessage(record);
  const taken: DisplayMessage | DisplayRecord = record;
  console.log(taken);
}
const text: string | null = t.toText(0);
const found: number[] = t.search("hi", { limit: 10 });
const all: number[] = t.search("hi");
t.append({ role: "assistant", content: "hello" });
t.free();
fromBytes.free();
console.log(n, window, text, found, all);

// @ts-expect-error: fromJson takes text or bytes, not parsed objects
Transcript.fromJson([{ role: "user" }]);
// @ts-expect-error: length is read-only
t.length = 3;
// @ts-expect-error: append takes a message, with its role
t.append({ content: "no role" });
// @ts-expect-error: not every content type has a text until content_type narrows the record
console.log(window[0].content.text);
// @ts-expect-error: search limit is a number
t.search("x", { limit: "3" });
