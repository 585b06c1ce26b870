// The flow docs/ELEMENT.md ("Conversations on a server") describes, against www/conversations.mjs:
// the newest page first, older pages prepended as the reader scrolls up (cd-reach-start), live
// updates upserted by id (Server-Sent Events), and a failed page as a banner with a retry.
// `?conversation=` picks another stored conversation (the tests use smaller ones), `&limit=` the
// page size, `&every=` the milliseconds between live updates.
import "chat-display/element";

const params = new URLSearchParams(location.search);
const conversation = params.get("conversation") ?? "sample";
const limit = Number(params.get("limit") ?? 50);
const chat = document.getElementById("conversation");
const $ = (id) => document.getElementById(id);
let older = true;
let loading = false;

chat.participants = { user: { name: "You" }, assistant: { name: "Assistant" } };

/** One page of records: the newest, or the `limit` before the record with id `before`. */
async function page(before) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set("before", before);
  const response = await fetch(`/api/conversations/${encodeURIComponent(conversation)}/records?${query}`);
  if (!response.ok) throw new Error(`the server answered HTTP ${response.status}`);
  const body = await response.json();
  if (!Array.isArray(body?.records)) throw new Error("the server's page has no records");
  return body;
}

function problem(message, retry) {
  const banner = document.createElement("div");
  banner.className = "banner error";
  banner.setAttribute("role", "alert");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Retry";
  button.addEventListener("click", () => {
    $("problem").replaceChildren();
    retry();
  });
  banner.append(`Could not load older messages: ${message}. `, button);
  $("problem").replaceChildren(banner);
}

function summarize() {
  const n = chat.records.length;
  $("summary").textContent = `${n.toLocaleString("en-US")} records shown${older ? ", older ones on scrolling up" : ", from the first"}`;
  document.body.dataset.shown = String(n);
  document.body.dataset.complete = String(!older);
}

async function loadOlder() {
  if (loading || !older) return;
  loading = true;
  const first = chat.records[0];
  try {
    const { records, more } = await page(first?.id);
    older = more;
    chat.prepend(records);
    summarize();
  } catch (error) {
    problem(error.message, loadOlder);
  } finally {
    loading = false;
  }
}

chat.addEventListener("cd-reach-start", () => loadOlder());

try {
  const { records, more } = await page(null);
  older = more;
  chat.records = records;
  chat.scrollToRecord(records.length - 1);
  summarize();
} catch (error) {
  problem(error.message, () => location.reload());
}

const events = new EventSource(`/api/conversations/${encodeURIComponent(conversation)}/events?every=${Number(params.get("every") ?? 4000)}`);
events.addEventListener("upsert", (event) => {
  chat.upsert(JSON.parse(event.data));
  summarize();
});
events.addEventListener("done", () => events.close());
document.body.dataset.ready = "true";
