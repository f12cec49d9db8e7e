"""Python d20's throughput on the same expressions as Tabula's dice benchmark.

Rolls each expression with ``d20.Roller().roll`` (what ``d20.roll`` calls) in a loop for a fixed time and prints
rolls per second and dice per second, in the same shape as
``cargo run --release -p tabula-core --example dice_throughput``.

Two measurements, matching the Rust example's two:

- ``d20.roll(text)`` as a caller writes it. d20 keeps parsed expressions in an
  LFU cache of 256 in its Roller, so after the first call this measures rolling
  a pre-parsed tree (the Rust example's second table).
- the same with that cache emptied before every roll, so d20 parses each time
  (the Rust example's first table). This touches d20's private
  ``Roller._parse_cache``; it is a benchmark, not an API use.

Note: for ``10d6>=5`` d20 rolls ten dice and compares their sum with 5 (it has
no success counting); the dice rolled are the same, so dice/s compares.

Usage: python3 bench/compare_d20.py [seconds-per-measurement]   (default 2)
Needs: pip install d20
"""

import sys
import time

import d20

# (expression, dice per roll)
EXPRESSIONS = [("10d6>=5", 10), ("4d6kh3", 4), ("1d20+5", 1)]


def measure(seconds, roll):
    rolls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(256):
            roll()
        rolls += 256
    return rolls, rolls / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for parse_each_time in (True, False):
        if parse_each_time:
            print("engine: python d20 (parse + roll each time: parse cache emptied)")
        else:
            print("engine: python d20 (d20.roll each time: parse cached by d20)")
        print(f"{'expr':<10} {'rolls':>12} {'rolls/s':>16} {'dice/s':>16}")
        for text, dice in EXPRESSIONS:
            roller = d20.Roller()
            if parse_each_time:
                cache = roller._parse_cache

                def roll():
                    cache.clear()
                    roller.roll(text)
            else:

                def roll():
                    roller.roll(text)

            rolls, per_sec = measure(seconds, roll)
            print(f"{text:<10} {rolls:>12} {per_sec:>16.0f} {per_sec * dice:>16.0f}")
        print()


if __name__ == "__main__":
    main()
