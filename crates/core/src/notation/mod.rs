//! The dice notation players type at the table for free rolls: `1d20+5`,
//! `4d6kh3`, `(1d4 + 1) * 2`, `4d6ro<3kh3`, `1d6e6 + 2`, `10d6>=5`, `4dF`,
//! `d%`, `1d8 [slashing] + 2d6 [fire]`, `1d20 + 5 dex save`, `1d20 # to hit`.
//!
//! Text is parsed once into an [`Expr`] (a tree of numbers, dice groups and
//! arithmetic), checked against every cap at parse time, and then rolled any
//! number of times through a [`Roller`]; [`Expr::odds`] gives its exact
//! distribution. Parsing never panics and never allocates in proportion to the
//! dice asked for: `100000000d6` is refused from its first number. Rolling never
//! overflows and never divides by zero: both are ruled out at parse time.
//!
//! The notation follows Avrae's Python `d20` (the roller most online tables use),
//! with the deviations listed below.
//!
//! # Grammar
//!
//! ```text
//! roll     := compare [comment]
//! set      := "(" expr ("," expr)+ ")" [select]    d20's sets
//!           | "(" expr "," ")" [select]
//! compare  := expr (("==" | "!=" | "<=" | "<" | ">=" | ">") expr)*
//! expr     := term (("+" | "-") term)*
//! term     := unary (("*" | "//" | "/" | "%") unary)*
//! unary    := ("-" | "+") unary | atom
//! atom     := (number | decimal | dice | "(" compare ")" | set) label*
//! decimal  := [digits] "." digits            d20's: `1.5`, `.5`
//! label    := "[" any text but "]" "]"       glued or after white space
//! dice     := [number] "d" sides (modifier | select)* [success]
//! sides    := number | "%" | "F"            d% is d100, dF the Fudge die
//! modifier := "ro" (test | rank)            reroll once
//!           | "rr" test                     reroll until the test fails
//!           | "mi" number | "ma" number     minimum, maximum face
//!           | "e" (test | rank)             explode
//!           | "ra" (test | rank)            reroll and add (d20's)
//! rank     := ("h" | "l") number            d20's: the N highest or lowest
//! select   := ("kh" | "kl" | "dh" | "dl") number
//!           | ("k" | "p" | "d") ("<" | ">") number   keep or drop by value
//! success  := cmp number                    count successes; glued to the group
//! test     := [cmp] number                  no comparison: equal
//! cmp      := ">=" | ">" | "<=" | "<" | "=" | "=="
//! comment  := "#" any text
//!           | white space, then plain words   see below
//! ```
//!
//! - Comparisons of totals (`d20`'s; issue 30, item 2): `==`, `!=`, `<`,
//!   `<=`, `>`, `>=` bind loosest, left to right, and give 1 when the
//!   comparison holds and 0 when not: `1d20 + 5 >= 15` is 1 with chance 0.55,
//!   and its odds are that chance on 1 (`Expr::odds`). A comparison right
//!   after a dice group, with no white space, is that group's success test
//!   instead (below); with white space before it (`2d6 >= 7`), or after
//!   anything but a dice group, it compares totals. `%` is the remainder
//!   with the divisor's sign and `//` divides rounding down, both as in
//!   Python and `d20` (`-7 % 3` is 2, `-7 // 2` is -4); they bind as `*`.
//! - `*`, `/`, `//` and `%` bind tighter than `+` and `-`; all are
//!   left-associative; a unary `-` binds tightest (`-2 * 3` is `(-2) * 3`).
//!   `/` keeps the fraction to the end, as `d20` does (issue 30, item 2):
//!   `7 / 2 * 2` is 7, `1d6 / 2 + 1d6 / 2` with 3 and 5 is 4, and the issue's
//!   `1d3ma2 + -(4d2rr2) / 2d12` is -1..1. Only the final total is rounded,
//!   toward zero (`d20` 1.1.2's `int()` of its float total: `-7 / 2` is -3);
//!   that whole number is what Tabula shows and counts ([`RollOutcome::total`],
//!   `tabula odds`), and each node of the outcome tree shows its own exact
//!   value rounded toward zero the same way (`d20` shows only the total). Decimals are read too
//!   (`1d6 * 1.5`, `.5`, at most [`MAX_DECIMALS`] digits after the point; a
//!   dice count or a modifier's number stays whole). Tabula works in exact
//!   fractions where `d20` uses floats, so where `d20`'s float lands just
//!   under a whole number (`(1 / 49) * 49`: 0.999..., so 0 in `d20`) Tabula
//!   gives the exact answer (1). A fraction's denominator may reach
//!   [`MAX_DENOMINATOR`] ([`NotationError::FractionTooFine`]). A set's
//!   items may hold fractions too (issue 30, item 2): `(1d6 / 2, 1d4)kh1`
//!   keeps the higher of half a d6 and a d4 on their exact totals, as `d20`
//!   compares its float totals, and the set's total keeps the fraction.
//!   In Roll20 and Foundry `/` stays where their rounding functions take it
//!   (below).
//!   A divisor that can be 0 (`1d6 / 0`, `1d6 / (1d2 - 1)`, `1 / 1dF`,
//!   `1d6 / (1d2 / 2 - 1)`) is refused at parse time
//!   ([`NotationError::DivisionByZero`]); `d20` fails only when the roll comes
//!   out 0.
//! - The count before `d` is optional (`d20` is `1d20`). `0d6` is 0.
//! - Letters are case-insensitive (`4D6KH3`, `4df`); white space (any Unicode
//!   white space) may stand between any two tokens, though not inside `kh`,
//!   `>=`, `ro` or a number.
//! - Modifiers act on every die of the group, in the order written, as in
//!   `d20`: `ro<3` rerolls each die under 3 once (the new face stands), `rr1`
//!   rerolls each 1 until it is not a 1 (at most [`MAX_REROLLS`] times per die;
//!   the last of those draws among the faces kept, so `rr` never ends on a face
//!   it rerolls, and its odds are exact: issue 30, item 4),
//!   `mi2` raises each face under 2 to 2, `ma5` lowers each face over 5 to 5,
//!   `e6` rolls one more die for each 6, and again for each 6 among those (at
//!   most [`MAX_EXPLOSIONS`] more dice per original die). The dice an explosion
//!   adds go through the modifiers written after the `e`, not those before it.
//!   All of a group's dice are rolled first, then each modifier in turn asks the
//!   roller for its dice.
//! - Repeated modifiers written together are merged as `d20` merges them
//!   (issue 30, item 2): consecutive `ro`s are one pass that rerolls once each
//!   die matching any of their tests (`2d6ro1ro2`, Great Weapon Fighting: a 1
//!   or a 2 rerolls once, mean 8.333), consecutive `rr`s reroll until a die
//!   matches none of them (`2d6rr1rr2` is 6..12), and consecutive `e`s explode
//!   on any of their tests (`1d6e5e6` is `1d6e>=5`), consecutive `ra`s add
//!   one die when any die matches any of their tests. `mi` and `ma` are never
//!   merged (each applies in turn, as in `d20`). A second run of `e` or
//!   `ra` after another modifier is `d20`'s too (issue 30, item 2): each
//!   run in the order written (`1d6e6ro1e5`: the 6s explode, a 1 rerolls
//!   once, then the 5s explode, those the first run left too).
//! - `kh N` keeps the highest N dice, `kl N` the lowest, `dh N` drops the
//!   highest N, `dl N` the lowest, counted among all the group's dice
//!   (explosions included). `ph` and `pl` (Python `d20`'s spelling) are read as
//!   `dh` and `dl`. Keeping or dropping more dice than the group rolls is refused
//!   ([`NotationError::SelectsMoreThanRolled`]; Python `d20` silently keeps them
//!   all). `k<N` and `k>N` keep the dice below or above N, `p<N` and `p>N`
//!   (or `d<N`, `d>N`) drop them, as `d20`'s selectors (issue 30, item 2);
//!   they may keep no die (the group is then 0). Among equal dice, the earlier
//!   one counts as the lower. A modifier after a keep or drop is `d20`'s
//!   (issue 30, item 2; [`Modifier::Select`]): every operation in the
//!   order written, each later one among the dice still kept, as `d20`'s
//!   operators select among the set's `keptset` (`4d6kh3ro1` rerolls a 1
//!   among the three kept dice, never the dropped one; `3d6kh2e6` explodes
//!   the kept 6s; `4d6kh3ro1kh2` then keeps two of those). Exact odds over
//!   the multisets of the kept dice (`notation/pool.rs`), within the work
//!   budget.
//! - Several keeps and drops on one group are `d20`'s (issue 30, item 2;
//!   [`kept_by_rank`]): applied in the order written, each among the dice
//!   still kept (`4d6kh3pl1` is the middle two of four; `4d6p<3kh2` drops
//!   the dice under 3, then keeps the highest two left), and consecutive
//!   ones of one kind (`k`, or `p`) select the union of theirs (`4d6kh1kl1`,
//!   the highest and the lowest; `4d6kh3k>2`, the highest three and every
//!   die above 2). Among equal faces `d20` takes the earlier die first for
//!   the highest and for the lowest alike, so `4d6kh1kl1` on four 6s keeps
//!   one die (6), and Tabula agrees. After `e` or `ra` they count every die
//!   of the group, the added ones too (`4d6e6kh3pl1`). Exact odds by every
//!   multiset of faces (over pools of dice when the group explodes or adds
//!   dice), refused past the work budget (`100d20kh50kl10`,
//!   `6d6e6kh3pl1`).
//! - A success test, glued to its group, counts the kept dice whose face
//!   passes it, and that count is the group's value: `10d6>=5` is the number
//!   of dice showing 5 or 6. (Python `d20` instead compares the whole sum and
//!   yields 1 or 0; Roll20's counting is what tables mean by it.) With a selection, only kept dice count:
//!   `4d6kh3>=5`.
//! - A threshold every face meets is refused: a success test that counts every
//!   die (`10d6>=1`, [`NotationError::EveryFaceSucceeds`]), and a reroll or
//!   explosion on every face (`1d6rr<7`, `1d6e>=1`,
//!   [`NotationError::EveryFaceMatches`]) that would never stop. `mi` and `ma`
//!   take a face of the die ([`NotationError::NotAFace`]).
//! - `d%` is a d100 (1 to 100). Python `d20` reads `d%` as the tens die of a
//!   percentile pair (0, 10, ..., 90) instead. Decided (issue 30, item 2):
//!   Tabula keeps 1 to 100, because a player who types `d%` alone means a
//!   percentile roll, Roll20 and Foundry both read `d%` as a d100, and `d20`'s
//!   tens die only makes sense with a `1d10` added to it (`1d% + 1d10` is 1
//!   to 100 in `d20`; write `1d100` here). So `d%` is not in the `d20` golden
//!   file.
//! - `dF` is the Fudge die: faces -1, 0 and +1 (typed as `-`, `0` and `+` with a
//!   manual roller). Tests and `mi`/`ma` on it take 0 or 1 (no negative numbers).
//! - A label (`[fire]`, d20's annotation) names the number, dice group or
//!   parenthesised group it follows, glued (`1d20+2[STR]`) or after white space
//!   (`1d8 [slashing] + 2d6 [fire]`); one operand may carry several
//!   (`1d20 [adv] [str]`). It does not change any value: `8d6 [fire] / 2` is
//!   half of 8d6. The label is kept on its node ([`Node::Labelled`]) and shown
//!   after it in the outcome (`1d8 (5) [slashing] + 3 = 8`), as d20 shows it.
//!   A label runs to the first `]`; one that is never closed is an error.
//! - **Never a silent misread** (issue 30): the whole text is read as the roll,
//!   except a comment, which is either
//!   - `#` and everything after it (`1d20 + 5 # vs AC 15`), kept with its `#`;
//!   - or, after the whole roll and white space, *plain words*: text that
//!     starts with a letter and holds only letters, white space, a `-` or `'`
//!     between two letters, and the punctuation `. , ; : ! ? " ( )`: no digit
//!     and no other sign (`1d20 + 5 dex save`, `2d6 + 3 damage (fire)`).
//!
//!   Anything else left over is an error pointing at it, never a number from
//!   part of the text: `1d20 + 5 = 15`, `13 & 2`, `1d20 + 5 vs AC 15` and
//!   `4d6 k3` are refused (`1d20 + 5 >= 15` is a comparison, above). Text that stops short of a modifier at the very
//!   end (`1d6 kh`) is an error too. (`d20` needs `allow_comments=True` for
//!   comments.)
//!
//! - Sets, `d20`'s (issue 30, item 2): `(1d20, 1d20)kh1` keeps the higher
//!   total, `(1d4, 1d6)pl1` drops the lower, `(1d6, 1d6)k>3` keeps the
//!   totals above 3, `(1d6,)` is a set of one (a comma and no second item),
//!   and a set without keep or drop is the sum of its items. Keep and drop
//!   count among the items' exact totals (fractions too); several apply as
//!   on a group of dice ([`kept_by_rank`]: `(1d6, 1d6)kh1kl1` keeps both,
//!   or one when they tie), their odds over every joint outcome of the
//!   items, refused past the work budget; among equal totals the earlier
//!   counts as the lower. Written in canonical spelling as
//!   `(a, b)kh1`; with white space before it (`(a, b) kh1`) the keep is
//!   not read.
//!
//! - `ra`, `d20`'s reroll and add ("Rerolls up to one matched value once,
//!   keeping the original roll", `d20` 1.1.2 README, *Operators*): the first
//!   die of the group that matches rolls one more die, added to the group;
//!   the added die does not add again, and goes through the modifiers
//!   written after `ra`. At most one die for the whole group (`d20`'s
//!   `max_targets=1`), unlike Foundry's `xo`, which adds one per matching
//!   die. `2d6ra6` is 2d6 plus one more d6 when either shows a 6 (chance
//!   11/36); its odds are exact ([`Modifier::RerollAdd`]). With `e` in the
//!   same group each applies in the order written, as in `d20` (issue 30,
//!   item 2): `2d6ra6e6` adds a die on a 6, then every 6 explodes, the added
//!   die's too; `2d6e6ra1` adds a die when any die, the explosions' too,
//!   shows a 1. A second run of `ra` after another modifier applies in
//!   its turn (`2d6ra6ro1ra5`). `rahN` and `ralN` take `d20`'s selectors by
//!   rank: with N of 1 or more the highest (lowest) die always adds one more
//!   ([`Modifier::RerollAddRank`]).
//!
//! - `d20`'s selectors by rank on `ro` and `e` (issue 30, item 2;
//!   `SetOperator.reroll_once` and `explode`): `rolN` (`rohN`) rerolls once
//!   the N lowest (highest) dice, chosen when the pass starts (`4d6rol1kh3`:
//!   the lowest die once more, then the best three;
//!   [`Modifier::RerollOnceRank`]); `ehN` (`elN`) explodes the N highest
//!   (lowest) dice, then, round after round, every die among the N highest
//!   (lowest) of all the dice so far that has not exploded yet, until a
//!   round finds none ([`Modifier::ExplodeRank`]). Among equal faces the
//!   earlier die ranks first (Python's stable sort), so a new die joins the
//!   highest only when strictly higher: `1d6eh1` goes on while each new die
//!   beats every die before it. By rank alone an explosion always stops (at
//!   most N times the faces explode: counted toward [`MAX_ROLLS`] before
//!   rolling) and its odds are exact; in one run with a test (`ro1rol1`,
//!   `e6eh1`) a die is selected when either selects it, and a run with a
//!   test stops at [`MAX_EXPLOSIONS`] dice deep as `e` does. The odds of
//!   such a group go over every multiset of its dice (`notation/pool.rs`),
//!   within the work budget.
//!
//! Refused for good: `rrh1` and `rrl1`
//! ([`NotationError::RankSelectorNotRead`] names the modifier): `d20`
//! always finds a highest or lowest die, so they never stop there, and
//! `d20` fails with "Too many dice rolled". Not in this dialect, as `d20`
//! 1.1.2 does not read them either: variable dice (`2d(1d4)`, `(2+1)d6`;
//! Roll20 and Foundry only, below). Refused by decision, never misread:
//! `d20`'s bare `k3` / `p3` (keep or drop the dice showing 3), which Roll20
//! reads as "keep the highest 3": refused with a message asking for `h` or
//! `l` after the letter ([`NotationError::UnexpectedChar`]). Still read differently from
//! `d20`: `d%` (above), a success test glued to its group (`10d6>=5`),
//! exact fractions where `d20`'s floats round (above), and the caps on
//! rerolls and explosions.
//!
//! Agreement with `d20` 1.1.2 is checked on the exact distribution of every
//! expression in `crates/core/tests/data/d20_golden.json` (486 expressions:
//! arithmetic, `/` keeping fractions and decimals, keep and drop (several on one group too), `ro`, `rr`, `ra`, `mi`, `ma`, explosions, `ro` and `e` by rank, `ra` with `e`, labels,
//! comments, merged modifiers, comparisons, `%`, `//`, keep and drop by
//! value, sets (of fractions too, several keeps too), modifiers after a
//! keep or drop, second runs of `e` and `ra`, each form on d4 to d20),
//! made by `bench/d20_golden.py`.
//!
//! # Dialects
//!
//! The same text can mean another roll on another table's roller, so a text
//! is read in one dialect ([`Dialect`], issue 30, item 3): `d20` (the default,
//! everything above), Roll20 or Foundry VTT, chosen per call
//! ([`Expr::parse_in`]), per command line (`tabula roll --dialect roll20`) and
//! per table (`dice_dialect = "roll20"` in the table file). The outcome names
//! the dialect that read it ([`RollOutcome::dialect`]; its line ends
//! `(roll20)` or `(foundry)`, nothing for `d20`). Each spelling below has the
//! meaning its roller documents: Roll20's *Dice Reference* and *Dice
//! Specification* (wiki.roll20.net/Dice_Reference) and Foundry VTT's *Dice
//! Modifiers* article (foundryvtt.com/article/dice-modifiers) with its API
//! reference of `Die` (`foundry.dice.terms.Die`). Text whose meaning is
//! unclear there, or that Tabula does not read yet, is refused with
//! [`NotationError::NotInDialect`], never misread.
//!
//! | spelling | Roll20 | Foundry | meaning (source) |
//! | --- | --- | --- | --- |
//! | `8d6!`, `3d6!>4`, `3d6!3` | yes | – | explode on the highest face, or on the compare point: `>4` is 4 or more (Roll20, Exploding Dice); shown as `e6`, `e>=4` |
//! | `5d6!!`, `5d6!!>5` | yes | – | compounding: a die's explosions are added into that one die, which keep, drop and success tests then see (Roll20, Compounding Dice: Shadowrun) |
//! | `5d6!p`, `5d6!p>5` | yes | – | penetrating: each extra die counts one less than its face and explodes on its face (Roll20, Penetrating Dice: HackMaster) |
//! | `1d6x`, `1d6x6`, `5d10x>=9` | – | yes | explode, again and again (Foundry, `x`) |
//! | `5d10xo`, `5d10xo>8` | – | yes | explode once: an extra die does not explode (Foundry, `xo`); exact odds |
//! | `4d6k3`, `8d100k4` | yes | yes | keep the highest (Roll20, Drop/Keep; Foundry, `k`) |
//! | `4d6d1`, `4d6d` | yes | yes | drop the lowest (Roll20, Drop/Keep; Foundry, `d`) |
//! | `2d20kh`, `2d20kl`, `4d6dl`, `4d6dh` | yes | yes | no number: one die (Foundry's `Die` reference: `20d20kh` keeps the 1 highest); Roll20 reads it the same |
//! | `3d6r1`, `2d8r<2`, `2d8r8r2` | yes | – | reroll until the die no longer matches (Roll20, Rerolling Dice); several `r`s are one test |
//! | `2d8ro<2` | yes | – | reroll once: a 1 or a 2 (Roll20, Rerolling Dice) |
//! | `1d20r`, `1d20r<3` | – | yes | reroll once; no number: the lowest face (Foundry, `r`) |
//! | `1d20rr`, `1d20rr<3` | – | yes | reroll until (Foundry, `rr`) |
//! | `10d10>7`, `10d10<3`, `10d10=10` | yes | – | count the dice at least 7, at most 3, equal to 10: Roll20's `>` and `<` include the target (Roll20, Target Number / Successes); so `10d10>7` is another roll than in `d20` and Foundry, where `>` is strictly above |
//! | `10d10>7f1`, `3d6>3f<2` | yes | – | each failure subtracts one success (Roll20, Failures) |
//! | `1d20cs>18`, `1d20cf<3` | yes | – | critical success and fumble marks on the dice, shown in the outcome (`19 critical`, `1 fumble`); the total does not change (Roll20, Critical Success and Fumble Points) |
//! | `10d6cs>4`, `10d6cs>=5`, `10d6cf<2` | – | yes | count the dice passing: successes, or failures counted (Foundry, `cs`, `cf`); a comparison is required |
//! | `10d6cs>=5df=1` | – | yes | deduct failures from the successes (Foundry, `df`) |
//! | `3d6min2`, `3d6max5` | – | yes | each die at least 2, at most 5 (Foundry, `min`, `max`); shown as `mi2`, `ma5` |
//! | `{4d6+3, 2d8}kh1`, `{1d20, 1d20}kh`, `{...}dl1` | yes | yes | a group of rolls: keep or drop among their totals (Roll20, Grouped Rolls; Foundry, dice pools) |
//! | `{4d6, 3d8}>10`, `{...}cs>10` | yes | yes | count the rolls whose total passes; with `f` (Roll20) or `df` (Foundry) subtract failures |
//! | `floor(x)`, `ceil(x)`, `round(x)`, `abs(x)` | yes | yes | rounding down, up, to nearest with a half up (JavaScript's `Math.round`: `round(-2.5)` is -2), absolute value (Roll20, Math Operators and Functions; Foundry formulas take `Math` functions) |
//! | `(2+1)d6`, `2d(1d4)`, `(1d4)d(1d6)` | yes | yes | variable dice: the count and the sides, each a number or a parenthesised group, worked out first (count, then sides), then that many dice of that many sides, one size for the whole group (Roll20's computed dice; Foundry's parenthetical terms); exact odds; a count that can leave 0..=[`MAX_POOL`] or sides that can leave 1..=[`MAX_SIDES`] are refused ([`NotationError::VariableDiceOutOfRange`]), and the count's worst case counts toward the dice cap |
//! | `2d(1d4)kh1`, `(2+1)d6!`, `(1d4)d6min3` | yes | yes | variable dice with modifiers: that group rolled as written with the count and sides worked out (the same documents: the numbers are worked out, then the dice rolled); each modifier checked for every die the group may roll (a face of the smallest die for `mi`, `ma`; a keep within the fewest dice; a reroll or explosion some face of the smallest die escapes), the worst case of rerolls and explosions bounded by the most dice and sides; exact odds mixed over every count and sides ([`Node::ModifiedVarDice`]); `!` or `x` without a number (the highest face) refused when the sides vary (`2d(1d4)!`: write `!>4`) |
//! | `a % b` | yes | yes | JavaScript's remainder, with the sign of `a` (`-7 % 3` is -1; Roll20, Math Operators) |
//! | `1d20+5 Roll for initiative`, `1d20 # text` | yes | yes | a comment, as in `d20` (above) |
//!
//! Refused, never misread:
//! - `/` anywhere but as the whole argument of `floor()`, `ceil()` or
//!   `round()`: both give a fraction there, and Tabula counts in whole numbers
//!   (`floor(1d6 / 2)` is exact: the quotient is rounded once). `//` and
//!   comparisons of totals (`1d20 + 5 >= 15`) are `d20`'s.
//! - An explosion with rerolls, `min` or `max` in one group (`3d6!r1`): both
//!   apply modifiers in an order of their own, not the order written.
//! - Roll20's group of one roll with keep, drop or a test (`{5d6!!}>8`,
//!   `{4d6}kh1`): Roll20 applies it to the roll's dice, which Tabula does
//!   not read yet. Foundry's `{4d6}kh` keeps the one total and is read.
//! - Foundry's capped forms (`20d20r1=1`, `x2>5`: a count, then the test),
//!   `sf`, `ms`, `even`, `odd`; Roll20's matches (`m`, `mt`), sorting
//!   (`s`, `sa`, `sd`), `**`; the highest face by default on variable
//!   dice whose sides vary (`2d(1d4)!`);
//!   keep or drop by value (`k<3`, `d20`'s).
//! - Modifiers after white space (`4d6 k3`): both read them glued only.
//!
//! In these dialects Tabula also reads its own canonical spelling (`e6`,
//! `rr1`, `ro1`, `mi2`, `ma5`, `kh1`, `>=7`, `<=2`, `f=1`, `xo=6`), so an
//! expression's `Display` reads back the same in its dialect; none of these
//! means anything else there. Agreement with each roller's documented
//! meaning is checked on the exact distribution of every expression in
//! `crates/core/tests/data/dialect_golden.json` (made with icepool by
//! `bench/dialect_golden.py`), and the odds of random expressions in each
//! dialect equal a brute-force walk of every roll
//! (`crates/core/tests/notation_dialects.rs`).
//!
//! # Caps
//!
//! | cap | value | error |
//! | --- | --- | --- |
//! | input length | [`MAX_INPUT_LEN`] bytes | [`NotationError::TooLong`] |
//! | numbers and dice groups | [`MAX_TERMS`] | [`NotationError::TooManyTerms`] |
//! | nesting of parentheses and signs | [`MAX_DEPTH`] | [`NotationError::TooDeep`] |
//! | any number | [`MAX_NUMBER`] | [`NotationError::NumberTooLarge`] |
//! | dice in the whole expression | [`MAX_POOL`] | [`NotationError::TooManyDice`] |
//! | sides of a die | [`MAX_SIDES`] | [`NotationError::TooManySides`] |
//! | dice asked of the roller, at worst | [`MAX_ROLLS`] | [`NotationError::TooManyRolls`] |
//! | any value the roll can reach | ±[`MAX_TOTAL`] | [`NotationError::TotalTooLarge`] |
//! | odds: the notation's own steps | [`MAX_NOTATION_WORK`] | [`crate::odds::OddsError::TooMuchWork`] |
//! | odds: values held by explode-then-keep states | [`MAX_STATE_VALUES`] | [`crate::odds::OddsError::TooManyStates`] |
//!
//! The odds count their steps as they go and refuse before the step that
//! would pass the budget, naming the steps it would take (see
//! [`ExprOdds::work`]; issue 30, item 5).
//!
//! The dice asked of the roller and the values a roll can reach are worked
//! out from the expression before anything is rolled:
//! every reroll and explosion is assumed to happen as often as its cap allows,
//! and every sum and product takes its extreme faces. So a roll asks the roller
//! for at most [`MAX_ROLLS`] dice and every value in it fits in ±2^53 (an exact
//! JSON number for a page).
//!
//! # Roll order
//!
//! Dice are asked of the roller left to right, group by group: first every die
//! of the group, then each modifier's rerolls and explosions in turn, die by die.
//! So `--rolled 6,2,1` for `3d6` gives the dice 6, 2 and 1 in that order, and
//! `--rolled 1,4,3` for `2d6ro1` rolls 1 and 4, then rerolls the 1 as a 3.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::dice::{Die, FaceSet};
use crate::roller::Roller;

