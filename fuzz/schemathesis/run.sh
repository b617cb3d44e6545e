#!/usr/bin/env bash
# Runs schemathesis (PyPI) against `goccia serve`'s OpenAPI document, in two
# passes: with the admin token (every operation), then with a session
# token of every capability and that session's id as the `id` parameter
# (so the session operations are reached, not only refused). Closing the
# session is left out of the second pass, which would end it.
#
#   fuzz/schemathesis/run.sh [max examples per operation, default 50]
#
# Needs `st` on PATH (python3 -m venv v && v/bin/pip install schemathesis)
# and a built binary (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/../.."
examples="${1:-50}"
goccia="${GOCCIA:-target/release/goccia}"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/ws/src"
echo "hello" > "$work/ws/src/a.txt"
"$goccia" serve --listen 127.0.0.1:0 --workspace "w=$work/ws" \
    --admin-token-file "$work/admin" --timeout 2000 2> "$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q listening "$work/serve.log" && break; sleep 0.05; done
base="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log")"
admin="$(cat "$work/admin")"
open="$(curl -s -X POST "$base/v1/sandboxes" -H "Authorization: Bearer $admin" \
    -d '{"workspace":"w","seeds":[{"from":".","to":"/w"}],"capabilities":["read","write","run","shell","diff","submit","child"]}')"
id="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["sandboxId"])' "$open")"
token="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["token"])' "$open")"
cat > "$work/schemathesis.toml" <<TOML
[parameters]
"path.id" = "$id"
"path.name" = "w"
"query.workspace" = "w"
TOML
status=0
echo "== pass 1: admin token"
st --config-file "$work/schemathesis.toml" run "$base/v1/openapi.json" \
    -H "Authorization: Bearer $admin" --checks all --max-examples "$examples" || status=1
echo "== pass 2: a session's token"
st --config-file "$work/schemathesis.toml" run "$base/v1/openapi.json" \
    -H "Authorization: Bearer $token" --checks all --max-examples "$examples" \
    --exclude-method DELETE --exclude-path '/v1/sandboxes/{id}' || status=1
exit $status
