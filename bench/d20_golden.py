"""Regenerate crates/core/tests/data/d20_golden.json: Python d20's exact answers.

    pip install d20==1.1.2
    python3 bench/d20_golden.py > crates/core/tests/data/d20_golden.json

For each expression, d20 itself rolls it once for every sequence of dice it can
ask for: the script stands in for d20's random source (``random.randrange``,
which is how d20 1.1.2 rolls a die) with an odometer that walks every sequence
of faces in turn, weighting each sequence by the product of 1/sides of its dice.
So the distribution of ``d20.roll(text).total`` is exact, whatever d20 does
with the dice (merged repeated operators, selectors, annotations, comments,
truncation of the total with ``int``). Rerolls and explosions are unbounded in
d20: a branch whose probability falls below ``PRUNE`` is not followed, and the
mass so left out is written with the case (``pruned``); every case here keeps
it below 1e-10, so Tabula's capped rerolls (50) and explosions (20) agree to
1e-9.

Comments need d20's ``allow_comments=True``; cases with one say so
(``comments``) and the script rolls them that way.

The test crates/core/tests/notation_d20.rs parses each expression with Tabula,
computes ``Expr::odds`` and requires agreement to 1e-9 (issue 30).
"""
import json
import sys
from fractions import Fraction

import d20
import d20.expression
import icepool
from icepool import Die, d

PRUNE = 1e-13

