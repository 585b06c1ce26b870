// A seeded generator of realistic LangChain conversations for the benchmarks: user turns (some
// with an image), assistant turns with thinking, text and tool calls whose arguments are nested
// JSON, tool turns answering every call (some failing, some as text parts), and now and then a
// long text. The same seed gives the same conversation in every runtime.

/** mulberry32: a small, fast, seeded PRNG giving floats in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ("the a of to and in is it that for on with as was at by this be from or are an " +
  "conversation message tool result search weather file database query user assistant agent " +
  "summary answer question function value error retry context model token stream chunk parse " +
  "record display item status pending completed failed citation image document request response " +
  "Elixir Phoenix LiveView process supervisor GenServer schema migration deploy release cluster " +
  "naïve café résumé über 東京 データ 🙂 ✓ — “quoted” «guillemets»").split(" ");

const TOOLS = ["search", "get_weather", "read_file", "run_query", "write_file", "fetch_url", "calculate"];

export function generator(seed) {
  const next = rng(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const words = (lo, hi) => {
    const n = int(lo, hi);
    const out = [];
    for (let i = 0; i < n; i++) out.push(pick(WORDS));
    return out.join(" ");
  };
  const sentences = (lo, hi) => {
    const n = int(lo, hi);
    const out = [];
    for (let i = 0; i < n; i++) {
      const s = words(3, 12);
      out.push(s[0].toUpperCase() + s.slice(1) + pick([".", ".", ".", "?", "!"]));
    }
    return out.join(" ");
  };
  // Base64-looking image data, a few KB.
  const base64 = (bytes) => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let s = "";
    for (let i = 0; i < Math.ceil(bytes / 3) * 4; i++) s += alphabet[int(0, 63)];
    return s;
  };
  const json = (depth) => {
    const roll = next();
    if (depth <= 0 || roll < 0.35) return pick([words(1, 6), int(-1000, 100000), next() * 100, true, false, null]);
    if (roll < 0.55) {
      const list = [];
      for (let i = int(0, 4); i > 0; i--) list.push(json(depth - 1));
      return list;
    }
    const object = {};
    for (let i = int(1, 4); i > 0; i--) object[pick(["id", "query", "path", "limit", "filters", "options", "name", "value", "tags", "range"]) + (i > 3 ? i : "")] = json(depth - 1);
    return object;
  };
  let callNumber = 0;
  const user = () => {
    if (chance(0.07)) {
      return {
        role: "user",
        content: [
          { type: "text", content: sentences(1, 3) },
          { type: "image", content: base64(int(600, 2400)), options: { media: "image/png" } },
        ],
        status: "complete",
      };
    }
    return { role: "user", content: chance(0.02) ? sentences(20, 80) : sentences(1, 4), status: "complete" };
  };
  const assistant = () => {
    const content = [];
    if (chance(0.5)) content.push({ type: "thinking", content: sentences(1, 3), options: { signature: base64(60) } });
    if (chance(0.85)) content.push({ type: "text", content: chance(0.02) ? sentences(20, 80) : sentences(1, 4) });
    const calls = [];
    if (chance(0.55)) {
      for (let i = int(1, 3); i > 0; i--) {
        calls.push({
          status: "complete",
          type: "function",
          call_id: `call_${(++callNumber).toString(36)}_${int(100000, 999999)}`,
          name: pick(TOOLS),
          arguments: json(3),
          index: calls.length,
        });
      }
    }
    return {
      role: "assistant",
      content: content.length ? content : null,
      status: "complete",
      tool_calls: calls.length ? calls : [],
      metadata: chance(0.3) ? { usage: { input: int(10, 5000), output: int(10, 2000) } } : null,
    };
  };
  const tool = (calls) => ({
    role: "tool",
    content: null,
    status: "complete",
    tool_results: calls.map((call) => {
      const failed = chance(0.08);
      const content = failed
        ? `Error: ${sentences(1, 2)}`
        : chance(0.3)
          ? [{ type: "text", content: sentences(1, 5) }, { type: "text", content: JSON.stringify(json(3)) }]
          : chance(0.02) ? sentences(20, 80) : sentences(1, 4);
      return { type: "function", tool_call_id: call.call_id, name: call.name, content, is_error: failed };
    }),
  });
  return { user, assistant, tool, chance };
}

/** A conversation of exactly `n` messages: a system prompt, then user / assistant (/ tool) turns. */
export function conversation(n, seed = 42) {
  const g = generator(seed);
  const messages = [{ role: "system", content: "You are a helpful assistant. Use the tools when they help." }];
  let pendingCalls = [];
  while (messages.length < n) {
    if (pendingCalls.length) {
      messages.push(g.tool(pendingCalls));
      pendingCalls = [];
    } else if (messages[messages.length - 1].role === "assistant" && g.chance(0.2)) {
      messages.push(g.assistant());
    } else if (messages[messages.length - 1].role !== "user") {
      messages.push(g.user());
    } else {
      const a = g.assistant();
      messages.push(a);
      pendingCalls = a.tool_calls;
    }
  }
  return messages.slice(0, n);
}
