"""Regenerate crates/core/tests/data/d20_golden.json: Python d20's exact answers.

    pip install d20==1.1.2
    python3 bench/d20_golden.py > crates/core/tests/data/d20_golden.json

For each expression, d20 itself rolls it once for every sequence of dice it can
ask for: the script stands in for d20's random source (``random.randrange``,
which is how d20 1.1.2 rolls a die) with an odometer that walks every sequence
of faces in turn, weighting each sequence by the product of 1/sides of its dice.
So the distribution of ``d20.roll(text).total`` is exact, whatever d20 does
with the dice (merged repeated operators, selectors, annotations, comments,
truncation of the total with ``int``). Where walking every sequence would take
too long, the case is built with icepool after d20's code (``ICEPOOL``), or, for
keeps and drops after explosions, over every pool of dice with d20's own
``SetOperator`` code keeping and dropping (``POOLS``). Rerolls and explosions are unbounded in
d20: a branch whose probability falls below ``PRUNE`` is not followed, and the
mass so left out is written with the case (``pruned``); every case here keeps
it below 1e-10, so Tabula's capped rerolls (50) and explosions (20) agree to
1e-9.

A case with ``/`` or a decimal is walked a second time with d20 doing its
arithmetic in exact fractions (``exact_fractions``): the script stops if
d20's float totals ever differ from the exact ones, so every such golden is
exact (Tabula works in exact fractions). To add new cases without walking
the old ones again: ``python3 bench/d20_golden.py --only EXPR...`` prints
just those cases, to append to the file's ``cases``.

Comments need d20's ``allow_comments=True``; cases with one say so
(``comments``) and the script rolls them that way.

The test crates/core/tests/notation_d20.rs parses each expression with Tabula,
computes ``Expr::odds`` and requires agreement to 1e-9 (issue 30).
"""
import json
import math
import re
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
    # Issue 30: more of every operator, toward 300 expressions.
    ('1d4 + 2', 'd4: a die plus a number'),
    ('2d4kh1', 'd4: advantage'),
    ('2d4kl1', 'd4: disadvantage'),
    ('1d4 % 3', 'd4: %'),
    ('1d4 // 2', 'd4: //'),
    ('1d4 >= 2', 'd4: a comparison'),
    ('2d4ro1', 'd4: reroll once'),
    ('1d4mi2', 'd4: minimum'),
    ('1d4ma3', 'd4: maximum'),
    ('3d4k>2', 'd4: keep by value'),
    ('3d4p<2', 'd4: drop by value'),
    ('1d4 [x] - 1', 'd4: a label'),
    ('1d4 * 2 - 1d4', 'd4: arithmetic on two dice'),
    ('1d4e4', 'd4: explosion on the highest face'),
    ('1d6 + 3', 'd6: a die plus a number'),
    ('2d6kh1', 'd6: advantage'),
    ('2d6kl1', 'd6: disadvantage'),
    ('1d6 % 3', 'd6: %'),
    ('1d6 // 2', 'd6: //'),
    ('1d6 >= 3', 'd6: a comparison'),
    ('2d6ro1', 'd6: reroll once'),
    ('1d6mi2', 'd6: minimum'),
    ('1d6ma5', 'd6: maximum'),
    ('3d6k>3', 'd6: keep by value'),
    ('3d6p<3', 'd6: drop by value'),
    ('1d6 [x] - 1', 'd6: a label'),
    ('1d6 * 2 - 1d6', 'd6: arithmetic on two dice'),
    ('1d6e6', 'd6: explosion on the highest face'),
    ('1d8 + 4', 'd8: a die plus a number'),
    ('2d8kh1', 'd8: advantage'),
    ('2d8kl1', 'd8: disadvantage'),
    ('1d8 % 3', 'd8: %'),
    ('1d8 // 2', 'd8: //'),
    ('1d8 >= 4', 'd8: a comparison'),
    ('1d8mi2', 'd8: minimum'),
    ('1d8ma7', 'd8: maximum'),
    ('3d8k>4', 'd8: keep by value'),
    ('3d8p<4', 'd8: drop by value'),
    ('1d8 [x] - 1', 'd8: a label'),
    ('1d8 * 2 - 1d8', 'd8: arithmetic on two dice'),
    ('1d10 + 5', 'd10: a die plus a number'),
    ('2d10kh1', 'd10: advantage'),
    ('2d10kl1', 'd10: disadvantage'),
    ('1d10 % 3', 'd10: %'),
    ('1d10 // 2', 'd10: //'),
    ('1d10 >= 5', 'd10: a comparison'),
    ('2d10ro1', 'd10: reroll once'),
    ('1d10mi2', 'd10: minimum'),
    ('1d10ma9', 'd10: maximum'),
    ('3d10k>5', 'd10: keep by value'),
    ('3d10p<5', 'd10: drop by value'),
    ('1d10 [x] - 1', 'd10: a label'),
    ('1d10 * 2 - 1d10', 'd10: arithmetic on two dice'),
    ('1d10e10', 'd10: explosion on the highest face'),
    ('1d12 + 6', 'd12: a die plus a number'),
    ('2d12kh1', 'd12: advantage'),
    ('2d12kl1', 'd12: disadvantage'),
    ('1d12 % 3', 'd12: %'),
    ('1d12 // 2', 'd12: //'),
    ('1d12 >= 6', 'd12: a comparison'),
    ('2d12ro1', 'd12: reroll once'),
    ('1d12mi2', 'd12: minimum'),
    ('1d12ma11', 'd12: maximum'),
    ('3d12k>6', 'd12: keep by value'),
    ('3d12p<6', 'd12: drop by value'),
    ('1d12 [x] - 1', 'd12: a label'),
    ('1d12 * 2 - 1d12', 'd12: arithmetic on two dice'),
    ('1d12e12', 'd12: explosion on the highest face'),
    ('1d20 + 10', 'd20: a die plus a number'),
    ('1d20 % 3', 'd20: %'),
    ('1d20 // 2', 'd20: //'),
    ('2d20ro1', 'd20: reroll once'),
    ('1d20mi2', 'd20: minimum'),
    ('1d20ma19', 'd20: maximum'),
    ('3d20k>10', 'd20: keep by value'),
    ('3d20p<10', 'd20: drop by value'),
    ('1d20 [x] - 1', 'd20: a label'),
    ('1d20 * 2 - 1d20', 'd20: arithmetic on two dice'),
    ('1d20e20', 'd20: explosion on the highest face'),
    ('1d4 + 1d6', 'arithmetic'),
    ('1d8 - 1d4', 'arithmetic'),
    ('2d4 * 3', 'arithmetic'),
    ('1d6 * 1d4', 'arithmetic'),
    ('-(1d6 + 2)', 'arithmetic'),
    ('+1d8', 'arithmetic'),
    ('1d10 - 5', 'arithmetic'),
    ('2d4 + 2d4 - 2', 'arithmetic'),
    ('(1d6 + 1) * (1d4 - 1)', 'arithmetic'),
    ('3d4 - 1d6 + 2', 'arithmetic'),
    ('1d12 + 1d8 + 1d6 + 1d4', 'arithmetic'),
    ('((1d4))', 'arithmetic'),
    ('-(-1d6)', 'arithmetic'),
    ('1d6 * -2', 'arithmetic'),
    ('5 - 1d20', 'arithmetic'),
    ('2 * 3 + 1d4 * 2', 'arithmetic'),
    ('3d6kh1', 'keep and drop'),
    ('3d6kl1', 'keep and drop'),
    ('3d6kh2', 'keep and drop'),
    ('3d6kl2', 'keep and drop'),
    ('4d4kh2', 'keep and drop'),
    ('4d4kl3', 'keep and drop'),
    ('5d4kh3', 'keep and drop'),
    ('2d20kh1', 'keep and drop'),
    ('2d20kl1', 'keep and drop'),
    ('3d8pl1', 'keep and drop'),
    ('3d8ph1', 'keep and drop'),
    ('4d6pl2', 'keep and drop'),
    ('4d6ph2', 'keep and drop'),
    ('3d4ph1 + 1', 'keep and drop'),
    ('2d20kh1 + 5', 'keep and drop'),
    ('2d20kl1 - 2', 'keep and drop'),
    ('3d6kh2 * 2', 'keep and drop'),
    ('2d8ro1', 'rerolls, minimum, maximum'),
    ('1d20ro1', 'rerolls, minimum, maximum'),
    ('3d6ro<3', 'rerolls, minimum, maximum'),
    ('2d10ro<2', 'rerolls, minimum, maximum'),
    ('1d12ro>11', 'rerolls, minimum, maximum'),
    ('2d6ro6', 'rerolls, minimum, maximum'),
    ('3d4ro1kh2', 'rerolls, minimum, maximum'),
    ('2d6mi3', 'rerolls, minimum, maximum'),
    ('2d6ma4', 'rerolls, minimum, maximum'),
    ('3d6mi2kh2', 'rerolls, minimum, maximum'),
    ('2d8ma6 + 1', 'rerolls, minimum, maximum'),
    ('4d4mi2pl1', 'rerolls, minimum, maximum'),
    ('1d20mi10', 'rerolls, minimum, maximum'),
    ('1d20ma10', 'rerolls, minimum, maximum'),
    ('2d6ro1mi2', 'rerolls, minimum, maximum'),
    ('1d8ro<3ma7', 'rerolls, minimum, maximum'),
    ('2d6rr1', 'rerolls, minimum, maximum'),
    ('1d20rr1', 'rerolls, minimum, maximum'),
    ('1d8rr<2', 'rerolls, minimum, maximum'),
    ('1d12rr1ro2', 'rerolls, minimum, maximum'),
    ('2d4ro1ro2ro3', 'repeated modifiers'),
    ('1d8mi2mi4', 'repeated modifiers'),
    ('1d8ma7ma3', 'repeated modifiers'),
    ('1d10ro1ro10', 'repeated modifiers'),
    ('2d8ro<2ro>7kh1', 'repeated modifiers'),
    ('1d12mi3ma9', 'repeated modifiers'),
    ('1d6ro1ro2 + 1d6ro1ro2', 'repeated modifiers'),
    ('3d6ro1ro2pl1', 'repeated modifiers'),
    ('1d20ro1ro2 >= 10', 'repeated modifiers'),
    ('1d6e6 + 1', 'explosions'),
    ('2d4e4', 'explosions'),
    ('1d8e8', 'explosions'),
    ('1d10e10kh1', 'explosions'),
    ('1d4e4 * 2', 'explosions'),
    ('1d6e6ro1 + 2', 'explosions'),
    ('1d20e20 >= 20', 'explosions'),
    ('1d8 [a] + 1d6 [b] + 1d4 [c]', 'labels'),
    ('2d6kh1 [best]', 'labels'),
    ('1d20 [d20] >= 11 [dc]', 'labels'),
    ('(1d6 [x] + 1) [y]', 'labels'),
    ('1d4 [p] * 1d4 [q]', 'labels'),
    ('3d4 [low] % 3', 'labels'),
    ('1d10 [t] // 3', 'labels'),
    ('1d6ro1 [gwf]', 'labels'),
    ('2d4mi2 [min] + 1', 'labels'),
    ('1d20 [adv] - 1d20 [dis]', 'labels'),
    ('1d6 > 1d6', 'comparisons'),
    ('1d6 >= 1d6', 'comparisons'),
    ('1d6 == 1d6', 'comparisons'),
    ('1d6 != 1d6', 'comparisons'),
    ('2d4 < 1d8', 'comparisons'),
    ('2d4 <= 1d8', 'comparisons'),
    ('1d20 + 3 >= 1d20 + 5', 'comparisons'),
    ('3d6 > 10', 'comparisons'),
    ('4d6kh3 >= 15', 'comparisons'),
    ('1d20 >= 20', 'comparisons'),
    ('1d20 == 1', 'comparisons'),
    ('(1d6 > 3) + (1d6 > 3)', 'comparisons'),
    ('(2d6 >= 7) * 10', 'comparisons'),
    ('1d6 > 2 == 1', 'comparisons'),
    ('1d10 // 2 >= 3', 'comparisons'),
    ('1d12 % 5 < 2', 'comparisons'),
    ('2d6ro1 >= 8', 'comparisons'),
    ('1d20 != 1d20', 'comparisons'),
    ('1d20 % 7', '% and //'),
    ('3d6 % 5', '% and //'),
    ('1d100 % 10', '% and //'),
    ('2d10 % 1d6', '% and //'),
    ('-2d6 % 5', '% and //'),
    ('1d6 % -4', '% and //'),
    ('17 % 1d6', '% and //'),
    ('1d20 // 4', '% and //'),
    ('3d6 // 2', '% and //'),
    ('-3d6 // 4', '% and //'),
    ('1d6 // -2', '% and //'),
    ('20 // 1d6', '% and //'),
    ('2d8 // 1d4', '% and //'),
    ('1d20 // 2 % 3', '% and //'),
    ('(1d6 + 1d6) // 2', '% and //'),
    ('1d12 % 4 * 2', '% and //'),
    ('4d6kh3 // 2', '% and //'),
    ('1d20 - 1d20 % 3', '% and //'),
    ('4d6k>4', 'keep and drop by value'),
    ('4d6k<4', 'keep and drop by value'),
    ('5d6p<3', 'keep and drop by value'),
    ('5d6p>4', 'keep and drop by value'),
    ('3d8k>5 + 2', 'keep and drop by value'),
    ('4d4p<2', 'keep and drop by value'),
    ('3d10k<6', 'keep and drop by value'),
    ('2d20p>15', 'keep and drop by value'),
    ('4d6k>1', 'keep and drop by value'),
    ('3d6ro1k<5', 'keep and drop by value'),
    ('4d4mi2k>2', 'keep and drop by value'),
    ('1d20 + 5 # attack', 'comments'),
    ('2d6 + 3 damage', 'comments'),
    ('1d8 + 2 slashing damage', 'comments'),
    ('1d4 # a # b', 'comments'),
    # Issue 30, item 2: sets.
    ("(1d20, 1d20)kh1", "a set: advantage"),
    ("(1d20, 1d20)kl1", "a set: disadvantage"),
    ("(1d4, 1d6)kh1", "a set of unlike dice"),
    ("(1d4,1d6)pl1", "a set, drop the lowest"),
    ("(2d4, 1d8, 3)ph1", "a set with a number, drop the highest"),
    ("(1d6,)", "a set of one"),
    ("(1d6, 2) + 1", "a set summed"),
    ("(1d6, 1d6)k>3", "a set kept by value"),
    ("(1d4, 1d4, 1d4)p<2", "a set dropped by value"),
    ("(1d4 + 1, 1d6 - 1)kh1 * 2", "a set of expressions"),
    # Issue 30, item 2: `ra`, reroll and add (at most one more die per group).
    ("1d6ra6", "reroll and add on a 6"),
    ("2d6ra6", "reroll and add: one die at most for two sixes"),
    ("3d4ra4", "reroll and add on three d4"),
    ("2d6ra1ra2", "merged reroll and add on 1 or 2"),
    ("2d6ra<3", "reroll and add below 3"),
    ("2d8ra>6", "reroll and add above 6"),
    ("4d4ra4 + 1", "reroll and add, plus a number"),
    ("2d6ra6kh2", "reroll and add, then keep two of three"),
    ("3d4ra4kl2", "reroll and add, then keep the lowest two"),
    ("3d4ra1pl1", "reroll and add, then drop the lowest"),
    ("2d6ro1ra6", "reroll once, then reroll and add"),
    ("2d6ra6ro1", "reroll and add, then reroll once (the added die too)"),
    ("2d6ra6mi2", "reroll and add, then a minimum on every die"),
    ("2d4ra4k>2", "reroll and add, keep by value"),
    ("1d20ra20 + 5", "reroll and add on a natural 20"),
    ("2d6ra6 [fire] / 2", "reroll and add, labelled, divided"),
    ("2d6rah1", "reroll and add the highest: always one more die"),
    ("3d4ral1kh2", "reroll and add the lowest, then keep two"),
    ("2d6ra6ral1", "reroll and add: a 6, else the lowest"),
    ("2d6ral0 + 1", "reroll and add none"),
    # Issue 30, item 2: several keeps and drops on one group, in order;
    # consecutive ones of one kind select the union.
    ("4d6kh3kl2", "keeps merged: the highest three or the lowest two"),
    ("4d6kh1kl1", "keep the highest and the lowest"),
    ("4d6kh3pl1", "keep three, then drop the lowest of those"),
    ("5d6pl1ph1", "drop the lowest and the highest"),
    ("4d6pl1kh2", "drop the lowest, then keep the highest two"),
    ("3d6kh2kh1", "keeps merged: the union is the highest two"),
    ("5d4kl3ph1", "keep the lowest three, drop the highest of those"),
    ("4d6ro1kh3pl1", "reroll once, then keep and drop"),
    ("6d4kh2kl2 + 1", "the two highest and two lowest of six"),
    ("4d6pl1pl1", "a drop repeated: the same die"),
    ("5d6kh4pl1ph1", "keep four, then drop both ends of those"),
    ("4d8kl3kh1ph2", "keeps merged, then a drop"),
    ("3d6kh2pl1 [str] + 2", "keep and drop, labelled"),
    ("(4d6kh3pl1) * 2", "keep and drop in parentheses"),
    # Explode, then keep or drop among every die (the added ones too).
    ("2d4e4kh1", "explode, then keep the highest die"),
    ("2d6e6kl1", "explode, then keep the lowest die"),
    ("2d6e5pl1", "explode on 5 or 6, then drop the lowest"),
    # Issue 30, item 2: `/` keeps the fraction to the end, decimals. Each is
    # walked twice, with d20's floats and with exact fractions (see
    # ``exact_fractions``); the script stops if the two totals ever differ.
    ("1d3ma2 + -(4d2rr2) / 2d12", "the issue's division: d20 -1..1"),
    ("7 / 2 * 2", "a fraction kept through *"),
    ("-7 / 2", "the total rounds toward zero"),
    ("1d6 / 2 + 1d6 / 2", "two halves added before rounding"),
    ("1d4 / 2 * 2", "half, then double: every face back"),
    ("4d6 [fire] / 2", "a label before a division"),
    ("1d20 / 1d4", "a die by a die"),
    ("-1d6 / 4", "a negative fraction rounds toward zero"),
    ("1d6 / 4 + 1d4 / 4", "quarters summed"),
    ("(1d8 + 1) / 3 * 2", "a group divided, then multiplied"),
    ("1d6 / 2 >= 2", "a fraction compared"),
    ("1d10 / 4 > 1d4 / 2", "fractions compared"),
    ("1d6 / 2 // 1", "// of a fraction"),
    ("1d12 / 4 % 1", "% of a fraction"),
    ("2d6 / 3 - 1d4 / 2", "thirds and halves"),
    ("1d6 * 1.5", "a decimal factor"),
    ("1d8 + 0.5", "a decimal added"),
    ("1d4 * .5 + 1d4 * .5", "a decimal with no digit before the point"),
    ("2.5 * 2", "decimals only"),
    ("1d20 - 10.25", "a decimal subtracted"),
    ("1d6 / 0.5", "by a decimal"),
    ("1d6 / (1d4 / 2)", "by a fraction"),
    ("3d4 / 2 [half] + 1", "a label after a fraction"),
    ("1d6 / 2 + 1d20 >= 12 # save", "a fraction in a comparison with a comment"),
    # Issue 30, item 2: `ro` and `e` with d20's selectors by rank (`h`, `l`):
    # the dice the run selects, the earlier of equal dice first.
    ("4d6rol1", "reroll the lowest die once"),
    ("4d6roh1", "reroll the highest die once"),
    ("4d6rol1kh3", "reroll the lowest once, then keep three"),
    ("2d20rol1", "reroll the lower d20 once"),
    ("1d8rol1 + 2", "one die: always rerolled once"),
    ("3d6rol2", "reroll the two lowest once"),
    ("2d6rol3", "a rank past the dice rolled: every die"),
    ("3d6rol0", "a rank of none"),
    ("3d6ro1rol1", "merged: a 1, or the lowest"),
    ("4d6rol1ro6", "merged: the lowest, or a 6"),
    ("3d4roh1rol1", "merged: the highest and the lowest"),
    ("3d4rol1mi2", "reroll the lowest once, then a minimum"),
    ("3d6mi2rol1", "a minimum, then reroll the lowest once"),
    ("3d6rol1ro1", "merged in either order"),
    ("4d4rol1pl1", "reroll the lowest once, then drop the lowest"),
    ("3d6rol1 >= 12", "reroll the lowest once, then compare"),
    ("2d6rol1 [best] + 1d4", "with a label, in arithmetic"),
    ("1d6eh1", "explode the highest die: again while a new die beats all"),
    ("2d6eh1", "explode the highest of two"),
    ("3d4el1", "explode the lowest: again while a new die is below all"),
    ("2d4eh2", "explode the two highest"),
    ("3d4eh2kh2", "explode the two highest, then keep two"),
    ("2d6eh1kl1", "explode the highest, then keep the lowest"),
    ("1d10eh1", "explode the highest d10"),
    ("2d4eh1el1", "merged: the highest and the lowest"),
    ("2d4e4eh1", "merged with a test: a 4 or the highest"),
    ("2d6eh1ro1", "explode the highest, then reroll 1s once"),
    ("2d6ro1eh1", "reroll 1s once, then explode the highest"),
    ("3d4el1 >= 10", "explode the lowest, then compare"),
    ("2d8rol1e8", "reroll the lowest once, then explode eights"),
    # Issue 30, item 2: `ra` and `e` in one group, each in the order written.
    ("1d4ra4e4", "reroll and add on a 4, then every 4 explodes"),
    ("2d4ra4e4", "two dice: one more on a 4, then explosions"),
    ("2d4e4ra4", "explosions, then one more die on a 4"),
    ("1d6ra1e6", "one more die on a 1, then sixes explode"),
    ("2d6ra1e6", "two d6: one more on a 1, sixes explode"),
    ("1d8ra8e8", "reroll and add, then explode, on an 8"),
    ("2d8ra8e8", "two d8: reroll and add, then explode"),
    ("2d4rah1e4", "one more die always, then explosions"),
    ("2d4ra1e4kh1", "reroll and add, explode, then keep the highest"),
    ("2d4e4ra1", "explosions, then one more die on a 1"),
    ("2d4ra<2e4", "reroll and add below 2, then explode"),
    ("1d10ra10e10 + 2", "reroll and add, explode, plus a number"),
    ("2d6ro1ra6e6", "reroll once, reroll and add, explode"),
    # Issue 30, item 2: several keeps and drops with one by value, or on a
    # group that explodes or adds dice (consecutive ones of a kind a union).
    ("4d6kh3k>2", "keeps merged: the highest three or any above 2"),
    ("4d6k>2kh2", "keeps merged: any above 2 or the highest two"),
    ("4d6p<3kh2", "drop those under 3, then keep the highest two"),
    ("4d6kh3p<3", "keep three, then drop those under 3"),
    ("5d6k>4kl1", "keeps merged: above 4, or the lowest"),
    ("4d4kh1k<2", "keeps merged: the highest, or any under 2"),
    ("3d6k>3pl1", "keep those above 3, then drop the lowest of them"),
    ("4d6p<2p>5", "drops merged: under 2 or above 5"),
    ("4d6k<3kh1", "keeps merged: under 3, or the highest"),
    ("4d6kh1p>5", "keep the highest, then drop it when a 6"),
    ("3d8ro1kh2k>6", "reroll once, then keeps merged"),
    ("4d6kh3p<3 + 1", "keep and drop by value, plus a number"),
    ("2d6e6kh1kl1", "explode, then the highest and the lowest"),
    ("2d4e4kh1kl1", "explode fours, then the highest and the lowest"),
    ("3d4e4kh2pl1", "explode, keep two, drop the lower"),
    ("2d6e6k>2pl1", "explode, keep above 2, drop the lowest"),
    ("2d4e4p<2kh1", "explode, drop ones, keep the highest"),
    ("2d8e8kh2kl1", "explode eights, keeps merged"),
    ("4d6e6kh3pl1", "explode, keep three, drop the lowest of them"),
    ("2d6ra6kh2kl1", "reroll and add, then keeps merged"),
    ("3d4ra4kh2pl1", "reroll and add, keep two, drop the lower"),
    ("4d6ra6kh3kl1", "reroll and add, keeps merged"),
    ("2d4ra4e4kh2pl1", "reroll and add, explode, keep and drop"),
    ("2d6eh1kh2pl1", "explode the highest, keep two, drop the lower"),
    # Issue 30, item 2: fractions inside a set, kept and dropped on their
    # exact totals, the set's total rounded toward zero at the end.
    ("(1d6 / 2, 1d4)kh1", "the issue's set: half a d6 or a d4, the higher"),
    ("(1d6 / 2, 1d4)kl1", "the lower of half a d6 and a d4"),
    ("(1d4 / 2, 1d3 / 3)kh1 * 6", "fractions kept, then multiplied"),
    ("(1d6 * 1.5, 2d4)pl1", "a decimal in a set, drop the lower"),
    ("(1d4 / 2, 1d4 / 2)k>1", "fractions kept by value"),
    ("(1d6 / 4,)", "a set of one fraction"),
    ("(1d4 / 4, 1d4 / 4, 1) * 4", "quarters summed in a set"),
    ("-(1d6 / 2, 1d4)kh1", "a set of fractions, negated"),
    ("(1d6 / 2, 1d6 / 2) + 1d6 / 2", "a set of halves plus a half"),
    ("(1d4 / 2, 2)p<2 * 2", "fractions dropped by value"),
    ("(1d3 / 2, 1)kh1 >= 1", "a set of fractions compared"),
    ("(1d8 / 2, 1d6 / 2, 1d4)kh2", "the higher two of three"),
    # Issue 30, item 2: a modifier after a keep or drop. d20 applies each
    # operation in order, every later one among the dice still kept.
    ("4d6kh3ro1", "keep three, then reroll a kept 1 once"),
    ("2d6kh1rr1", "keep the higher, then reroll a kept 1 until"),
    ("3d4kh2rr1", "keep two, then reroll kept 1s until"),
    ("4d6kl2mi3", "keep the lower two, then raise them to 3"),
    ("4d6pl1ma4", "drop the lowest, then lower the rest to 4"),
    ("2d6kh1e6", "keep the higher, then explode it"),
    ("3d4kl2e4", "keep the lower two, then explode them"),
    ("4d4kh3ra4", "keep three, then reroll and add among them"),
    ("4d6kh3ro1kh2", "keep three, reroll a 1, keep the higher two"),
    ("4d6kh3rol1", "keep three, reroll the lowest of them once"),
    ("4d6k>2ro3", "keep above 2, then reroll a kept 3 once"),
    ("2d4p<2rr4", "drop ones, then reroll kept 4s until"),
    ("2d20kh1ro1 + 5", "advantage, then reroll a kept 1"),
    ("(4d6kh3ro1) * 2", "keep, reroll, in parentheses"),
    ("4d6kh3pl1ro1", "keep and drop, then reroll among the two left"),
    ("2d6kh1e6kh1", "keep one, explode it, keep one again"),
    ("3d4kh2ra4kl2", "keep two, reroll and add, keep the lower two"),
    ("2d4pl1e4pl1", "drop, explode, drop again"),
    ("3d6kh2eh1", "keep two, explode the highest of them"),
    # Issue 30, item 2: a second run of `e` or `ra` after another modifier.
    ("1d6e6ro1e5", "explode, reroll once, explode again"),
    ("2d6ra6ro1ra5", "reroll and add, reroll once, again"),
    ("1d6e6mi2e5", "explode, minimum, explode again"),
    ("1d4e4ro1e3", "explode fours, reroll ones, explode threes"),
    ("1d6ra6e6ra1", "reroll and add, explode, reroll and add again"),
    ("2d4ra4mi2ra2", "reroll and add, minimum, again"),
    ("1d4e4ra1e3kl1", "explode, reroll and add, explode, keep the lowest"),
    ("1d6e6ro1e5 + 1", "a second explosion, plus a number"),
    # Issue 30, item 2: several keeps and drops on a set.
    ("(1d6, 1d6)kh1kl1", "the higher and the lower of a set: both"),
    ("(1d6, 1d6, 1d6)kh2pl1", "the higher two, then drop the lower"),
    ("(1d4, 1d6, 1d8)kh1kl1", "the highest and the lowest of three"),
    ("(1d6, 1d6, 1d6)k>2kh1", "above 2, merged with the highest"),
    ("(1d6, 2d4, 3)pl1kh1", "drop the lowest, keep the highest left"),
    ("(1d6 / 2, 1d4, 2)kh2kl1", "fractions, keeps merged"),
    ("(1d6, 1d6)kh1kl1 + 1", "a set with two keeps, plus a number"),
    ("(2d4kh1, 2d4kh1, 2d4kh1)kh2pl1", "three advantages, keep two, drop the lower"),
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
    # `4d2rr2` is always 4 (every 2 rerolls); the rest in exact fractions,
    # the total rounded toward zero as d20's int().
    "1d3ma2 + -(4d2rr2) / 2d12": lambda: icepool.map(
        lambda a, b: int(a - Fraction(4, b)), d(3).map(lambda v: min(v, 2)), 2 @ d(12)
    ),
    "2d6ro1rr6": lambda: 2 @ d6.reroll([1], depth=1).map(
        lambda v: d6.reroll([6], depth='inf') if v == 6 else v
    ),
    # rol1 rerolls the lower of two once, so the higher and a fresh d8 stay;
    # then every 8 explodes with a fresh d8, again and again.
    "2d8rol1e8": lambda: d8.highest(2, 1).map(
        lambda v: v + d8.explode([8], depth=FOREVER) if v == 8 else v
    ) + d8.explode([8], depth=FOREVER),
    # `ra` then `e` (d20's `explode_once` with max_targets=1, then `explode`):
    # one fresh die when any die matches, then every die's chain of
    # explosions, the added die's too.
    "2d4ra4e4": lambda: ra_then_e(2, d4, lambda v: v == 4, [4]),
    "2d8ra8e8": lambda: ra_then_e(2, d8, lambda v: v == 8, [8]),
    "2d4rah1e4": lambda: ra_then_e(2, d4, lambda v: True, [4]),
    "2d6ro1ra6e6": lambda: ra_then_e(2, d6.reroll([1], depth=1), lambda v: v == 6, [6], fresh=d6),
}