# (expression, what it covers). Tabula reads each one the way d20 does.
CASES = [
    # Issue 30, item 1: labels read (glued or spaced) and kept, never a comment.
    ("1d8+3 [slashing] + 2d6 [fire]", "labels on a number and a group"),
    ("2d6 [fire] / 2", "a label before a division"),
    ("1d20 [adv] + 5", "a label before more roll"),
    ("1d20+2[STR]", "a glued label"),
    ("1d4[a] [b] + 1", "two labels on one group"),
    ("(1d4 + 1)[bonus] * 2", "a label on a parenthesised group"),
    ("-1d6 [cold] + 4", "a label under a minus"),
    ("3 [flat] + 1d4", "a label on a number"),
    ("1d6 [a + 2]", "signs inside a label are its text"),
    ("2d4 [] + 1", "an empty label"),
    ("4d6kh3 [str]", "a label after keep"),
    ("1d20 + 5 dex save", "plain words as a comment"),
    ("1d20 + 5 # vs AC 15", "a # comment with digits"),
    ("1d12 [fire] # burning hands", "a label, then a comment"),
    # Issue 30, item 2: repeated modifiers merged as d20 merges them.
    ("2d6ro1ro2", "Great Weapon Fighting: one reroll of a 1 or 2"),
    ("1d6ro1ro2", "one die, merged reroll once"),
    ("3d4ro1ro2", "three d4, merged reroll once"),
    ("2d6ro1ro2 + 3", "merged reroll once plus a number"),
    ("2d6rr1rr2", "reroll until neither 1 nor 2"),
    ("1d6rr1rr2", "one die, merged reroll until"),
    ("2d4rr1rr4", "reroll until neither end"),
    ("3d6rr1rr2kh2", "merged reroll until, then keep"),
    ("1d6ro1ro2ro3", "three rerolls once merged"),
    ("1d8ro<2ro>7", "merged reroll once with < and >"),
    ("1d10rr<2rr>9", "merged reroll until with < and >"),
    ("1d6e5e6", "merged explosions on 5 or 6"),
    ("2d6e5e6", "two dice, merged explosions"),
    ("1d6e6e1", "explosions on 1 and 6"),
    ("2d6ro1ro2kh1", "merged reroll once, then keep the highest"),
    ("4d6ro1ro2kh3", "merged reroll once, keep three"),
    ("4d6ro1ro2pl1", "merged reroll once, drop the lowest"),
    ("2d6ro1ro2mi3", "merged reroll once, then a minimum"),
    ("2d6mi2mi3", "two minimums apply in turn"),
    ("2d6ma5ma4", "two maximums apply in turn"),
    ("2d6mi2ma5", "minimum then maximum"),
    ("2d6ro1rr6", "a reroll once then a reroll until: not merged"),
    ("2d6rr1ro2", "a reroll until then a reroll once: not merged"),
    ("2d6ro1mi2ro2", "rerolls once split by a minimum: two passes"),
    ("1d6ro6e6", "reroll once a 6, then explode"),
    ("1d6e6ro1", "explode, then reroll once (the added dice too)"),
    ("1d6e6ro1ro2", "explode, then a merged reroll once"),
    ("2d6e6kh1", "explode then keep"),
    ("1d6ro1ro2 + 1d6rr1rr2", "both merges in one expression"),
    ("2d6ro1ro2 [gwf] + 4", "merged reroll once with a label"),
    ("2d6ro1ro2 * 2 - 1d4", "merged reroll once in arithmetic"),
    ("(2d6ro1ro2)", "merged reroll once in parentheses"),
    ("-2d6ro1ro2", "merged reroll once, negated"),
    # Issue 30, item 2: comparisons of totals (0 or 1), `%` and `//`.
    ("1d20 + 5 >= 15", "the issue's comparison: P = 0.55"),
    ("1d20 >= 10", "a spaced comparison after a die"),
    ("2d6 >= 7", "a spaced comparison after a group of two"),
    ("1d6 == 3", "=="),
    ("1d6 != 3", "!="),
    ("1d20 < 10", "<"),
    ("3d6 <= 10", "<="),
    ("1d20 > 1d20", "two dice compared"),
    ("1d20 + 2 > 1d20 + 4", "totals compared"),
    ("1 == 2", "numbers compared"),
    ("1d4 >= 2 >= 1", "chained comparisons, left to right"),
    ("(1d20 >= 10) * 5", "a comparison in parentheses"),
    ("1d20 [atk] + 5 >= 15", "a label in a comparison"),
    ("4d6kh3 >= 12", "keep, then compare"),
    ("2d6ro1ro2 >= 8", "merged reroll once, then compare"),
    ("1d20 + 5 >= 15 # vs AC 15", "a comparison with a # comment"),
    ("1d20+5>=15", "a glued comparison after a number"),
    ("13 % 2", "%"),
    ("-7 % 3", "% with a negative dividend"),
    ("7 % -3", "% with a negative divisor"),
    ("2d6 % 3", "% on dice"),
    ("1d20 % 1d4", "% by a die"),
    ("-1d6 % 4", "% of a negative die"),
    ("1d6 - 4 % 3", "% binds as *"),
    ("1d20 // 3", "//"),
    ("-1d6 // 4", "// of a negative die rounds down"),
    ("7 // -2", "// by a negative divisor"),
    ("2d6 // 1d3", "// by a die"),
    ("1d8 // 2 + 1", "// then +"),
    ("3d4 * 2 // 3", "* then //, left to right"),
    ("1d6 % 4 // 2", "% then //"),
    ("2d6 // 2 >= 3", "//, then compare"),
    ("1d20 [adv] % 5 + 1", "a label before %"),
    # Issue 30, item 2: d20's selectors by value on keep and drop.
    ("4d6k<3", "keep the dice below 3"),
    ("4d6k>3", "keep the dice above 3"),
    ("4d6p<3", "drop the dice below 3"),
    ("4d6p>4", "drop the dice above 4"),
    ("3d6k<1", "keep none"),
    ("2d20k>10 + 1", "keep above 10, then add"),
    ("3d6p<2 [low] * 2", "drop below 2, with a label"),
    ("4d6ro1k>2", "reroll once, then keep above 2"),
    ("3d6ro1ro2p>5", "merged reroll once, then drop above 5"),
    ("1d6e6k<6", "explode, then keep the dice below 6"),
    ("2d6e6p<3", "explode, then drop the dice below 3"),
    ("3d6k>3 >= 8", "keep by value, then compare"),
]


