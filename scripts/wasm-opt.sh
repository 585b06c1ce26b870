# The wasm-opt arguments of the shipped modules, sourced by build.sh and size.sh (which must
# optimize its named copy exactly as the shipped one).
#
# Debian's binaryen (wasm-opt 108) emits modules that fail to load, so only npm's (132) is used,
# with every feature named: wasm-bindgen's output uses them and wasm-opt must not strip them.
#
# Passes (each measured on 2026-12-02 against plain `-Oz --converge`, in bytes gzipped, core /
# whole module; bench/ab.mjs in Chromium found no case slower, within its 0.92-1.08 noise, but for
# the first):
# - `-ocimfs 20 -aimfs 4` (-5,431 / -12,037): by default binaryen inlines every function that has
#   one caller, whatever its size, which made the exports' shims and a few readers very large
#   functions whose hundreds of locals have long, varied indices that gzip compresses badly (the
#   module is 3% larger before gzip but 8% smaller after). Now a function with one caller is
#   inlined only up to 20 bytes, and any function up to 4. The price is speed: side by side in
#   Chromium (bench/ab.mjs, three runs on a day this machine's medians moved by 30%), 1.0 to 1.13
#   times as long for the object API and `Transcript` (`search` 1.19 and 1.22 at first, 1.05 and
#   1.12 once toText's escaping copied runs of text instead of characters). The core built with
#   only the four display exports is then 33.8 KB gzipped (35.7 KB before).
# - `--low-memory-unused` (-570 / -1,346): lets the optimizer fold constant offsets into loads
#   and stores, on the promise that the lowest 1 KB of memory is never addressed. Rust's wasm32
#   layout keeps it so: the stack is the first megabyte, growing down from 1 MB, and the data
#   and the heap lie above it; safe Rust makes no null or wild accesses.
# - `--flatten --rereloop` then `-Oz` again (-523 / -688 more): rebuilds each function's control
#   flow from its basic blocks (binaryen's Relooper), which the second `-Oz` then shrinks further.
#   About 7 seconds more for the whole module.
# - `--strip-producers --strip-target-features` (-181 / -200): two custom sections no engine
#   reads, the names and versions of the tools that made the module and its list of features
#   (this script names the features itself).
# - a last `-Oz` after `--converge` (-100 / -201, and -48 of the display module; 2026-12-03):
#   `--converge` repeats the whole list above, `--flatten --rereloop` included, which rebuilds
#   control flow that one more `-Oz` on its own then shrinks further (a second one, or converging
#   it too, gains nothing more). bench/ab.mjs, 1,000 messages: 0.99 to 1.02 (a first run at load
#   4 to 8, 0.95 to 1.13).
# `--traps-never-happen` would take 1.4 KB more and is not used: it lets the optimizer assume that
# no trap is reached, including the panic handler's, so a bug would run on instead of stopping.
WASM_FEATURES=(--enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-multivalue --enable-reference-types
  --enable-call-indirect-overlong)
WASM_OPT_ARGS=(-Oz -ocimfs 20 -aimfs 4 --low-memory-unused --flatten --rereloop -Oz --converge -Oz
  --strip-producers --strip-target-features "${WASM_FEATURES[@]}")

# The whole module for Node (Cargo.toml's `node` profile, opt-level 3): `-O2`. The passes above
# took 1 min 50 s on that build (941 KB before them), for a module no faster in Node: side by side
# (2026-12-06, 10,000 messages, 100 rounds in one process, builds in turn) `-O2` measured 0.968 of
# their time, `-O1` 1.006 to 1.030, none at all 0.998; `-O2` takes 16 s (316 KB gzipped, 308 KB
# with the passes above; 348 KB unoptimized).
WASM_OPT_NODE_ARGS=(-O2 --low-memory-unused --strip-producers --strip-target-features "${WASM_FEATURES[@]}")

# A copy of a raw module (`$2`) optimized exactly as shipped but with its function names kept, with
# its web glue, in folder `$1` (as wasm-bindgen writes it: import names unshortened). For twiggy
# (size.sh) and CPU profiles (bench/profile.mjs).
named_build() {
  wasm-bindgen --target web --keep-debug --out-dir "$1" --out-name chat_display "$2"
  wasm-opt "${WASM_OPT_ARGS[@]}" -g --strip-dwarf -o "$1/chat_display_bg.wasm" "$1/chat_display_bg.wasm"
}
