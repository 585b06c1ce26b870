// Transcript through the installed package: the cases of tests/transcript.rs again, compared as
// JSON text, plus what only JavaScript callers can do (bytes, identity of windows, big input,
// agreement with toDisplayMessages on a generated conversation).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { Transcript, toDisplayMessages, toText, isChatDisplayError } from "chat-display";

const require = createRequire(import.meta.url);
const fixtures = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8"));

test("transcript fixtures: records, toText, search, append", () => {
  const cases = fixtures("transcript");
  assert.ok(cases.length >= 10);
  for (const c of cases) {
    if (c.error) {
      assert.throws(() => Transcript.fromJson(c.text), (e) => {
        assert.ok(isChatDisplayError(e), c.name);
        assert.equal(e.code, c.error.code, c.name);
        assert.equal(e.path, c.error.path, c.name);
        return true;
      });
      continue;
    }
    const t = Transcript.fromJson(c.text);
    try {
      assert.equal(t.length, c.records.length, c.name);
      assert.equal(JSON.stringify(t.records(0, t.length)), JSON.stringify(c.records), c.name);
      // counts() is the count over the records: those that start a message, the loader's errors.
      const loadError = (r) => r.content_type === "error" && r.message_type === null && typeof r.content?.path === "string";
      assert.deepEqual(t.counts(), { messages: c.records.filter((r) => r.sequence === 0).length, errors: c.records.filter(loadError).length }, c.name);
      assert.deepEqual(c.texts.map((_, i) => t.toText(i)), c.texts, c.name);
      assert.equal(t.toText(t.length), null);
      for (const s of c.searches) {
        const options = s.limit === undefined ? undefined : { limit: s.limit };
        assert.deepEqual(t.search(s.query, options), s.indices, `${c.name}: ${s.query}`);
      }
      if (c.append) {
        for (const m of c.append) t.append(m);
        assert.equal(JSON.stringify(t.records(0, t.length)), JSON.stringify(c.after), `${c.name}: after`);
      }
    } finally {
      t.free();
    }
  }
});

test("UTF-8 bytes load like text, a byte order mark is skipped, and bad UTF-8 throws", () => {
  const c = fixtures("transcript")[0];
  const fromText = Transcript.fromJson(c.text);
  const fromBytes = Transcript.fromJson(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(c.text)]));
  assert.equal(JSON.stringify(fromBytes.records(0, 100)), JSON.stringify(fromText.records(0, 100)));
  assert.throws(() => Transcript.fromJson(new Uint8Array([0x5b, 0xff, 0x5d])), (e) => e.code === "invalid_input" && e.path === "$");
  assert.throws(() => Transcript.fromJson(42), (e) => e.code === "invalid_input");
  fromText.free();
  fromBytes.free();
});

test("a generated conversation of 2,000 messages gives toDisplayMessages' records and toText's texts", async () => {
  const messages = [];
  for (let i = 0; i < 500; i++) {
    messages.push({ role: "user", content: `Question ${i}: what about café №${i}?` });
    messages.push({
      role: "assistant",
      content: [{ type: "thinking", content: "Thinking…" }, { type: "text", content: `Looking up ${i}` }],
      tool_calls: [{ call_id: `c${i}`, name: "lookup", arguments: { id: i, ratio: i / 7, nested: { list: [i, "x", null, true] } } }],
    });
    messages.push({ role: "tool", tool_results: [{ tool_call_id: `c${i}`, name: "lookup", content: [{ type: "text", content: `Result ${i}` }], is_error: i % 9 === 0 }] });
    messages.push({ role: "assistant", content: `Answer ${i} \ud800 lone surrogate` });
  }
  const expected = toDisplayMessages(messages);
  const t = Transcript.fromJson(JSON.stringify(messages));
  assert.equal(t.length, expected.length);
  assert.equal(JSON.stringify(t.records(0, t.length)), JSON.stringify(expected));
  assert.equal(JSON.stringify(t.records(100, 150)), JSON.stringify(expected.slice(100, 150)));
  for (const i of [0, 1, 2, 3, 4, 5, 6, 1000, expected.length - 1]) assert.equal(t.toText(i), toText(expected[i]), `toText(${i})`);
  const texts = expected.map((r) => toText(r).toLowerCase());
  for (const q of ["CAFÉ №12", "result 49", "lookup(%{\"id\" => 7", "nothing"]) {
    const want = texts.flatMap((text, i) => (text.includes(q.toLowerCase()) ? [i] : []));
    assert.deepEqual(t.search(q), want, q);
    assert.deepEqual(t.search(q, { limit: 3 }), want.slice(0, 3), q);
  }
  t.free();
});

