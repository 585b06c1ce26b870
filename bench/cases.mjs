// The benchmark cases, shared by the Node run and the Chromium page: each pairs chat-display with
// the plain-JavaScript baseline on the same generated input, checks that both give the same output
// (as JSON text) and only then times both with tinybench, side by side in one process.
import { conversation } from "./generate.mjs";
import * as baseline from "./baseline.mjs";

export const SIZES = [100, 1000, 10000];

/** Every case for one size: `{name, size, run: {chatDisplay, baseline}, outputs(): [a, b]}`. */
export function casesFor(cd, size) {
  const messages = conversation(size);
  const cases = [
    {
      name: "extractDisplayItems, each message",
      chatDisplay: () => messages.map((m) => cd.extractDisplayItems(m)),
      baseline: () => messages.map((m) => baseline.extractDisplayItems(m)),
    },
    {
      name: "toDisplayMessages",
      chatDisplay: () => cd.toDisplayMessages(messages),
      baseline: () => baseline.toDisplayMessages(messages),
    },
  ];
  const text = JSON.stringify(messages);
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  if (cd.Transcript) {
    // The baseline side of Transcript: parse everything, make every record, then use them.
    const records = baseline.toDisplayMessages(messages);
    const transcript = cd.Transcript.fromJson(text);
    const query = "Phoenix LiveView";
    const extra = { role: "tool", tool_results: [{ tool_call_id: "call_x", name: "search", content: "appended" }] };
    // Made here, so that timing (and the batch size chosen for it) sees appends only.
    const appender = cd.Transcript.fromJson(text);
    /** A fresh Transcript's first 50 records. */
    const firstWindow = (input) => {
      const t = cd.Transcript.fromJson(input);
      const window = t.records(0, 50);
      t.free();
      return window;
    };
    cases.push(
      {
        name: "Transcript.fromJson + records(0, 50) vs JSON.parse + toDisplayMessages",
        chatDisplay: () => firstWindow(text),
        baseline: () => baseline.toDisplayMessages(JSON.parse(text)).slice(0, 50),
      },
      {
        // From a file or a response, the bytes can be handed over as they are: no string to
        // encode (which Chromium's TextEncoder does at about 3 ns a character). The baseline
        // decodes them first, as `response.text()` or `file.text()` would.
        name: "Transcript.fromJson(bytes) + records(0, 50) vs decode + JSON.parse + toDisplayMessages",
        chatDisplay: () => firstWindow(bytes),
        baseline: () => baseline.toDisplayMessages(JSON.parse(decoder.decode(bytes))).slice(0, 50),
      },
      {
        name: "Transcript search vs filter by toText",
        chatDisplay: () => transcript.search(query),
        baseline: () => baseline.search(records, query),
      },
      {
        name: "Transcript toText, every record vs toText, every record",
        chatDisplay: () => {
          const out = [];
          for (let i = 0; i < transcript.length; i++) out.push(transcript.toText(i));
          return out;
        },
        baseline: () => records.map(baseline.toText),
      },
      {
        name: "Transcript append, one message vs toDisplayMessages of it",
        // Appends to one Transcript of `size` messages, which grows by a record per call (append
        // does not depend on the size); the baseline makes the one message's records.
        chatDisplay: () => {
          appender.append(extra);
          return 1;
        },
        baseline: () => baseline.toDisplayMessages([extra]).length,
        // Appending is stateful: the outputs are not compared.
        compare: false,
      },
    );
  }
  return cases.map((c) => ({ ...c, size, bytes: text.length }));
}

function stats(task, reps) {
  const r = task.result;
  if (!r || !r.latency) throw new Error(`${task.name}: no result (${r?.state ?? "not run"}: ${r?.error ?? ""})`);
  const l = r.latency;
  return { median: l.p50 / reps, mad: l.mad / reps, min: l.min / reps, max: l.max / reps, samples: l.samplesCount, reps };
}

/**
 * How many calls of `fn` make one sample of at least `ms` milliseconds, so that short calls are
 * timed in batches (Chromium's clock moves in 100-microsecond steps on a page that is not
 * cross-origin isolated).
 */
function repsFor(fn, ms = 4) {
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < ms * 2) {
    fn();
    calls++;
  }
  const each = (performance.now() - start) / calls;
  return Math.max(1, Math.ceil(ms / each));
}

const repeated = (fn, reps) => (reps === 1 ? fn : () => {
  for (let i = 0; i < reps; i++) fn();
});

