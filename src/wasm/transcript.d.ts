/** The options of `Transcript.search`: at most `limit` indices (all when absent). */
export interface TranscriptSearchOptions {
  limit?: number | null;
}
