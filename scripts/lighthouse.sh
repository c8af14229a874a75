#!/bin/bash
# Lighthouse (mobile, performance) on the game-over page of a finished
# 6-seat 12-lap game of each kind, three runs each, on the local run.
# Lighthouse is not one of the project's dependencies: install it apart,
#   (cd /tmp/lh && npm i -E lighthouse@12.2.3)   # 13 wants Node 22
# then: LIGHTHOUSE=/tmp/lh/node_modules/.bin/lighthouse scripts/lighthouse.sh [PORT]
set -euo pipefail
PORT=${1:-9311}
LH=${LIGHTHOUSE:-lighthouse}
WORK=$(mktemp -d)
trap 'kill $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
PBM_LIGHTHOUSE_RECORDS=$WORK go test ./functions/internal/httpapi -run TestGameOverRecords -count 1 >/dev/null
go build -o "$WORK/local" ./functions/local
PORT=$PORT "$WORK/local" -data "$WORK/data" >"$WORK/local.log" 2>&1 &
PID=$!
for _ in $(seq 100); do curl -s -o /dev/null "localhost:$PORT/healthz" && break; sleep 0.1; done
for kind in western businessman; do
  out=$(curl -s "localhost:$PORT/api/records" -H 'Content-Type: application/json' --data-binary "@$WORK/$kind.json")
  id=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  tok=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["spectator_token"])')
  url="http://localhost:$PORT/g/$id?lang=ru&t=$tok"
  curl -s -o /dev/null -w "$kind: game-over page %{size_download} B\n" "$url"
  for run in 1 2 3; do
    CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} "$LH" "$url" --quiet --only-categories=performance \
      --chrome-flags="--headless=new --no-sandbox" --output=json --output-path="$WORK/lh.json" >/dev/null 2>&1
    python3 - "$WORK/lh.json" "$kind" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d["audits"]
groups = {i["group"]: i["duration"] for i in a["mainthread-work-breakdown"]["details"]["items"]}
print("%s: performance %d, total blocking time %d ms, FCP %d ms, LCP %d ms, CLS %.3f, main thread %d ms (style and layout %d ms)" % (
    sys.argv[2], round(d["categories"]["performance"]["score"] * 100), a["total-blocking-time"]["numericValue"],
    a["first-contentful-paint"]["numericValue"], a["largest-contentful-paint"]["numericValue"],
    a["cumulative-layout-shift"]["numericValue"], sum(groups.values()), groups.get("styleLayout", 0)))
PY
  done
done
