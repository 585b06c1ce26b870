#!/usr/bin/env bash
# The wasm boundary tests (tests/boundary*.rs) in WebKit. `wasm-pack test` drives Chrome, Firefox
# and Safari's own safaridriver (macOS) only; this runs the `cargo test` that `wasm-pack test` runs,
# with wasm-bindgen-test-runner's Safari path pointed at WebKitWebDriver (WebKitGTK's MiniBrowser)
# in an Xvfb display of its own: SAFARIDRIVER_REMOTE names the running driver, and
# WASM_BINDGEN_TEST_WEBDRIVER_JSON adds the capability that names MiniBrowser. Arguments go to
# `cargo test` (e.g. `--test boundary_records`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
display=":$(cat "$work/display")"

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
# Frames go to the X window the older way (see tests/support/webkit.mjs); no accessibility bus.
DISPLAY=$display WEBKIT_DISABLE_DMABUF_RENDERER=1 NO_AT_BRIDGE=1 WebKitWebDriver --port="$port" >/dev/null 2>&1 &
pids+=($!)
node -e 'const url = process.argv[1]; (async () => { for (let i = 0; i < 200; i++) { try { await (await fetch(url)).json(); return; } catch { await new Promise((r) => setTimeout(r, 50)); } } process.exit(1); })()' \
  "http://127.0.0.1:$port/status"

minibrowser=$(ls /usr/lib/*/webkit2gtk-4.1/MiniBrowser | head -n 1)
printf '{"webkitgtk:browserOptions": {"binary": "%s", "args": ["--automation"]}}\n' "$minibrowser" > "$work/capabilities.json"

CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner WASM_BINDGEN_TEST_ONLY_WEB=1 \
  SAFARIDRIVER_REMOTE="http://127.0.0.1:$port" WASM_BINDGEN_TEST_WEBDRIVER_JSON="$work/capabilities.json" \
  cargo test --target wasm32-unknown-unknown "$@"