mod odds;
mod parse;
mod pool;
mod ratio;
mod roll;

use ratio::Ratio;

pub use crate::dice::{MAX_POOL, MAX_SIDES};
pub use odds::{
    EXPLODE_DEPTH, ExprOdds, MAP_STEPS, MAX_NOTATION_WORK, MAX_STATE_VALUES, STATE_STEPS,
};
pub use roll::{Critical, DieOutcome, NodeOutcome, Operands, RollOutcome, SetItemOutcome};

/// The longest text [`Expr::parse`] reads, in bytes.
pub const MAX_INPUT_LEN: usize = 1_000;
/// The most numbers and dice groups one expression may have.
pub const MAX_TERMS: usize = 100;
/// The deepest nesting of parentheses and unary signs.
pub const MAX_DEPTH: usize = 32;
/// The largest number that may be written anywhere in an expression.
pub const MAX_NUMBER: u32 = 1_000_000_000;
/// The most times `rr` rerolls one die. The last of those draws among the faces
/// that do not match (a die of that many faces asked of the roller), so a die
/// never ends on a face of the set: the distribution of rerolling without end
/// (issue 30, item 4).
pub const MAX_REROLLS: u32 = 50;
/// The most dice `e` adds for one original die (the chain of explosions stops
/// there; the last die's face counts but does not explode).
pub const MAX_EXPLOSIONS: u32 = 20;
/// The most dice one roll of an expression may ask of the roller, counting every
/// reroll and explosion at its cap.
pub const MAX_ROLLS: u64 = 1_000_000;
/// The largest magnitude any value in a roll may reach: 2^53 - 1, the largest
/// integer a JSON reader holds exactly.
pub const MAX_TOTAL: i64 = (1 << 53) - 1;

