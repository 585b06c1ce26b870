/** The options of `expand`. A `result_content` that is present, even `null` (keep the fallback),
 * is used as given; absent or `undefined`, it is the default sentence. */
export interface ExpandOptions {
  result_content?: string | ContentPart | ContentPart[] | null;
}

/** The tool result `expand` returns: all eleven ToolResult keys, `content` a part list and the
 * expansion set. `tool_call_id`, `name` and `display_text` are null for the caller to fill in. */
export type ExpandingToolResult = Required<ToolResult> & {
  content: ContentPart[];
  message_expansion: Required<MessageExpansion>;
};

/** A tool result `expandToolResults` applies: an expansion, and not interrupted. */
export type ExpandableToolResult = ToolResult & {
  message_expansion: MessageExpansion;
  is_interrupt?: false;
};

/** An LLMChain as far as `expandToolResults` reads it. A missing `last_message` is the last
 * element of `messages`, a missing `exchanged_messages` is `[]`, a missing `needs_response` is
 * `true`. Any other keys are passed along as given. */
export interface Chain {
  messages: Message[];
  exchanged_messages?: Message[] | null;
  last_message?: Message | null;
  needs_response?: boolean;
}

/** `Steps.expand_tool_results/2` on a bare array of messages: the new array. */
export function expandToolResults(messages: Message[]): Message[];
/** `Steps.expand_tool_results/2` on a chain: all four chain keys, plus the chain's other keys. */
export function expandToolResults<C extends Chain>(chain: C): Omit<C, keyof Chain> & Required<Chain>;
export function expandToolResults(input: Chain | Message[]): Required<Chain> | Message[];
