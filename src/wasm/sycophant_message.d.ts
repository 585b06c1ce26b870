/** A Sycophant message role. `tool_result` is a role; there is no `tool` role. */
export type SycophantRole = "user" | "assistant" | "system" | "tool_result";

/** `Sycophant.Message` as canonical JSON: nil, `[]` and `{}` fields are left out. */
export interface SycophantMessage {
  __type__: "Message";
  role: SycophantRole;
  content?: string | SycophantContentPart[];
  tool_call_id?: string;
  tool_calls?: SycophantToolCall[];
  /** Any JSON; `toolResultMessage` sets `{ tool_name }`. */
  metadata?: JsonValue;
  wire_protocol?: "anthropic_messages" | "openai_completions" | "openai_responses" | "bedrock_converse" | "google_gemini";
}

/** A Sycophant content part, told apart by `__type__` (or by its `type` literal). */
export type SycophantContentPart =
  | SycophantText
  | SycophantImage
  | SycophantDocument
  | SycophantThinking
  | SycophantRedactedThinking;

export interface SycophantText {
  __type__: "Text";
  type: "text";
  text: string;
  citations?: SycophantCitation[];
}

export interface SycophantImage {
  __type__: "Image";
  type: "image";
  url?: string;
  /** Base64. */
  data?: string;
  media_type?: string;
}

export interface SycophantDocument {
  __type__: "Document";
  type: "document";
  data?: string;
  url?: string;
  file_id?: string;
  media_type?: string;
  name?: string;
  /** Always present: `false` unless citations were requested. */
  citations: boolean;
}

export interface SycophantThinking {
  __type__: "Thinking";
  type: "thinking";
  id?: string;
  text?: string;
  summary?: string;
  signature?: string;
}

export interface SycophantRedactedThinking {
  __type__: "RedactedThinking";
  type: "redacted_thinking";
  data: string;
}

export interface SycophantToolCall {
  __type__: "ToolCall";
  id: string;
  name: string;
  /** Any JSON; left out when `{}` (the default). */
  arguments?: JsonValue;
  metadata?: JsonValue;
}

export interface SycophantCitation {
  __type__: "Citation";
  type?: "page_location" | "char_location" | "content_block_location" | "web_search_result_location" | "search_result_location";
  cited_text?: string;
  document_index?: number;
  document_title?: string;
  file_id?: string;
  unit?: "page" | "char" | "block";
  start_index?: number;
  end_index?: number;
  url?: string;
  title?: string;
  source?: string;
}