/// The largest denominator a fraction may reach in `d20`'s division, which
/// keeps fractions to the end (issue 30, item 2): `1d6 / 1d1000 / 1d1000 /
/// 1d1000` is within it, a fourth `/ 1d1000` is not
/// ([`NotationError::FractionTooFine`]). With [`MAX_TOTAL`] it keeps every
/// step of exact arithmetic far inside 128 bits.
pub const MAX_DENOMINATOR: i128 = 1 << 30;
/// The most digits a decimal may have after its point (`1.5`, `0.125`).
pub const MAX_DECIMALS: u32 = 6;

/// The Fudge die's faces as a manual roller reads them: face 1 is -1, face 2 is
/// 0, face 3 is +1.
pub static FUDGE_FACES: FaceSet = FaceSet {
    name: "Fudge die",
    labels: &["-", "0", "+"],
};

/// A parsed dice expression, within every cap.
///
/// Built only by [`Expr::parse`] (or [`str::parse`]), so every expression that
/// exists is within the caps listed in the [module documentation](self).
/// Its `Display` is the canonical spelling (`(1d4 + 1) * 2`, `4d6ro<3kh3`), and
/// parsing that spelling gives back an equal `Expr`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Expr {
    root: Node,
    /// The comment after the roll, without its leading white space: plain
    /// words, or text from a `#` on.
    comment: Option<String>,
    /// Dice before rerolls and explosions, at most [`MAX_POOL`].
    dice: u32,
    /// The dialect that read the text (issue 30, item 3).
    dialect: Dialect,
    /// Whether the expression holds a `d20` `/` or a decimal, so that it is
    /// worked out in exact fractions, rounded toward zero at the end
    /// (issue 30, item 2).
    #[serde(skip)]
    fractional: bool,
}

/// A decimal written in the text (`d20`'s, issue 30, item 2): `digits`
/// divided by 10 to the `scale` (`1.50` is 150 and 2), as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Decimal {
    /// The digits, the point left out.
    pub digits: u64,
    /// How many of them stand after the point (1..=[`MAX_DECIMALS`]).
    pub scale: u32,
}

impl Decimal {
    /// The exact value.
    pub(crate) fn value(self) -> Ratio {
        Ratio::new(i128::from(self.digits), 10i128.pow(self.scale.min(18))).unwrap_or(Ratio::ZERO)
    }
}

impl fmt::Display for Decimal {
    /// As written, with a digit before the point (`.5` is `0.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = 10u64.pow(self.scale.min(18));
        write!(
            f,
            "{}.{:0w$}",
            self.digits / p,
            self.digits % p,
            w = self.scale as usize
        )
    }
}

/// Whose meaning a text is read with (issue 30, item 3): the same text can
/// mean another roll elsewhere (`10d10>7` counts dice above 7 in `d20` and
/// Foundry, at least 7 in Roll20). See [`dialect`](self#dialects).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Avrae's Python `d20` (the default), as described above.
    #[default]
    D20,
    /// Roll20's dice reference.
    Roll20,
    /// Foundry VTT's dice and modifiers.
    Foundry,
}

impl Dialect {
    /// Every dialect, the default first.
    pub const ALL: [Dialect; 3] = [Dialect::D20, Dialect::Roll20, Dialect::Foundry];

    /// Whether this is the default, `d20`.
    pub fn is_d20(&self) -> bool {
        *self == Dialect::D20
    }

    /// The name a table file or command line gives it: `d20`, `roll20`,
    /// `foundry`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::D20 => "d20",
            Dialect::Roll20 => "roll20",
            Dialect::Foundry => "foundry",
        }
    }
}

impl fmt::Display for Dialect {
    /// `d20`, `roll20` or `foundry`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A dialect name that is not `d20`, `roll20` or `foundry`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DialectError {
    /// The name given.
    #[error("the dice dialect is \"d20\", \"roll20\" or \"foundry\", not {found:?}")]
    Unknown {
        /// What was written.
        found: String,
    },
}

impl FromStr for Dialect {
    type Err = DialectError;

