#!/usr/bin/env bash
# Regenerates native.d.ts, the declarations of the native addon, from the
# binding's source with napi-rs's own generator (test/node_modules holds
# @napi-rs/cli). `--check` compares instead of writing (CI).
set -euo pipefail
cd "$(dirname "$0")"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
test/node_modules/.bin/napi build --manifest-path Cargo.toml --package-json-path package.json \
    --package goccia-node --output-dir "$out" --dts native.d.ts --no-dts-header >/dev/null
if [ "${1:-}" = "--check" ]; then
    if ! diff -u native.d.ts "$out/native.d.ts"; then
        echo "node/native.d.ts is stale: run node/regen-dts.sh" >&2
        exit 1
    fi
else
    cp "$out/native.d.ts" native.d.ts
fi
