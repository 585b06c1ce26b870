// chat-display/element: <chat-transcript>, display-message records rendered as a chat.
//
// Besides the element's class, this file types the tag for React 19 (JSX) and Vue 3 (templates)
// when the app has their types, and stays valid when it has neither (see the end of the file).
import type { ChatDisplayError, Citation, ContentType, DisplayMessage, DisplayRecord, Patch } from "chat-display";

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
 * (`citations`), one chip (`citation`), an approval request's badge (`approval`), and a message's
 * bar of action buttons (`actions`) and each button (`action`).
 */
export type ChatTranscriptPart =
  | "message" | "bubble" | "tool-call" | "thinking" | "code-block" | "image" | "scroller" | "jump" | "zoom"
  | "citations" | "citation" | "approval" | "actions" | "action";

/** The `theme` attribute: `"auto"` (the default) follows the reader's color scheme. */
export type ChatTranscriptTheme = "light" | "dark" | "auto";

/** What the element shows and takes: a record in the shape `toDisplayMessages` makes, or any
 * display-message record (as a Sagents backend stores it). */
export type ShownRecord = DisplayRecord | DisplayMessage;

/**
 * The record a renderer for content type `C` is given: `DisplayRecord` narrowed to that content
 * type (`RecordOf<"tool_call">` has `content.name`, `content.arguments`, ...). For the content types
 * `toDisplayMessages` never makes (`"error"`, `"file_reference"`, `"structured_data"`,
 * `"todo_snapshot"`, which a loaded conversation can hold), the general record of that type.
 */
export type RecordOf<C extends ContentType> = C extends DisplayRecord["content_type"]
  ? DisplayRecord & { content_type: C }
  : DisplayMessage & { content_type: C };

/** What a renderer is told about the record besides the record itself. */
export interface RenderContext {
  /** The record's index in `records`. */
  index: number;
  /** Its block is still streaming (`metadata.streaming`). */
  streaming: boolean;
  /** For a tool call: the results paired with it, in order (empty for any other record). */
  results: DisplayRecord[];
  /** The element's own rendering of this record, to wrap or extend. */
  renderDefault(): Node;
}

/**
 * App code, trusted: the Node it returns is inserted as given (build it with `textContent` for
 * anything taken from a record). `null` / `undefined`: the element's own rendering. `R` is the
 * record it is given (`Renderers` narrows it per key).
 */
export type Renderer<R extends ShownRecord = DisplayRecord> = (record: R, ctx: RenderContext) => Node | null | undefined;

/** A key of `renderers`: a content type, or `tool:` and a tool's name (that tool's call rows). */
export type RendererKey = ContentType | `tool:${string}`;

/**
 * The `renderers` property: per content type (`"text"`, `"image"`, `"tool_call"`, ...) a renderer
 * given that type's record, and per tool name (`"tool:get_weather"`) a renderer given the
 * `tool_call` record, whose row then also shows its results (`ctx.results`). A tool's renderer wins
 * over a `"tool_call"` one. Any other key is a type error (a misspelled content type would never
 * be used).
 */
export type Renderers = { [C in ContentType]?: Renderer<RecordOf<C>> | undefined } & {
  [key: `tool:${string}`]: Renderer<RecordOf<"tool_call">> | undefined;
};

/** A button on each assistant message; pressing it fires `cd-action` with its `id`. `"copy"` also
 * writes the message's text to the clipboard (unless a `cd-action` listener cancels it). */
export interface ChatTranscriptAction {
  id: string;
  label: string;
}

/** Who speaks, for one `message_type`: a name (shown as text) and an avatar URL (http(s), or a
 * `data:image/` URL). */
export interface ChatTranscriptParticipant {
  name?: string;
  avatar?: string;
}

/** The `participants` property, keyed by `message_type` (`"user"`, `"assistant"`, ...). */
export type ChatTranscriptParticipants = Partial<Record<string, ChatTranscriptParticipant>>;

/** `cd-action`: a message action was pressed. `index` and `record`: the message's first record;
 * `text`: the message's text (its text records' `toText`, Markdown kept). Cancelable: cancelling
 * `"copy"` stops the copy. */
export interface ActionDetail {
  action: string;
  index: number;
  record: DisplayRecord;
  text: string;
}

/** `cd-link`, cancelable: a link in Markdown was activated; `preventDefault()` stops the
 * navigation. `href` is the resolved URL. */
export interface LinkDetail {
  href: string;
  index: number;
  record: DisplayRecord;
}

