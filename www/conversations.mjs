// A stored conversation, served a page at a time, with live updates: what a chat app's server does
// with display-message records (the Sagents DisplayMessage schema), for www/server.html (npm start)
// and its browser test. Records are made once, on first request, from bench/generate.mjs's seeded
// conversation: `sample` is 100,000 messages; `size-<n>` is n messages (the tests' smaller ones).
//
//   GET /api/conversations/:id/records?before=<record id>&limit=<n>
//       -> {records, more}: the n records before that one (the newest n without `before`), oldest
//          first; `more` says whether older ones remain. 404 for an unknown conversation or id.
//   GET /api/conversations/:id/events?every=<ms>&count=<n>
//       -> Server-Sent Events: `upsert` events, each data a JSON array of records: a new answer
//          arrives pending, then completes, then a status change of an earlier tool call.
import { conversation } from "../bench/generate.mjs";
import * as api from "../js/node.mjs";

const cache = new Map();
const MAX_LIMIT = 500;

/** The stored records of conversation `id` (made once), or null for an id it does not know. */
export function storedRecords(id) {
  if (cache.has(id)) return cache.get(id);
  const size = id === "sample" ? 100000 : /^size-(\d{1,6})$/.exec(id)?.[1];
  if (!size) return null;
  const records = api.toDisplayMessages(conversation(Number(size)), { conversation_id: id });
  records.forEach((record, i) => { record.id = `${id}-r${i}`; });
  const byId = new Map(records.map((record, i) => [record.id, i]));
  const entry = { records, byId };
  cache.set(id, entry);
  return entry;
}

const json = (res, status, body) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
  res.end(JSON.stringify(body));
};

/** Answers `/api/...` requests; false for any other path (the static files). */
export function handleApi(req, res, url) {
  const match = /^\/api\/conversations\/([^/]+)\/(records|events)$/.exec(url.pathname);
  if (!url.pathname.startsWith("/api/")) return false;
  if (!match || req.method !== "GET") {
    json(res, 404, { error: "not found" });
    return true;
  }
  const [, id, what] = match;
  const stored = storedRecords(decodeURIComponent(id));
  if (!stored) {
    json(res, 404, { error: `no conversation ${id}` });
    return true;
  }
  if (what === "records") {
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number(url.searchParams.get("limit")) || 50));
    const before = url.searchParams.get("before");
    const end = before === null ? stored.records.length : stored.byId.get(before);
    if (end === undefined) {
      json(res, 404, { error: `no record ${before}` });
      return true;
    }
    const start = Math.max(0, end - limit);
    json(res, 200, { records: stored.records.slice(start, end), more: start > 0 });
    return true;
  }
  // Live updates: a new answer, pending then completed, and an earlier call's status changed.
  const every = Math.min(60000, Math.max(20, Number(url.searchParams.get("every")) || 4000));
  const count = Math.min(20, Math.max(0, Number(url.searchParams.get("count") ?? 3)));
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" });
  res.write(": live updates\n\n");
  const last = stored.records.at(-1);
  const call = stored.records.findLast((r) => r.content_type === "tool_call");
  const answer = (status, text) => ({ ...last, id: `${last.id}-live`, message_type: "assistant", content_type: "text", sequence: 0,
    tool_call_id: null, metadata: {}, status, content: { text } });
  const updates = [
    [answer("pending", "Looking into it…")],
    [answer("completed", "Here is the **latest** update from the server.")],
    call ? [{ ...call, status: call.status === "failed" ? "completed" : "failed" }] : [answer("completed", "Done.")],
  ];
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= count) {
      clearInterval(timer);
      res.write("event: done\ndata: {}\n\n");
      return;
    }
    res.write(`event: upsert\ndata: ${JSON.stringify(updates[sent % updates.length])}\n\n`);
    sent++;
  }, every);
  req.on("close", () => clearInterval(timer));
  return true;
}