    /// `d20`, `roll20` or `foundry`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| DialectError::Unknown {
                found: s.to_string(),
            })
    }
}

/// A rounding or absolute value of Roll20 and Foundry: `floor(x)`,
/// `ceil(x)`, `round(x)`, `abs(x)` (issue 30, item 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Func {
    /// `floor(x)`: rounds down.
    Floor,
    /// `ceil(x)`: rounds up.
    Ceil,
    /// `round(x)`: to the nearest whole number, a half up (JavaScript's
    /// `Math.round`, which Roll20 and Foundry use: `round(-2.5)` is -2).
    Round,
    /// `abs(x)`: the absolute value.
    Abs,
}

impl Func {
    /// `floor`, `ceil`, `round` or `abs`.
    pub fn name(self) -> &'static str {
        match self {
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Abs => "abs",
        }
    }

    /// The function of `a / b`, exactly (`b` is never 0 in a parsed
    /// expression); `None` on overflow or a zero divisor.
    pub fn of_quotient(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Func::Floor => BinOp::FloorDiv.apply(a, b),
            Func::Ceil => BinOp::FloorDiv.apply(a.checked_neg()?, b)?.checked_neg(),
            // floor(a / b + 1/2) = floor((2a + b) / 2b).
            Func::Round => {
                BinOp::FloorDiv.apply(a.checked_mul(2)?.checked_add(b)?, b.checked_mul(2)?)
            }
            Func::Abs => a.checked_div(b)?.checked_abs(),
        }
    }

    /// The function of a whole number.
    pub fn of_integer(self, v: i64) -> Option<i64> {
        match self {
            Func::Abs => v.checked_abs(),
            _ => Some(v),
        }
    }
}

/// A group of rolls in braces, Roll20's and Foundry's (`{4d6+3, 2d8}kh1`,
/// `{3d6+3}>12`): its items' totals kept or dropped as dice are, or counted
/// as successes (issue 30, item 3).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SetTerm {
    /// The items, each an expression, in the order written (at least one).
    pub items: Vec<Node>,
    /// Which items' totals are kept; `None` keeps them all.
    pub select: Option<Select>,
    /// Further keeps and drops after `select`, in the order written
    /// (`(1d6, 1d6)kh1kl1`): `d20`'s several set operators on a set,
    /// applied as [`kept_by_rank`] says (issue 30, item 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_select: Vec<Select>,
    /// When present, the group counts the kept items whose total passes.
    pub success: Option<Test>,
    /// With `success`, each kept item whose total passes this subtracts one.
    pub failure: Option<Test>,
}

/// A node of the expression tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Node {
    /// A number written in the text, 0..=[`MAX_NUMBER`].
    Number(u32),
    /// A decimal written in the text (`d20` only; issue 30, item 2).
    Decimal(Decimal),
    /// A group of dice, e.g. `4d6kh3`.
    Dice(DiceTerm),
    /// A negated operand: `-x`.
    Neg(Box<Node>),
    /// An operand in parentheses, kept so the spelling survives.
    Group(Box<Node>),
    /// An operator and its two operands, left then right (one allocation for
    /// both).
    Binary(BinOp, Box<[Node; 2]>),
    /// A number, dice group or parenthesised group with its `[label]`s, each
    /// without its brackets, in the order written (at least one). The labels
    /// do not change the value. Issue 30, item 1 (d20's annotations).
    Labelled(Box<Node>, Vec<String>),
    /// `floor(x)`, `ceil(x)`, `round(x)` or `abs(x)` (Roll20 and Foundry).
    /// A `/` is read there only as the whole of the argument of the first
    /// three, where the quotient is rounded exactly.
    Func(Func, Box<Node>),
    /// A group of rolls in braces (Roll20 and Foundry).
    Set(Box<SetTerm>),
    /// Variable dice, Roll20's and Foundry's (issue 30, item 3): the count
    /// and the sides, each a number or a parenthesised group worked out
    /// first (`(2+1)d6`, `2d(1d4)`, `(1d4)d(1d6 + 2)`), then that many dice
    /// of that many sides summed. With modifiers, [`Node::ModifiedVarDice`].
    VarDice(Box<[Node; 2]>),
    /// Variable dice with modifiers, keeps and drops or tests (`2d(1d4)kh1`,
    /// `(2+1)d6!`; Roll20 and Foundry, issue 30, item 3): the count and
    /// the sides worked out first, then that group of dice with them, as
    /// if the numbers were written.
    ModifiedVarDice(Box<VarDice>),
}

/// Variable dice with their modifiers (`2d(1d4)kh1`, `(1d4)d6!>5`; Roll20's
/// computed dice and Foundry's parenthetical terms, each documenting that
/// the count and the sides are worked out first and the dice then rolled as
/// written with those numbers; issue 30, item 3).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VarDice {
    /// The count: a number or a parenthesised group.
    pub count: Node,
    /// The sides: a number or a parenthesised group.
    pub sides: Node,
    /// The modifiers, keeps and drops and tests, held as a group of dice
    /// holds them. Its `count` and `sides` are the fewest dice and sides the
    /// group can have, which the parser checked every modifier against (a
    /// face of every die, a keep within every count, a test some face of
    /// the smallest die fails); rolling puts the numbers worked out in
    /// their place.
    pub term: DiceTerm,
}

/// An arithmetic operator or a comparison of two totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`: in `d20`, exact division whose fraction is kept to the end
    /// (issue 30, item 2: `7 / 2 * 2` is 7, the total rounded toward zero);
    /// in Roll20 and Foundry only inside `floor()`, `ceil()`, `round()`.
    /// [`BinOp::apply`] on whole numbers rounds toward zero. The parser
    /// refuses any divisor that can be 0.
    Div,
    /// `//`: division rounding down, as Python's and `d20`'s (`-7 // 2` is -4).
    /// Issue 30, item 2.
    FloorDiv,
    /// `%`: the remainder with the sign of the divisor, as Python's and `d20`'s
    /// (`-7 % 3` is 2, `7 % -3` is -2). Issue 30, item 2.
    Mod,
    /// `%` in Roll20 and Foundry: JavaScript's remainder, with the sign of
    /// the dividend (`-7 % 3` is -1). Issue 30, item 3.
    Rem,
    /// `==`: 1 when the totals are equal, else 0 (`d20`'s comparison).
    Eq,
    /// `!=`: 1 when the totals differ, else 0.
    Ne,
    /// `<`: 1 when the left total is below the right, else 0.
    Lt,
    /// `<=`: 1 when the left total is at most the right, else 0.
    Le,
    /// `>`: 1 when the left total is above the right, else 0.
    Gt,
    /// `>=`: 1 when the left total is at least the right, else 0.
    Ge,
}

impl BinOp {
    /// The operator's symbol: `+`, `-`, `*`, `/`, `//`, `%`, `==`, `!=`, `<`,
    /// `<=`, `>` or `>=`.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod | BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }

    /// Whether this compares two totals (`==`, `!=`, `<`, `<=`, `>`, `>=`),
    /// giving 0 or 1.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// `a op b` in exact fractions (`d20`'s `/` keeps the fraction; issue
    /// 30, item 2): `//` and `%` as Python's on floats, comparisons 1 or 0;
    /// `None` on overflow or division by zero.
    pub(crate) fn apply_exact(self, a: Ratio, b: Ratio) -> Option<Ratio> {
        let cmp = |c: bool| Some(Ratio::int(i128::from(c)));
        match self {
            BinOp::Add => a.add(b),
            BinOp::Sub => a.sub(b),
            BinOp::Mul => a.mul(b),
            BinOp::Div => a.div(b),
            BinOp::FloorDiv => a.floor_div(b),
            BinOp::Mod => a.modulo(b),
            BinOp::Rem => a.rem(b),
            BinOp::Eq => cmp(a == b),
            BinOp::Ne => cmp(a != b),
            BinOp::Lt => cmp(a < b),
            BinOp::Le => cmp(a <= b),
            BinOp::Gt => cmp(a > b),
            BinOp::Ge => cmp(a >= b),
        }
    }

    /// `a op b`, or `None` on overflow or division by zero (which the parser's
    /// bounds rule out for parsed expressions).
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            BinOp::Add => a.checked_add(b),
            BinOp::Sub => a.checked_sub(b),
            BinOp::Mul => a.checked_mul(b),
            BinOp::Div => a.checked_div(b),
            BinOp::FloorDiv => {
                let q = a.checked_div(b)?;
                let r = a.checked_rem(b)?;
                Some(if r != 0 && ((r < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                })
            }
            BinOp::Mod => {
                let r = a.checked_rem(b)?;
                Some(if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                })
            }
            BinOp::Rem => a.checked_rem(b),
            BinOp::Eq => Some(i64::from(a == b)),
            BinOp::Ne => Some(i64::from(a != b)),
            BinOp::Lt => Some(i64::from(a < b)),
            BinOp::Le => Some(i64::from(a <= b)),
            BinOp::Gt => Some(i64::from(a > b)),
            BinOp::Ge => Some(i64::from(a >= b)),
        }
    }
}

/// The kind of die a group rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sides {
    /// Faces 1..=n, n in 1..=[`MAX_SIDES`] (`d%` is 100).
    Number(u32),
    /// The Fudge die `dF`: faces -1, 0, +1.
    Fudge,
}

impl Sides {
    /// The lowest and highest face value.
    pub fn range(self) -> (i64, i64) {
        match self {
            Sides::Number(n) => (1, i64::from(n)),
            Sides::Fudge => (-1, 1),
        }
    }

    /// The die the roller is asked for.
    pub fn die(self) -> Die {
        match self {
            // The parser keeps sides within the caps, so `new` cannot fail.
            Sides::Number(n) => Die::new(u64::from(n)).unwrap_or(Die::D6),
            Sides::Fudge => Die::labelled(&FUDGE_FACES).unwrap_or(Die::D3),
        }
    }

    /// The value of the roller's face `face` (1-based): itself, or -1/0/+1.
    pub fn value(self, face: u32) -> i64 {
        match self {
            Sides::Number(_) => i64::from(face),
            Sides::Fudge => i64::from(face) - 2,
        }
    }

    /// Every face value, lowest first.
    pub fn faces(self) -> impl Iterator<Item = i64> {
        let (lo, hi) = self.range();
        lo..=hi
    }
}

impl fmt::Display for Sides {
    /// `d6`, `dF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sides::Number(n) => write!(f, "d{n}"),
            Sides::Fudge => f.write_str("dF"),
        }
    }
}

