#!/usr/bin/env bash
# The shipped wasm's size (raw and gzip -9, per build) and its largest items by twiggy, measured
# on a copy optimized exactly as the shipped one but with function names kept. Needs twiggy
# (`cargo install twiggy`). `bash scripts/size.sh [rows]`
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
bash scripts/build.sh >/dev/null
for dir in pkg/web pkg/node; do
  echo "$dir/chat_display_bg.wasm: $(wc -c < $dir/chat_display_bg.wasm) bytes, $(gzip -9c $dir/chat_display_bg.wasm | wc -c) gzipped"
done
named=$(mktemp -d)
trap 'rm -rf "$named"' EXIT
wasm-bindgen --target web --keep-debug --out-dir "$named" --out-name chat_display \
  target/wasm32-unknown-unknown/release/chat_display.wasm
wasm-opt -Oz --converge -g --strip-dwarf --enable-bulk-memory --enable-bulk-memory-opt \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  --enable-reference-types --enable-call-indirect-overlong \
  -o "$named/named.wasm" "$named/chat_display_bg.wasm"
twiggy top -n "${1:-25}" "$named/named.wasm" | sed -E 's/::h[0-9a-f]{16}//g; s/\[[0-9a-f]{16}\]//g'