# Keeps and drops after an explosion, where walking every sequence would take
# too long: every pool of dice (the explosions POOL_DEPTH deep), each kept and
# dropped by d20's own `SetOperator` code.
POOLS = {
    "3d4e4kh2pl1": lambda: pools_then_keep("3d4e4kh2pl1", 3, 4, None, [4]),
    "4d6e6kh3pl1": lambda: pools_then_keep("4d6e6kh3pl1", 4, 6, None, [6]),
    "2d4ra4e4kh2pl1": lambda: pools_then_keep("2d4ra4e4kh2pl1", 2, 4, [4], [4]),
}

# How deep the chains of `pools_then_keep` go: a chain of 30 matching dice
# has a chance below 4**-30 (1e-18) here.
POOL_DEPTH = 30


def pools_then_keep(text, n, sides, adds_on, explodes_on):
    """n dice of `sides` faces; one more fresh die when any shows a face in
    `adds_on` (d20's `ra`, at most one); then every die showing a face in
    `explodes_on` adds a fresh die, which does the same (POOL_DEPTH deep);
    then the keeps and drops of `text`, applied to each pool (its dice in
    any order: they change which die is kept, not the total) by d20 1.1.2's
    own `SetOperator.operate`."""
    from d20 import expression as ex

    faces = range(1, sides + 1)
    q = Fraction(1, sides)

    def chain(v, depth):
        """Every (dice, chance) a die showing v at `depth` comes to."""
        if v not in explodes_on or depth >= POOL_DEPTH:
            return [((v,), Fraction(1))]
        return [((v,) + rest, q * p) for w in faces for rest, p in chain(w, depth + 1)]

    pools = {(): Fraction(1)}
    for _ in range(n):
        pools = merge((k + (v,), p * q) for k, p in pools.items() for v in faces)
    if adds_on:
        pools = merge(
            item
            for k, p in pools.items()
            for item in (
                [(k + (v,), p * q) for v in faces] if any(v in adds_on for v in k) else [(k, p)]
            )
        )
    # Each die's chain, one die at a time: (dice done, dice left).
    steps = {((), k): p for k, p in pools.items()}
    while any(left for _, left in steps):
        nxt = {}
        for (done, left), p in steps.items():
            outs = [((done, left), Fraction(1))] if not left else [
                ((tuple(sorted(done + c)), left[1:]), pc) for c, pc in chain(left[0], 0)
            ]
            for key, pc in outs:
                nxt[key] = nxt.get(key, Fraction(0)) + p * pc
        steps = nxt
    pools = {done: p for (done, _), p in steps.items()}
    ops = [
        ex.SetOperator.from_ast(op)
        for op in d20.parse(text).roll.operations
        if op.op in ("k", "p")
    ]
    dist = {}
    for k, p in pools.items():
        dice = ex.Dice(len(k), sides, [ex.Die(sides, [ex.Literal(v)]) for v in k])
        for op in ops:
            op.operate(dice)
        dist[dice.total] = dist.get(dice.total, Fraction(0)) + p
    # An icepool die with whole weights (the chances over one denominator).
    lcm = math.lcm(*(p.denominator for p in dist.values()))
    return Die({v: int(p * lcm) for v, p in dist.items()})


