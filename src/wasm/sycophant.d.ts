/** Any of the eight types `decodeSycophant` knows. */
export type SycophantValue = SycophantMessage | SycophantContentPart | SycophantToolCall | SycophantCitation;

/** Names a struct given to a constructor: its `__type__`, its `type` literal, or both. */
export type SycophantTag<T extends string, L extends string> = { __type__: T; type?: L } | { __type__?: T; type: L };

/** A content part given to a constructor: the canonical shape, with `__type__` or `type` enough
 * to name it and `null` allowed for absent fields. */
export type SycophantPartInput =
  | (SycophantTag<"Text", "text"> & { text: string; citations?: SycophantCitationInput[] | null })
  | (SycophantTag<"Image", "image"> & { url?: string | null; data?: string | null; media_type?: string | null })
  | (SycophantTag<"Document", "document"> & {
      data?: string | null; url?: string | null; file_id?: string | null; media_type?: string | null;
      name?: string | null; citations?: boolean | null })
  | (SycophantTag<"Thinking", "thinking"> & {
      id?: string | null; text?: string | null; summary?: string | null; signature?: string | null })
  | (SycophantTag<"RedactedThinking", "redacted_thinking"> & { data: string });

export type SycophantCitationInput = { [K in keyof SycophantCitation]?: SycophantCitation[K] | null };

/** A tool call given to `toolResultMessage`; `__type__` may be left out. */
export interface SycophantToolCallInput {
  __type__?: "ToolCall";
  id: string;
  name: string;
  arguments?: JsonValue;
  metadata?: JsonValue;
}

/** What the constructors accept as content (`null`: no content). */
export type SycophantContentInput = string | SycophantPartInput[] | null;
