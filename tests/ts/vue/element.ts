// <chat-transcript> in Vue 3, checked where vue is installed beside chat-display
// (tests/packaging/element-types.test.mjs): the GlobalComponents entry that vue-tsc reads for a
// template (`@cd-action` is the prop onCdAction), and the same props through h().
import { h, type GlobalComponents } from "vue";
import "chat-display/element";
import type { ChatTranscript, ChatTranscriptVueProps, Renderers } from "chat-display/element";
import type { DisplayRecord } from "chat-display";

type Entry = GlobalComponents["ChatTranscript"];
const byTag: GlobalComponents["chat-transcript"] = null as unknown as Entry;
console.log(byTag);
// A template ref to the tag is the element.
const shown: ChatTranscript = new (null as unknown as Entry)();
console.log(shown.records.length);

const records: DisplayRecord[] = [];
const renderers: Renderers = { "tool:get_weather": (record) => document.createTextNode(record.content.name ?? "") };
const props: InstanceType<Entry>["$props"] = {
  records,
  renderers,
  actions: [{ id: "copy", label: "Copy" }, { id: "retry", label: "Retry" }],
  participants: { user: { name: "Ana" } },
  imageHosts: ["images.example.com"],
  theme: "auto",
  src: "/conversation.json",
  class: ["transcript", { wide: true }],
  style: { height: "100%" },
  onCdLoad: (event) => console.log(event.detail.records),
  onCdError: (event) => console.log(event.detail.code),
  onCdAction: (event) => console.log(event.detail.action, event.detail.text),
  onCdLink: (event) => event.preventDefault(),
  onCdCitation: (event) => console.log(event.detail.citation?.url),
  onCdImage: (event) => console.log(event.detail.kind),
  onCdToggle: (event) => console.log(event.detail.open),
  onCdReachStart: (event) => console.log(event.detail.index, event.detail.record),
};
export const vnode = h("chat-transcript", props);

// Through h()'s component overloads, as the GlobalComponents entry types a template's tag.
declare const tag: Entry;
export const typed = h(tag, { theme: "dark", onCdAction: (event) => console.log(event.detail.index) });

const wrong: ChatTranscriptVueProps[] = [
  // @ts-expect-error: renderers is an object of functions
  { renderers: 3 },
  // @ts-expect-error: an action needs its id
  { actions: [{ label: "Retry" }] },
  // @ts-expect-error: no such theme
  { theme: "blue" },
  // @ts-expect-error: in Vue the listener prop is camelCase: "oncd-action" is no prop
  { "oncd-action": () => {} },
  // @ts-expect-error: cd-action's detail has no href
  { onCdAction: (event) => event.detail.href },
];
console.log(wrong);
// @ts-expect-error: h() checks the entry's props too
h(tag, { theme: "blue" });