def merge(items):
    """Pools as sorted tuples, their chances summed."""
    out = {}
    for k, p in items:
        k = tuple(sorted(k))
        out[k] = out.get(k, Fraction(0)) + p
    return out


def ra_then_e(n, die, adds, explodes_on, fresh=None):
    """n dice of `die`; one more fresh die (of `fresh`, a plain die of the
    same size by default) when any of them passes `adds`; then each die
    explodes on `explodes_on` with fresh dice, again and again."""
    if fresh is None:
        fresh = Die(range(1, die.max_outcome() + 1))
    chain = fresh.explode(explodes_on, depth=FOREVER)

    def of(v):
        return v + (chain if v in explodes_on else 0)

    return icepool.map(
        lambda *vs: sum(of(v) for v in vs) + (chain if any(adds(v) for v in vs) else 0),
        *([die] * n),
    )

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


def exact_fractions(text, comments):
    """The same walk with d20 doing its arithmetic in exact fractions: its
    ``/`` on Fractions and its decimal literals read as Fractions, on a
    fresh Roller (so no float parse is cached). ``int()`` of a Fraction
    rounds toward zero, as of a float."""
    import d20.diceast as diceast

    old_init = diceast.Literal.__init__
    old_div = d20.expression.BinOp.BINARY_OPS["/"]

    def init(self, value):
        old_init(self, value)
        if isinstance(value, diceast.Token) and value.type != "INTEGER":
            self.value = Fraction(str(value))

    diceast.Literal.__init__ = init
    d20.expression.BinOp.BINARY_OPS["/"] = lambda l, r: Fraction(l) / Fraction(r)
    saved = d20.roll
    d20.roll = d20.Roller().roll
    try:
        return exact(text, comments)
    finally:
        d20.roll = saved
        diceast.Literal.__init__ = old_init
        d20.expression.BinOp.BINARY_OPS["/"] = old_div


