#!/usr/bin/env bash
# Fuzzing with cargo-fuzz (libFuzzer, nightly toolchain).
#   fuzz/run.sh smoke [SECONDS] [TARGET...]   every target (or those named) for a few seconds
#                                             (npm run fuzz runs every target)
#   fuzz/run.sh run TARGET RUNS      one target for RUNS executions (the long runs of FUZZING.md)
# Each target's corpus starts from the JSON fixtures in tests/fixtures, so the fuzzer begins from
# real messages rather than from nothing.
# FUZZ_SANITIZER=none builds without AddressSanitizer (cargo fuzz's -s none): the core forbids
# unsafe code, so ASan can only find bugs in the standard library and serde_json, and without it
# the stream target runs about 25 times faster. Panics, overflows (debug assertions stay on),
# stack overflows and timeouts are caught either way.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# The [[bin]] sections' names (the [package] and [lib] names are not targets).
targets() { awk '/^\[\[bin\]\]/ { bin = 1; next } /^\[/ { bin = 0 } bin && /^name = / { gsub(/"/, "", $3); print $3 }' fuzz/Cargo.toml; }

seed_corpus() {
  local target=$1 dir=fuzz/corpus/$1
  mkdir -p "$dir"
  node -e '
    // Every object or array in the fixture files, down to three levels, becomes a seed.
    const fs = require("fs"), path = require("path");
    const [dir] = process.argv.slice(1);
    let n = 0;
    const seed = (value, depth) => {
      if (value === null || typeof value !== "object") return;
      fs.writeFileSync(path.join(dir, `seed-${n++}`), JSON.stringify(value));
      if (depth < 3) for (const child of Object.values(value)) seed(child, depth + 1);
    };
    for (const file of fs.readdirSync("tests/fixtures")) {
      if (!file.endsWith(".json")) continue;
      seed(JSON.parse(fs.readFileSync(path.join("tests/fixtures", file), "utf8")), 0);
    }
    // The stream target reads a protocol byte, then the stream bytes: each stream fixture is a
    // seed, as it is (SSE, NDJSON) and in the two other framings: one JSON array (of Gemini
    // streamGenerateContent without alt=sse) and AWS event-stream frames (of Bedrock).
    if (["stream", "transports"].includes(path.basename(dir))) {
      // The formats that stream, in the order of src/registry.rs (tests/tools/formats.mjs reads
      // it): the target picks one by its index.
      const protocols = JSON.parse(process.argv[2]);
      const frame = (type, payload) => {
        const header = (name, value) => Buffer.concat([Buffer.from([name.length]), Buffer.from(name),
          Buffer.from([7, value.length >> 8, value.length & 255]), Buffer.from(value)]);
        const headers = Buffer.concat([header(":event-type", type), header(":message-type", "event")]);
        const body = Buffer.from(payload);
        const prelude = Buffer.alloc(12);
        prelude.writeUInt32BE(16 + headers.length + body.length, 0);
        prelude.writeUInt32BE(headers.length, 4);
        return Buffer.concat([prelude, headers, body, Buffer.alloc(4)]);
      };
      const seed = (p, bytes) => {
        // First byte: protocol p, pieces of 1 + (byte / count) % 16 bytes.
        const first = Buffer.from([p + protocols.length * (n % 16)]);
        fs.writeFileSync(path.join(dir, `seed-${n++}`), Buffer.concat([first, bytes]));
      };
      protocols.forEach((protocol, p) => {
        const streams = path.join("tests/fixtures/streams", protocol);
        for (const file of fs.readdirSync(streams).filter((f) => /\.(sse|ndjson)$/.test(f))) {
          const bytes = fs.readFileSync(path.join(streams, file));
          seed(p, bytes);
          const data = bytes.toString("utf8").split(/\r?\n/).filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6)).filter((l) => l !== "[DONE]");
          if (data.length === 0) continue;
          // The same events as one JSON array, and as AWS frames: a one-key union event (of Bedrock)
          // as a frame of that type, any other as a `chunk` frame whose `bytes` hold it, base64
          // (InvokeModelWithResponseStream). A format reads the framings it names; the others
          // must give one error record.
          seed(p, Buffer.from(`[${data.join("\n,\r\n")}\n]`));
          seed(p, Buffer.concat(data.map((l) => {
            const entries = Object.entries(JSON.parse(l));
            return entries.length === 1 && !("type" in JSON.parse(l))
              ? frame(entries[0][0], JSON.stringify(entries[0][1]))
              : frame("chunk", JSON.stringify({ bytes: Buffer.from(l).toString("base64") }));
          })));
        }
      });
    }' "$dir" "$(node --input-type=module -e 'import { formats } from "./tests/tools/formats.mjs"; console.log(JSON.stringify(formats().filter((f) => f.streams).map((f) => f.name)))')"
}

run() {
  local target=$1; shift
  seed_corpus "$target"
  # Inputs up to 4 KiB: enough for any shape of message, small enough for tens of thousands of
  # executions a second.
  cargo +nightly fuzz run --fuzz-dir fuzz ${FUZZ_SANITIZER:+-s "$FUZZ_SANITIZER"} "$target" "fuzz/corpus/$target" -- -dict=fuzz/dict.txt -max_len=4096 "$@"
}

case "${1:-smoke}" in
  smoke)
    seconds=${2:-5}
    shift $(($# < 2 ? $# : 2))
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    for target in ${@:-$(targets)}; do
      if ! run "$target" -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz smoke: $target FAILED (the crashing input is in fuzz/artifacts/$target/)" >&2
        exit 1
      fi
      runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
      echo "fuzz smoke: $target ok, $runs executions in $seconds s ($((runs / seconds)) a second)"
    done
    ;;
  run)
    run "$2" -runs="$3" -print_final_stats=1
    ;;
  *)
    echo "usage: fuzz/run.sh smoke [SECONDS] [TARGET...] | run TARGET RUNS" >&2
    exit 2
    ;;
esac
