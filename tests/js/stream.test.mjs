// StreamAccumulator through the installed package: every recorded stream fixture, pushed as
// strings (cut inside characters and surrogate pairs), as bytes and as parsed event objects, must
// end equal to fromProvider / toDisplayMessages of its final body, with the patches of every push
// giving records() at each step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { StreamAccumulator, fromProvider, toDisplayMessages, isChatDisplayError } from "chat-display";

const root = new URL("../fixtures/streams/", import.meta.url);
// One directory per format that streams (tests/stream_fixtures_read.rs checks them against the
// registry); its streams are server-sent events (.sse) or NDJSON (.ndjson, Ollama's).
const protocols = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const STREAM = /\.(sse|ndjson)$/;

function fixtures() {
  const out = [];
  for (const protocol of protocols) {
    const dir = new URL(`${protocol}/`, root);
    for (const file of readdirSync(dir).filter((f) => STREAM.test(f)).sort()) {
      const finalUrl = new URL(file.replace(STREAM, ".final.json"), dir);
      out.push({
        protocol,
        name: `${protocol}/${file}`,
        bytes: readFileSync(new URL(file, dir)),
        final: existsSync(finalUrl) ? JSON.parse(readFileSync(finalUrl, "utf8")) : null,
      });
    }
  }
  return out;
}

/** A fixture's events as objects: one per SSE data line (not `[DONE]`), or per NDJSON line. */
function eventsOf(f) {
  const text = f.bytes.toString("utf8");
  const lines = f.name.endsWith(".ndjson")
    ? text.split("\n").filter((l) => l.trim())
    : text.split(/\r?\n/).filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "[DONE]").map((l) => l.slice(5));
  return lines.flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
}

/** The keys each kind of patch has, exactly (the `Patch` type of the .d.ts). */
const PATCH_KEYS = { add: "op,record", replace: "op,index,record", append: "op,index,field,text" };

/** Applies patches as a UI would, never mutating a record it was given. */
function apply(records, patches) {
  for (const p of patches) {
    assert.equal(Object.keys(p).join(","), PATCH_KEYS[p.op], `keys of a ${p.op} patch`);
    if (p.op === "add") records.push(p.record);
    else if (p.op === "replace") records[p.index] = p.record;
    else if (p.op === "append") {
      const r = records[p.index];
      records[p.index] = { ...r, content: { ...r.content, [p.field]: r.content[p.field] + p.text } };
    } else throw new Error(`unknown op ${p.op}`);
  }
}

function expected(protocol, final) {
  const bodies = Array.isArray(final) ? final : [final];
  let records = [];
  let message = null;
  for (const body of bodies) {
    const messages = fromProvider(protocol, body);
    records = records.concat(toDisplayMessages(messages));
    message = messages[0];
  }
  return { records, message };
}

function run(f, pieces) {
  const acc = new StreamAccumulator(f.protocol);
  try {
    const mirror = [];
    for (const piece of pieces) {
      apply(mirror, acc.push(piece));
      assert.equal(JSON.stringify(mirror), JSON.stringify(acc.records()), `${f.name}: patches`);
    }
    const want = expected(f.protocol, f.final);
    assert.equal(acc.done, true, `${f.name}: done`);
    assert.equal(JSON.stringify(acc.records()), JSON.stringify(want.records), `${f.name}: records`);
    assert.equal(JSON.stringify(acc.message()), JSON.stringify(want.message), `${f.name}: message`);
  } finally {
    acc.free();
  }
}

test("every stream fixture ends as its final body, pushed as strings, bytes or events", () => {
  let n = 0;
  for (const f of fixtures()) {
    if (!f.final) continue;
    n++;
    const text = f.bytes.toString("utf8");
    // Strings cut every 5 UTF-16 units: inside characters, surrogate pairs and CRLF.
    const strings = [];
    for (let i = 0; i < text.length; i += 5) strings.push(text.slice(i, i + 5));
    run(f, strings);
    // Bytes cut every 3 bytes: inside UTF-8 characters.
    const bytes = [];
    for (let i = 0; i < f.bytes.length; i += 3) bytes.push(new Uint8Array(f.bytes.subarray(i, i + 3)));
    run(f, bytes);
    // One parsed event object per data line (an SDK's events, or a proxy's), or per NDJSON line.
    const events = eventsOf(f);
    if (f.protocol === "openai_completions") events.push(...[]); // [DONE] has no object form: finish_reason ends it
    run(f, events);
  }
  assert.ok(n >= 40, `${n} fixtures`);
});

