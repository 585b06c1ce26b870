// The `chat-display/display` entry, typed: its own declarations (the main entry's types for the
// display functions, with none of the other exports), which tsc --strict must accept, with misuse
// it must reject.
import init, {
  extractDisplayItems,
  toDisplayMessages,
  isChatDisplayError,
  toText,
  type DisplayItem,
  type DisplayRecord,
  type Message,
  type SycophantMessage,
} from "chat-display/display";
import type { DisplayItem as FullDisplayItem, DisplayRecord as FullDisplayRecord } from "chat-display";

await init();

const message: Message = { role: "user", content: "hi" };
const sycophant: SycophantMessage = { __type__: "Message", role: "assistant", content: "hello" };
const items: DisplayItem[] = extractDisplayItems(sycophant);
// The two entries declare the same shapes.
const same: FullDisplayItem[] = items;
const records: DisplayRecord[] = toDisplayMessages([message, sycophant], { conversation_id: "c" });
const full: FullDisplayRecord[] = records;
const text: string | null = toText(records[0]);
try {
  extractDisplayItems({ role: "user", content: "ok" });
} catch (error) {
  if (isChatDisplayError(error)) console.log(error.code, error.path);
}
console.log(same, full, text);

// Attachments (issue 46): `media` is a boolean; an image record holds `data` or `url`, a
// file_reference record `path` and `name`.
const withMedia = toDisplayMessages(
  { role: "user", content: [{ type: "image_url", content: "https://example.com/a.png" }] },
  { media: true },
);
for (const r of withMedia) {
  if (r.content_type === "image") {
    const src: string | null = "url" in r.content ? r.content.url : r.content.data;
    const type: string | null = r.content.mime_type;
    console.log(src, type);
  } else if (r.content_type === "file_reference") {
    const where: string | null = r.content.path;
    const name: string | null = r.content.name;
    console.log(where, name);
  }
}
// @ts-expect-error: media is a boolean
toDisplayMessages([message], { media: "yes" });

// @ts-expect-error: the display entry has no Transcript
import { Transcript } from "chat-display/display";
// @ts-expect-error: nor expansion
import { expand } from "chat-display/display";
// @ts-expect-error: nor the record functions
import { newDisplayMessage } from "chat-display/display";
// @ts-expect-error: nor Sycophant's constructors
import { userMessage } from "chat-display/display";
// @ts-expect-error: nor provider readers
import { fromProvider } from "chat-display/display";
console.log(Transcript, expand, newDisplayMessage, userMessage, fromProvider);
// @ts-expect-error: toText takes a record, not a string
toText("no record");
