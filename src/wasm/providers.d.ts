// `WireProtocol`, the union of the formats' names, is written from the registry
// (src/registry.rs, `WIRE_PROTOCOL_TS`), so it is not kept here by hand.

/** `metadata` of a message read from a provider payload. `stop_reason` is the provider's raw stop
 * reason (response bodies only); `stop_details` is Anthropic's refusal detail. */
export type ProviderMetadata = {
  wire_protocol: WireProtocol;
  stop_reason?: JsonValue;
  stop_details?: JsonValue;
  /** `ai_sdk_ui`: the UIMessage's `id` and `metadata`, on the first message read from it. */
  message_id?: string;
  message_metadata?: JsonValue;
};

/** A LangChain message made by `fromProvider`: every key present. */
export interface ProviderMessage extends Message {
  role: MessageType;
  content: ContentPart[] | null;
  status: "complete" | "cancelled" | "length" | "content_filtered";
  tool_calls: ToolCall[];
  tool_results: ToolResult[] | null;
  metadata: ProviderMetadata;
}

/** A provider JSON object (a message, block, part or item). */
export type ProviderObject = { [key: string]: JsonValue };

/** What `toProvider` returns: the format's request array (`messages`, `input` or `contents`), or,
 * for Anthropic, Bedrock and Gemini when there are system messages, the request-body fields
 * `{system, messages}` / `{systemInstruction, contents}`. */
export type ProviderRequest =
  | ProviderObject[]
  | { system: string | ProviderObject[]; messages: ProviderObject[] }
  | { systemInstruction: ProviderObject; contents: ProviderObject[] };