test("a streaming tool call's record shares what did not change", () => {
  const f = fixtures().find((x) => x.name === "anthropic_messages/long-text-nested-args.sse");
  const acc = new StreamAccumulator(f.protocol);
  const last = new Map();
  let shared = 0;
  let streamingSeen = false;
  for (const line of f.bytes.toString("utf8").split("\n\n")) {
    for (const p of acc.push(line + "\n\n")) {
      if (p.op !== "replace" || p.record.content_type !== "tool_call") continue;
      const before = last.get(p.index);
      if (before && p.record.metadata.streaming) {
        streamingSeen = true;
        assert.notEqual(before, p.record, "a new record object");
        assert.notEqual(before.content, p.record.content, "a new content object");
        // Below the changed path, every subtree that did not change is the same object.
        const walk = (a, b) => {
          for (const [k, v] of Object.entries(a ?? {})) {
            if (!v || typeof v !== "object" || !b || typeof b[k] !== "object") continue;
            if (JSON.stringify(v) === JSON.stringify(b[k])) {
              assert.equal(b[k], v, `unchanged ${k} is the same object`);
              shared++;
            } else walk(v, b[k]);
          }
        };
        walk(before.content.arguments, p.record.content.arguments);
      }
      last.set(p.index, p.record);
    }
  }
  assert.ok(streamingSeen, "the tool call streamed");
  assert.ok(shared > 0, "some unchanged argument objects were shared");
  acc.free();
});

test("a surrogate pair cut between two string chunks is kept whole", () => {
  const acc = new StreamAccumulator("anthropic_messages");
  const text = 'data: {"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}\n\n'
    + 'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
    + 'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a😀b"}}\n\n';
  const cut = text.indexOf("😀") + 1; // between the two halves
  acc.push(text.slice(0, cut));
  acc.push(text.slice(cut));
  assert.equal(acc.records()[0].content.text, "a😀b");
  acc.free();
});

test("bad arguments throw ChatDisplayError; bad stream content becomes error records", () => {
  assert.throws(() => new StreamAccumulator("openai"), (e) => isChatDisplayError(e) && e.code === "unsupported_protocol" && e.path === "$.protocol");
  const acc = new StreamAccumulator("anthropic_messages");
  assert.throws(() => acc.push(42), (e) => isChatDisplayError(e) && e.code === "invalid_input" && e.path === "$.chunk");
  const deep = {}; let v = deep; for (let i = 0; i < 100_000; i++) v = v.x = {};
  assert.throws(() => acc.push(deep), (e) => isChatDisplayError(e) && e.code === "too_deep");
  const patches = acc.push("data: {not json\n\n");
  assert.equal(patches.length, 1);
  assert.equal(patches[0].op, "add");
  assert.equal(patches[0].record.content_type, "error");
  assert.equal(patches[0].record.content.path, "$.events[0]");
  assert.deepEqual(acc.push({ type: "some_future_event" }), []);
  assert.equal(acc.done, false);
  acc.free();
});

test("a Responses part index far past the item's parts is an error record, and the stream goes on", () => {
  // Found by fuzzing: padding the gap once asked for 13 billion slots, an abort that lost the module.
  const acc = new StreamAccumulator("openai_responses");
  acc.push({ type: "response.created", response: { id: "r", output: [] } });
  acc.push({ type: "response.output_item.added", output_index: 0, item: { id: "rs", type: "reasoning", summary: [] } });
  const delta = (summary_index, delta) => ({ type: "response.reasoning_summary_text.delta", output_index: 0, summary_index, delta });
  acc.push(delta(0, "first"));
  const patches = acc.push(delta(13_333_333_320, "lost"));
  assert.equal(patches.length, 1);
  assert.equal(patches[0].record.content_type, "error");
  assert.equal(patches[0].record.content.text, "A response.reasoning_summary_text.delta event for summary_index 13333333320, past the item's parts.");
  assert.equal(patches[0].record.content.path, "$.events[3]");
  acc.push(delta(1, "second"));
  acc.push({ type: "response.completed", response: { id: "r" } });
  assert.equal(acc.done, true);
  assert.deepEqual(acc.records().map((r) => [r.content_type, r.content.text]),
    [["thinking", "first"], ["thinking", "second"], ["error", patches[0].record.content.text]]);
  acc.free();
});

test("a Gemini jsonPath far past the end of an array is an error record, and the call goes on", () => {
  const acc = new StreamAccumulator("google_gemini");
  const part = (functionCall) => ({ candidates: [{ content: { role: "model", parts: [{ functionCall }] } }] });
  const fragment = (jsonPath, stringValue) => part({ partialArgs: [{ jsonPath, stringValue }], willContinue: true });
  acc.push(part({ name: "tag", willContinue: true }));
  acc.push(fragment("$.tags[0]", "a"));
  const patches = acc.push(fragment("$.tags[2000000000]", "lost"));
  assert.deepEqual(patches.map((p) => [p.op, p.record.content_type, p.record.content.text]),
    [["add", "error", "A partialArgs fragment's jsonPath skips past the end of an array."]]);
  acc.push(fragment("$.tags[1]", "b"));
  acc.push(part({}));
  assert.deepEqual(acc.records()[0].content.arguments, { tags: ["a", "b"] });
  acc.free();
});

