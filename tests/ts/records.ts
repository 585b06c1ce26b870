// Uses the record functions as a TypeScript consumer would; scripts/test.sh type-checks it with
// `tsc --noEmit --strict`. Each @ts-expect-error line must be an error, or tsc fails.
import init, {
  changeDisplayMessage,
  newDisplayMessage,
  toDisplayMessages,
  toText,
  validateDisplayMessage,
  type Changeset,
  type DisplayMessage,
  type DisplayRecord,
} from "chat-display";

await init();

const created: Changeset = newDisplayMessage("conv-1", {
  message_type: "user",
  content_type: "text",
  content: { text: "hi" },
  sequence: "2",
});
const valid: boolean = created.valid;
const messages: string[] | undefined = created.errors["content"];
const record: DisplayMessage = created.record;
const sequence: number | null = record.sequence;
const id: string | undefined = record.id;
console.log(valid, messages, sequence, id);

const changed: Changeset = changeDisplayMessage(record, { status: "failed" });
const checked: Changeset = validateDisplayMessage(changed.record);
console.log(checked.valid);
const fresh: Changeset = newDisplayMessage(null, {});
console.log(fresh.errors);

// Records from toDisplayMessages are accepted as they are.
const records: DisplayRecord[] = toDisplayMessages([{ role: "user", content: "hi" }], { conversation_id: "c" });
for (const r of records) {
  const result: Changeset = validateDisplayMessage(r);
  const text: string | null = toText(r);
  console.log(result.valid, text);
}
const search: string | null = toText(record);
console.log(search);

// @ts-expect-error: the conversation id is a string or null
newDisplayMessage(5, {});
// @ts-expect-error: attrs is an object
newDisplayMessage("c", "attrs");
// @ts-expect-error: attrs is required
newDisplayMessage("c");
// @ts-expect-error: a record is a DisplayMessage, not a string
validateDisplayMessage("record");
// @ts-expect-error: a record needs its fields
changeDisplayMessage({ status: "failed" }, {});
// @ts-expect-error: the changeset's valid is a boolean
const notString: string = created.valid;
// @ts-expect-error: errors hold lists of messages
const notMessage: string = created.errors["status"];
// @ts-expect-error: toText gives a string or null, never a number
const notNumber: number = toText(record);
console.log(notString, notMessage, notNumber);
