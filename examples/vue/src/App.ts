// The app as a render function (defineComponent and h) rather than a .vue file, so that plain tsc
// checks all of it; in a template the same element is
//   <chat-transcript ref="transcript" :renderers="renderers" :actions="actions" @cd-action="onAction" />
// which vue-tsc checks against the GlobalComponents entry chat-display/element declares.
import { defineComponent, h, onMounted, ref, shallowRef } from "vue";
import "chat-display/element";
import type { ChatTranscript, ChatTranscriptAction, ChatTranscriptVueProps, Renderers } from "chat-display/element";
import { messages } from "./messages";
import { weatherCard } from "./weather-card";

const renderers: Renderers = { "tool:get_weather": weatherCard };
const actions: ChatTranscriptAction[] = [{ id: "copy", label: "Copy" }, { id: "retry", label: "Retry" }];

export default defineComponent({
  name: "App",
  setup() {
    const transcript = shallowRef<ChatTranscript | null>(null);
    const status = ref("");
    onMounted(() => transcript.value?.load(messages));

    // Vue sets renderers and actions as the element's properties and listens for cd-action
    // through onCdAction (what @cd-action in a template compiles to).
    const props: ChatTranscriptVueProps = {
      renderers,
      actions,
      onCdAction: (event) => {
        if (event.detail.action === "retry") status.value = `Retry asked for the message at record ${event.detail.index}.`;
      },
    };
    return () => [
      h("chat-transcript", { ...props, ref: transcript }),
      h("p", { id: "action-log", role: "status" }, status.value),
    ];
  },
});
