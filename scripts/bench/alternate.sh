#!/usr/bin/env bash
# Before/after in one run: alternates two server bundles through the
# many-players scenario (new, then returning players), each run on a fresh
# database, and prints each run's table rows and pgbench figure.
#
#   DATABASE_URL=postgres://…/ql_bench REDIS_URL=redis://…/N JWT_SECRET=… \
#     bash scripts/bench/alternate.sh BEFORE.mjs AFTER.mjs [pairs=3]
#
# A bundle is `.next/questline-server.mjs` after `node scripts/build-server.mjs`
# in a checkout of the commit (git worktree add /tmp/before <commit>, then
# npm install and the build there). DATABASE_URL's database is dropped and
# created before every run.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$1 after=$2 pairs=${3:-3}
: "${DATABASE_URL:?set DATABASE_URL (postgres://…)}" "${REDIS_URL:?set REDIS_URL}" "${JWT_SECRET:?set JWT_SECRET}"
db=${DATABASE_URL##*/}
admin=${DATABASE_URL%/*}/postgres
for i in $(seq 1 "$pairs"); do
  for which in before after; do
    bundle=$([ "$which" = before ] && echo "$before" || echo "$after")
    cp "$bundle" ".next/questline-server-$which.mjs"
    psql "$admin" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>/dev/null
    redis-cli -u "$REDIS_URL" flushdb > /dev/null
    echo "### pair $i: $which ($bundle) $(date -u +%H:%M:%S)"
    npx tsx scripts/bench/index.ts --quick --only many --entry ".next/questline-server-$which.mjs" 2>&1 \
      | grep -v '"level"' | grep -E '^\| events|^pgbench' || true
  done
done
