#!/usr/bin/env bash
# Every test: native Rust, the wasm boundary in headless Chrome, the packed package in Node and
# in TypeScript, apps built on it, the viewer page and the element in Chromium. Run through
# `npm test`, which sets up and builds first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
step() { printf '\n== %s\n' "$*"; }

step "native core: cargo test"
cargo test --locked

step "fuzzing, a smoke run of every target (fuzz/run.sh; long runs in tests/FUZZING.md)"
bash fuzz/run.sh smoke 5

step "wasm boundary: wasm-pack test --headless --chrome"
wasm-pack test --headless --chrome

step "the packed package in Node"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
npm pack --silent --pack-destination "$scratch" >/dev/null
(
  cd "$scratch"
  echo '{"name": "scratch", "private": true, "type": "module"}' > package.json
  npm install --silent --no-audit --no-fund ./chat-display-*.tgz
)
mkdir -p "$scratch/tests"
cp -r tests/js tests/fixtures tests/ts "$scratch/tests/"
# CHAT_DISPLAY_REPO: tests/js/ai-sdk-ui.test.mjs loads the AI SDK (a devDependency) from here.
CHAT_DISPLAY_REPO="$PWD" node --test "$scratch/tests/js/"

step "TypeScript: tsc --noEmit --strict over consumer files (tests/ts/)"
tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext --skipLibCheck false \
  "$scratch"/tests/ts/*.ts
echo "tsc: no errors in $(ls tests/ts/*.ts | wc -l) files"

step "the package in browsers: Vite, React and Vue apps, a 10,000-message app and a plain module page, in Chromium"
PACKAGE_SCRATCH="$scratch" node --test tests/packaging/

step "the viewer page in Chromium"
node --test tests/page/

step "the element in Chromium"
node --test tests/element/
