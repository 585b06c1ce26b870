import { useState } from "react";
import "chat-display/element";
import type { ChatTranscriptAction, Renderers } from "chat-display/element";
import { records } from "./records";
import { weatherCard } from "./weather-card";

// Made once, outside the component: React sets a property again whenever its value is a new
// object, and each set builds the element's rows in view again.
const renderers: Renderers = { "tool:get_weather": weatherCard };
const actions: ChatTranscriptAction[] = [{ id: "copy", label: "Copy" }, { id: "retry", label: "Retry" }];

export default function App() {
  const [status, setStatus] = useState("");
  return (
    <>
      {/* React 19 sets records, renderers and actions as the element's properties, and adds each
          on<name> prop as a listener for the event <name> as written: "oncd-action" listens for
          cd-action (an onCdAction prop would listen for "CdAction", which never fires). */}
      <chat-transcript
        records={records}
        renderers={renderers}
        actions={actions}
        oncd-action={(event) => {
          if (event.detail.action === "retry") setStatus(`Retry asked for the message at record ${event.detail.index}.`);
        }}
      />
      <p id="action-log" role="status">{status}</p>
    </>
  );
}
