// Recovery: every export is called with many kinds of bad input, in every argument position. Each
// call must either throw a ChatDisplayError (an Error with name, code and path) or return the
// documented non-throwing result, and a valid call made right after must still work. A panic in
// wasm would make every later call fail, so this is what keeps one malformed message from costing
// a user their session. Shared by the Node test (recovery.test.mjs) and the browser test
// (tests/packaging), which runs it in Chromium.

/** At least 40 kinds of bad input: wrong types at every level, hostile objects, huge and deep values. */
export function badValues() {
  const cyclic = { role: "user" };
  cyclic.content = [cyclic];
  cyclic.self = cyclic;
  const cyclicArray = [];
  cyclicArray.push(cyclicArray);
  const deep = (n, make) => { let v = null; for (let i = 0; i < n; i++) v = make(v); return v; };
  const throwing = new Proxy({}, {
    get() { throw new Error("proxy get"); }, has() { throw new Error("proxy has"); },
    ownKeys() { throw new Error("proxy ownKeys"); }, getOwnPropertyDescriptor() { throw new Error("proxy gopd"); },
    getPrototypeOf() { throw new Error("proxy proto"); },
  });
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const getterThrows = Object.defineProperty({}, "role", { get() { throw new Error("getter"); }, enumerable: true });
  const sparse = [, , { role: "user", content: "x" }];
  const huge = new Array(200_000).fill(null);
  return [
    ["undefined", () => undefined],
    ["null", () => null],
    ["true", () => true],
    ["zero", () => 0],
    ["NaN", () => NaN],
    ["negative zero", () => -0],
    ["Infinity", () => Infinity],
    ["empty string", () => ""],
    ["a string", () => "user"],
    ["a lone surrogate", () => "\uD800"],
    ["a 1 MB string", () => "x".repeat(1 << 20)],
    ["BigInt", () => 10n],
    ["Symbol", () => Symbol("x")],
    ["function", () => () => ({ role: "user" })],
    ["empty array", () => []],
    ["array of null", () => [null]],
    ["array of numbers", () => [1, 2, 3]],
    ["sparse array", () => sparse],
    ["huge array of nulls", () => huge],
    ["cyclic array", () => cyclicArray],
    ["empty object", () => ({})],
    ["null-prototype object", () => Object.create(null)],
    ["frozen message", () => Object.freeze({ role: "user", content: Object.freeze([Object.freeze({ type: "text", content: "x" })]) })],
    ["cyclic message", () => cyclic],
    ["getter that throws", () => getterThrows],
    ["proxy that throws", () => throwing],
    ["revoked proxy", () => revoked],
    ["Map", () => new Map([["role", "user"]])],
    ["Set", () => new Set([1])],
    ["Date", () => new Date(0)],
    ["RegExp", () => /x/],
    ["Uint8Array", () => new Uint8Array(4)],
    ["ArrayBuffer", () => new ArrayBuffer(4)],
    ["Error", () => new Error("x")],
    ["boxed string", () => new String("user")],
    ["boxed number", () => new Number(1)],
    ["class instance", () => new (class Message { constructor() { this.role = "user"; } })()],
    ["__proto__ key", () => JSON.parse('{"role":"user","__proto__":{"polluted":true},"content":"x"}')],
    ["toJSON that throws", () => ({ role: "user", toJSON() { throw new Error("toJSON"); } })],
    ["role null", () => ({ role: null })],
    ["role number", () => ({ role: 7 })],
    ["role object", () => ({ role: { toString: () => "user" } })],
    ["content number", () => ({ role: "user", content: 42 })],
    ["content cyclic array", () => ({ role: "user", content: cyclicArray })],
    ["parts of wrong types", () => ({ role: "user", content: [1, "x", null, [], { type: 5 }] })],
    ["tool_calls string", () => ({ role: "assistant", tool_calls: "x" })],
    ["tool_calls of wrong types", () => ({ role: "assistant", tool_calls: [null, 1, "x", []] })],
    ["tool_results object", () => ({ role: "tool", tool_results: {} })],
    ["tool result of wrong types", () => ({ role: "tool", tool_results: [{ tool_call_id: 5, content: {}, is_error: "yes" }] })],
    ["100,000-deep arguments", () => ({ role: "assistant", tool_calls: [{ call_id: "1", name: "t", arguments: deep(100_000, (v) => ({ v })) }] })],
    ["100,000-deep array content", () => ({ role: "user", content: deep(100_000, (v) => [v]) })],
    ["Sycophant message with bad parts", () => ({ __type__: "Message", role: "user", content: [{ __type__: "Bogus" }, { type: "nope" }] })],
    ["Sycophant role tool", () => ({ __type__: "Message", role: "tool", content: "x" })],
    ["__type__ number", () => ({ __type__: 5 })],
    ["expansion with bad messages", () => ({ role: "tool", tool_results: [{ tool_call_id: "1", content: "x", message_expansion: { messages: [null, { role: 3 }], result_content: 5 } }] })],
  ];
}

