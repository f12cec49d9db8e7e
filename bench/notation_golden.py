"""Regenerate crates/core/tests/data/notation_golden.json with icepool.

    pip install icepool==2.1.3
    python3 bench/notation_golden.py > crates/core/tests/data/notation_golden.json

Each case is a Tabula dice expression and icepool's exact distribution of the
same roll (outcome -> probability as a float from an exact Fraction), built with
icepool's own operators. The test crates/core/tests/notation_icepool.rs parses
each expression, computes `Expr::odds` and requires agreement to 1e-9.

How Tabula's caps map onto icepool: `rr` rerolls a die at most 50 times
(`reroll(depth=50)`), `ro` once (`depth=1`), and `e` adds at most 20 dice per
original die (`explode(depth=20)`); in all three the last face stands, as in
icepool. `/` rounds toward zero (Python's `int(a / b)`, not `//`, for negative
numerators).
"""
import json

import icepool
from icepool import Die, d

RR_DEPTH = 50
EXPLODE_DEPTH = 20

d4, d6, d10, d20 = d(4), d(6), d(10), d(20)
fudge = Die([-1, 0, 1])


def dist(die):
    return {str(k): float(v) for k, v in zip(die.outcomes(), die.probabilities())}


CASES = [
    ("3d6", 3 @ d6),
    ("1d20 + 5", d20 + 5),
    ("(1d4 + 1) * 2", (d4 + 1) * 2),
    ("2d6 * 1d4 - 3", (2 @ d6) * d4 - 3),
    ("(2d6 + 1) / 2", (2 @ d6 + 1) // 2),
    ("-1d6 / 2", (-d6).map(lambda x: int(x / 2))),
    ("4d6kh3", d6.highest(4, 3)),
    ("2d20kl1", d20.lowest(2, 1)),
    ("4d6dl1", d6.highest(4, 3)),
    ("5d10dh2", d10.lowest(5, 3)),
    ("4d6ro<3kh3", d6.reroll(lambda x: x < 3, depth=1).highest(4, 3)),
    ("2d6ro1", 2 @ d6.reroll([1], depth=1)),
    ("3d6rr1", 3 @ d6.reroll([1], depth=RR_DEPTH)),
    ("2d4rr<3", 2 @ d4.reroll(lambda x: x < 3, depth=RR_DEPTH)),
    ("1d20mi10", d20.map(lambda x: max(x, 10))),
    ("4d6ma5", 4 @ d6.map(lambda x: min(x, 5))),
    ("1d6e6 + 2", d6.explode([6], depth=EXPLODE_DEPTH) + 2),
    ("2d6e6", 2 @ d6.explode([6], depth=EXPLODE_DEPTH)),
    ("1d6e>=5", d6.explode([5, 6], depth=EXPLODE_DEPTH)),
    ("3d10e10 - 1d4", 3 @ d10.explode([10], depth=EXPLODE_DEPTH) - d4),
    ("10d6>=5", 10 @ (d6 >= 5)),
    # Successes among the three highest of four: keep, then count faces >= 5.
    ("4d6kh3>=5", d6.pool(4).highest(3).keep_outcomes(lambda x: x >= 5).size()),
    ("4dF", 4 @ fudge),
    ("4dF + 1d6", 4 @ fudge + d6),
    ("1d%", d(100)),
]


def main() -> None:
    cases = []
    for text, die in CASES:
        cases.append({"expression": text, "dist": dist(die)})
    print(json.dumps({"icepool": icepool.__version__, "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