/** `cd-citation`, cancelable: a source chip or marker was activated (one of the record's
 * `metadata.citations`; `null` if the record no longer has it). `preventDefault()` stops the
 * navigation to its URL. */
export interface CitationDetail {
  citation: Citation | null;
  index: number;
  record: DisplayRecord;
}

/** `cd-image`, cancelable: an image is about to load (`"load"`: one that waited for a click, or
 * whose host is not in `imageHosts`) or to open full size (`"open"`). */
export interface ImageDetail {
  src: string;
  kind: "load" | "open";
  index: number;
  record: DisplayRecord;
}

/** `cd-toggle`: a tool-call row or thinking block was opened or closed. */
export interface ToggleDetail {
  index: number;
  record: DisplayRecord;
  open: boolean;
}

/** `cd-reach-start`: the reader scrolled to within a screen of the first record shown; answer it
 * by fetching the page before `record` and calling `prepend`. Fires again only after a `prepend`
 * (or a new conversation). */
export interface ReachStartDetail {
  index: 0;
  record: DisplayRecord;
}

/** Each event the element fires (a `CustomEvent` that bubbles and is composed) and its `detail`. */
export interface ChatTranscriptEventDetails {
  "cd-load": LoadCounts;
  "cd-error": ChatDisplayError;
  "cd-action": ActionDetail;
  "cd-link": LinkDetail;
  "cd-citation": CitationDetail;
  "cd-image": ImageDetail;
  "cd-toggle": ToggleDetail;
  "cd-reach-start": ReachStartDetail;
}

/** The element's events with the DOM's own, for `addEventListener`. */
export interface ChatTranscriptEventMap extends HTMLElementEventMap {
  "cd-load": CustomEvent<LoadCounts>;
  "cd-error": CustomEvent<ChatDisplayError>;
  "cd-action": CustomEvent<ActionDetail>;
  "cd-link": CustomEvent<LinkDetail>;
  "cd-citation": CustomEvent<CitationDetail>;
  "cd-image": CustomEvent<ImageDetail>;
  "cd-toggle": CustomEvent<ToggleDetail>;
  "cd-reach-start": CustomEvent<ReachStartDetail>;
}

/**
 * `<chat-transcript>`: registered when this module is imported. Attributes: `src` (a URL to fetch
 * and `load`), `theme` (`ChatTranscriptTheme`, `"auto"` by default). Events: `ChatTranscriptEventMap`.
 * Styled by the `--cd-*` custom properties (`--cd-accent`, `--cd-code-bg`, `--cd-wait`, ...
 * docs/ELEMENT.md) and the parts of `ChatTranscriptPart`. Shown beside the text: `metadata.citations`
 * as numbered source chips, `metadata.result` of a tool result under a fold,
 * `metadata.approval_request` as "Awaiting approval".
 */