function isChatDisplayError(e) {
  return e instanceof Error && e.name === "ChatDisplayError" && typeof e.code === "string" && typeof e.path === "string" && e.path.startsWith("$");
}

/** The exports and how to call each: `args(bad, position)` places the bad value, `valid()` must succeed. */
export function exportsUnderTest(api) {
  const streamState = {};
  const user = { role: "user", content: "still works" };
  const toolCall = { __type__: "ToolCall", id: "c1", name: "t", arguments: {} };
  const record = { conversation_id: "c", message_type: "user", content_type: "text", content: { text: "hello" },
    sequence: 0, status: "completed", tool_call_id: null, metadata: {} };
  return [
    { name: "extractDisplayItems", arity: 1, args: (b) => [b], valid: () => api.extractDisplayItems(user).length === 1 },
    { name: "toDisplayMessages", arity: 2, args: (b, i) => (i === 0 ? [b] : [[user], b]), valid: () => api.toDisplayMessages([user]).length === 1 },
    { name: "isChatDisplayError", arity: 1, never: true, args: (b) => [b], valid: () => api.isChatDisplayError(new Error("x")) === false },
    { name: "expand", arity: 3, args: (b, i) => [i === 0 ? b : "fallback", i === 1 ? b : [user], i === 2 ? b : undefined], valid: () => api.expand("x", [user]).message_expansion !== null },
    { name: "isExpandable", arity: 1, args: (b) => [b], valid: () => api.isExpandable({ message_expansion: { messages: [] } }) === true },
    { name: "expandToolResults", arity: 1, args: (b) => [b], valid: () => api.expandToolResults([user]).length === 1 },
    { name: "userMessage", arity: 1, args: (b) => [b], valid: () => api.userMessage("hi").role === "user" },
    { name: "assistantMessage", arity: 1, args: (b) => [b], valid: () => api.assistantMessage("hi").role === "assistant" },
    { name: "systemMessage", arity: 1, args: (b) => [b], valid: () => api.systemMessage("hi").role === "system" },
    { name: "toolResultMessage", arity: 2, args: (b, i) => (i === 0 ? [b, "r"] : [toolCall, b]), valid: () => api.toolResultMessage(toolCall, "r").tool_call_id === "c1" },
    { name: "newDisplayMessage", arity: 2, args: (b, i) => (i === 0 ? [b, record] : ["c", b]), valid: () => api.newDisplayMessage("c", record).valid === true },
    { name: "changeDisplayMessage", arity: 2, args: (b, i) => (i === 0 ? [b, {}] : [record, b]), valid: () => api.changeDisplayMessage(record, { sequence: 2 }).record.sequence === 2 },
    { name: "validateDisplayMessage", arity: 1, args: (b) => [b], valid: () => api.validateDisplayMessage(record).valid === true },
    { name: "toText", arity: 1, never: true, args: (b) => [b], valid: () => api.toText(record) === "hello" },
    { name: "fromProvider", arity: 2, args: (b, i) => (i === 0 ? [b, []] : ["anthropic_messages", b]), valid: () => api.fromProvider("anthropic_messages", [{ role: "user", content: "hi" }]).length === 1 },
    { name: "detectProtocol", arity: 1, never: true, args: (b) => [b], valid: () => api.detectProtocol({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }) === "google_gemini" },
    { name: "toProvider", arity: 2, args: (b, i) => (i === 0 ? [b, [user]] : ["openai_completions", b]), valid: () => Array.isArray(api.toProvider("openai_completions", [user])) },
    { name: "decodeSycophant", arity: 1, args: (b) => [b], valid: () => api.decodeSycophant({ __type__: "Message", role: "user" }).role === "user" },
    { name: "StreamAccumulator", arity: 1, args: (b) => [b], call: (p) => new api.StreamAccumulator(p).free(),
      valid: () => { const a = new api.StreamAccumulator("google_gemini"); const ok = a.done === false; a.free(); return ok; } },
    // One Transcript takes every bad count; a search after it still finds its record.
    { name: "Transcript.prepareSearch", arity: 1, args: (b) => [b], call: (count) => transcript().prepareSearch(count),
      valid: () => transcript().prepareSearch(1) === true && transcript().search("HELLO")[0] === 0 },
    // Opened with nothing read, then read whole: its one record, nothing left.
    { name: "Transcript.open", arity: 1, args: (b) => [b], call: (text) => api.Transcript.open(text).free(),
      valid: () => {
        const t = api.Transcript.open(JSON.stringify([{ role: "user", content: "Hello" }]));
        const ok = t.length === 0 && t.read(1).done === true && t.length === 1 && t.records(0, 1)[0].content.text === "Hello";
        t.free();
        return ok;
      } },
    // One Transcript, opened with two messages unread, takes every bad count; a read after it goes on.
    { name: "Transcript.read", arity: 1, args: (b) => [b], call: (count) => opened().read(count),
      valid: () => opened().read(0).done === (opened().length === 2) && opened().read(1).settled.length === 0 },
    // One accumulator takes every bad chunk mid-message; after each, its text block still grows.
    { name: "StreamAccumulator.push", arity: 1, args: (b) => [b], call: (chunk) => stream().push(chunk),
      valid: () => {
        // The blank lines end whatever line a bad string chunk left unfinished.
        const patches = stream().push('\n\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}\n\n');
        return patches.length === 1 && patches[0].op === "append" && stream().records()[0]?.content?.text?.endsWith("x") === true;
      } },
  ];
  function transcript() {
    streamState.transcript ??= api.Transcript.fromJson(JSON.stringify([{ role: "user", content: "Hello" }]));
    return streamState.transcript;
  }
  function opened() {
    streamState.opened ??= api.Transcript.open(JSON.stringify([{ role: "user", content: "a" }, { role: "user", content: "b" }]));
    return streamState.opened;
  }
  function stream() {
    if (!streamState.acc) {
      streamState.acc = new api.StreamAccumulator("anthropic_messages");
      streamState.acc.push('data: {"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}\n\n'
        + 'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
        + 'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}\n\n');
    }
    return streamState.acc;
  }
}

