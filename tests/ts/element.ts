// The `chat-display/element` entry, typed: the element's class, its methods and events, and the
// tag name map entry, which tsc --strict must accept, with misuse it must reject. Plain
// TypeScript: this file is also checked where neither React's nor Vue's types exist
// (tests/packaging/element-types.test.mjs), where the entry's React and Vue parts must be no error.
import {
  ChatTranscript, type ActionDetail, type ChatTranscriptAction, type ChatTranscriptEventMap, type ChatTranscriptPart,
  type ChatTranscriptProps, type ChatTranscriptTheme, type LoadCounts, type RecordOf, type Renderer, type Renderers,
} from "chat-display/element";
import { StreamAccumulator, type Citation, type DisplayMessage, type DisplayRecord, type Patch } from "chat-display";

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

// ---------------------------------------------------------------------------------------------
// The element as a component apps build on: renderers, actions, participants, prepend / upsert,
// and the events.

/** Text from a record, as a renderer must put it in the DOM: as text, never as HTML. */
function textNode(tag: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

// Each content-type key gets a renderer of that content type's record; a tool's key gets the call.
const renderers: Renderers = {
  text: (record, ctx) => (ctx.streaming ? null : textNode("p", record.content.text)),
  thinking: (record) => textNode("details", record.content.text),
  image: (record) => textNode("span", record.content.mime_type ?? "an image"),
  tool_result: (record) => textNode("pre", record.content.content),
  error: () => undefined,
  "tool:get_weather": (record, { index, results, renderDefault }) => {
    const card = textNode("section", `${record.content.name ?? "a tool"} (record ${index})`);
    for (const result of results) card.append(textNode("p", result.content_type === "tool_result" ? result.content.content : ""));
    card.append(renderDefault());
    return card;
  },
};
element.renderers = renderers;
element.renderers = {};
const own: Renderers = element.renderers;
const general: Renderer = (record, ctx) => (record.content_type === "tool_call" ? ctx.renderDefault() : null);
element.renderers = { tool_call: general, "tool:search": general }; // a renderer of any record fits any key
const call: RecordOf<"tool_call">["content"]["arguments"] = null;
console.log(own, call);

const actions: ChatTranscriptAction[] = [{ id: "copy", label: "Copy" }, { id: "retry", label: "Retry" }];
element.actions = actions;
element.actions = [];
element.actions = [{ id: "share", label: "Share" }] as const;
const buttons: ChatTranscriptAction[] = element.actions;
element.participants = { user: { name: "Ana" }, assistant: { name: "Helper", avatar: "https://example.com/a.png" } };
console.log(buttons.length, element.participants.user?.name);

const older: DisplayRecord[] = [];
const stored: DisplayMessage[] = [{
  id: "m1", conversation_id: "c1", message_type: "user", content_type: "text", content: { text: "hi" },
  tool_call_id: null, sequence: 0, status: "completed", metadata: {},
}];
element.prepend(older);
element.prepend(stored);
element.upsert(stored);
element.upsert([...older, ...stored]);
element.applyPatches(patches, { base: 3 });

element.addEventListener("cd-action", (event) => {
  const detail: ActionDetail = event.detail;
  if (detail.action === "retry") console.log(detail.index, detail.record.message_type, detail.text.length);
});
element.addEventListener("cd-link", (event) => {
  if (new URL(event.detail.href).host !== location.host) event.preventDefault();
  console.log(event.detail.index, event.detail.record.content_type);
});
element.addEventListener("cd-citation", (event) => {
  const citation: Citation | null = event.detail.citation;
  if (citation?.url) event.preventDefault();
});
element.addEventListener("cd-image", (event) => {
  const kind: "load" | "open" = event.detail.kind;
  console.log(kind, event.detail.src.length);
});
element.addEventListener("cd-toggle", (event) => console.log(event.detail.open, event.detail.record.sequence));
element.addEventListener("cd-reach-start", (event) => {
  const first: 0 = event.detail.index;
  console.log(first, event.detail.record.conversation_id);
});
const onAction = (event: ChatTranscriptEventMap["cd-action"]) => console.log(event.detail.text);
element.addEventListener("cd-action", onAction);
element.removeEventListener("cd-action", onAction);
// The events bubble and are composed: a listener higher up gets them as CustomEvents.
document.body.addEventListener("cd-action", (event) => console.log(event instanceof CustomEvent));

// The props a framework passes: the attributes' values are checked too.
const theme: ChatTranscriptTheme = "dark";
const props: ChatTranscriptProps = { records: stored, renderers, actions, theme, src: "/conversation.json", imageHosts: ["example.com"] };
console.log(props);

// Misuse.
// @ts-expect-error: renderers is an object of functions, not a number
element.renderers = 3;
// @ts-expect-error: a renderer returns a Node (or null / undefined), not HTML text
element.renderers = { text: (record) => `<p>${record.content.text}</p>` };
// @ts-expect-error: no such content type (a misspelled key would never be used)
element.renderers = { tool_cal: general };
// @ts-expect-error: a text renderer's record is a text record, with no tool name
element.renderers = { text: (record) => textNode("p", record.content.name) };
// @ts-expect-error: a tool's renderer gets the call, whose content has no text
element.renderers = { "tool:get_weather": (record) => textNode("p", record.content.text) };
// @ts-expect-error: an action needs its id
element.actions = [{ label: "Retry" }];
// @ts-expect-error: actions is a list
element.actions = { id: "retry", label: "Retry" };
// @ts-expect-error: no such theme
const noTheme: ChatTranscriptTheme = "blue";
// @ts-expect-error: no such theme, as a prop either
const badProps: ChatTranscriptProps = { theme: "sepia" };
// @ts-expect-error: prepend takes records, not the DOM's nodes
element.prepend(document.createElement("p"));
// @ts-expect-error: upsert takes a list of records
element.upsert(stored[0]);
element.addEventListener("cd-action", (event) => {
  // @ts-expect-error: an action's detail has no href
  console.log(event.detail.href);
});
// @ts-expect-error: a participant's name is text
element.participants = { user: { name: 3 } };
console.log(noTheme, badProps);