test("a __proto__ key in streamed arguments stays an own key, mid-stream and at the end", () => {
  const json = '{"a": {"__proto__": {"polluted": true}, "b": "text that grows"}, "c": "more", "d": [{"__proto__": 1}]}';
  // Small deltas change one field at a time; larger ones carry whole fields (one change each).
  for (const size of [1, 4, 13, 40, json.length]) {
    const acc = new StreamAccumulator("anthropic_messages");
    acc.push('data: {"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}\n\n'
      + 'data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}\n\n');
    const records = [];
    for (let i = 0; i < json.length; i += size) {
      const delta = JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json.slice(i, i + size) } });
      apply(records, acc.push(`data: ${delta}\n\n`));
      const a = records[0]?.content?.arguments?.a;
      if (a && Object.getOwnPropertyNames(a).includes("__proto__")) {
        assert.equal(Object.getPrototypeOf(a), Object.prototype, "the prototype is untouched");
        assert.equal(a.polluted, undefined);
      }
      assert.equal(JSON.stringify(records), JSON.stringify(acc.records()), `size ${size}, after ${i + size}`);
    }
    apply(records, acc.push('data: {"type":"content_block_stop","index":0}\n\ndata: {"type":"message_stop"}\n\n'));
    const { a, d } = records[0].content.arguments;
    assert.deepEqual(Object.getOwnPropertyNames(a), ["__proto__", "b"]);
    assert.equal(Object.getPrototypeOf(a), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyNames(d[0]), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(d[0]), Object.prototype);
    assert.equal(({}).polluted, undefined);
    assert.equal(JSON.stringify(records), JSON.stringify(acc.records()));
    acc.free();
  }
});

test("random Gemini partialArgs paths (kinds that change, __proto__ keys) replay to records() after every push", () => {
  // A seeded generator: the same cases every run.
  let seed = 0x5eed1234;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
  const pick = (items) => items[Math.floor(next() * items.length)];
  const paths = ["$.a", "$.a.b", "$.a[0]", "$.a[2].c", "$.__proto__", "$.__proto__.x", "$.a.__proto__",
    "$['constructor']", "$.b[1][0]", "$.b", "$"];
  const value = () => pick([
    { stringValue: pick(["", "x", "é😀"]), willContinue: next() < 0.5 },
    { numberValue: 7 }, { boolValue: true }, { nullValue: null },
    { structValue: { __proto__: null, k: "v" } }, { listValue: [1, "two"] },
  ]);
  const event = (parts, finish) => `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, ...(finish ? { finishReason: "STOP" } : {}) }] })}\n\n`;
  for (let round = 0; round < 60; round++) {
    const acc = new StreamAccumulator("google_gemini");
    const records = [];
    apply(records, acc.push(event([{ functionCall: { name: "f", willContinue: true } }])));
    for (let n = 0; n < 12; n++) {
      const partialArgs = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({ jsonPath: pick(paths), ...value() }));
      apply(records, acc.push(event([{ functionCall: { partialArgs, willContinue: true } }])));
      assert.equal(JSON.stringify(records), JSON.stringify(acc.records()), `round ${round}, event ${n}: ${JSON.stringify(partialArgs)}`);
    }
    apply(records, acc.push(event([{ functionCall: {} }]) + event([{ text: "" }], true)));
    assert.equal(JSON.stringify(records), JSON.stringify(acc.records()), `round ${round}, at the end`);
    assert.equal(({}).x, undefined, "Object.prototype is untouched");
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
    acc.free();
  }
});