/**
 * Runs the cases whose name contains `filter`, for `sizes`, and resolves to rows
 * `{name, size, bytes, chatDisplay: stats, baseline: stats}` (milliseconds).
 */
export async function runAll(cd, Bench, { sizes = SIZES, filter = "", iterations = 20, time = 1000, log = () => {} } = {}) {
  const rows = [];
  for (const size of sizes) {
    for (const c of casesFor(cd, size)) {
      if (!c.name.includes(filter)) continue;
      const [a, b] = c.compare === false ? ["", ""] : [JSON.stringify(c.chatDisplay()), JSON.stringify(c.baseline())];
      if (a !== b) {
        let at = 0;
        while (a[at] === b[at]) at++;
        throw new Error(`${c.name} (${size}): chat-display and the baseline differ at ${at}:\n` +
          `  chat-display: ${a.slice(Math.max(0, at - 80), at + 80)}\n  baseline:     ${b.slice(Math.max(0, at - 80), at + 80)}`);
      }
      const reps = [repsFor(c.chatDisplay), repsFor(c.baseline)];
      const bench = new Bench({ iterations, time, warmupIterations: 5, warmupTime: 200, throws: true });
      bench.add("chat-display", repeated(c.chatDisplay, reps[0]));
      bench.add("baseline", repeated(c.baseline, reps[1]));
      await bench.run();
      const [cdTask, baseTask] = bench.tasks;
      const row = { name: c.name, size, bytes: c.bytes, chatDisplay: stats(cdTask, reps[0]), baseline: stats(baseTask, reps[1]) };
      log(row);
      rows.push(row);
    }
  }
  return rows;
}

/** The median of a list of numbers. */
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The object API against plain JavaScript, the figure a regression shows in (issue 45):
 * `toDisplayMessages` of `size` generated messages, chat-display's and the baseline's, called in
 * turn for `rounds` rounds (which one goes first alternates), after the same check of their
 * outputs as every case. Gives the median of each round's ratio (chat-display / baseline) and each
 * side's median time (ms). Timing the two in turn keeps a change in the machine's load from
 * falling on one side only, as it can between tinybench's run of one side and then the other:
 * on the project's shared machine (2026-12-06) the table's ratio for this case moved from 1.66 to
 * 2.67 between processes of the same build (a7d087f) at load 2.5 to 7. `cpuTime`, where the
 * runtime has one (Node's
 * `process.cpuUsage`, every thread of the process), adds the same figures in CPU time, which
 * other processes on the machine move less than they move the time that passes.
 */
export function objectApiRatio(cd, { size = 10000, rounds = 40, cpuTime } = {}) {
  const messages = conversation(size);
  const sides = [() => cd.toDisplayMessages(messages), () => baseline.toDisplayMessages(messages)];
  if (JSON.stringify(sides[0]()) !== JSON.stringify(sides[1]())) {
    throw new Error(`toDisplayMessages (${size}): chat-display and the baseline differ`);
  }
  for (let i = 0; i < 5; i++) sides.forEach((f) => f());
  const wall = [[], []], cpu = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const k of round % 2 ? [1, 0] : [0, 1]) {
      const cpuStart = cpuTime?.();
      const start = performance.now();
      sides[k]();
      wall[k].push(performance.now() - start);
      if (cpuTime) cpu[k].push(cpuTime() - cpuStart);
    }
  }
  const figures = ([a, b]) => ({
    ratio: median(a.map((x, i) => x / b[i])),
    chatDisplay: median(a),
    baseline: median(b),
  });
  return { size, rounds, ...figures(wall), cpu: cpuTime ? figures(cpu) : undefined };
}

const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

/** The rows as a fixed-width text table: median ± median absolute deviation (samples), per call. */
export function table(runtime, rows) {
  const lines = [[`${runtime}: case`, "messages", "chat-display ms", "baseline ms", "ratio"]];
  for (const r of rows) {
    lines.push([
      r.name,
      String(r.size),
      `${ms(r.chatDisplay.median)} ± ${ms(r.chatDisplay.mad)} (${r.chatDisplay.samples})`,
      `${ms(r.baseline.median)} ± ${ms(r.baseline.mad)} (${r.baseline.samples})`,
      // A batch that took no time Chromium's 0.1 ms clock could see has no ratio.
      r.chatDisplay.median > 0 && r.baseline.median > 0
        ? (r.chatDisplay.median / r.baseline.median).toFixed(2)
        : "below the clock",
    ]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")).join("\n");
}
