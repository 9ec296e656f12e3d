#!/usr/bin/env bash
# make bench-store: the PostgreSQL store's work queue on a server of its own (a Unix socket in a fresh folder, no
# TCP port), measured in the same run against the SQLite store on one machine (what a user has without it).
#   1. A zero-cost reading stub: claims per second at 1, 2, 4 and 8 workers, claim latency (median, p99), round
#      trips per page, dead row versions after the run, connections used (shoebox-bench store).
#   2. Real reading of the fixture receipts through the queue: 1 and 2 `shoebox worker`s, pages per second, against
#      `shoebox run --jobs 2` on SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=/usr/lib/postgresql/15/bin
SCANS=Fixtures/receipts
DAY=2026-12-04
export OMP_THREAD_LIMIT=1
dir=$(mktemp -d /tmp/shoebox-bench-pg-XXXXXX)
chmod 755 "$dir"
as_pg() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else (cd / && "$@"); fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_pg "$BIN/initdb" -D "$dir/data" -A trust -E UTF8 --locale=C.UTF-8 > /dev/null
as_pg bash -c "for fd in \$(ls /proc/\$\$/fd); do [ \"\$fd\" -gt 2 ] && eval \"exec \$fd>&-\"; done; exec '$BIN/pg_ctl' -D '$dir/data' -o \"-k $dir -c listen_addresses=''\" -l '$dir/log' -w start > /dev/null 2>&1 < /dev/null"
work=$(mktemp -d)
trap 'as_pg "$BIN/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true; rm -rf "$dir" "$work"' EXIT
url() { echo "postgresql:///$1?host=$dir&user=postgres"; }

urls=()
for n in 1 2 4 8; do
  as_pg "$BIN/createdb" -h "$dir" -U postgres "queue$n"
  urls+=("$n=$(url "queue$n")")
done
.build/release/shoebox-bench store "${urls[@]}"

# Pages a run reports ("… N pages in …"), and the wall time of a command in seconds.
pages_of() { sed -n 's/.* \([0-9][0-9]*\) pages in .*/\1/p' "$1" | head -1; }
now() { date +%s.%N; }

echo "store bench: real reading of $SCANS ($(ls $SCANS | grep -cv '\.json$') files), no OCR cache"
start=$(now)
# Exit 1 (some fixtures fail by design) is a finished run.
.build/release/shoebox run "$SCANS" --out "$work/sqlite" --today $DAY --jobs 2 > "$work/sqlite.txt" || [ $? = 1 ]
sqlite_seconds=$(echo "$(now) - $start" | bc -l)
pages=$(pages_of "$work/sqlite.txt")
sqlite_rate=$(echo "$pages / $sqlite_seconds" | bc -l)
printf '  SQLite, one machine, run --jobs 2: %d pages in %.1f s, %.2f pages/s\n' "$pages" "$sqlite_seconds" "$sqlite_rate"
for w in 1 2; do
  as_pg "$BIN/createdb" -h "$dir" -U postgres "read$w"
  u=$(url "read$w")
  start=$(now)
  { .build/release/shoebox run "$SCANS" --store "$u" --no-read --out "$work/run$w" --today $DAY > "$work/run$w.txt" || [ $? = 1 ]; } &
  run=$!
  until [ "$(as_pg "$BIN/psql" -h "$dir" -U postgres -d "read$w" -qAtX -c 'SELECT count(*) FROM work' 2>/dev/null || echo 0)" -gt 0 ]; do sleep 0.05; done
  for i in $(seq "$w"); do .build/release/shoebox worker --store "$u" --out "$work/worker$w-$i" --jobs 1 --until-empty > /dev/null & done
  wait
  seconds=$(echo "$(now) - $start" | bc -l)
  pages=$(pages_of "$work/run$w.txt")
  rate=$(echo "$pages / $seconds" | bc -l)
  cmp -s "$work/sqlite/records.jsonl" "$work/run$w/records.jsonl" && same="the same records" || same="RECORDS DIFFER from SQLite's"
  printf '  PostgreSQL, %d worker%s (--jobs 1 each): %d pages in %.1f s, %.2f pages/s, %.2fx SQLite run --jobs 2; %s\n' \
    "$w" "$([ "$w" = 1 ] && echo '' || echo s)" "$pages" "$seconds" "$rate" "$(echo "$rate / $sqlite_rate" | bc -l)" "$same"
done
echo "  ($(getconf _NPROCESSORS_ONLN) cores here: two workers are one per core; more cannot read faster on this machine, only on more machines)"