/// A group of identical dice with modifiers, an optional selection and an
/// optional success test, applied in that order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiceTerm {
    /// How many dice are rolled (the whole expression rolls at most [`MAX_POOL`]).
    pub count: u32,
    /// The die.
    pub sides: Sides,
    /// Rerolls, minimum, maximum and explosion, in the order written;
    /// consecutive `ro`s, `rr`s or `e`s are one pass (as in `d20`). In
    /// `d20`'s notation a keep or drop with modifiers after it is a step
    /// here ([`Modifier::Select`]; `4d6kh3ro1`, issue 30, item 2), and the
    /// later steps act on the dice still kept.
    pub modifiers: Vec<Modifier>,
    /// Which dice are kept (among those the steps before kept); `None`
    /// keeps them all.
    pub select: Option<Select>,
    /// Further keeps and drops after `select`, in the order written
    /// (`4d6kh3pl1`, `4d6kh1kl1`): `d20`'s several set operators on one
    /// group, applied as [`kept_by_rank`] says (issue 30, item 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_select: Vec<Select>,
    /// A success test: when present the group counts successes instead of summing.
    pub success: Option<Test>,
    /// How the explosions of the group's `e` run add dice: Roll20's `!!`
    /// and `!p`, Foundry's `xo` (issue 30, item 3).
    #[serde(default, skip_serializing_if = "ExplodeKind::is_plain")]
    pub explode: ExplodeKind,
    /// With `success`, each kept die that passes this subtracts one from the
    /// count (Roll20's `f`, Foundry's `df`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Test>,
    /// Roll20's `cs`: the faces marked as a critical success in the outcome
    /// (the total does not change).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_success: Option<Test>,
    /// Roll20's `cf`: the faces marked as a critical failure in the outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_failure: Option<Test>,
}

/// How an explosion adds dice (issue 30, item 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExplodeKind {
    /// Each matching die rolls one more, which may explode again (`e6`,
    /// Roll20's `!`, Foundry's `x`), up to [`MAX_EXPLOSIONS`] per die.
    #[default]
    Plain,
    /// Each matching die of the group rolls one more, which does not explode
    /// (Foundry's `xo`). Exact: nothing is capped. (Not d20's `ra`, which
    /// adds at most one die to the whole group.)
    Once,
    /// The extra dice are added into the die that exploded: one die whose
    /// value is their sum (Roll20's `!!`), for keep, drop and successes.
    Compound,
    /// Each extra die counts one less than its face, and explodes on its face
    /// (Roll20's `!p`, HackMaster's penetration).
    Penetrate,
}

impl ExplodeKind {
    /// Whether this is the plain explosion.
    pub fn is_plain(&self) -> bool {
        *self == ExplodeKind::Plain
    }

    /// The spelling before the test: `e`, `xo`, `!!` or `!p`.
    pub fn symbol(self) -> &'static str {
        match self {
            ExplodeKind::Plain => "e",
            ExplodeKind::Once => "xo",
            ExplodeKind::Compound => "!!",
            ExplodeKind::Penetrate => "!p",
        }
    }
}

/// A modifier applied to every die of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Modifier {
    /// `ro`: reroll each matching die once; the new face stands.
    RerollOnce(Test),
    /// `rr`: reroll each matching die until it no longer matches, at most
    /// [`MAX_REROLLS`] times.
    Reroll(Test),
    /// `mi`: each face below this becomes this.
    Min(u32),
    /// `ma`: each face above this becomes this.
    Max(u32),
    /// `e`: roll one more die for each matching die, and for each matching one
    /// of those, at most [`MAX_EXPLOSIONS`] more per original die.
    Explode(Test),
    /// `ra`, `d20`'s "reroll and add": "Rerolls up to one matched value once,
    /// keeping the original roll" (`d20` 1.1.2 README, *Operators*; its
    /// `explode_once` with `max_targets=1`). The first die of the group that
    /// matches (in the order rolled) rolls one more die, added to the group;
    /// the added die never rerolls and adds again, and goes through the
    /// modifiers written after `ra` (not those before), as in `d20`. So
    /// `2d6ra6` is 2d6, plus one more d6 when either shows a 6. Issue 30,
    /// item 2.
    RerollAdd(Test),
    /// `rahN`, `ralN`: `ra` with `d20`'s selector by rank (`d20` 1.1.2
    /// README, *Selectors*: "hX highest X", "lX lowest X"); `ra` takes at
    /// most one die of those, so with N of 1 or more the highest (or
    /// lowest) die always adds one more, and with N of 0 none does.
    RerollAddRank {
        /// `h` (true) or `l`.
        highest: bool,
        /// N.
        count: u32,
    },
    /// `rohN`, `rolN`: `ro` with `d20`'s selector by rank (`d20` 1.1.2
    /// README, *Selectors*; `SetOperator.reroll_once`): the N highest (or
    /// lowest) dice of the group, counted when the pass starts, are
    /// rerolled once each and the new faces stand (`4d6rol1`: the lowest
    /// die once more). Among equal faces the earlier die is taken first, as
    /// `d20`'s stable sort does. In a run with `ro` tests (`ro1rol1`) a die
    /// is rerolled once when any of them selects it. Issue 30, item 2.
    RerollOnceRank {
        /// `h` (true) or `l`.
        highest: bool,
        /// N.
        count: u32,
    },
    /// `ehN`, `elN`: `e` with `d20`'s selector by rank (`SetOperator.explode`):
    /// the N highest (or lowest) dice explode, each rolling one more die;
    /// then, again and again, every die among the N highest (lowest) of all
    /// the dice so far that has not exploded yet explodes too. Among equal
    /// faces the earlier die ranks first, so a new die joins the N highest
    /// only when it is strictly higher than one of them: `1d6eh1` goes on
    /// while each new die beats every die before it, and always stops (at
    /// most N times the faces of the die explode). In a run with `e` tests
    /// (`e6eh1`) a die explodes when any of them selects it, and the
    /// explosions stop at [`MAX_EXPLOSIONS`] dice deep as `e`'s do. Issue
    /// 30, item 2.
    ExplodeRank {
        /// `h` (true) or `l`.
        highest: bool,
        /// N.
        count: u32,
    },
    /// A keep or drop with more modifiers written after it (`kh3` in
    /// `4d6kh3ro1`, `4d6kh3e6kh3`): `d20` applies each operation of a group
    /// in the order written, and every later one acts only on the dice
    /// still kept (`SetOperator.operate` selects among the set's
    /// `keptset`; `d20` 1.1.2, `expression.py`), so `4d6kh3ro1` rerolls a 1
    /// among the three kept dice and never a dropped one. Consecutive keeps
    /// and drops here are one run, as [`kept_by_rank`] applies them. A keep
    /// or drop with no modifier after it is the group's
    /// [`DiceTerm::select`] instead. Issue 30, item 2.
    Select(Select),
}

/// Which dice of a group are kept.
///
/// At most as many dice as the group rolls before explosions (the parser refuses
/// more). Among equal faces the earlier die counts as the lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Select {
    /// `khN`: keep the N highest.
    KeepHighest(u32),
    /// `klN`: keep the N lowest.
    KeepLowest(u32),
    /// `dhN` (or `phN`): drop the N highest.
    DropHighest(u32),
    /// `dlN` (or `plN`): drop the N lowest.
    DropLowest(u32),
    /// `k<N`: keep the dice below N, drop the others (`d20`'s selector;
    /// issue 30, item 2).
    KeepBelow(u32),
    /// `k>N`: keep the dice above N, drop the others.
    KeepAbove(u32),
    /// `p<N` (or `d<N`): drop the dice below N.
    DropBelow(u32),
    /// `p>N` (or `d>N`): drop the dice above N.
    DropAbove(u32),
}

impl Select {
    /// For a selection by value (`k<N`, `k>N`, `p<N`, `p>N`): the test a die
    /// meets to be selected, and whether the selected dice are kept (true) or
    /// dropped (false). `None` for keep or drop by rank (`kh3`).
    pub fn by_value(self) -> Option<(Test, bool)> {
        let (compare, target, keep) = match self {
            Select::KeepBelow(n) => (Compare::Below, n, true),
            Select::KeepAbove(n) => (Compare::Above, n, true),
            Select::DropBelow(n) => (Compare::Below, n, false),
            Select::DropAbove(n) => (Compare::Above, n, false),
            _ => return None,
        };
        Some((Test { compare, target }, keep))
    }

    /// Whether a die showing `value` is kept by a selection by value (always
    /// true for a selection by rank, which [`Select::by_value`] leaves out).
    pub fn keeps_value(self, value: i64) -> bool {
        match self.by_value() {
            Some((test, keep)) => test.test(value) == keep,
            None => true,
        }
    }

    /// [`Select::keeps_value`] of an exact total, a fraction in `d20`'s sets
    /// (issue 30, item 2).
    pub(crate) fn keeps_exact(self, value: Ratio) -> bool {
        match self.by_value() {
            Some((test, keep)) => test.test_exact(value) == keep,
            None => true,
        }
    }
}

impl Test {
    /// Whether an exact total, a fraction in `d20`'s sets, passes (issue
    /// 30, item 2).
    pub(crate) fn test_exact(self, value: Ratio) -> bool {
        let target = Ratio::int(i128::from(self.target));
        match self.compare {
            Compare::AtLeast => value >= target,
            Compare::Above => value > target,
            Compare::AtMost => value <= target,
            Compare::Below => value < target,
            Compare::Equal => value == target,
        }
    }
}

impl Select {
    /// Whether this keeps (`k`) rather than drops (`p`, `d`).
    pub fn keeps(self) -> bool {
        matches!(
            self,
            Select::KeepHighest(_)
                | Select::KeepLowest(_)
                | Select::KeepBelow(_)
                | Select::KeepAbove(_)
        )
    }
}

/// Which dice of a group are kept by several keeps and drops, as `d20`
/// 1.1.2 applies them (`SetOperator.keep`, `SetOperator.drop`,
/// `SetSelector.highestn`, `lowestn`, `lessthan`, `morethan`,
/// `_simplify_operations`): consecutive operators of one kind are one
/// operator whose selection is the union of theirs (`4d6kh1kl1` keeps the
/// highest and the lowest die, `4d6kh1k>4` the highest and every die above
/// 4), and each operator selects among the dice still kept, in the order
/// written (`4d6kh3pl1` keeps the highest three, then drops the lowest of
/// those; `4d6p<3kh2` drops the dice under 3, then keeps the highest two
/// left). Among equal faces `d20` takes the earlier die first for the
/// highest and for the lowest alike (Python's stable sort, `reverse=True`
/// too), so a union can hold fewer dice than its parts: `4d6kh1kl1` on four
/// 6s keeps one die. `values` in the order rolled. Issue 30, item 2.
pub fn kept_by_rank(values: &[i64], selects: &[Select]) -> Vec<bool> {
    kept_by_rank_of(values, selects, &|t: Test, v: i64| t.test(v))
}

/// [`kept_by_rank`] on any totals that order (`d20`'s set items, exact
/// fractions; issue 30, item 2), `test` telling whether a total passes a
/// selector's test.
pub(crate) fn kept_by_rank_of<T: Ord + Copy>(
    values: &[T],
    selects: &[Select],
    test: &dyn Fn(Test, T) -> bool,
) -> Vec<bool> {
    let mut kept = vec![true; values.len()];
    for run in selects.chunk_by(|a, b| a.keeps() == b.keeps()) {
        let chosen = picked_of(values, &kept, run.iter().map(|s| s.pick()), test);
        let keep = run.first().is_some_and(|s| s.keeps());
        for (k, c) in kept.iter_mut().zip(chosen) {
            if *k && c != keep {
                *k = false;
            }
        }
    }
    kept
}

