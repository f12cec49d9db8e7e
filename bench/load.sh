#!/usr/bin/env bash
# The server benchmark of docs/BENCHMARKS.md: commands/s and p50/p99/p99.9 for
# 1, 100 and 1000 Bastards tables of four seats (every seat following its table
# over a WebSocket), on SQLite and PostgreSQL, with one and two `tabula serve`
# processes (two on PostgreSQL only: a SQLite file serves one process), and the
# raw engine beside them.
#
#   bench/load.sh                      # everything, 10 s per figure
#   SECONDS_EACH=5 TABLES="1 100" bench/load.sh
#
# PostgreSQL: DATABASE_URL (default postgres://root@127.0.0.1:5432/test); each
# run gets a fresh schema (made and dropped with psql). Everything listens on
# 127.0.0.1 and stops when the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."

PG="${DATABASE_URL:-postgres://root@127.0.0.1:5432/test}"
SECONDS_EACH="${SECONDS_EACH:-10}"
TABLES="${TABLES:-1 100 1000}"

cargo build --release -q -p tabula --bin tabula
cargo build --release -q -p tabula-server --example load
TABULA=target/release/tabula
LOAD=target/release/examples/load
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# serve URL NAME: start `tabula serve` on a free port; its base URL goes to
# $WORK/NAME.base.
serve() {
    local out="$WORK/$2.out"
    RUST_LOG=warn "$TABULA" serve --bind 127.0.0.1:0 --database-url "$1" --commands-per-seat 4000000000 --commands-per-address 4000000000 >"$out" 2>"$WORK/$2.log" &
    PIDS+=($!)
    for _ in $(seq 1 100); do
        if grep -q 'serving on' "$out" 2>/dev/null; then
            grep -o -m1 'http://127.0.0.1:[0-9]*' "$out" | head -n1 >"$WORK/$2.base" || true
            return
        fi
        sleep 0.1
    done
    echo "tabula serve did not start: $(cat "$WORK/$2.log")" >&2
    exit 1
}

# The CPU seconds (user + system) the servers used so far.
server_cpu() {
    local ticks=0 hz
    hz="$(getconf CLK_TCK)"
    for pid in "${PIDS[@]}"; do
        # Fields 14 and 15 of /proc/PID/stat: utime and stime, in ticks.
        ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
    done
    awk -v t="$ticks" -v h="$hz" 'BEGIN { printf "%.1f", t / h }'
}

stop_all() {
    echo "  server CPU: $(server_cpu) s"
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    PIDS=()
}

for n in $TABLES; do
    "$LOAD" --engine --tables "$n" --seconds "$SECONDS_EACH"

    url="sqlite://$WORK/bench-$n.db"
    serve "$url" sqlite
    echo -n "sqlite 1 process: "
    "$LOAD" --url "$(cat "$WORK/sqlite.base")" --tables "$n" --seconds "$SECONDS_EACH"
    stop_all

    for servers in 1 2; do
        schema="tabula_bench_${n}_${servers}_$$"
        psql "$PG" -qc "CREATE SCHEMA $schema"
        url="$PG?options=-c%20search_path%3D$schema"
        urls=()
        for i in $(seq 1 "$servers"); do
            serve "$url" "pg$i"
            urls+=(--url "$(cat "$WORK/pg$i.base")")
        done
        echo -n "postgres $servers process(es): "
        "$LOAD" "${urls[@]}" --tables "$n" --seconds "$SECONDS_EACH"
        stop_all
        psql "$PG" -qc "DROP SCHEMA $schema CASCADE" 2>/dev/null
    done
done