export declare class ChatTranscript extends HTMLElement {
  /** JSON text (a string or UTF-8 bytes) or a parsed conversation, message array, record array or
   * provider payload. Large text stays inside a Transcript in the module. */
  load(input: string | Uint8Array | ArrayBuffer | unknown): Promise<LoadCounts>;
  /** The records shown: every record as an object (for a conversation loaded as large text,
   * this makes them all). */
  get records(): DisplayRecord[];
  /** Shows these records (display-message records, as toDisplayMessages or a Sagents backend
   * gives them). An array that ends with the records shown before (the same objects, in order)
   * is a `prepend` of the ones before them. */
  set records(records: readonly ShownRecord[]);
  /** Applies the patches of `StreamAccumulator.push`, rebuilding only the rows they touch. A
   * patch's `index` counts from the first record of its own stream; `base` says where that is,
   * for patches that are not the array `push` returned (docs/ELEMENT.md). */
  applyPatches(patches: readonly Patch[], options?: { base?: number }): void;
  /** Shows older records before the first one shown, keeping the record the reader looks at
   * where it is. Throws `invalid_input` (and shows none of them) for a value that is not a record
   * or a record of another conversation. */
  prepend(records: readonly ShownRecord[]): void;
  /** Not the DOM's `prepend(...nodes)` (the element's content is its shadow root's): this
   * signature only keeps the class an `HTMLElement` for TypeScript, and accepts no node. */
  prepend(...nodes: never[]): void;
  /** Each record whose `id` is shown replaces it in place; the others are added after the last
   * record. Throws `invalid_input` (and shows none of them) for a record without an `id`. */
  upsert(records: readonly ShownRecord[]): void;
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
  /** The app's own rendering per content type and per tool name (`Renderers`). Setting it
   * builds the rows in view again. */
  renderers: Renderers;
  /** The buttons on each assistant message. Default `[{ id: "copy", label: "Copy" }]`; `[]`
   * shows none. */
  get actions(): ChatTranscriptAction[];
  set actions(actions: readonly ChatTranscriptAction[]);
  /** Who speaks, by `message_type`: shown at each message's start. Setting it builds the rows
   * in view again. */
  participants: ChatTranscriptParticipants;
  addEventListener<K extends keyof ChatTranscriptEventMap>(type: K, listener: (this: ChatTranscript, event: ChatTranscriptEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ChatTranscriptEventMap>(type: K, listener: (this: ChatTranscript, event: ChatTranscriptEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/**
 * The element's properties and attributes as an app passes them through a framework: React 19 and
 * Vue 3 set `records`, `renderers`, `actions`, `participants` and `imageHosts` as properties (the
 * element has them) and `theme` and `src` as attributes.
 */
export interface ChatTranscriptProps {
  records?: readonly ShownRecord[] | undefined;
  renderers?: Renderers | undefined;
  actions?: readonly ChatTranscriptAction[] | undefined;
  participants?: ChatTranscriptParticipants | undefined;
  imageHosts?: readonly string[] | undefined;
  theme?: ChatTranscriptTheme | undefined;
  src?: string | undefined;
}

/**
 * The event props React 19 wires on a custom element: React passes the name after `on`, as
 * written, to `addEventListener`, so `cd-action` is `"oncd-action"` (an `onCdAction` prop would
 * listen for an event named `CdAction`, which never fires).
 */
export type ChatTranscriptReactEvents = {
  [K in keyof ChatTranscriptEventDetails as `on${K}`]?: ((event: CustomEvent<ChatTranscriptEventDetails[K]>) => void) | undefined;
};

/** `cd-reach-start` to `CdReachStart`. */
type PascalCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${PascalCase<Tail>}` : Capitalize<S>;

/** The event props of Vue 3: `@cd-action` in a template is the prop `onCdAction`. */
export type ChatTranscriptVueEvents = {
  [K in keyof ChatTranscriptEventDetails as `on${PascalCase<K>}`]?: ((event: CustomEvent<ChatTranscriptEventDetails[K]>) => void) | undefined;
};

/** What a Vue 3 template (or `h("chat-transcript", ...)`) may pass to the element. */
export interface ChatTranscriptVueProps extends ChatTranscriptProps, ChatTranscriptVueEvents {
  id?: string | undefined;
  class?: unknown;
  style?: unknown;
}

/** `<chat-transcript>` as Vue's `GlobalComponents` holds it: a component whose props are
 * `ChatTranscriptVueProps` (Vue's tooling reads them from `$props`) and whose template ref is the
 * element (`useTemplateRef`). */
export type ChatTranscriptVueComponent = new () => ChatTranscript & { $props: ChatTranscriptVueProps };

declare global {
  interface HTMLElementTagNameMap {
    "chat-transcript": ChatTranscript;
  }
}

// React 19 and Vue 3. These augment the modules "react" and "vue" when the app has their types
// (@types/react; vue, which ships its own) and do nothing when it has not: in a declaration file
// TypeScript does not report an augmentation whose module cannot be found (no TS2664, which only
// a .ts file gets), it drops it. What is left to check in a dropped block is that each name in it
// resolves, so the block names nothing of React's or Vue's that it does not declare itself: the two
// interfaces below are empty, and with React's types present they merge into React's own (adding
// nothing). Checked with tsc --strict --skipLibCheck false with React's types, with Vue's, and with
// neither (tests/packaging/element-types.test.mjs).

declare module "react" {
  interface HTMLAttributes<T> {}
  interface RefAttributes<T> {}
  namespace JSX {
    interface IntrinsicElements {
      /** `<chat-transcript>`: its properties (`ChatTranscriptProps`), events as `oncd-*` props
       * (`ChatTranscriptReactEvents`), `ref` (a `Ref<ChatTranscript>`) and the HTML attributes. */
      "chat-transcript": HTMLAttributes<ChatTranscript> & RefAttributes<ChatTranscript> & ChatTranscriptProps & ChatTranscriptReactEvents;
    }
  }
}

declare module "vue" {
  interface GlobalComponents {
    /** `<chat-transcript>` in templates: `:renderers`, `:actions`, ... and `@cd-action`, ... typed. */
    "chat-transcript": ChatTranscriptVueComponent;
    ChatTranscript: ChatTranscriptVueComponent;
  }
}
