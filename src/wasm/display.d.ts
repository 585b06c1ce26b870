/** A message role, which is also a display item's `message_type`. */
export type MessageType = "user" | "assistant" | "tool" | "system";

/** Any value `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `LangChain.Message.ContentPart`. Only `text` and `thinking` parts are displayed. */
export interface ContentPart {
  type: "text" | "image_url" | "image" | "file" | "file_url" | "thinking" | "unsupported";
  content?: string | null;
  options?: { [key: string]: JsonValue } | JsonValue[] | null;
  citations?: JsonValue[] | null;
}

/** `LangChain.Message.ToolCall`. */
export interface ToolCall {
  call_id?: string | null;
  name?: string | null;
  /** Any JSON: usually an object, or a raw JSON string while a call streams. */
  arguments?: JsonValue;
  display_text?: string | null;
  status?: "incomplete" | "complete";
  type?: "function";
  index?: number | null;
  metadata?: { [key: string]: JsonValue } | null;
}

/** `LangChain.MessageExpansion` (langchain v0.14.1). */
export interface MessageExpansion {
  messages: Message[];
  result_content?: string | ContentPart | ContentPart[] | null;
}

/** `LangChain.Message.ToolResult`. Absent keys take the upstream defaults. */
export interface ToolResult {
  type?: "function";
  tool_call_id?: string | null;
  name?: string | null;
  content?: string | ContentPart[] | null;
  processed_content?: JsonValue;
  display_text?: string | null;
  is_error?: boolean | null;
  is_interrupt?: boolean | null;
  interrupt_data?: JsonValue;
  options?: JsonValue;
  message_expansion?: MessageExpansion | null;
}

/** `LangChain.Message`. `role` is required: it is never assumed. */
export interface Message {
  role: MessageType;
  content?: string | ContentPart[] | null;
  processed_content?: JsonValue;
  status?: "complete" | "cancelled" | "length" | "content_filtered" | "stream_error";
  index?: number | null;
  name?: string | null;
  tool_calls?: ToolCall[] | null;
  tool_results?: ToolResult[] | null;
  metadata?: { [key: string]: JsonValue } | null;
}

/** One displayable piece of a message (Sagents `extract_display_items/1`). */
export type DisplayItem =
  | { type: "text" | "thinking"; message_type: MessageType; content: { text: string } }
  | { type: "tool_call"; message_type: MessageType; content: ToolCallContent }
  | { type: "tool_result"; message_type: MessageType; content: ToolResultContent };

export interface ToolCallContent {
  call_id: string | null;
  name: string | null;
  arguments: JsonValue;
  display_text: string | null;
}

export interface ToolResultContent {
  tool_call_id: string | null;
  name: string | null;
  content: string;
  is_error: boolean;
  is_interrupt: boolean;
}

/** The ten content types of a display-message record. */
export type ContentType = "text" | "thinking" | "image" | "file_reference" | "structured_data"
  | "notification" | "error" | "tool_call" | "tool_result" | "todo_snapshot";

/** The six statuses of a display-message record. */
export type DisplayStatus = "pending" | "executing" | "completed" | "failed" | "interrupted" | "cancelled";

/** A display-message record (the Sagents DisplayMessage schema, as JSON). */
export interface DisplayMessage {
  id?: string;
  conversation_id: string | null;
  message_type: string | null;
  content_type: ContentType | string | null;
  content: { [key: string]: JsonValue } | null;
  tool_call_id: string | null;
  sequence: number | null;
  status: DisplayStatus | string | null;
  metadata: { [key: string]: JsonValue } | null;
  inserted_at?: string;
}

/** A citation on a text record (`metadata.citations`): the fields of Sycophant's `Citation`, each
 * `null` where the provider gives none. */
export interface Citation {
  type: "page_location" | "char_location" | "content_block_location" | "web_search_result_location"
    | "search_result_location" | null;
  cited_text: string | null;
  url: string | null;
  title: string | null;
  source: string | null;
  file_id: string | null;
  document_index: number | null;
  document_title: string | null;
  start_index: number | null;
  end_index: number | null;
  unit: "page" | "char" | "block" | null;
}

/** A record as `toDisplayMessages` makes it from one display item, or from what `fromProvider`
 * marks beyond them (a generated image, a notification), or, with `media: true`, from an
 * attachment (an image, a file reference). `metadata` is `{}` except for a text's
 * `citations`, a server tool's structured `result` and a call's `approval_request`. */
export type DisplayRecord = {
  conversation_id: string | null;
  message_type: MessageType;
  sequence: number;
} & (
  | { content_type: "text"; content: { text: string }; status: "completed"; tool_call_id: null;
      metadata: { citations?: Citation[]; streaming?: never } }
  | { content_type: "thinking" | "notification"; content: { text: string }; status: "completed"; tool_call_id: null;
      metadata: { [key: string]: never } }
  | { content_type: "image"; content: { data: string | null; mime_type: string | null }; status: "completed";
      tool_call_id: null; metadata: { [key: string]: never } }
  | { content_type: "image"; content: { url: string | null; file_id: string | null; mime_type: string | null };
      status: "completed"; tool_call_id: null; metadata: { [key: string]: never } }
  | { content_type: "file_reference"; content: { path: string | null; name: string | null; mime_type: string | null };
      status: "completed"; tool_call_id: null; metadata: { [key: string]: never } }
  | { content_type: "tool_call"; content: ToolCallContent; status: "pending" | "completed" | "failed" | "interrupted"; tool_call_id: string | null;
      metadata: { approval_request?: true; streaming?: never } }
  | { content_type: "tool_result"; content: ToolResultContent; status: "completed"; tool_call_id: string | null;
      metadata: { result?: JsonValue; streaming?: never } }
);

export interface ToDisplayMessagesOptions {
  conversation_id?: string | null;
  /**
   * Attachments as records, in place among the message's records: an `image` record for each
   * `image` and `image_url` part (`{data, mime_type}` for base64 data, `{url, file_id, mime_type}`
   * for a URL or a provider's file id) and a `file_reference` record for each `file` and
   * `file_url` part (`{path, name, mime_type}`: `path` the URL or file id, null for inline data).
   * Default `false`: Sagents' mapping, where image and file parts show nothing.
   */
  media?: boolean | null;
}

/** The codes of ChatDisplayError (docs/API.md "Errors"); `module_unavailable` comes only from
 * `<chat-transcript>`, when a module it needed could not be loaded. */
export type ErrorCode = "invalid_input" | "unsupported_role" | "empty_expansion" | "invalid_expansion"
  | "invalid_expansion_role" | "missing_type" | "unknown_type" | "too_deep" | "unsupported_protocol"
  | "provider_error" | "module_unavailable";

/** What every function throws on bad input: a real `Error` with a stable `code` and the `path` of
 * the offending place (`$`, `$.tool_calls[1].call_id`, `$.messages[3].content[0]`). */
export interface ChatDisplayError extends Error {
  name: "ChatDisplayError";
  code: ErrorCode;
  path: string;
}