/**
 * Runs every bad value through every export and argument (or those of the export names `only`,
 * for an entry with fewer exports); returns the list of failures.
 */
export function runRecovery(api, only = null) {
  const failures = [];
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort().join();
  let calls = 0;
  for (const target of exportsUnderTest(api).filter((t) => !only || only.includes(t.name))) {
    if (typeof api[target.name.split(".")[0]] !== "function") {
      failures.push(`${target.name} is not exported`);
      continue;
    }
    for (const [label, make] of badValues()) {
      for (let position = 0; position < target.arity; position++) {
        calls++;
        try {
          const args = target.args(make(), position);
          if (target.call) target.call(...args);
          else api[target.name](...args);
        } catch (error) {
          if (target.never || !isChatDisplayError(error)) {
            failures.push(`${target.name}(${label} at ${position}) threw ${error?.name}: ${String(error?.message).slice(0, 200)}`);
          }
        }
        try {
          if (!target.valid()) failures.push(`${target.name}: a valid call after ${label} gave a wrong result`);
        } catch (error) {
          failures.push(`${target.name}: a valid call after ${label} threw ${error?.name}: ${String(error?.message).slice(0, 200)}`);
          return { failures, calls }; // the module is dead: nothing after this means anything
        }
      }
    }
  }
  if (Object.getOwnPropertyNames(Object.prototype).sort().join() !== prototypeBefore || ({}).polluted !== undefined) {
    failures.push("Object.prototype was changed");
  }
  return { failures, calls };
}

