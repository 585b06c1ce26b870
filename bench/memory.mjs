// Peak memory of a Transcript against its input: the module's memory (which only grows) before
// and after Transcript.fromJson of a generated conversation, in a fresh Node process, compared
// with the UTF-8 size of the text. `node bench/memory.mjs [messages]`
import { conversation } from "./generate.mjs";

// The module's memory, caught as the Node glue instantiates it.
let memory;
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports);
  memory ??= instance.exports.memory;
  return instance;
};
const { Transcript } = await import("../js/node.mjs");
WebAssembly.Instance = Instance;

const n = Number(process.argv[2] ?? 10000);
const text = JSON.stringify(conversation(n));
const bytes = Buffer.byteLength(text);
const wasmBytes = () => memory.buffer.byteLength;
Transcript.fromJson("[]").free();
const before = wasmBytes();
const t = Transcript.fromJson(text);
const after = wasmBytes();
for (let i = 0; i < 50; i++) t.append({ role: "user", content: "one more" });
const mb = (x) => (x / 1048576).toFixed(2);
console.log(`${n} messages, ${mb(bytes)} MB of JSON: the module's memory grew by ${mb(after - before)} MB loading it ` +
  `(${((after - before) / bytes).toFixed(2)} times the input); ${t.length} records`);
t.free();
