// chat-display/element: <chat-transcript>, display-message records rendered as a chat.
import type { ChatDisplayError, DisplayMessage, DisplayRecord, Patch } from "chat-display";

/** What `load` resolves to and `cd-load` carries. `messages`: records that start a message
 * (sequence 0); `errors`: records put in place of input that could not be read. */
export interface LoadCounts {
  records: number;
  messages: number;
  errors: number;
}

/**
 * The names `::part()` reaches in the element's shadow root (docs/ELEMENT.md, Styling): a row
 * (`message`), a user's bubble, a tool call's row, a thinking block, a Markdown code block, an
 * image, the scroller, the "Jump to latest" button, the zoom dialog, a record's list of source chips
 * (`citations`), one chip (`citation`) and an approval request's badge (`approval`).
 */
export type ChatTranscriptPart =
  | "message" | "bubble" | "tool-call" | "thinking" | "code-block" | "image" | "scroller" | "jump" | "zoom"
  | "citations" | "citation" | "approval";

/**
 * `<chat-transcript>`: registered when this module is imported. Attributes: `src` (a URL to fetch
 * and `load`), `theme` (`"light" | "dark" | "auto"`, the default). Events: `cd-load` (detail: the
 * counts), `cd-error` (detail: the ChatDisplayError). Styled by the `--cd-*` custom properties
 * (`--cd-accent`, `--cd-code-bg`, `--cd-wait`, ... docs/ELEMENT.md) and the parts of
 * `ChatTranscriptPart`. Shown beside the text: `metadata.citations` as numbered source chips,
 * `metadata.result` of a tool result under a fold, `metadata.approval_request` as "Awaiting approval".
 */
export declare class ChatTranscript extends HTMLElement {
  /** JSON text (a string or UTF-8 bytes) or a parsed conversation, message array, record array or
   * provider payload. Large text stays inside a Transcript in the module. */
  load(input: string | Uint8Array | ArrayBuffer | unknown): Promise<LoadCounts>;
  /** The records shown: every record as an object (for a conversation loaded as large text,
   * this makes them all). */
  get records(): DisplayRecord[];
  /** Shows these records (display-message records, as toDisplayMessages or a Sagents backend
   * gives them). */
  set records(records: readonly (DisplayRecord | DisplayMessage)[]);
  /** Applies the patches of `StreamAccumulator.push`, rebuilding only the rows they touch. */
  applyPatches(patches: Patch[]): void;
  /** Marks the records whose toText contains `query` (case-insensitive); returns how many. */
  find(query: string): number;
  /** Scrolls the next hit into view and marks it with `aria-current`. */
  findNext(): void;
  /** Scrolls the previous hit into view and marks it with `aria-current`. */
  findPrevious(): void;
  /** Scrolls record `index` into view. */
  scrollToRecord(index: number): void;
  /** Hosts whose Markdown images load at once; images from any other host wait for a click. */
  imageHosts: string[];
  addEventListener<K extends keyof ChatTranscriptEventMap>(type: K, listener: (this: ChatTranscript, event: ChatTranscriptEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

export interface ChatTranscriptEventMap extends HTMLElementEventMap {
  "cd-load": CustomEvent<LoadCounts>;
  "cd-error": CustomEvent<ChatDisplayError>;
}

declare global {
  interface HTMLElementTagNameMap {
    "chat-transcript": ChatTranscript;
  }
}