# Where walking every sequence would take too long (rerolls and explosions
# that continue with probability 1/3 or more), the same roll built with
# icepool, following d20's code for the merged operator (``SetOperator.reroll``
# rerolls every die matching any selector until none does; ``explode`` adds a
# die for every die matching any selector). Unbounded in d20; depth 60 here
# (the mass beyond is below 1e-20). ``rr`` rerolls from a fresh die.
d4, d6, d8, d10 = d(4), d(6), d(8), d(10)
FOREVER = 60
ICEPOOL = {
    "2d6rr1rr2": lambda: 2 @ d6.reroll([1, 2], depth='inf'),
    "1d6rr1rr2": lambda: d6.reroll([1, 2], depth='inf'),
    "2d4rr1rr4": lambda: 2 @ d4.reroll([1, 4], depth='inf'),
    "3d6rr1rr2kh2": lambda: d6.reroll([1, 2], depth='inf').highest(3, 2),
    "1d10rr<2rr>9": lambda: d10.reroll(lambda x: x < 2 or x > 9, depth='inf'),
    "1d6e5e6": lambda: d6.explode([5, 6], depth=FOREVER),
    "2d6e5e6": lambda: 2 @ d6.explode([5, 6], depth=FOREVER),
    "1d6e6e1": lambda: d6.explode([1, 6], depth=FOREVER),
    "1d6ro1ro2 + 1d6rr1rr2": lambda: d6.reroll([1, 2], depth=1) + d6.reroll([1, 2], depth='inf'),
    # rr1 then ro2: a 2 left after rr1 rerolls once from a fresh d6 (may be 1).
    "2d6rr1ro2": lambda: 2 @ d6.reroll([1], depth='inf').map(lambda v: d6 if v == 2 else v),
    # ro1 then rr6: a 6 after ro1 rerolls from a fresh d6 until it is not a 6.
    "2d6ro1rr6": lambda: 2 @ d6.reroll([1], depth=1).map(
        lambda v: d6.reroll([6], depth='inf') if v == 6 else v
    ),
}

# Sequences walked before a case is given up for icepool.
BUDGET = 400_000


class Odometer:
    """A random source that walks every sequence of faces in turn.

    ``path`` holds (face index, sides) for each die asked in this run; ``at`` is
    how many of them this run has used so far.
    """

    def __init__(self):
        self.path = []
        self.at = 0
        self.p = Fraction(1)

    def randrange(self, *args):
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        else:
            start, stop = args[0], args[1]
            step = args[2] if len(args) > 2 else 1
        faces = list(range(start, stop, step))
        if self.at == len(self.path):
            self.path.append((0, len(faces)))
        index, _ = self.path[self.at]
        self.at += 1
        self.p /= len(faces)
        if self.p < PRUNE:
            raise Pruned()
        return faces[index]

    def advance(self):
        """The next sequence, or False when every one has been walked."""
        del self.path[self.at:]
        while self.path:
            index, n = self.path[-1]
            if index + 1 < n:
                self.path[-1] = (index + 1, n)
                return True
            self.path.pop()
        return False


class Pruned(Exception):
    pass


def exact(text, comments):
    """d20's distribution of the total by walking every sequence of dice, or
    None past BUDGET sequences."""
    odo = Odometer()
    d20.expression.random = odo
    dist = {}
    pruned = Fraction(0)
    walked = 0
    while True:
        walked += 1
        if walked > BUDGET:
            return None
        odo.at = 0
        odo.p = Fraction(1)
        try:
            total = d20.roll(text, allow_comments=comments).total
            dist[total] = dist.get(total, Fraction(0)) + odo.p
        except Pruned:
            pruned += odo.p
        if not odo.advance():
            break
    return dist, pruned


def main():
    cases = []
    for text, covers in CASES:
        comments = "#" in text or "save" in text
        if text in ICEPOOL:
            die = ICEPOOL[text]()
            dist = dict(zip(die.outcomes(), (Fraction(p) for p in die.probabilities())))
            pruned, method = Fraction(0), f"icepool {icepool.__version__}"
        else:
            found = exact(text, comments)
            if found is None:
                sys.exit(f"{text}: too many sequences to walk; give its icepool form")
            (dist, pruned), method = found, "d20 1.1.2, every sequence"
        if pruned > Fraction(1, 10**10):
            sys.exit(f"{text}: pruned mass {float(pruned)} is too large")
        cases.append(
            {
                "expression": text,
                "covers": covers,
                "comments": comments,
                "method": method,
                "pruned": float(pruned),
                "dist": {str(k): float(v) for k, v in sorted(dist.items())},
            }
        )
    print(json.dumps({"d20": "1.1.2", "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
