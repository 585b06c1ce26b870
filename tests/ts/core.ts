// The `chat-display/core` entry, typed: its own declarations (the main entry's types, without the
// provider readers and streams), which tsc --strict must accept, with misuse it must reject.
import init, {
  extractDisplayItems,
  toDisplayMessages,
  isChatDisplayError,
  Transcript,
  type DisplayItem,
  type DisplayRecord,
  type Message,
} from "chat-display/core";
import type { DisplayItem as FullDisplayItem } from "chat-display";

await init();

const message: Message = { role: "user", content: "hi" };
const items: DisplayItem[] = extractDisplayItems(message);
// The two entries declare the same shapes.
const same: FullDisplayItem[] = items;
const records: DisplayRecord[] = toDisplayMessages([message], { conversation_id: "c" });
const t: Transcript = Transcript.fromJson("[]");
try {
  extractDisplayItems({ role: "user", content: "ok" });
} catch (error) {
  if (isChatDisplayError(error)) console.log(error.code, error.path);
}
t.free();
console.log(same, records);

// @ts-expect-error: the core entry has no provider readers
import { fromProvider } from "chat-display/core";
// @ts-expect-error: nor streams
import { StreamAccumulator } from "chat-display/core";
console.log(fromProvider, StreamAccumulator);
// @ts-expect-error: role is required
extractDisplayItems({ content: "no role" });
