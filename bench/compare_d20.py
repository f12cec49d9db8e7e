"""Python d20's throughput on the same expressions as Tabula's dice benchmark.

Rolls each expression with ``d20.Roller().roll`` (what ``d20.roll`` calls) in a
loop for a fixed time and prints rolls per second of CPU time (the thread's time
on a core, as the Rust side measures it), in two ways:

- parse + roll each time: d20 keeps parsed expressions in an LFU cache of 256
  in its Roller, so the script empties that cache before every roll (this
  touches d20's private ``Roller._parse_cache``; it is a benchmark, not an API
  use);
- ``d20.roll(text)`` as a caller writes it, which after the first call rolls a
  cached tree (the "roll" columns of the Rust benchmark).

With ``--tabula FILE`` (the output of the Rust benchmark in bench/caith, see
bench/dice_compare.sh) it also prints Tabula's lead over d20 per expression.

Note: for ``10d6>=5`` d20 rolls ten dice and compares their sum with 5 (it has
no success counting); the dice rolled are the same.

Usage: python3 bench/compare_d20.py [seconds-per-measurement] [--tabula FILE]
Needs: pip install d20==1.1.2
"""

import sys
import time

import d20

# The expressions of bench/caith/src/main.rs, in d20's spelling (the same).
EXPRESSIONS = [
    "10d6>=5",
    "4d6kh3",
    "1d20+5",
    "2d6 + 1d4",
    "(1d4 + 1) * 2",
    "4d6ro<3kh3",
    "1d6e6 + 2",
]


def measure(seconds, roll):
    """Rolls per second of the thread's time on a core (``time.thread_time``,
    as the Rust side's), for ``seconds`` of wall time."""
    rolls = 0
    start = time.perf_counter()
    cpu_start = time.thread_time()
    while time.perf_counter() - start < seconds:
        for _ in range(64):
            roll()
        rolls += 64
    cpu = time.thread_time() - cpu_start
    return rolls / (cpu if cpu > 0 else time.perf_counter() - start)


def read_tabula(path):
    """{expr: (parse+roll/s, roll/s)} from the Rust benchmark's table."""
    rates = {}
    with open(path) as f:
        for line in f:
            expr, rest = line[:14].strip(), line[14:].split()
            if expr in EXPRESSIONS and len(rest) == 6:
                rates[expr] = (float(rest[0]), float(rest[3]))
    return rates


def main() -> None:
    args = sys.argv[1:]
    tabula = None
    if "--tabula" in args:
        i = args.index("--tabula")
        tabula = read_tabula(args[i + 1])
        del args[i : i + 2]
    seconds = float(args[0]) if args else 2.0
    print("python d20", d20.__version__ if hasattr(d20, "__version__") else "", "rolls per second of CPU time")
    header = f"{'expr':<14} {'d20 p+r':>12} {'d20 roll':>12}"
    if tabula:
        header += f" {'tabula lead p+r':>16} {'lead roll':>10}"
    print(header)
    for text in EXPRESSIONS:
        roller = d20.Roller()
        cache = roller._parse_cache

        def parse_and_roll():
            cache.clear()
            roller.roll(text)

        def roll():
            roller.roll(text)

        pr = measure(seconds, parse_and_roll)
        r = measure(seconds, roll)
        line = f"{text:<14} {pr:>12.0f} {r:>12.0f}"
        if tabula and text in tabula:
            t_pr, t_r = tabula[text]
            line += f" {t_pr / pr:>15.0f}x {t_r / r:>9.0f}x"
        print(line)


if __name__ == "__main__":
    main()
