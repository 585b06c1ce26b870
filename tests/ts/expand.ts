// Uses tool-result expansion as a TypeScript consumer would; scripts/test.sh type-checks it with
// `tsc --noEmit --strict` against the installed package. Each @ts-expect-error line must be an
// error, or tsc fails: the types reject these misuses.
import {
  expand,
  expandToolResults,
  isExpandable,
  type Chain,
  type ContentPart,
  type ExpandingToolResult,
  type Message,
  type ToolResult,
} from "chat-display";

const records = "idempotent: applying twice equals applying once";
const result: ExpandingToolResult = expand(
  `glossary: 1 record\n\n${records}`,
  [
    { role: "assistant", content: records },
    { role: "user", content: "Use the records above to answer my question about glossary." },
  ],
  { result_content: "glossary: 1 record" },
);
const parts: ContentPart[] = result.content;
const note: string | ContentPart | ContentPart[] | null = result.message_expansion.result_content;
const inserted: Message[] = result.message_expansion.messages;
const asResult: ToolResult = { ...result, tool_call_id: "c1", name: "load_reference" };
expand({ type: "text", content: "one part" }, [{ role: "user" }], { result_content: null });
expand([{ type: "text", content: "a list" }], [{ role: "assistant", content: null }]);
console.log(parts, note, inserted);

if (isExpandable(asResult)) {
  // Narrowed: the expansion is there.
  const later: Message[] = asResult.message_expansion.messages;
  console.log(later.length);
}

const messages: Message[] = expandToolResults([{ role: "tool", tool_results: [asResult] }]);
const chain = { llm: { model: "claude" }, messages, needs_response: false };
const out = expandToolResults(chain);
const all: Message[] = out.messages;
const exchanged: Message[] | null = out.exchanged_messages;
const last: Message | null = out.last_message;
const needs: boolean = out.needs_response;
const model: string = out.llm.model;
console.log(all, exchanged, last, needs, model);
const either: Chain | Message[] = Math.random() > 0.5 ? messages : { messages };
const maybe: Required<Chain> | Message[] = expandToolResults(either);
console.log(maybe);

// @ts-expect-error: the fallback content must be a string, a part or a list of parts
expand(null, [{ role: "user" }]);
// @ts-expect-error: messages are a list
expand("x", { role: "user" });
// @ts-expect-error: a message needs a role
expand("x", [{ content: "no role" }]);
// @ts-expect-error: result_content is content or null
expand("x", [{ role: "user" }], { result_content: 5 });
// @ts-expect-error: a tool result is an object
isExpandable("result");
// @ts-expect-error: a chain needs messages
expandToolResults({ last_message: null });
// @ts-expect-error: needs_response is a boolean
expandToolResults({ messages, needs_response: "yes" });
// @ts-expect-error: an array in gives an array out, not a chain
const notChain: Required<Chain> = expandToolResults(messages);
// @ts-expect-error: a chain in gives a chain out, not an array
const notArray: Message[] = expandToolResults({ messages });
console.log(notChain, notArray);
