// <chat-transcript> in React 19's JSX (react/jsx-runtime, tsc --jsx react-jsx), checked where
// @types/react is installed beside chat-display (tests/packaging/element-types.test.mjs). Events
// are props named "on" + the event's name as written ("oncd-action"): that is what React 19 passes
// to addEventListener on a custom element.
import { useRef, useState, type JSX } from "react";
import "chat-display/element";
import type { ChatTranscript, ChatTranscriptAction, Renderers } from "chat-display/element";
import type { Citation, DisplayRecord } from "chat-display";

const renderers: Renderers = {
  "tool:get_weather": (record, { results }) => {
    const card = document.createElement("section");
    card.textContent = `${record.content.name ?? ""}: ${results.length} results`;
    return card;
  },
  text: (record) => (record.content.text === "" ? null : undefined),
};
const actions: ChatTranscriptAction[] = [{ id: "copy", label: "Copy" }, { id: "retry", label: "Retry" }];

export function Chat({ records }: { records: DisplayRecord[] }): JSX.Element {
  const element = useRef<ChatTranscript>(null);
  const [said, setSaid] = useState("");
  return (
    <chat-transcript
      ref={element}
      id="chat"
      className="transcript"
      style={{ height: "100%" }}
      title={said}
      aria-label="The conversation"
      records={records}
      renderers={renderers}
      actions={actions}
      participants={{ user: { name: "Ana" }, assistant: { name: "Helper", avatar: "https://example.com/helper.png" } }}
      imageHosts={["images.example.com"]}
      theme="dark"
      src="/conversation.json"
      oncd-load={(event) => setSaid(`${event.detail.records} records`)}
      oncd-error={(event) => setSaid(`${event.detail.code} at ${event.detail.path}`)}
      oncd-action={(event) => {
        if (event.detail.action === "retry") setSaid(event.detail.text);
        element.current?.scrollToRecord(event.detail.index);
      }}
      oncd-link={(event) => { if (!event.detail.href.startsWith(location.origin)) event.preventDefault(); }}
      oncd-citation={(event) => { const citation: Citation | null = event.detail.citation; setSaid(citation?.title ?? ""); }}
      oncd-image={(event) => { if (event.detail.kind === "load") setSaid(event.detail.src); }}
      oncd-toggle={(event) => setSaid(String(event.detail.open))}
      oncd-reach-start={(event) => element.current?.prepend([event.detail.record])}
    />
  );
}

export function Misuses(): JSX.Element[] {
  const div = useRef<HTMLDivElement>(null);
  return [
    // @ts-expect-error: renderers is an object of functions
    <chat-transcript renderers={3} />,
    // @ts-expect-error: an action needs its id
    <chat-transcript actions={[{ label: "Retry" }]} />,
    // @ts-expect-error: no such theme
    <chat-transcript theme="blue" />,
    // @ts-expect-error: React 19 would listen for an event named "CdAction", which never fires
    <chat-transcript onCdAction={() => {}} />,
    // @ts-expect-error: cd-action's detail has no href
    <chat-transcript oncd-action={(event) => event.detail.href} />,
    // @ts-expect-error: the ref is the element's, not a div's
    <chat-transcript ref={div} />,
    // @ts-expect-error: a text renderer's record has no tool name
    <chat-transcript renderers={{ text: (record) => document.createTextNode(record.content.name) }} />,
  ];
}
