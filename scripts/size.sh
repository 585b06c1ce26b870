#!/usr/bin/env bash
# The module's size, per build (raw and gzip -9), and the largest items by twiggy:
# - the shipped module (pkg/web and pkg/node, as scripts/build.sh makes them);
# - the core alone: the same build without the `providers` feature (no provider wire formats, no
#   streams), which is what issue 8's 35 KB gzipped budget is for.
# Items are measured on copies optimized exactly as the shipped one but with function names kept.
# Needs twiggy (`cargo install twiggy`). `bash scripts/size.sh [rows] [core|full]`
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
rows=${1:-25}
which=${2:-core}
bash scripts/build.sh >/dev/null

WASM_OPT=(-Oz --converge --enable-bulk-memory --enable-bulk-memory-opt
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue
  --enable-reference-types --enable-call-indirect-overlong)
gz() { echo "$(wc -c < "$1") bytes, $(gzip -9c "$1" | wc -c) gzipped"; }

for dir in pkg/web pkg/node; do
  echo "shipped $dir/chat_display_bg.wasm: $(gz $dir/chat_display_bg.wasm)"
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cargo build --locked --quiet --release --target wasm32-unknown-unknown --no-default-features \
  --target-dir target/core
core_raw=target/core/wasm32-unknown-unknown/release/chat_display.wasm
wasm-bindgen --target web --out-dir "$scratch/core" --out-name chat_display "$core_raw"
wasm-opt "${WASM_OPT[@]}" -o "$scratch/core.wasm" "$scratch/core/chat_display_bg.wasm"
core_gz=$(gzip -9c "$scratch/core.wasm" | wc -c)
echo "core alone (no providers feature): $(gz "$scratch/core.wasm"); budget 35,000 gzipped:" \
  "$([ "$core_gz" -le 35000 ] && echo met || echo "missed by $((core_gz - 35000))")"

raw=target/wasm32-unknown-unknown/release/chat_display.wasm
[ "$which" = core ] && raw=$core_raw
wasm-bindgen --target web --keep-debug --out-dir "$scratch/named" --out-name chat_display "$raw"
wasm-opt "${WASM_OPT[@]}" -g --strip-dwarf -o "$scratch/named.wasm" \
  "$scratch/named/chat_display_bg.wasm"
echo
echo "largest items of the $which build:"
twiggy top -n "$rows" "$scratch/named.wasm" | sed -E 's/::h[0-9a-f]{16}//g; s/\[[0-9a-f]{16}\]//g'
echo
echo "the $which build by area (shallow bytes before gzip):"
twiggy top -n 100000 --format csv "$scratch/named.wasm" | node scripts/size-areas.mjs
