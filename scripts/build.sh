#!/usr/bin/env bash
# Builds the npm package's contents: the release wasm modules, each with its JavaScript glue for
# browsers (web/, ES module with `init`) and for Node (node/, CommonJS, ready on require),
# optimized with npm's binaryen. Quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Three modules, each for browsers and for Node (the `core` and `providers` features, Cargo.toml):
# - the whole package (pkg/web, pkg/node), the `chat-display` entry;
# - the core alone (pkg/core/web, pkg/core/node), the `chat-display/core` entry: the same build
#   without the `providers` feature (no provider wire formats, no streams), about half the size;
# - the display functions alone (pkg/display/web, pkg/display/node), the `chat-display/display`
#   entry: extractDisplayItems, toDisplayMessages, isChatDisplayError and toText, within issue 8's
#   35 KB gzipped.
# Without the `std` feature: the module links no standard library (see src/lib.rs). Each build has
# its own target folder, so that none undoes another's and they run side by side: each one's
# last step (LTO into one codegen unit) uses one core.
# The whole module is built twice: at `opt-level = "z"` for browsers, where its bytes are
# downloaded, and at 3 for Node (Cargo.toml's `node` profile), where they are read from disk and
# the speed of its calls counts (bench/README.md, issue 45).
echo "build: compiling the Rust core to wasm, four modules side by side: the whole one for browsers and again for Node, the core, the display functions (minutes on a fresh machine, seconds when up to date)"
cargo_build() {
  cargo build --locked --quiet --target wasm32-unknown-unknown --no-default-features "$@"
}
builds=()
cargo_build --release --features providers & builds+=($!)
cargo_build --profile node --features providers --target-dir target/node & builds+=($!)
cargo_build --release --features core --target-dir target/core & builds+=($!)
cargo_build --release --target-dir target/display & builds+=($!)
failed=0
for pid in "${builds[@]}"; do
  wait "$pid" || failed=1
done
[ "$failed" = 0 ] || { echo "build: a cargo build failed (above)" >&2; exit 1; }

up_to_date() {
  local out=$1
  [ -f "$out" ] && [ "$out" -nt "$raw" ] && [ "$out" -nt scripts/build.sh ] && [ "$out" -nt scripts/wasm-opt.sh ] &&
    [ "$out" -nt scripts/minify-imports.mjs ] && [ "$out" -nt scripts/inline-wasm.mjs ]
}

# The optimizer's passes and features (npm's binaryen, not Debian's): scripts/wasm-opt.sh.
source scripts/wasm-opt.sh

# Each build's target folder, the folder its glue goes to (pkg[/core|/display]/web and /node), and
# the target folder and Cargo profile of its Node module.
for build in "target pkg target/node node" "target/core pkg/core target/core release" \
  "target/display pkg/display target/display release"; do
read -r from to node_from node_profile <<< "$build"
for target in web nodejs; do
  raw=$from/wasm32-unknown-unknown/release/chat_display.wasm
  [ "$target" = web ] || raw=$node_from/wasm32-unknown-unknown/$node_profile/chat_display.wasm
  dir=$to/${target%js}
  # The last file each target writes: node/ keeps no .wasm (scripts/inline-wasm.mjs).
  last=$dir/chat_display_inline.js
  [ "$target" = web ] || last=$dir/chat_display_bytes.js
  if up_to_date "$last"; then
    continue
  fi
  rm -rf "$dir"
  wasm-bindgen --target "$target" --out-dir "$dir" --out-name chat_display "$raw"
  # Each folder says which module system its .js is, whatever the enclosing package says.
  if [ "$target" = web ]; then
    echo '{"type": "module"}' > "$dir/package.json"
    format=esm
  else
    echo '{"type": "commonjs"}' > "$dir/package.json"
    format=cjs
  fi
  # The tape's JavaScript (src/wasm/tape.js, which wasm-bindgen copies to
  # snippets/chat-display-<hash>/src/wasm/tape.js), minified: its readable source is 5.9 KB
  # gzipped, minified 2.2 KB. The Node glue `require`s it, so there it is made CommonJS too, so
  # that every Node 20 loads it (require of an ES module needs 20.19).
  for snippet in "$dir"/snippets/*/src/wasm/tape.js; do
    node_modules/.bin/esbuild "$snippet" --minify --tree-shaking=true --format="$format" \
      --log-level=warning --allow-overwrite --outfile="$snippet" || {
      rm -rf "$dir"
      exit 1
    }
  done
  # The module's import names, wasm-bindgen's function names with hashes, made short in the module
  # and the glue together (1.2 KB gzipped of the core).
  node scripts/minify-imports.mjs "$dir" || {
    rm -rf "$dir"
    exit 1
  }
  # wasm-bindgen writes the same module for both targets (only the glue differs): it is
  # optimized once, for web, and node takes that copy when its unoptimized bytes are the same.
  # A failed run removes the folder, so that the next build does not take an unoptimized module
  # as up to date.
  module=$dir/chat_display_bg.wasm
  unoptimized=$from/chat_display_bg.unoptimized.wasm
  if [ "$target" != web ] && cmp -s "$unoptimized" "$module"; then
    cp "$to/web/chat_display_bg.wasm" "$module"
  else
    [ "$target" = web ] && cp "$module" "$unoptimized"
    args=("${WASM_OPT_ARGS[@]}")
    [ "$target" = web ] || [ "$node_profile" = release ] || args=("${WASM_OPT_NODE_ARGS[@]}")
    node_modules/.bin/wasm-opt "${args[@]}" -o "$module" "$module" || {
      rm -rf "$dir"
      exit 1
    }
  fi
  echo "built $dir: $(wc -c < "$dir/chat_display_bg.wasm") bytes, $(gzip -9 < "$dir/chat_display_bg.wasm" | wc -c) gzipped"
  # The bytes inlined as JavaScript: web/chat_display_inline.js for the bundlers that do not copy
  # the .wasm, node/chat_display_bytes.js for Node and server bundles, which then needs no .wasm of
  # its own. The browsers' inlined entry shares Node's bytes where the two are one build (the core
  # and the display functions); the whole module's has a file of its own (--own-bytes).
  own=()
  [ "$target" != web ] || [ "$node_profile" = release ] || own=(--own-bytes)
  node scripts/inline-wasm.mjs "${target%js}" "$dir" "${own[@]}" || {
    rm -rf "$dir"
    exit 1
  }
done
done

# chat-display/element: the element, its CSS and its three libraries in one ES module.
node scripts/build-element.mjs