def main():
    # `--only EXPR...`: print the cases of those expressions alone (to add
    # new cases to the file without walking every old one again).
    only = set(sys.argv[sys.argv.index("--only") + 1:]) if "--only" in sys.argv else None
    cases = []
    for text, covers in CASES:
        if only is not None and text not in only:
            continue
        # A comment: "#", or plain words after the roll (digit, space, letter).
        comments = "#" in text or re.search(r"\d\s+[a-zA-Z]", text) is not None
        if text in ICEPOOL or text in POOLS:
            die = (ICEPOOL.get(text) or POOLS[text])()
            dist = dict(zip(die.outcomes(), (Fraction(p) for p in die.probabilities())))
            pruned, method = Fraction(0), f"icepool {icepool.__version__}"
            if text in POOLS:
                method = f"d20 1.1.2's keep and drop on every pool ({POOL_DEPTH} deep)"
        else:
            found = exact(text, comments)
            if found is None:
                sys.exit(f"{text}: too many sequences to walk; give its icepool form")
            (dist, pruned), method = found, "d20 1.1.2, every sequence"
            if "/" in text.replace("//", "") or re.search(r"\d?\.\d", text):
                check = exact_fractions(text, comments)
                if check is None or check[0] != dist:
                    sys.exit(f"{text}: d20's floats differ from exact fractions")
                method += ", and again in exact fractions (equal)"
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
