#!/usr/bin/env bash
# The module's size, per build (raw and gzip -9), and the largest items by twiggy:
# - the shipped modules, as scripts/build.sh makes them: the whole one (pkg/web; pkg/node is the same code at opt-level 3, the
#   `chat-display` entry), the core alone (pkg/core/web and pkg/core/node, `chat-display/core`:
#   the same build without the `providers` feature, no provider wire formats and no streams), which
#   is what issue 8's 35 KB gzipped budget is for, and the display functions alone (pkg/display,
#   `chat-display/display`), which meets it.
# Items are measured on copies optimized exactly as the shipped one but with function names kept.
# Needs twiggy (`cargo install twiggy`). `bash bench/size.sh [rows] [core|full|display]`
#
# `bash bench/size.sh features` measures instead what each of the core's four groups of exports
# (its cargo features: expansion, sycophant, records, transcript) costs: the display module with
# that group added, and the core without it, each built and optimized as the shipped modules are
# (eight builds, about 12 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
rows=${1:-25}
which=${2:-core}
bash scripts/build.sh >/dev/null

source scripts/wasm-opt.sh

# gzip reads from a pipe, so that the file name (which gzip -9c FILE stores in its header) is not counted.
gzipped() { gzip -9 < "$1" | wc -c; }

# Gzipped bytes of the module built with the features "$1" (comma-separated; none for ""), as
# scripts/build.sh builds, shortens and optimizes a shipped one, in target/features/$2.
gzipped_with() {
  local dir=target/features/$2
  cargo build --locked --quiet --release --target wasm32-unknown-unknown --no-default-features \
    ${1:+--features "$1"} --target-dir "$dir"
  rm -rf "$dir/web"
  wasm-bindgen --target web --out-dir "$dir/web" --out-name chat_display \
    "$dir/wasm32-unknown-unknown/release/chat_display.wasm"
  node scripts/minify-imports.mjs "$dir/web"
  wasm-opt "${WASM_OPT_ARGS[@]}" -o "$dir/web/chat_display_bg.wasm" "$dir/web/chat_display_bg.wasm"
  gzipped "$dir/web/chat_display_bg.wasm"
}

if [ "$rows" = features ]; then
  groups=(expansion sycophant records transcript)
  display=$(gzipped pkg/display/web/chat_display_bg.wasm)
  core=$(gzipped pkg/core/web/chat_display_bg.wasm)
  echo "gzipped bytes: the display module $display, the core $core (all four groups)"
  echo
  echo "| group | display module with it | it adds | core without it | it costs the core |"
  echo "|---|---:|---:|---:|---:|"
  for group in "${groups[@]}"; do
    others=$(printf '%s\n' "${groups[@]}" | grep -vx "$group" | paste -sd, -)
    with=$(gzipped_with "$group" "with-$group")
    without=$(gzipped_with "$others" "without-$group")
    echo "| $group | $with | $((with - display)) | $without | $((core - without)) |"
  done
  exit 0
fi

# Brotli (quality 11, Node's zlib) too: what most CDNs serve a .wasm as.
br() { node -e 'const z = require("zlib"), b = require("fs").readFileSync(process.argv[1]);
  console.log(z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } }).length)' "$1"; }
gz() { echo "$(wc -c < "$1") bytes, $(gzipped "$1") gzipped, $(br "$1") with brotli"; }

# One .wasm per module: node/ runs the same bytes inlined (scripts/inline-wasm.mjs).
for dir in pkg/web pkg/core/web pkg/display/web; do
  echo "shipped $dir/chat_display_bg.wasm: $(gz $dir/chat_display_bg.wasm)"
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for build in "core chat-display/core" "display chat-display/display"; do
  read -r name entry <<< "$build"
  bytes=$(gzipped "pkg/$name/web/chat_display_bg.wasm")
  echo "$name ($entry): budget 35,000 gzipped:" \
    "$([ "$bytes" -le 35000 ] && echo "met, $((35000 - bytes)) under" || echo "missed by $((bytes - 35000))")"
done

case $which in
  full) raw=target/wasm32-unknown-unknown/release/chat_display.wasm ;;
  core | display) raw=target/$which/wasm32-unknown-unknown/release/chat_display.wasm ;;
  *) echo "size.sh: which build? core, full or display, not $which" >&2; exit 2 ;;
esac
named_build "$scratch/named" "$raw"
echo
echo "largest items of the $which build:"
twiggy top -n "$rows" "$scratch/named/chat_display_bg.wasm" | sed -E 's/::h[0-9a-f]{16}//g; s/\[[0-9a-f]{16}\]//g'
echo
echo "the $which build by area (shallow bytes before gzip):"
twiggy top -n 100000 --format csv "$scratch/named/chat_display_bg.wasm" | node bench/size-areas.mjs