/**
 * Values that are only moved come back as the very same values, at any depth, `__proto__` keys
 * and lone surrogates included; the one function that must look inside arbitrary JSON (toText)
 * stops at its depth limit. Returns the list of failures.
 */
export function runPassThrough(api) {
  const failures = [];
  const check = (label, ok) => { if (!ok) failures.push(label); };
  const deep = (n) => { const root = {}; let v = root; for (let i = 0; i < n; i++) v = v.next = {}; return root; };
  const value = deep(100_000);
  const proto = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "prototype": 1}');
  const lone = "a\uD800b\uDFFFc";
  const run = (label, f) => {
    try {
      f();
    } catch (error) {
      failures.push(`${label} threw ${error?.name}: ${String(error?.message).slice(0, 200)}`);
    }
  };
  for (const [label, moved] of [["100,000-deep", value], ["__proto__ keys", proto], ["lone surrogates", lone]]) {
    run(`extractDisplayItems ${label}`, () => {
      const [text, call] = api.extractDisplayItems({ role: "assistant", content: typeof moved === "string" ? moved : "x",
        tool_calls: [{ call_id: "1", name: "t", arguments: moved }] });
      check(`extractDisplayItems moves ${label} arguments`, call.content.arguments === moved);
      if (typeof moved === "string") check("extractDisplayItems keeps lone surrogates in text", text.content.text === moved);
    });
    run(`toDisplayMessages ${label}`, () => {
      const records = api.toDisplayMessages([{ role: "assistant", tool_calls: [{ call_id: "1", name: "t", arguments: moved }] }]);
      check(`toDisplayMessages moves ${label}`, records[0].content.arguments === moved);
    });
    run(`decodeSycophant ${label}`, () => {
      const message = api.decodeSycophant({ __type__: "Message", role: "user", content: "x", metadata: { m: moved },
        tool_calls: [{ __type__: "ToolCall", id: "1", name: "t", arguments: { a: moved } }] });
      check(`decodeSycophant moves ${label} metadata`, message.metadata.m === moved);
      check(`decodeSycophant moves ${label} arguments`, message.tool_calls[0].arguments.a === moved);
    });
    run(`expand ${label}`, () => {
      const inserted = { role: "user", content: "more", metadata: { m: moved } };
      const result = api.expand("fallback", [inserted]);
      check(`expand keeps the ${label} message as given`, result.message_expansion.messages[0] === inserted);
    });
    run(`expandToolResults ${label}`, () => {
      const other = { role: "user", content: "x", metadata: { m: moved } };
      const out = api.expandToolResults([other]);
      check(`expandToolResults passes the ${label} message along`, out[0] === other);
    });
    run(`newDisplayMessage ${label}`, () => {
      const content = { text: "x", extra: moved };
      const changeset = api.newDisplayMessage("c", { message_type: "user", content_type: "text", content, metadata: { m: moved } });
      check(`newDisplayMessage keeps ${label} content`, changeset.valid && changeset.record.content === content);
    });
  }
  run("toText 100,000-deep arguments", () => {
    const text = api.toText({ content_type: "tool_call", content: { name: "t", arguments: value } });
    check("toText renders past its depth limit as ...", typeof text === "string" && text.includes("...") && text.length < 10_000);
  });
  run("objects chat-display copies keep __proto__ as an own key", () => {
    const message = JSON.parse('{"role":"tool","__proto__":{"x":1},"tool_results":[{"tool_call_id":"1","content":"fallback",' +
      '"__proto__":{"y":2},"message_expansion":{"messages":[{"role":"user","content":"more"}],"result_content":"short"}}]}');
    const [copy] = api.expandToolResults([message]);
    const result = copy.tool_results[0];
    for (const [label, object] of [["message", copy], ["result", result]]) {
      check(`expandToolResults ${label}: __proto__ is an own key`, Object.hasOwn(object, "__proto__"));
      check(`expandToolResults ${label}: the prototype is Object.prototype`, Object.getPrototypeOf(object) === Object.prototype);
    }
    check("expandToolResults keeps the __proto__ value", copy.__proto__ === message.__proto__ || Object.getOwnPropertyDescriptor(copy, "__proto__")?.value?.x === 1);
  });
  check("Object.prototype untouched", ({}).polluted === undefined && Object.prototype.polluted === undefined);
  return failures;
}