/// One of `d20`'s selectors (`SetSelector`): a test on the face (`1`, `<3`,
/// `>4`), or the N highest or lowest (`h1`, `l2`). Issue 30, item 2.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pick {
    /// The dice whose face passes.
    Face(Test),
    /// The `count` highest (or lowest) dice; the earlier first among equals.
    Rank {
        /// The highest (true) or the lowest.
        highest: bool,
        /// How many.
        count: u32,
    },
}

impl Select {
    /// The selector a keep or drop applies.
    pub(crate) fn pick(self) -> Pick {
        match self {
            Select::KeepHighest(count) | Select::DropHighest(count) => Pick::Rank {
                highest: true,
                count,
            },
            Select::KeepLowest(count) | Select::DropLowest(count) => Pick::Rank {
                highest: false,
                count,
            },
            _ => match self.by_value() {
                Some((test, _)) => Pick::Face(test),
                None => Pick::Face(Test {
                    compare: Compare::Below,
                    target: 0,
                }),
            },
        }
    }
}

impl Modifier {
    /// The selector of `ro`, `rr`, `e` or `ra` (by test or by rank); `None`
    /// for `mi` and `ma`.
    pub(crate) fn pick(&self) -> Option<Pick> {
        match (self.test(), self.rank()) {
            (Some(t), _) => Some(Pick::Face(t)),
            (None, Some((highest, count))) => Some(Pick::Rank { highest, count }),
            (None, None) => None,
        }
    }
}

/// Which of the dice still `alive` a run of selectors picks: the union of
/// what each picks among them (`values` in the order rolled).
pub(crate) fn picked(
    values: &[i64],
    alive: &[bool],
    picks: impl IntoIterator<Item = Pick>,
) -> Vec<bool> {
    picked_of(values, alive, picks, &|t: Test, v: i64| t.test(v))
}

/// [`picked`] on any totals that order, `test` telling whether a total
/// passes a test.
fn picked_of<T: Ord + Copy>(
    values: &[T],
    alive: &[bool],
    picks: impl IntoIterator<Item = Pick>,
    test: &dyn Fn(Test, T) -> bool,
) -> Vec<bool> {
    let n = values.len();
    let mut chosen = vec![false; n];
    let mut order: Vec<usize> = Vec::new();
    for p in picks {
        match p {
            Pick::Face(t) => {
                for i in 0..n {
                    if alive[i] && test(t, values[i]) {
                        chosen[i] = true;
                    }
                }
            }
            Pick::Rank { highest, count } => {
                order.clear();
                order.extend((0..n).filter(|&i| alive[i]));
                // Stable: the earlier die first among equals, both ways.
                if highest {
                    order.sort_by_key(|&i| (std::cmp::Reverse(values[i]), i));
                } else {
                    order.sort_by_key(|&i| (values[i], i));
                }
                let k = usize::try_from(count)
                    .unwrap_or(usize::MAX)
                    .min(order.len());
                for &i in order.get(..k).unwrap_or_default() {
                    chosen[i] = true;
                }
            }
        }
    }
    chosen
}

/// [`picked`] on counts: `counts[j]` dice show `values[j]` (rising); the
/// answer is how many of each a run of selectors picks. Within a face every
/// selector takes a prefix of its dice (the earlier first: a rank takes
/// them in order, a test all or none), so the union takes the largest of
/// the selectors' shares and counts suffice.
pub(crate) fn picked_counts(
    counts: &[u32],
    values: &[i64],
    picks: &[Pick],
) -> impl Iterator<Item = u32> {
    let total: u64 = counts.iter().map(|c| u64::from(*c)).sum();
    let mut below = 0u64;
    counts.iter().zip(values).map(move |(&c, &v)| {
        let (lo, hi) = (below, below + u64::from(c));
        below = hi;
        let share = picks
            .iter()
            .map(|p| match *p {
                Pick::Face(t) => u64::from(c) * u64::from(t.test(v)),
                Pick::Rank { highest, count } => {
                    let k = u64::from(count).min(total);
                    let (a, b) = if highest { (total - k, total) } else { (0, k) };
                    hi.min(b).saturating_sub(lo.max(a))
                }
            })
            .max()
            .unwrap_or(0);
        u32::try_from(share).unwrap_or(c)
    })
}

/// [`kept_by_rank`] on counts: `counts[j]` dice show `values[j]` (rising);
/// the answer is how many of each are kept.
pub(crate) fn kept_counts(counts: &[u32], values: &[i64], selects: &[Select]) -> Vec<u32> {
    let mut alive = counts.to_vec();
    let mut picks = Vec::with_capacity(selects.len());
    for run in selects.chunk_by(|a, b| a.keeps() == b.keeps()) {
        let keep = run.first().is_some_and(|s| s.keeps());
        picks.clear();
        picks.extend(run.iter().map(|s| s.pick()));
        let shares: Vec<u32> = picked_counts(&alive, values, &picks).collect();
        for (c, share) in alive.iter_mut().zip(shares) {
            *c = if keep { share } else { *c - share.min(*c) };
        }
    }
    alive
}

/// A comparison of a die's value with a target: `>=5` in `10d6>=5`, `<3` in
/// `ro<3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Test {
    /// How a value is compared with the target.
    pub compare: Compare,
    /// The target number.
    pub target: u32,
}

/// A comparison of a die value with a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compare {
    /// `>=`
    AtLeast,
    /// `>`
    Above,
    /// `<=`
    AtMost,
    /// `<`
    Below,
    /// `=` (also written `==`, or nothing after a modifier: `ro1`)
    Equal,
}

impl Compare {
    /// Whether `value` passes this comparison with `target`.
    pub fn test(self, value: i64, target: i64) -> bool {
        match self {
            Compare::AtLeast => value >= target,
            Compare::Above => value > target,
            Compare::AtMost => value <= target,
            Compare::Below => value < target,
            Compare::Equal => value == target,
        }
    }

    /// The canonical symbol: `>=`, `>`, `<=`, `<` or `=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::AtLeast => ">=",
            Compare::Above => ">",
            Compare::AtMost => "<=",
            Compare::Below => "<",
            Compare::Equal => "=",
        }
    }
}

impl Modifier {
    /// The test of `ro`, `rr` or `e`; `None` for `mi` and `ma`.
    pub fn test(&self) -> Option<Test> {
        match *self {
            Modifier::RerollOnce(t)
            | Modifier::Reroll(t)
            | Modifier::Explode(t)
            | Modifier::RerollAdd(t) => Some(t),
            Modifier::Min(_)
            | Modifier::Max(_)
            | Modifier::RerollAddRank { .. }
            | Modifier::RerollOnceRank { .. }
            | Modifier::ExplodeRank { .. }
            | Modifier::Select(_) => None,
        }
    }

    /// The selector by rank of `rahN`, `rohN`, `ehN` (and their `l`
    /// forms): whether it takes the highest dice, and how many.
    pub fn rank(&self) -> Option<(bool, u32)> {
        match *self {
            Modifier::RerollAddRank { highest, count }
            | Modifier::RerollOnceRank { highest, count }
            | Modifier::ExplodeRank { highest, count } => Some((highest, count)),
            _ => None,
        }
    }

    /// Whether this is `e`, by test or by rank.
    pub fn explodes(&self) -> bool {
        matches!(self, Modifier::Explode(_) | Modifier::ExplodeRank { .. })
    }

    /// Whether this is `ro`, by test or by rank.
    pub fn rerolls_once(&self) -> bool {
        matches!(
            self,
            Modifier::RerollOnce(_) | Modifier::RerollOnceRank { .. }
        )
    }

    /// Whether this is `ra`, by test or by rank.
    pub fn adds(&self) -> bool {
        matches!(
            self,
            Modifier::RerollAdd(_) | Modifier::RerollAddRank { .. }
        )
    }

    /// Whether `self` and `next`, written one after the other, are one pass:
    /// both `ro`, both `rr`, both `ra` or both `e` (as `d20` merges them:
    /// `_simplify_operations` joins consecutive operators of one kind but
    /// `mi` and `ma`).
    pub fn merges_with(&self, next: &Modifier) -> bool {
        matches!(
            (self, next),
            (
                Modifier::RerollOnce(_) | Modifier::RerollOnceRank { .. },
                Modifier::RerollOnce(_) | Modifier::RerollOnceRank { .. }
            ) | (Modifier::Reroll(_), Modifier::Reroll(_))
                | (
                    Modifier::Explode(_) | Modifier::ExplodeRank { .. },
                    Modifier::Explode(_) | Modifier::ExplodeRank { .. }
                )
                | (
                    Modifier::RerollAdd(_) | Modifier::RerollAddRank { .. },
                    Modifier::RerollAdd(_) | Modifier::RerollAddRank { .. }
                )
                | (Modifier::Select(_), Modifier::Select(_))
        )
    }

    /// The keep or drop of a [`Modifier::Select`] step.
    pub fn select(&self) -> Option<Select> {
        match *self {
            Modifier::Select(s) => Some(s),
            _ => None,
        }
    }
}

/// Apply the keeps and drops `selects` (one run, as [`kept_by_rank`]
/// applies several) among the dice still `kept`, leaving the dropped ones
/// dropped: `d20`'s keep and drop select among the set's `keptset`
/// (issue 30, item 2). `values` in the order rolled.
pub(crate) fn keep_among(values: &[i64], kept: &mut [bool], selects: &[Select]) {
    let alive: Vec<usize> = (0..values.len()).filter(|&i| kept[i]).collect();
    let live: Vec<i64> = alive.iter().map(|&i| values[i]).collect();
    for (i, k) in alive.into_iter().zip(kept_by_rank(&live, selects)) {
        kept[i] = k;
    }
}

/// The passes of a group's modifiers: each run of modifiers that merge
/// ([`Modifier::merges_with`]) is one pass, every `mi` and `ma` its own.
/// `d20`'s merging of repeated operators; issue 30, item 2.
pub(crate) fn passes(mods: &[Modifier]) -> impl Iterator<Item = &[Modifier]> {
    mods.chunk_by(|a, b| a.merges_with(b))
}

/// Whether `value` matches any test of a pass (a run of `ro`, `rr`, `ra` or
/// `e`). An `ra` by rank with a count of 1 or more matches every die (the
/// group always adds one; only which die is marked differs); `ro` and `e` by
/// rank match no face by itself (their dice depend on the others: see
/// [`picked`]).
pub(crate) fn pass_matches(pass: &[Modifier], value: i64) -> bool {
    pass.iter().any(|m| match m {
        Modifier::RerollAddRank { count, .. } => *count > 0,
        _ => m.test().is_some_and(|t| t.test(value)),
    })
}

impl Test {
    /// Whether a die showing `value` passes.
    pub fn test(self, value: i64) -> bool {
        self.compare.test(value, i64::from(self.target))
    }
}

