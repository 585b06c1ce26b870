// The `chat-display/element` entry, typed: the element's class, its methods and events, and the
// tag name map entry, which tsc --strict must accept, with misuse it must reject.
import { ChatTranscript, type ChatTranscriptPart, type LoadCounts } from "chat-display/element";
import { StreamAccumulator, type DisplayRecord, type Patch } from "chat-display";

const element: ChatTranscript = document.createElement("chat-transcript");
const queried: ChatTranscript | null = document.querySelector("chat-transcript");
const counts: Promise<LoadCounts> = element.load('[{"role": "user", "content": "hi"}]');
void element.load(new Uint8Array([91, 93]));
void element.load({ messages: [{ role: "user", content: "hi" }] });
counts.then(({ records, messages, errors }) => console.log(records + messages + errors));

const records: DisplayRecord[] = [];
element.records = records;
const shown = element.records;
console.log(shown.length, queried?.isConnected);

const stream = new StreamAccumulator("anthropic_messages");
const patches: Patch[] = stream.push("event: ping\ndata: {}\n\n");
element.applyPatches(patches);
const hits: number = element.find("weather");
element.findNext();
element.findPrevious();
element.scrollToRecord(hits);
element.imageHosts = ["images.example.com"];
element.setAttribute("theme", "dark");

element.addEventListener("cd-load", (event) => {
  const loaded: LoadCounts = event.detail;
  console.log(loaded.records);
});
element.addEventListener("cd-error", (event) => {
  console.log(event.detail.code, event.detail.path);
});

// @ts-expect-error: find takes a string
element.find(3);
// @ts-expect-error: applyPatches takes patches, not records
element.applyPatches([{ op: "insert", index: 0 }]);
// @ts-expect-error: the counts have no such field
counts.then((c) => c.bytes);

// The parts `::part()` reaches, named by the type.
const parts: ChatTranscriptPart[] = ["message", "tool-call", "citations", "citation", "approval"];
console.log(parts.length);
// @ts-expect-error: no such part
const noPart: ChatTranscriptPart = "source-chip";
console.log(noPart);