test("open reads nothing; read adds records a slice at a time, names the statuses it settled, and ends where fromJson is", () => {
  // Each call is answered two messages later, so a slice often ends between a call and its result.
  const messages = [];
  for (let i = 0; i < 300; i++) {
    messages.push({ role: "assistant", content: `Step ${i}`, tool_calls: [{ call_id: `c${i}`, name: "f", arguments: { i } }] });
    if (i > 0) messages.push({ role: "tool", tool_results: [{ tool_call_id: `c${i - 1}`, name: "f", content: "ok", is_error: i % 5 === 0 }] });
  }
  const text = new TextEncoder().encode(JSON.stringify({ messages }));
  const whole = Transcript.fromJson(text);
  const t = Transcript.open(text);
  try {
    assert.equal(t.length, 0);
    let settledSeen = 0;
    for (const k of [1, 7, 64]) {
      let before = t.records(0, t.length);
      const read = t.read(k);
      const after = t.records(0, before.length);
      const changed = before.flatMap((r, i) => (r.status !== after[i].status ? [i] : []));
      assert.deepEqual([...read.settled].sort((a, b) => a - b), changed, `slice of ${k}`);
      assert.equal(read.done, false);
      settledSeen += changed.length;
    }
    assert.ok(settledSeen > 0);
    assert.equal(t.read().done, true, "no count: the rest");
    assert.equal(JSON.stringify(t.records(0, t.length)), JSON.stringify(whole.records(0, whole.length)));
    assert.deepEqual(t.read(10), { done: true, settled: [] });
    for (const bad of [-1, NaN, "5", {}]) assert.throws(() => t.read(bad), (e) => isChatDisplayError(e) && e.code === "invalid_input");
    // A search of a transcript not read whole reads the rest first.
    const u = Transcript.open(text);
    u.read(3);
    assert.deepEqual(u.search("step 299"), whole.search("step 299"));
    assert.equal(u.length, whole.length);
    u.free();
    // A top-level array is parsed as it is read: text that is not JSON is an error of the read
    // that meets it; any other top level's of open.
    const v = Transcript.open("[1,");
    assert.deepEqual(v.read(), { done: false, settled: [] }, "the element before the error");
    assert.throws(() => v.read(), (e) => isChatDisplayError(e) && e.code === "invalid_input" && e.path === "$");
    assert.equal(v.length, 1);
    v.free();
    assert.throws(() => Transcript.open('{"messages": [1,'), (e) => isChatDisplayError(e) && e.code === "invalid_input" && e.path === "$");
  } finally {
    t.free();
    whole.free();
  }
});

