/** A display-message record while its block streams: `metadata.streaming` is `true` until the
 * block ends, and a tool call's `content.arguments` holds the fields parsed so far. */
export type StreamRecord = DisplayRecord | StreamingRecord<DisplayRecord>
  | (DisplayMessage & { content_type: "error"; content: { text: string; path: string }; status: "failed" });

/** A record of a block that is still streaming (one for each kind of `DisplayRecord`). */
export type StreamingRecord<T> = T extends unknown
  ? Omit<T, "metadata"> & { metadata: { streaming: true; citations?: Citation[]; result?: JsonValue; approval_request?: true } }
  : never;

/** What one `StreamAccumulator.push` changed. Applied in order to an array that started empty,
 * the patches of every push give exactly `records()`. Records are never removed; a `replace`
 * record shares every unchanged object with the record it replaces. */
export type Patch =
  | { op: "add"; record: StreamRecord }
  | { op: "append"; index: number; field: "text" | "content"; text: string }
  | { op: "replace"; index: number; record: StreamRecord };

/** What one `push` returns: its patches, and (not enumerable, so JSON and spreads drop it) the
 * number of the accumulator that made them, by which `<chat-transcript>`'s `applyPatches` knows
 * where this stream's records start. */
export type Patches = Patch[] & { readonly stream: number };
