// Two builds of the browser package, run on the same inputs in Node: every outcome (result or
// error) must be the same. For changes that should not change behavior, such as optimizer passes
// or a data structure swapped for another:
//
//   cp -r pkg/web /tmp/before   # the build before the change
//   (change, then) npm run build
//   node tests/tools/diff-builds.mjs /tmp/before pkg/web [--limit N]
//
// The inputs are the fuzz corpora (fuzz/corpus/*, left by fuzz/run.sh; tens of thousands of
// inputs after a long run) and the fixture files. Each input is given, as JSON text and as the
// value it parses to (the text itself if it is not JSON), to every export: the display functions,
// records, Sycophant, expansion, the provider readers and writers of every protocol, a stream fed
// the text, and a Transcript loaded from it (every record, every search text, two searches, an
// append). Prints the first differences, the counts and the differences by call; exits 1 on any
// difference.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formats } from "./formats.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf("--limit");
const limit = at >= 0 ? Number(args.splice(at, 2)[1]) : Infinity;
if (args.length !== 2) {
  console.error("usage: node tests/tools/diff-builds.mjs DIR_A DIR_B [--limit N]");
  process.exit(2);
}

async function load(dir) {
  const m = await import(resolve(dir, "chat_display.js"));
  m.initSync({ module: readFileSync(resolve(dir, "chat_display_bg.wasm")) });
  return m;
}
const [a, b] = [await load(args[0]), await load(args[1])];

function outcome(m, call) {
  try {
    return "ok " + JSON.stringify(call(m));
  } catch (e) {
    return `error ${e?.name} ${e?.code} ${e?.path} ${e?.message}`;
  }
}

// Every format of fromProvider and toProvider, as the registry lists them; a StreamAccumulator of
// a format without a stream throws, the same in both builds.
const PROTOCOLS = formats(root).map((f) => f.name);
function transcript(m, source, value) {
  const t = m.Transcript.fromJson(source);
  try {
    const out = { length: t.length, records: t.records(0, t.length), texts: [] };
    for (let i = 0; i < t.length; i++) out.texts.push(t.toText(i));
    out.search = [t.search("a"), t.search("É", { limit: 3 })];
    try {
      t.append(value);
      out.appended = t.records(0, t.length);
    } catch (e) {
      out.appendError = `${e.code} ${e.path} ${e.message}`;
    }
    return out;
  } finally {
    t.free();
  }
}
function calls(text, value) {
  const list = [
    (m) => m.toDisplayMessages(value),
    (m) => m.toDisplayMessages(value, { conversationId: "c" }),
    (m) => m.extractDisplayItems(value),
    (m) => m.toText(value),
    (m) => m.validateDisplayMessage(value),
    (m) => m.newDisplayMessage("c", value),
    (m) => m.changeDisplayMessage(value, { status: "failed" }),
    (m) => m.decodeSycophant(value),
    (m) => m.userMessage(value),
    (m) => m.assistantMessage(value),
    (m) => m.systemMessage(value),
    (m) => m.toolResultMessage(value, value),
    (m) => m.expandToolResults(value),
    (m) => m.isExpandable(value),
    (m) => m.expand("fallback", value),
    (m) => transcript(m, text, value),
    (m) => transcript(m, new TextEncoder().encode(text), value),
  ];
  if (a.detectProtocol && b.detectProtocol) {
    list.push((m) => m.detectProtocol(value));
    for (const protocol of PROTOCOLS) {
      list.push((m) => m.fromProvider(protocol, value), (m) => m.toProvider(protocol, value));
      list.push((m) => {
        const stream = new m.StreamAccumulator(protocol);
        try {
          return [stream.push(text), stream.records(), stream.message()];
        } finally {
          stream.free();
        }
      });
    }
  }
  return list;
}

// Every file under each input folder, the fixtures' folders included.
function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}
const corpus = join(root, "fuzz/corpus");
const sources = [
  ...(existsSync(corpus) ? readdirSync(corpus).map((target) => join(corpus, target)) : []),
  join(root, "tests/fixtures"),
];
let cases = 0, results = 0, differences = 0;
// Differences by call, so that a change meant to alter one export's output can show it altered
// nothing else.
const byCall = new Map();
for (const source of sources) {
  const inputs = files(source).slice(0, limit);
  for (const file of inputs) {
    const text = new TextDecoder().decode(readFileSync(file));
    let value = text;
    try {
      value = JSON.parse(text);
    } catch {}
    for (const call of calls(text, value)) {
      cases++;
      const [x, y] = [outcome(a, call), outcome(b, call)];
      if (x.startsWith("ok ")) results++;
      if (x === y) continue;
      byCall.set(String(call), (byCall.get(String(call)) ?? 0) + 1);
      if (++differences <= 5) {
        console.log(`difference: ${file}\n  ${call}\n  A: ${x.slice(0, 400)}\n  B: ${y.slice(0, 400)}`);
      }
    }
  }
  console.log(`${source}: ${inputs.length} inputs`);
}
console.log(`${cases} cases (${results} results, the rest errors), ${differences} differences`);
for (const [call, count] of byCall) console.log(`  ${count} by ${call}`);
process.exit(differences ? 1 : 0);
