#!/usr/bin/env bash
# Installs what building (`setup.sh build`), testing (`setup.sh test`) or fuzzing (`setup.sh fuzz`)
# needs and is missing.
# Idempotent, and quick when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."
need=${1:-test}
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf 'setup: %s\n' "$*"; }

# The steps that download: a dropped connection (npm's ECONNRESET from the registry has failed a
# CI run) is tried again, three times in all, before setup gives up.
retry() {
  local attempt
  for attempt in 1 2 3; do
    "$@" && return 0
    [ "$attempt" = 3 ] && break
    say "that failed (attempt $attempt of 3); trying again in $((attempt * 20)) s"
    sleep $((attempt * 20))
  done
  return 1
}

# Cargo's --locked first, as upstream asks; if a locked dependency is not in the registry here,
# the newest compatible versions instead.
cargo_install() {
  cargo install --quiet --locked "$@" || retry cargo install --quiet "$@"
}

# Debian packages, through sudo unless setup runs as root.
apt_install() {
  local sudo_=""
  [ "$(id -u)" = 0 ] || sudo_=sudo
  retry $sudo_ apt-get update -qq
  retry $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  retry rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen version in Cargo.lock.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ] ||
   ! command -v wasm-bindgen-test-runner >/dev/null; then
  say "installing wasm-bindgen-cli $bindgen_version (about 3 minutes)"
  cargo_install wasm-bindgen-cli --version "$bindgen_version"
fi

lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.chat-display-lock 2>/dev/null)" != "$lock_hash" ]; then
  say "npm ci"
  # --prefer-offline: what npm's cache holds is not fetched again.
  retry npm ci --prefer-offline --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.chat-display-lock
fi

[ "$need" = build ] && exit 0

# Fuzzing (`npm run fuzz`, fuzz/run.sh): libFuzzer needs the nightly toolchain. `npm test` does not
# fuzz (it runs the targets' checks over the fixtures' seeds in `cargo test`), so it needs neither.
if [ "$need" = fuzz ]; then
  if ! rustup toolchain list | grep -q '^nightly'; then
    say "installing the nightly toolchain (for cargo fuzz)"
    retry rustup toolchain install nightly --profile minimal
  fi
  if ! command -v cargo-fuzz >/dev/null; then
    say "installing cargo-fuzz (about 1 minute)"
    cargo_install cargo-fuzz
  fi
  exit 0
fi

if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack (about 2 minutes)"
  cargo_install wasm-pack
fi


if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  say "installing Debian's chromium and chromium-driver"
  apt_install chromium chromium-driver
fi

# The second browser engine: Debian's Firefox ESR, driven by geckodriver for `wasm-pack test
# --firefox` and by puppeteer-core (a devDependency, over WebDriver BiDi) for the page's and the
# element's tests (BROWSER=firefox).
if [ ! -x /usr/bin/firefox-esr ]; then
  say "installing Debian's firefox-esr"
  apt_install firefox-esr
fi
if [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1 {print $2}')" != 0.37.1 ]; then
  say "installing geckodriver 0.37.1 (about 2 minutes)"
  cargo_install geckodriver --version 0.37.1
fi

# The third browser engine: WebKitGTK's MiniBrowser, driven by WebKitWebDriver over W3C WebDriver
# in an Xvfb display (BROWSER=webkit, tests/support/webkit.mjs; openssl makes the certificate of
# its test proxy). About 40 s.
if ! command -v WebKitWebDriver >/dev/null || ! command -v Xvfb >/dev/null || ! command -v openssl >/dev/null ||
   ! ls /usr/lib/*/webkit2gtk-4.1/MiniBrowser >/dev/null 2>&1; then
  say "installing Debian's webkit2gtk-driver (WebKitWebDriver and MiniBrowser), xvfb and openssl"
  apt_install webkit2gtk-driver xvfb openssl
fi
