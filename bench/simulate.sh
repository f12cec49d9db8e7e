#!/usr/bin/env bash
# The simulation benchmark of docs/BENCHMARKS.md: whole example encounters per
# second for each system with its policy in every seat, on one thread and on
# every core, through `tabula <system> simulate` (the report included), and the
# commands per encounter (so steps/s = encounters/s x commands).
#
#   bench/simulate.sh              # 2,000 runs per system
#   RUNS=10000 bench/simulate.sh
#
# The rules alone (decide + evolve, no policy) are the criterion benches of each
# system crate: cargo bench -p tabula-<system> --bench simulate
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-2000}"
cargo build --release -q -p tabula --bin tabula
TABULA=target/release/tabula
CORES="$(nproc)"

printf '| system | runs | commands/encounter | 1 thread: encounters/s | steps/s | %s threads: encounters/s |\n' "$CORES"
printf '|---|---|---|---|---|---|\n'
for system in sour-grapes scratch tiers bastards sapio; do
    table="examples/$system/table.toml"
    t0=$(date +%s.%N)
    json=$("$TABULA" --json "$system" simulate "$table" --runs "$RUNS" --seed 1 --threads 1)
    t1=$(date +%s.%N)
    "$TABULA" --json "$system" simulate "$table" --runs "$RUNS" --seed 1 --threads 0 > /dev/null
    t2=$(date +%s.%N)
    commands=$(printf '%s' "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["mean_commands"])')
    python3 - "$system" "$RUNS" "$commands" "$t0" "$t1" "$t2" <<'PY'
import sys
system, runs, commands, t0, t1, t2 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), *map(float, sys.argv[4:])
one = runs / (t1 - t0)
many = runs / (t2 - t1)
print(f"| {system} | {runs:,} | {commands:.1f} | {one:,.0f} | {one * commands:,.0f} | {many:,.0f} |")
PY
done
