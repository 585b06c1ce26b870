#!/usr/bin/env bash
# Every test: native Rust, the wasm boundary in Chrome, Firefox and WebKit, the packed package in
# Node and in TypeScript, apps built on it, the viewer page and the element in Chromium, Firefox
# and WebKit. Run through `npm test`, which sets up and builds first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# The boundary tests' runner gives a browser 20 s per test file by default. These steps run beside
# the three engines' page and element tests on two cores, where one WebKit run of
# tests/boundary_records.rs (0.6 s alone) was not seen to finish in that time.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-180}
# Each step prints its start; the end prints how long each took (DEVELOPING.md "Where the time goes").
times=()
step_name=""
step_start=$SECONDS
finish_step() {
  [ -n "$step_name" ] && times+=("$(printf '%4d s  %s' $((SECONDS - step_start)) "${step_name:0:90}")")
  return 0
}
step() {
  finish_step
  step_name=$1
  step_start=$SECONDS
  printf '\n== %s\n' "$*"
}
summary() {
  finish_step
  printf '\n== time a step (%d s in all)\n' "$SECONDS"
  printf '%s\n' "${times[@]}"
}

# The viewer page's and the element's tests in the three engines (Chromium; Firefox, puppeteer-core
# over WebDriver BiDi; WebKit, WebKitGTK's MiniBrowser over WebDriver in Xvfb) start now and run
# beside the steps below: each engine's run is its own processes and ports (and WebKit its own X
# display), and most of it is spent waiting on its browser, so it overlaps the CPU-bound steps
# (DEVELOPING.md "Where the time goes"). The last step but one waits for them and prints their logs.
engines=(chromium firefox webkit)
browser_logs=$(mktemp -d)
browser_pids=()
scratch=""
cleanup() {
  [ ${#browser_pids[@]} -gt 0 ] && kill "${browser_pids[@]}" 2>/dev/null
  rm -rf "$browser_logs" ${scratch:+"$scratch"}
  return 0
}
trap cleanup EXIT
for engine in "${engines[@]}"; do
  BROWSER=$engine node --test tests/page/ tests/element/ >"$browser_logs/$engine" 2>&1 &
  browser_pids+=("$!")
done

step "native core: cargo test (the fuzz targets' checks over the fixtures' seeds too: tests/fuzz_replay.rs)"
cargo test --locked

step "wasm boundary: wasm-pack test --headless --chrome"
wasm-pack test --headless --chrome

step "wasm boundary in the second engine: wasm-pack test --headless --firefox (geckodriver)"
wasm-pack test --headless --firefox

step "wasm boundary in WebKit: the same cargo test, wasm-bindgen-test-runner's Safari path on WebKitWebDriver (scripts/wasm-test-webkit.sh)"
bash scripts/wasm-test-webkit.sh

step "the packed package in Node"
scratch=$(mktemp -d)
npm pack --silent --pack-destination "$scratch" >/dev/null
(
  cd "$scratch"
  echo '{"name": "scratch", "private": true, "type": "module"}' > package.json
  npm install --silent --no-audit --no-fund ./chat-display-*.tgz
)
mkdir -p "$scratch/tests/readmes"
cp -r tests/js tests/support tests/fixtures tests/ts "$scratch/tests/"
cp README.md README-npm.md "$scratch/tests/readmes/"
# CHAT_DISPLAY_REPO: the tests of the JavaScript inputs load the AI SDK and @langchain/core
# (devDependencies) from the repository (tests/js/ai-sdk-ui.test.mjs, langchain_js.test.mjs).
CHAT_DISPLAY_REPO="$PWD" node --test "$scratch/tests/js/"

step "TypeScript: tsc --noEmit --strict over consumer files (tests/ts/)"
tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext --skipLibCheck false \
  "$scratch"/tests/ts/*.ts
echo "tsc: no errors in $(ls tests/ts/*.ts | wc -l) files"

step "TypeScript: chat-display/element with React 19's types, with Vue 3's, and with neither (tsc --strict over examples/react, examples/vue, tests/ts/react, tests/ts/vue, tests/ts/element.ts)"
PACKAGE_SCRATCH="$scratch" node --test tests/packaging/element-types.test.mjs

step "the package in browsers: Vite, React and Vue apps, a 10,000-message app and a plain module page, in Chromium"
PACKAGE_SCRATCH="$scratch" node --test tests/packaging/packaging.test.mjs tests/packaging/element-apps.test.mjs

step "the package's registry checks: publint --strict, attw"
tarball=$(ls "$scratch"/chat-display-*.tgz)
publint --strict "$tarball"
# attw, every rule on. The one exclusion, the three .wasm subpaths: no user imports them for typed
# exports. Each is a module's bytes, a file to serve, fetch or pass to init (by URL, e.g.
# `import.meta.resolve("chat-display/chat_display_bg.wasm")`), and what importing a .wasm file
# gives differs per tool (a URL, an instance, an error), so no types file could be true for all of
# them: attw finds none and reports "Resolution failed". chat-display/element needs no exclusion:
# `require` of it resolves to the CommonJS stand-in js/element.cjs, typed by js/element.d.cts.
attw "$tarball" --format ascii --exclude-entrypoints ./chat_display_bg.wasm ./core/chat_display_bg.wasm \
  ./display/chat_display_bg.wasm

step "the consumer matrix: bundlers, runtimes, server renders (Next.js, SvelteKit, Astro), test runners and TypeScript settings on the tarball (tests/packaging/consumers.json)"
node tests/tools/consumers-table.mjs --check
PACKAGE_SCRATCH="$scratch" node --test --test-concurrency=1 tests/packaging/consumers.test.mjs

step "the viewer page and the element in Chromium, Firefox and WebKit (started before the first step, side by side with the rest)"
failed=()
for i in 0 1 2; do
  wait "${browser_pids[$i]}" || failed+=("${engines[$i]}")
done
browser_pids=()
for engine in "${engines[@]}"; do
  printf '\n-- %s\n' "$engine"
  cat "$browser_logs/$engine"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "the page or element tests failed in: ${failed[*]}" >&2
  exit 1
fi

step "the packed package's browser apps in WebKit"
BROWSER=webkit PACKAGE_SCRATCH="$scratch" node --test tests/packaging/packaging.test.mjs tests/packaging/element-apps.test.mjs

summary