/// Why a text is not a dice expression. Every variant carries the 0-based byte
/// `position` of the problem in the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[non_exhaustive]
pub enum NotationError {
    /// A character that cannot stand here.
    #[error("expected {expected} at position {position}, found {found:?}")]
    UnexpectedChar {
        /// The character found.
        found: char,
        /// What could have stood here, in words (e.g. "a number after `kh`").
        expected: String,
        /// Its byte offset.
        position: usize,
    },
    /// The text ends where something more is needed (`1d6kh`).
    #[error("expected {expected} at position {position}")]
    UnexpectedEnd {
        /// What is missing, in words (e.g. "a number after `kh`").
        expected: String,
        /// The byte offset of the end of the text.
        position: usize,
    },
    /// A number above [`MAX_NUMBER`].
    #[error("the number at position {position} is too large (at most {max})")]
    NumberTooLarge {
        /// The largest number allowed, [`MAX_NUMBER`].
        max: u32,
        /// Where the number starts.
        position: usize,
    },
    /// The expression rolls more than [`MAX_POOL`] dice in total.
    #[error(
        "too many dice: the roll would use {count} dice by position {position}, at most {max} are allowed"
    )]
    TooManyDice {
        /// Dice counted up to and including this group.
        count: u64,
        /// [`MAX_POOL`].
        max: u32,
        /// Where the group that goes over the cap starts.
        position: usize,
    },
    /// A die with more than [`MAX_SIDES`] sides.
    #[error("a die may have at most {max} sides, not {sides} (position {position})")]
    TooManySides {
        /// The sides asked for.
        sides: u32,
        /// [`MAX_SIDES`].
        max: u32,
        /// Where the number of sides starts.
        position: usize,
    },
    /// A die with zero sides.
    #[error("a die needs at least one side (position {position})")]
    ZeroSides {
        /// Where the number of sides starts.
        position: usize,
    },
    /// The text is longer than [`MAX_INPUT_LEN`] bytes.
    #[error("the roll is {len} bytes long, at most {max} are allowed (position {position})")]
    TooLong {
        /// The length of the text, in bytes.
        len: usize,
        /// [`MAX_INPUT_LEN`].
        max: usize,
        /// The first byte past the cap ([`MAX_INPUT_LEN`]).
        position: usize,
    },
    /// A keep or drop of more dice than the group rolls (`2d6kh3`).
    #[error("cannot {verb} {selected} dice of {rolled} rolled (position {position})")]
    SelectsMoreThanRolled {
        /// `keep` or `drop`.
        verb: &'static str,
        /// The dice to keep or drop.
        selected: u32,
        /// The dice the group rolls.
        rolled: u32,
        /// Where the selection starts.
        position: usize,
    },
    /// A success test that every face of the die passes (`10d6>=1`): it counts
    /// the dice, not successes.
    #[error("every face of a {die} passes {test}, so it counts no successes (position {position})")]
    EveryFaceSucceeds {
        /// The test as written, e.g. `>=1`.
        test: String,
        /// The die, e.g. `d6`.
        die: String,
        /// Where the test starts.
        position: usize,
    },
    /// A reroll until (`rr`) or an explosion (`e`) on every face: it would never
    /// stop.
    #[error(
        "every face of a {die} matches {operator}{test}, so it would never stop (position {position})"
    )]
    EveryFaceMatches {
        /// `rr` or `e`.
        operator: &'static str,
        /// The test, e.g. `<7`.
        test: String,
        /// The die, e.g. `d6`.
        die: String,
        /// Where the modifier starts.
        position: usize,
    },
    /// `mi` or `ma` with a number that is not a face of the die (`1d6mi7`).
    #[error("{operator}{target}: {target} is not a face of a {die} (position {position})")]
    NotAFace {
        /// `mi` or `ma`.
        operator: &'static str,
        /// The number written.
        target: u32,
        /// The die, e.g. `d6`.
        die: String,
        /// Where the modifier starts.
        position: usize,
    },
    /// A modifier where it cannot stand: after a keep or drop, or an `e` after
    /// another explosion with other modifiers between them.
    #[error("{reason} (position {position})")]
    Misplaced {
        /// What is wrong, in words.
        reason: &'static str,
        /// Where the modifier starts.
        position: usize,
    },
    /// More than [`MAX_TERMS`] numbers and dice groups.
    #[error("too many terms: at most {max} are allowed (position {position})")]
    TooManyTerms {
        /// [`MAX_TERMS`].
        max: usize,
        /// Where the first term over the cap starts.
        position: usize,
    },
    /// Parentheses and signs nested deeper than [`MAX_DEPTH`].
    #[error("the roll nests parentheses and signs more than {max} deep (position {position})")]
    TooDeep {
        /// [`MAX_DEPTH`].
        max: usize,
        /// Where the nesting goes over the cap.
        position: usize,
    },
    /// A divisor that can be 0 (`1d6 / (1d2 - 1)`).
    #[error("the divisor `{divisor}` can be 0 (position {position})")]
    DivisionByZero {
        /// The divisor in canonical spelling.
        divisor: String,
        /// Where the divisor starts.
        position: usize,
    },
    /// Rerolls and explosions that could ask the roller for more than
    /// [`MAX_ROLLS`] dice.
    #[error(
        "the rerolls and explosions could roll {count} dice by position {position}, at most {max} are allowed"
    )]
    TooManyRolls {
        /// The worst case counted up to and including this group.
        count: u64,
        /// [`MAX_ROLLS`].
        max: u64,
        /// Where the group that goes over the cap starts.
        position: usize,
    },
    /// Text a dialect reads otherwise or not at all, refused rather than
    /// misread (issue 30, item 3): a comparison of totals or `//` outside
    /// `d20`, a `/` outside `floor()`, `ceil()` or `round()` in Roll20 and
    /// Foundry (their `/` gives a fraction), an explosion with other
    /// modifiers in one group there (they apply modifiers in their own
    /// order).
    #[error("{reason} in {dialect} (position {position})")]
    NotInDialect {
        /// What is refused and what to write instead, in words.
        reason: String,
        /// The dialect reading the text.
        dialect: Dialect,
        /// Where it starts.
        position: usize,
    },
    /// A value the roll can reach beyond ±[`MAX_TOTAL`].
    #[error("the roll could reach {reach}, beyond ±{max} (position {position})")]
    TotalTooLarge {
        /// The extreme value (saturated at `i64` range).
        reach: i64,
        /// [`MAX_TOTAL`].
        max: i64,
        /// Where the part that goes over starts.
        position: usize,
    },
    /// A fraction finer than [`MAX_DENOMINATOR`] (`d20`'s `/` keeps
    /// fractions: `1d6 / 1d1000 / 1d1000 / 1d1000`).
    #[error(
        "the roll could reach a fraction with denominator {denominator}, beyond {max} (position {position})"
    )]
    FractionTooFine {
        /// The largest denominator it could reach (saturated).
        denominator: u64,
        /// [`MAX_DENOMINATOR`].
        max: u64,
        /// Where the part that goes over starts.
        position: usize,
    },
    /// `d20`'s selector by rank on a reroll until (`rrl1`, `rrh1`; issue 30,
    /// item 2), which Tabula refuses for good, saying why: a highest or
    /// lowest die always exists, so `d20` never stops there. (`ro` and `e`
    /// by rank are read: [`Modifier::RerollOnceRank`],
    /// [`Modifier::ExplodeRank`].)
    #[error("`{modifier}`: {reason} (position {position})")]
    RankSelectorNotRead {
        /// The modifier as written, with its selector (`rrl1`).
        modifier: String,
        /// Why it is refused and what to write instead.
        reason: String,
        /// Where the selector stands.
        position: usize,
    },
    /// Variable dice whose count or sides could leave the caps
    /// (`(1d4 - 2)d6`, `2d(1d4 - 1)`; issue 30, item 3).
    #[error("the {part} of variable dice could be {lo} to {hi}, outside {}..={} (position {position})", allowed.0, allowed.1)]
    VariableDiceOutOfRange {
        /// `count` or `sides`.
        part: &'static str,
        /// The least it could be.
        lo: i64,
        /// The most it could be.
        hi: i64,
        /// What is allowed.
        allowed: (i64, i64),
        /// Where that part starts.
        position: usize,
    },
    /// A decimal with more than [`MAX_DECIMALS`] digits after its point.
    #[error("a decimal takes at most {max} digits after its point (position {position})")]
    TooManyDecimals {
        /// [`MAX_DECIMALS`].
        max: u32,
        /// Where the decimal starts.
        position: usize,
    },
}

impl NotationError {
    /// The 0-based byte offset of the problem in the text.
    pub fn position(&self) -> usize {
        match self {
            NotationError::UnexpectedChar { position, .. }
            | NotationError::UnexpectedEnd { position, .. }
            | NotationError::NumberTooLarge { position, .. }
            | NotationError::TooManyDice { position, .. }
            | NotationError::TooManySides { position, .. }
            | NotationError::ZeroSides { position }
            | NotationError::TooLong { position, .. }
            | NotationError::TooManyTerms { position, .. }
            | NotationError::SelectsMoreThanRolled { position, .. }
            | NotationError::EveryFaceSucceeds { position, .. }
            | NotationError::EveryFaceMatches { position, .. }
            | NotationError::NotAFace { position, .. }
            | NotationError::Misplaced { position, .. }
            | NotationError::TooDeep { position, .. }
            | NotationError::DivisionByZero { position, .. }
            | NotationError::TooManyRolls { position, .. }
            | NotationError::NotInDialect { position, .. }
            | NotationError::FractionTooFine { position, .. }
            | NotationError::RankSelectorNotRead { position, .. }
            | NotationError::VariableDiceOutOfRange { position, .. }
            | NotationError::TooManyDecimals { position, .. }
            | NotationError::TotalTooLarge { position, .. } => *position,
        }
    }
}

impl Expr {
    /// Parse a dice expression such as `4d6kh3 + 2`, `(1d4 + 1) * 2` or
    /// `10d6>=5`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::Expr;
    /// use tabula_core::Scripted;
    ///
    /// let expr = Expr::parse("4d6kh3 + 1")?;
    /// assert_eq!(expr.dice_count(), 4);
    /// let mut dice = Scripted::dice([6, 5, 2, 4]);
    /// let outcome = expr.roll(&mut dice)?;
    /// assert_eq!(outcome.total, 16);
    /// assert_eq!(outcome.to_string(), "4d6kh3 (6, 5, 2 dropped, 4) + 1 = 16");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`NotationError`] naming what is wrong and its byte position: a
    /// character that cannot stand where it is, a text that ends too soon
    /// (`1d6kh`), a threshold every face meets, a divisor that can be 0, or a
    /// cap exceeded (see the [module documentation](self)).
    #[inline]
    pub fn parse(text: &str) -> Result<Expr, NotationError> {
        parse::parse(text, Dialect::D20)
    }