test("text broken after its first elements: reads return their records, the read after them throws fromJson's error, later reads are done", () => {
  const messages = [];
  for (let i = 0; i < 40; i++) messages.push({ role: i % 2 ? "assistant" : "user", content: `Message ${i} é` });
  const valid = JSON.stringify(messages);
  const firstRecords = (n) => {
    const t = Transcript.fromJson(JSON.stringify(messages.slice(0, n)));
    const out = JSON.stringify(t.records(0, t.length));
    t.free();
    return out;
  };
  // Cut inside element 30, a bad token in element 25, text after the end.
  const cut = valid.indexOf("Message 30") + 3;
  const cases = [
    { text: valid.slice(0, cut), complete: 30 },
    { text: valid.replace('"Message 25 é"', '"Message 25 é" x'), complete: 25 },
    { text: `${valid} ]`, complete: 40 },
  ];
  for (const { text, complete } of cases) {
    let want;
    assert.throws(() => Transcript.fromJson(text), (e) => (want = e) && isChatDisplayError(e));
    assert.match(want.message, /^Expected JSON text at \$: .* at byte \d+\.$/);
    for (const input of [text, new TextEncoder().encode(text)]) {
      const t = Transcript.open(input);
      try {
        // Reads of 8 until one throws: each before it reads up to 8 (the last of them up to the
        // break), and the one that throws reads nothing.
        let reads = 0;
        for (;;) {
          const length = t.length;
          let result;
          try {
            result = t.read(8);
          } catch (e) {
            assert.ok(isChatDisplayError(e));
            assert.equal(e.code, "invalid_input");
            assert.equal(e.path, "$");
            assert.equal(e.message, want.message);
            assert.equal(t.length, length, "a read that throws reads nothing");
            break;
          }
          assert.deepEqual(result, { done: false, settled: [] });
          reads += 1;
          assert.ok(reads <= 6, "the break is met");
        }
        assert.equal(reads, Math.ceil(complete / 8));
        // The records before the break stay; reading is done.
        assert.equal(JSON.stringify(t.records(0, t.length)), firstRecords(complete));
        assert.deepEqual(t.read(8), { done: true, settled: [] });
        assert.deepEqual(t.read(), { done: true, settled: [] });
        assert.equal(t.length, complete);
      } finally {
        t.free();
      }
    }
  }
});

test("append adds records and settles pending calls; a bad message throws and changes nothing", () => {
  const t = Transcript.fromJson(JSON.stringify([{ role: "assistant", tool_calls: [{ call_id: "a", name: "f", arguments: {} }] }]));
  assert.equal(t.records(0, 1)[0].status, "pending");
  assert.throws(() => t.append({ role: "robot" }), (e) => e.code === "unsupported_role" && e.path === "$.message.role");
  assert.throws(() => t.append("text"), (e) => e.code === "invalid_input" && e.path === "$.message");
  const cyclic = { role: "user" };
  cyclic.self = cyclic;
  assert.throws(() => t.append(cyclic), (e) => e.code === "invalid_input");
  assert.equal(t.length, 1);
  t.append({ role: "tool", tool_results: [{ tool_call_id: "a", name: "f", content: "done", is_error: true }] });
  assert.equal(t.length, 2);
  assert.equal(t.records(0, 1)[0].status, "failed");
  assert.throws(() => t.search("x", { limit: -1 }), (e) => e.path === "$.options.limit");
  t.free();
});

test("every record of every fixture has the search text toText gives it", () => {
  // Each fixture file, and every array or object in it down to four levels, loaded as a
  // Transcript: its text of each record (built from the message's display items, for records of
  // messages) is toText of the record it hands out.
  const root = new URL("../fixtures/", import.meta.url);
  const files = (dir) =>
    readdirSync(dir).flatMap((name) => {
      const url = new URL(name, dir);
      return statSync(url).isDirectory() ? files(new URL(`${name}/`, dir)) : [url];
    });
  const inputs = (value, depth, out) => {
    if (value === null || typeof value !== "object") return out;
    out.push(JSON.stringify(value));
    if (depth < 4) for (const v of Object.values(value)) inputs(v, depth + 1, out);
    return out;
  };
  const asText = (text) => (typeof text === "string" ? text : null);
  let loaded = 0;
  let checked = 0;
  for (const file of files(root)) {
    const text = readFileSync(file, "utf8");
    let value;
    try {
      value = JSON.parse(text);
    } catch {}
    for (const input of [text, ...inputs(value, 0, [])]) {
      let t;
      try {
        t = Transcript.fromJson(input);
      } catch {
        continue;
      }
      try {
        loaded++;
        for (let i = 0; i < t.length; i++) {
          const [record] = t.records(i, i + 1);
          assert.equal(t.toText(i), asText(toText(record)), `${file.pathname}: record ${i}`);
          checked++;
        }
      } finally {
        t.free();
      }
    }
  }
  assert.ok(loaded > 1000 && checked > 3000, `${loaded} inputs, ${checked} records`);
});

test("CommonJS gets the same Transcript class", () => {
  assert.equal(require("chat-display").Transcript, Transcript);
});
