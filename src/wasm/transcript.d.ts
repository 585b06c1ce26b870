/** The options of `Transcript.search`: at most `limit` indices (all when absent). */
export interface TranscriptSearchOptions {
  limit?: number | null;
}

/** What `Transcript.read` did: `done` once every element of the conversation is read; `settled`,
 * the indices of records there before the call whose status it changed (pending tool calls that
 * results read in the call answered), in no particular order. */
export interface TranscriptRead {
  done: boolean;
  settled: number[];
}

/** `Transcript.counts()`: over the records read so far. */
export interface TranscriptCounts {
  /** Records that start a message (`sequence` 0). */
  messages: number;
  /** Error records in place of elements that could not be read. */
  errors: number;
}

/** A record a conversation held, as `Transcript` validated it (`validate_content/2`,
 * docs/API.md): its content has the keys its content type requires. */
export type HeldRecord<T extends ContentType = ContentType, K extends string = string> =
  Omit<DisplayMessage, "content_type" | "content"> & {
    content_type: T;
    content: { [P in K]: JsonValue } & { [key: string]: JsonValue };
  };

/** What `Transcript.records` hands out, a union that narrows on `content_type`: a record made from
 * a message (as `toDisplayMessages` makes it), a record the conversation held, or the `error` record
 * (`text`, `path`) in place of an element that could not be read. */
export type TranscriptRecord =
  | DisplayRecord
  | HeldRecord<"text" | "thinking" | "notification" | "error", "text">
  | HeldRecord<"image", "url">
  | HeldRecord<"image", "data" | "mime_type">
  | HeldRecord<"file_reference", "path" | "name">
  | HeldRecord<"structured_data", "format" | "data">
  | HeldRecord<"tool_call", "call_id" | "name" | "arguments">
  | HeldRecord<"tool_result", "tool_call_id" | "name" | "content">
  | HeldRecord<"todo_snapshot", "todos">;

// wasm-bindgen declares `[Symbol.dispose]()` on Transcript (the glue sets it where the engine has
// `Symbol.dispose`). A consumer whose TypeScript lib predates ES2025 (tsc --target es2022, no
// @types/node) has no `SymbolConstructor.dispose`; this declares it as lib.esnext.disposable and
// @types/node do, so the class type-checks under every lib.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