    /// Parse a dice expression in `dialect`'s meaning (issue 30, item 3):
    /// `Expr::parse_in("10d10>7f1", Dialect::Roll20)` counts the dice showing
    /// at least 7, less those showing 1. [`Expr::parse`] is
    /// `parse_in(text, Dialect::D20)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::{Dialect, Expr};
    /// use tabula_core::Scripted;
    ///
    /// let expr = Expr::parse_in("4d6k3", Dialect::Roll20)?;
    /// let outcome = expr.roll(&mut Scripted::dice([6, 5, 2, 4]))?;
    /// assert_eq!(outcome.total, 15);
    /// assert_eq!(outcome.to_string(), "4d6kh3 (6, 5, 2 dropped, 4) = 15 (roll20)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Expr::parse`], and [`NotationError::NotInDialect`] for text the
    /// dialect reads otherwise or not at all.
    #[inline]
    pub fn parse_in(text: &str, dialect: Dialect) -> Result<Expr, NotationError> {
        parse::parse(text, dialect)
    }

    /// The dialect that read the text.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Roll the expression once, asking `roller` for each die left to right.
    ///
    /// The roller is not finished here: when it is a [`crate::Manual`] roller, call
    /// [`Roller::finish`] afterwards, because a manual roller that runs short
    /// stands in a 1 for each missing die and reports the shortage only there
    /// ("need 1 more d6"). Rerolls and explosions stop once a manual roller has
    /// run short.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::Expr;
    /// use tabula_core::{Manual, Roller};
    ///
    /// let expr: Expr = "3d6".parse()?;
    /// let mut rolled = Manual::from_list("6,2,1");
    /// let outcome = expr.roll(&mut rolled)?;
    /// rolled.finish()?;
    /// assert_eq!(outcome.total, 9);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Whatever the roller reports: a typed value that is not a face of its die
    /// ([`crate::RollError::NotAFace`]), a script that ran out.
    #[inline]
    pub fn roll(&self, roller: &mut dyn Roller) -> Result<RollOutcome, crate::RollError> {
        roll::roll(self, roller)
    }

    /// Roll the expression once and return only its total: the same dice
    /// asked of the roller in the same order, and the same total, as
    /// [`Expr::roll`], without building the outcome tree. For simulations
    /// that roll an expression millions of times: a group without rerolls,
    /// `mi`/`ma` or explosions is rolled into a buffer on the stack (no
    /// allocation unless it keeps or drops among more than 64 dice).
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::Expr;
    /// use tabula_core::Scripted;
    ///
    /// let expr = Expr::parse("4d6kh3 + 1")?;
    /// assert_eq!(expr.roll_total(&mut Scripted::dice([6, 5, 2, 4]))?, 16);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Expr::roll`].
    pub fn roll_total(&self, roller: &mut dyn Roller) -> Result<i64, crate::RollError> {
        roll::roll_total(self, roller)
    }

    /// How many dice one roll of this expression asks for before rerolls and
    /// explosions (at most [`MAX_POOL`]).
    pub fn dice_count(&self) -> u32 {
        self.dice
    }

    /// The root of the expression tree.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The comment after the roll: the plain words after it (`dex save` in
    /// `1d20 + 5 dex save`), or a comment from `#` on, with its `#`
    /// (`# vs AC 15` in `1d20 + 5 # vs AC 15`).
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }
}

impl FromStr for Expr {
    type Err = NotationError;

    /// The same as [`Expr::parse`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Expr::parse(s)
    }
}

impl fmt::Display for Expr {
    /// The canonical spelling: operators between spaces (`1d20 + 5`,
    /// `(1d4 + 1) * 2`), counts always written (`1d20`), `d%` as `d100`, `=`
    /// for equality in a success test and nothing for it after a modifier
    /// (`ro1`), then the comment after one space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root.fmt_in(f, self.dialect)?;
        if let Some(c) = &self.comment {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Node {
    /// The node in canonical spelling (see [`Expr`]'s `Display`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_in(f, Dialect::D20)
    }
}

impl Node {
    /// The canonical spelling as `dialect` reads it back: the same as
    /// `Display`, but for Foundry a test right before a success test keeps
    /// its `=` (`rr=1>4`: Foundry reads `rr1>4` as a capped reroll).
    fn fmt_in(&self, f: &mut fmt::Formatter<'_>, dialect: Dialect) -> fmt::Result {
        let sub = |f: &mut fmt::Formatter<'_>, x: &Node| x.fmt_in(f, dialect);
        match self {
            Node::Number(v) => write!(f, "{v}"),
            Node::Decimal(d) => write!(f, "{d}"),
            Node::Dice(d) => d.fmt_in(f, dialect == Dialect::Foundry),
            Node::Neg(x) => {
                f.write_str("-")?;
                sub(f, x)
            }
            Node::Group(x) => {
                f.write_str("(")?;
                sub(f, x)?;
                f.write_str(")")
            }
            Node::Binary(op, ab) => {
                sub(f, &ab[0])?;
                write!(f, " {} ", op.symbol())?;
                sub(f, &ab[1])
            }
            Node::Labelled(x, labels) => {
                sub(f, x)?;
                for l in labels {
                    write!(f, " [{l}]")?;
                }
                Ok(())
            }
            Node::Func(func, x) => {
                write!(f, "{}(", func.name())?;
                sub(f, x)?;
                f.write_str(")")
            }
            Node::VarDice(cs) => {
                sub(f, &cs[0])?;
                f.write_str("d")?;
                sub(f, &cs[1])
            }
            Node::ModifiedVarDice(v) => {
                sub(f, &v.count)?;
                f.write_str("d")?;
                sub(f, &v.sides)?;
                v.term.fmt_suffix_in(f, dialect == Dialect::Foundry)
            }
            Node::Set(set) => {
                // d20's sets are in parentheses, a set of one with a comma.
                let d20 = dialect == Dialect::D20;
                f.write_str(if d20 { "(" } else { "{" })?;
                for (i, item) in set.items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    sub(f, item)?;
                }
                if d20 && set.items.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(if d20 { ")" } else { "}" })?;
                set.fmt_suffix(f)
            }
        }
    }
}

impl SetTerm {
    /// The selection and tests after the braces: `kh1`, `>=12`, `>=7f=1`.
    pub(crate) fn fmt_suffix(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        for s in self.select.iter().chain(&self.more_select) {
            write!(f, "{s}")?;
        }
        write_tests(f, self.success, self.failure)
    }
}

/// A success test and a failure test as written after a group: `>=7`,
/// `>=7f=1`.
fn write_tests(
    f: &mut dyn fmt::Write,
    success: Option<Test>,
    failure: Option<Test>,
) -> fmt::Result {
    if let Some(s) = success {
        write!(f, "{}{}", s.compare.symbol(), s.target)?;
    }
    if let Some(t) = failure {
        write!(f, "f{}{}", t.compare.symbol(), t.target)?;
    }
    Ok(())
}

impl fmt::Display for DiceTerm {
    /// `4d6kh3`, `10d6>=5`, `1d100`, `4d6ro<3kh3`, `4dF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_in(f, false)
    }
}

impl DiceTerm {
    /// `count` dice of `sides` with no modifier, selection or test (`3d6`).
    /// Inlined, so a caller that puts it in place builds it there.
    #[inline(always)]
    pub(super) fn plain(count: u32, sides: Sides) -> DiceTerm {
        DiceTerm {
            count,
            sides,
            modifiers: Vec::new(),
            select: None,
            more_select: Vec::new(),
            success: None,
            explode: ExplodeKind::Plain,
            failure: None,
            critical_success: None,
            critical_failure: None,
        }
    }

    /// The canonical spelling; with `explicit_equal`, the last modifier's
    /// test keeps its `=` when a success test follows it (for Foundry).
    fn fmt_in(&self, f: &mut fmt::Formatter<'_>, explicit_equal: bool) -> fmt::Result {
        write!(f, "{}{}", self.count, self.sides)?;
        self.fmt_suffix_in(f, explicit_equal)
    }

    /// What follows the count and the sides in the canonical spelling: the
    /// modifiers, keeps and drops and tests (see [`DiceTerm::fmt_in`]).
    fn fmt_suffix_in(&self, f: &mut fmt::Formatter<'_>, explicit_equal: bool) -> fmt::Result {
        let last = self.modifiers.len().wrapping_sub(1);
        for (i, m) in self.modifiers.iter().enumerate() {
            let equal_shown = explicit_equal
                && i == last
                && self.select.is_none()
                && self.success.is_some()
                && m.test().is_some_and(|t| t.compare == Compare::Equal);
            if equal_shown && self.explode.is_plain() {
                let name = match m {
                    Modifier::RerollOnce(_) => "ro",
                    Modifier::Reroll(_) => "rr",
                    Modifier::RerollAdd(_) => "ra",
                    _ => "e",
                };
                write!(f, "{name}=")?;
                if let Some(t) = m.test() {
                    write!(f, "{}", t.target)?;
                }
                continue;
            }
            match (m, self.explode) {
                (Modifier::Explode(t), kind) if !kind.is_plain() => {
                    f.write_str(kind.symbol())?;
                    if t.compare != Compare::Equal || equal_shown {
                        f.write_str(t.compare.symbol())?;
                    }
                    write!(f, "{}", t.target)?;
                }
                _ => fmt::Display::fmt(m, f)?,
            }
        }
        for s in self.select.iter().chain(&self.more_select) {
            fmt::Display::fmt(s, f)?;
        }
        write_tests(f, self.success, self.failure)?;
        for (name, t) in [("cs", self.critical_success), ("cf", self.critical_failure)] {
            if let Some(t) = t {
                write!(f, "{name}{}{}", t.compare.symbol(), t.target)?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Modifier {
    /// `ro1`, `rr<3`, `mi2`, `ma5`, `e6`, `e>=5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, test) = match self {
            Modifier::RerollOnce(t) => ("ro", t),
            Modifier::Reroll(t) => ("rr", t),
            Modifier::Explode(t) => ("e", t),
            Modifier::RerollAdd(t) => ("ra", t),
            Modifier::RerollAddRank { highest, count } => {
                return write!(f, "ra{}{count}", if *highest { "h" } else { "l" });
            }
            Modifier::RerollOnceRank { highest, count } => {
                return write!(f, "ro{}{count}", if *highest { "h" } else { "l" });
            }
            Modifier::ExplodeRank { highest, count } => {
                return write!(f, "e{}{count}", if *highest { "h" } else { "l" });
            }
            Modifier::Min(n) => return write!(f, "mi{n}"),
            Modifier::Max(n) => return write!(f, "ma{n}"),
            Modifier::Select(s) => return fmt::Display::fmt(s, f),
        };
        f.write_str(name)?;
        if test.compare != Compare::Equal {
            f.write_str(test.compare.symbol())?;
        }
        write!(f, "{}", test.target)
    }
}

impl fmt::Display for Select {
    /// `kh3`, `kl1`, `dh1`, `dl1`, `k<3`, `p>4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Select::KeepHighest(n) => write!(f, "kh{n}"),
            Select::KeepLowest(n) => write!(f, "kl{n}"),
            Select::DropHighest(n) => write!(f, "dh{n}"),
            Select::DropLowest(n) => write!(f, "dl{n}"),
            Select::KeepBelow(n) => write!(f, "k<{n}"),
            Select::KeepAbove(n) => write!(f, "k>{n}"),
            Select::DropBelow(n) => write!(f, "p<{n}"),
            Select::DropAbove(n) => write!(f, "p>{n}"),
        }
    }
}