test("seeded mutations of the recorded streams never throw, and their patches replay to records()", () => {
  // Events with values swapped for others (huge and negative indexes, wrong types, lone
  // surrogates), dropped, repeated and reordered; and the recorded bytes with bytes changed, cut
  // out or put in, pushed in pieces of any size as strings or bytes. A stream only ever gives
  // error records for what it cannot read (docs/STREAMS.md, "Bad streams never throw").
  let seed = 20261203;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const odd = [0, -1, 1, 2, 7, 1.5, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53, 1e300, 13333333320, "", "x", "0", "[0]",
    "__proto__", "\uD800", null, true, false, {}, [], [[]], { a: 1 }, "a".repeat(1000)];
  const inserts = ["9999999999", "-", '"', "{", "}", "[", "]", ",", ":", "\\", "\\u", "\\ud800", "\n\n", "\r", "data:",
    "event: x\n", "null", "1e999", "\u0000", "\u00ff", "😀"];
  const paths = (v, at = [], out = []) => {
    if (at.length) out.push(at);
    if (v !== null && typeof v === "object") for (const k of Object.keys(v)) paths(v[k], [...at, k], out);
    return out;
  };
  const mutate = (event) => {
    const copy = structuredClone(event);
    for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
      const all = paths(copy);
      if (!all.length) break;
      const path = pick(all);
      let parent = copy;
      for (const k of path.slice(0, -1)) parent = parent[k];
      const key = path[path.length - 1];
      const r = random();
      if (r < 0.15) delete parent[key];
      else if (r < 0.3 && typeof parent[key] === "number") parent[key] += pick([1, -1, 100, 2 ** 32]);
      else if (r < 0.4 && typeof parent[key] === "string") parent[key] += pick(["x", "[0]", ".a", "[99999999999]"]);
      else parent[key] = structuredClone(pick(odd));
    }
    return copy;
  };
  const replay = (f, pieces, what) => {
    const acc = new StreamAccumulator(f.protocol);
    try {
      const mirror = [];
      for (const piece of pieces) {
        apply(mirror, acc.push(piece));
        assert.equal(JSON.stringify(mirror), JSON.stringify(acc.records()), `${what}: patches`);
      }
      // `message()` is `fromProvider` of the body the events built: a ChatDisplayError when that
      // body is one it cannot read.
      try {
        acc.message();
      } catch (e) {
        assert.ok(isChatDisplayError(e), `${what}: message() threw ${e}`);
        messageErrors++;
      }
      return acc.records().filter((r) => r.content_type === "error").length;
    } finally {
      acc.free();
    }
  };
  const all = fixtures();
  let errorRecords = 0;
  let messageErrors = 0;
  for (let i = 0; i < 300; i++) {
    const f = pick(all);
    const text = f.bytes.toString("utf8");
    const events = eventsOf(f);
    const pieces = [];
    for (const event of events) {
      const r = random();
      if (r < 0.05) continue;
      if (r < 0.1) pieces.push(event, event);
      else pieces.push(r < 0.3 ? mutate(event) : event);
    }
    if (random() < 0.2) {
      for (let k = 0; k < 3; k++) {
        const a = Math.floor(random() * pieces.length), b = Math.floor(random() * pieces.length);
        [pieces[a], pieces[b]] = [pieces[b], pieces[a]];
      }
    }
    replay(f, pieces, `case ${i}: events of ${f.name}`);
    let bytes = Buffer.from(f.bytes);
    for (let n = 1 + Math.floor(random() * 8); n > 0; n--) {
      const at = Math.floor(random() * bytes.length);
      const r = random();
      if (r < 0.3) bytes[at] = Math.floor(random() * 256);
      else if (r < 0.5) bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1 + Math.floor(random() * 20))]);
      else bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(inserts)), bytes.subarray(at)]);
    }
    const asText = random() < 0.5;
    const whole = asText ? bytes.toString("utf8") : bytes;
    const cut = [];
    for (let at = 0; at < whole.length;) {
      const size = 1 + Math.floor(random() * 200);
      cut.push(asText ? whole.slice(at, at + size) : new Uint8Array(whole.subarray(at, at + size)));
      at += size;
    }
    errorRecords += replay(f, cut, `case ${i}: ${asText ? "text" : "bytes"} of ${f.name}`);
  }
  // The mutations reached the checks that make error records.
  assert.ok(errorRecords > 100, `${errorRecords} error records`);
  assert.ok(messageErrors > 0 && messageErrors < 300, `${messageErrors} message() errors`);
});

test("push's array names its accumulator in `stream`, not enumerable: JSON, spreads and deep equality see only the patches", () => {
  const a = new StreamAccumulator("anthropic_messages");
  const b = new StreamAccumulator("anthropic_messages");
  const event = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":0}}}\n\n';
  const first = a.push(event);
  const empty = a.push("");
  const other = b.push(event);
  assert.ok(Number.isInteger(first.stream) && first.stream > 0);
  assert.equal(empty.stream, first.stream, "every push of one accumulator has its number");
  assert.notEqual(other.stream, first.stream, "another accumulator has another");
  assert.equal(Object.getOwnPropertyDescriptor(first, "stream").enumerable, false);
  assert.deepEqual(Object.keys(first), first.map((_, i) => String(i)));
  assert.equal(JSON.stringify(first), JSON.stringify([...first]));
  assert.equal([...first].stream, undefined);
  a.free();
  b.free();
});
