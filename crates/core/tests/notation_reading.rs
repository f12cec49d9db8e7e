//! Issue 30, item 1: never a silent misread. The whole text is read as the roll,
//! except a `#` comment or plain words after the whole roll; `[label]`s are read
//! (glued or spaced), kept on their operand and shown in the outcome; anything
//! else is an error pointing at it.

use proptest::prelude::*;
use tabula_core::Scripted;
use tabula_core::notation::{BinOp, Expr, Node, NodeOutcome, NotationError};

fn parse(text: &str) -> Expr {
    Expr::parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn err(text: &str) -> NotationError {
    match Expr::parse(text) {
        Ok(e) => panic!("{text:?} should be refused, parsed as {e:?}"),
        Err(e) => e,
    }
}

fn roll(text: &str, dice: &[u32]) -> tabula_core::RollOutcome {
    let mut r = Scripted::dice(dice.iter().copied());
    let out = parse(text).roll(&mut r).unwrap();
    assert_eq!(r.remaining(), 0, "{text} left dice unused");
    out
}

fn mean(text: &str) -> f64 {
    parse(text).odds().unwrap().dist.mean()
}

#[test]
fn issue_30_labels_are_read_on_their_operand_and_change_no_value() {
    // The issue's examples: the label no longer ends the roll.
    let out = roll("1d8+3 [slashing] + 2d6 [fire]", &[5, 2, 6]);
    assert_eq!(out.total, 16);
    assert_eq!(
        out.to_string(),
        "1d8 (5) + 3 [slashing] + 2d6 (2, 6) [fire] = 16"
    );
    assert!((mean("1d8+3 [slashing] + 2d6 [fire]") - 14.5).abs() < 1e-9);
    // Half of 8d6, rounded toward zero: 13.75 on average, as d20's total.
    let half = parse("8d6 [fire] / 2");
    assert!(matches!(
        half.root(),
        Node::Binary(BinOp::Div, ab) if matches!(&ab[0], Node::Labelled(_, l) if l == &["fire"])
    ));
    assert!((mean("8d6 [fire] / 2") - 13.75).abs() < 1e-9);
    assert_eq!(half.comment(), None);
    let out = roll("1d20 [adv] + 5", &[12]);
    assert_eq!(out.total, 17);
    assert_eq!(out.to_string(), "1d20 (12) [adv] + 5 = 17");
    // Glued, on a number, several on one operand, on a parenthesised group.
    assert_eq!(parse("1d20+2[STR]").to_string(), "1d20 + 2 [STR]");
    assert_eq!(roll("1d20+2[STR]", &[10]).total, 12);
    let two = parse("1d20[adv] [str]");
    assert_eq!(
        two.root(),
        &Node::Labelled(
            Box::new(parse("1d20").root().clone()),
            vec!["adv".to_string(), "str".to_string()]
        )
    );
    let out = roll("(1d4 + 1)[bonus] * 2", &[3]);
    assert_eq!(out.total, 8);
    assert_eq!(out.to_string(), "(1d4 (3) + 1) [bonus] * 2 = 8");
    // Labels inside a label's brackets are its text, up to the first `]`.
    assert_eq!(parse("1d6 [a + 2]").to_string(), "1d6 [a + 2]");
    assert_eq!(parse("-1d6 [cold]").to_string(), "-1d6 [cold]");
    // The canonical spelling reads back the same.
    for text in [
        "1d8+3 [slashing] + 2d6 [fire]",
        "1d20[adv] [str] + 5 dex save",
        "(1d4 + 1)[bonus] * 2 # heal",
        "4d6kh3[str]",
        "1d6 []",
    ] {
        let e = parse(text);
        assert_eq!(parse(&e.to_string()), e, "{text}");
    }
}

#[test]
fn issue_30_a_label_is_kept_in_the_outcome_tree_and_its_json() {
    let out = roll("1d20 [adv] + 5", &[12]);
    let NodeOutcome::Binary { operands, .. } = &out.root else {
        panic!("{out:?}");
    };
    assert!(matches!(
        &operands.lhs,
        NodeOutcome::Labelled { value: 12, labels, .. } if labels == &["adv"]
    ));
    let json = serde_json::to_value(&out).unwrap();
    assert_eq!(json["root"]["lhs"]["kind"], "labelled");
    assert_eq!(json["root"]["lhs"]["labels"][0], "adv");
    assert_eq!(json["root"]["lhs"]["inner"]["kind"], "dice");
    let back: tabula_core::RollOutcome = serde_json::from_value(json).unwrap();
    assert_eq!(back, out);
    assert_eq!(out.root.evaluate(), Some(17));
    assert_eq!(out.root.dice().len(), 1);
}

#[test]
fn issue_30_a_label_never_closed_is_an_error() {
    let e = err("1d20 [fire + 5");
    assert!(
        matches!(&e, NotationError::UnexpectedEnd { position: 14, expected } if expected.contains("position 5")),
        "{e}"
    );
    assert!(matches!(
        err("1d20 fire] + 5"),
        NotationError::UnexpectedChar { position: 5, .. }
    ));
}

#[test]
fn issue_30_text_that_is_not_plain_words_is_an_error_not_a_comment() {
    // The issue's silent misreads, and others like them: each is refused at
    // the first character not read, never a number from part of the text.
    for (text, position) in [
        ("1d20 + 5 = 15", 9),
        ("1d20 + 5 => 15", 9),
        ("13 & 2", 3),
        ("1d20 + 5 vs AC 15", 9),
        ("1d20 + 5 dex 2", 9),
        ("4d6 k3", 4),
        ("8d6 fire / 2", 4),
        ("1d20 !", 5),
        ("1d20 ]", 5),
        ("2d6 + 3 fire+2", 8),
        ("1d20 dex_save", 5),
        ("1d20 + 5 {x}", 9),
        ("1d6 x2", 4),
    ] {
        let e = err(text);
        assert_eq!(e.position(), position, "{text}: {e}");
        assert!(
            matches!(e, NotationError::UnexpectedChar { .. }),
            "{text}: {e}"
        );
        assert!(e.to_string().contains("comment"), "{text}: {e}");
    }
    // A comment with digits or signs starts with `#`; plain words need no `#`.
    for (text, comment, roll) in [
        ("1d20 + 5 # vs AC 15", "# vs AC 15", "1d20 + 5"),
        ("1d20#hit", "#hit", "1d20"),
        ("1d20 + 5 >= 15 #", "#", "1d20 + 5 >= 15"),
        ("1d20 + 5 sleight-of-hand", "sleight-of-hand", "1d20 + 5"),
        ("1d20 don't fail!", "don't fail!", "1d20"),
        ("2d6 + 3 damage (fire).", "damage (fire).", "2d6 + 3"),
        ("1d20 Überraschung", "Überraschung", "1d20"),
    ] {
        let e = parse(text);
        assert_eq!(e.comment(), Some(comment), "{text}");
        assert_eq!(e.root().to_string(), roll, "{text}");
        assert_eq!(parse(&e.to_string()), e, "{text}");
    }
}

// ---- the acceptance's property --------------------------------------------

/// An operand in canonical spelling, perhaps with labels (glued or spaced).
fn operand() -> impl Strategy<Value = String> {
    let dice = (
        1..=3u32,
        prop_oneof![Just("4"), Just("6"), Just("20"), Just("F")],
        prop_oneof![
            3 => Just(""),
            1 => Just("ro1"),
            1 => Just("rr1"),
            1 => Just("mi2"),
            1 => Just("ma3"),
            1 => Just("e6"),
            1 => Just("ra6"),
            1 => Just("ro1ra<2"),
        ],
        prop_oneof![3 => Just(""), 1 => Just("kh1"), 1 => Just("dl1"), 1 => Just("kh2dl1")],
        prop_oneof![4 => Just(""), 1 => Just(">=4"), 1 => Just("<2")],
    )
        .prop_map(|(c, s, m, k, t)| format!("{c}d{s}{m}{k}{t}"));
    let leaf = prop_oneof![(0..=20u32).prop_map(|n| n.to_string()), dice];
    let label = prop_oneof![
        Just("[fire]"),
        Just("[adv]"),
        Just("[a b]"),
        Just("[STR]"),
        Just("[+2]"),
        Just("[1d6]"),
    ];
    (
        leaf,
        proptest::collection::vec((prop_oneof![Just(""), Just(" ")], label), 0..=2),
    )
        .prop_map(|(leaf, labels)| {
            let mut s = leaf;
            for (ws, l) in labels {
                s.push_str(ws);
                s.push_str(l);
            }
            s
        })
}

/// Text that is mostly rolls, with stray pieces that are not part of any roll
/// and tails that are comments, plain words or neither.
fn roll_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => operand(),
        3 => prop_oneof![Just(" + "), Just("+"), Just(" - "), Just("*"), Just(" / ")].prop_map(str::to_string),
        1 => prop_oneof![Just("("), Just(")"), Just("-")].prop_map(str::to_string),
        1 => prop_oneof![
            Just("%"), Just(" % "), Just("//"), Just(" == "), Just(" >= "), Just(">"),
            Just(" x"), Just(" k3"), Just("!"), Just("{"), Just("}"), Just(","),
            Just(" dex"), Just(" #"), Just("["), Just("]"), Just(" 2"), Just("?"),
            Just(" vs"), Just("."),
        ].prop_map(str::to_string),
    ];
    let tail = prop_oneof![
        Just(""),
        Just(" dex save"),
        Just(" # vs AC 15"),
        Just(" to hit"),
        Just(" >= 15"),
        Just(" vs AC 15"),
        Just(" (fire)"),
        Just(" fire 2"),
        Just(" [fire]"),
    ];
    (
        proptest::collection::vec((piece, prop_oneof![Just(""), Just(" ")]), 1..8),
        tail,
    )
        .prop_map(|(pieces, tail)| {
            let mut s = String::new();
            for (p, ws) in pieces {
                s.push_str(&p);
                s.push_str(ws);
            }
            s.push_str(tail);
            s
        })
}

/// Plain words, checked independently of the parser: a letter first, then no
/// digit and no sign a roll uses (prose punctuation such as `,` is words).
fn looks_like_words(c: &str) -> bool {
    c.chars().next().is_some_and(char::is_alphabetic)
        && !c
            .chars()
            .any(|ch| ch.is_ascii_digit() || "+*/%<>=[]{}#&|^~$@\\_".contains(ch))
}

/// The text without white space, without unary `+` signs and without leading
/// zeros outside labels (the canonical spelling drops them: `+1d4` is `1d4`,
/// `007` is `7`), a decimal with a digit before its point (`.5` is `0.5`).
fn squeeze(s: &str) -> String {
    let mut out = String::new();
    let mut in_label = false;
    for c in s.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '[' if !in_label => in_label = true,
            ']' if in_label => in_label = false,
            '+' if !in_label
                && out.chars().last().is_none_or(|p| {
                    matches!(p, '+' | '-' | '*' | '/' | '(' | '=' | '<' | '>' | '%')
                }) =>
            {
                continue;
            }
            // A decimal without a digit before its point (`.5`) is written
            // `0.5`.
            '.' if !in_label && !out.chars().last().is_some_and(|p| p.is_ascii_digit()) => {
                out.push('0');
            }
            _ => {}
        }
        out.push(c);
        if !in_label && c.is_ascii_digit() {
            // Drop a lone leading `0` that is now followed by a digit.
            let digits: Vec<char> = out.chars().rev().take_while(char::is_ascii_digit).collect();
            if digits.len() == 2 && digits[1] == '0' {
                let last = out.pop();
                out.pop();
                out.extend(last);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Issue 30's acceptance: for random expressions, either the whole text is
    /// read as the roll (plus a `#` comment or trailing plain words) or the
    /// answer is an error; never a number from part of the text. The roll part
    /// of the text, without white space, is exactly the canonical spelling of
    /// what was read (the generator writes rolls canonically).
    #[test]
    fn issue_30_the_whole_text_is_the_roll_or_an_error(text in roll_like()) {
        let e = match Expr::parse(&text) {
            Err(e) => {
                prop_assert!(e.position() <= text.len());
                return Ok(());
            }
            Ok(e) => e,
        };
        let trimmed = text.trim_end();
        let roll_part = match e.comment() {
            None => trimmed,
            Some(c) => {
                prop_assert!(trimmed.ends_with(c), "{:?}: comment {:?}", text, c);
                prop_assert!(c.starts_with('#') || looks_like_words(c), "{:?}: comment {:?}", text, c);
                let part = &trimmed[..trimmed.len() - c.len()];
                if !c.starts_with('#') {
                    // Plain words stand after white space.
                    prop_assert!(part.ends_with(char::is_whitespace), "{:?}", text);
                }
                part
            }
        };
        prop_assert_eq!(squeeze(&e.root().to_string()), squeeze(roll_part), "{:?}", text);
        // The roll part alone reads as the same roll, without a comment.
        let alone = Expr::parse(roll_part).map_err(|err| TestCaseError::fail(format!("{roll_part:?}: {err}")))?;
        prop_assert_eq!(alone.root(), e.root());
        prop_assert_eq!(alone.comment(), None);
    }
}

// ---- issue 30, item 2: repeated modifiers merged as d20 merges them --------

#[test]
fn issue_30_repeated_rerolls_are_one_pass_as_in_d20() {
    // Great Weapon Fighting: a 1 or a 2 rerolls once, and the new face
    // stands even when it is a 1 or a 2 (applied in turn, the 1 rerolled into
    // a 2 would be rerolled again).
    let out = roll("2d6ro1ro2", &[1, 5, 2]);
    assert_eq!(out.total, 7);
    assert_eq!(out.to_string(), "2d6ro1ro2 (1 -> 2, 5) = 7");
    assert!((mean("2d6ro1ro2") - 2.0 * 25.0 / 6.0).abs() < 1e-12);
    // Reroll until the die shows neither 1 nor 2: 6..12 (but for the cap of
    // 50 rerolls, which leaves (1/3)^50 on lower totals).
    let odds = parse("2d6rr1rr2").odds().unwrap();
    assert!(odds.dist.p_where(|v| *v < 6) < 1e-20);
    assert_eq!(odds.dist.range().1, 12);
    assert!((odds.dist.mean() - 9.0).abs() < 1e-12);
    assert_eq!(roll("1d6rr1rr2", &[1, 2, 1, 5]).total, 5);
    // Explosions written together explode on any of their tests.
    assert_eq!(roll("1d6e5e6", &[5, 6, 5, 1]).total, 17);
    // The merged run must leave a face unmatched, as a single test must.
    assert!(matches!(
        err("1d2rr1rr2"),
        NotationError::EveryFaceMatches { operator: "rr", position: 6, ref test, .. } if test == "1rr2"
    ));
    assert!(matches!(
        err("1d2e1e2"),
        NotationError::EveryFaceMatches {
            operator: "e",
            position: 5,
            ..
        }
    ));
    // Not merged when something stands between them: two passes.
    assert_eq!(roll("1d6ro1mi2ro2", &[1, 2, 1]).total, 1);
}

// ---- issue 30, item 2: comparisons of totals, `%` and `//` as in d20 -------

#[test]
fn issue_30_comparisons_of_totals_give_0_or_1_with_the_chance_of_passing() {
    let odds = parse("1d20 + 5 >= 15").odds().unwrap();
    assert!((odds.dist.p(&1) - 0.55).abs() < 1e-12);
    assert!((odds.dist.p(&0) - 0.45).abs() < 1e-12);
    assert!(odds.exact);
    let out = roll("1d20 + 5 >= 15", &[12]);
    assert_eq!(out.total, 1);
    assert_eq!(out.to_string(), "1d20 (12) + 5 >= 15 = 1");
    assert_eq!(roll("1d20 + 5 >= 15", &[9]).total, 0);
    for (text, total) in [
        ("1 == 2", 0),
        ("2 == 2", 1),
        ("1 != 2", 1),
        ("1 < 2", 1),
        ("2 <= 1", 0),
        ("3 > 2", 1),
        ("2 >= 3", 0),
        // Left to right, loosest of all: (1 < 2) < 1 is 1 < 1.
        ("1 < 2 < 1", 0),
        ("1 + 1 == 2 * 1", 1),
        ("(2 > 1) * 5", 5),
    ] {
        assert_eq!(roll(text, &[]).total, total, "{text}");
    }
    // After white space a comparison compares the group's total; glued, it is
    // the group's success test.
    let two = parse("2d6 >= 7").odds().unwrap();
    assert!((two.dist.p(&1) - 21.0 / 36.0).abs() < 1e-12);
    assert_eq!(roll("3d6 >= 5", &[1, 2, 3]).total, 1);
    assert_eq!(roll("3d6>=5", &[1, 2, 3]).total, 0);
    assert!(matches!(
        err("1 = 2"),
        NotationError::UnexpectedChar { position: 2, .. }
    ));
}

#[test]
fn issue_30_remainder_and_floor_division_follow_python() {
    for (text, total) in [
        ("13 % 2", 1),
        ("-7 % 3", 2),
        ("7 % -3", -2),
        ("-7 % -3", -1),
        ("6 % 3", 0),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 // -2", -4),
        ("-7 // -2", 3),
        ("-7 / 2", -3),
        ("1 + 7 % 4 * 2", 7),
        ("20 // 3 // 2", 3),
    ] {
        assert_eq!(roll(text, &[]).total, total, "{text}");
    }
    let odds = parse("2d6 % 3").odds().unwrap();
    assert_eq!(odds.dist.range(), (0, 2));
    assert!((odds.dist.p(&0) - 12.0 / 36.0).abs() < 1e-12);
    let odds = parse("-1d6 // 4").odds().unwrap();
    assert_eq!(odds.dist.range(), (-2, -1));
    assert!((odds.dist.p(&-1) - 4.0 / 6.0).abs() < 1e-12);
    assert_eq!(parse("1d20 %  7").to_string(), "1d20 % 7");
    assert_eq!(parse("1d20//7").to_string(), "1d20 // 7");
    // A divisor that can be 0 is refused, as for `/`.
    assert!(matches!(
        err("1d6 % 0"),
        NotationError::DivisionByZero { position: 6, .. }
    ));
    assert!(matches!(
        err("1d6 // (1d2 - 1)"),
        NotationError::DivisionByZero { position: 7, .. }
    ));
}

// ---- issue 30, item 2: d20's selectors by value on keep and drop -----------

#[test]
fn issue_30_keep_and_drop_by_value_as_d20_selectors() {
    let out = roll("4d6k<3", &[1, 5, 2, 6]);
    assert_eq!(out.total, 3);
    assert_eq!(out.to_string(), "4d6k<3 (1, 5 dropped, 2, 6 dropped) = 3");
    assert_eq!(roll("4d6k>3", &[1, 5, 2, 6]).total, 11);
    assert_eq!(roll("4d6p<3", &[1, 5, 2, 6]).total, 11);
    assert_eq!(roll("4d6p>4", &[1, 5, 2, 6]).total, 3);
    assert_eq!(parse("4d6d<3").to_string(), "4d6p<3");
    assert_eq!(parse("4d6K>3").to_string(), "4d6k>3");
    // Keeping none is 0, not an error.
    assert_eq!(roll("3d6k<1", &[1, 2, 3]).total, 0);
    // Each die on its own value: 2.5 a die for k>3.
    assert!((mean("2d6k>3") - 5.0).abs() < 1e-12);
    // Successes among the kept dice only.
    assert_eq!(roll("4d6k>2>=5", &[1, 5, 2, 6]).total, 2);
    assert_eq!(roll("4d6p>5>=5", &[1, 5, 2, 6]).total, 1);
    // After an explosion, every die of the chains is kept or dropped by value.
    assert_eq!(roll("1d6e6k<6", &[6, 6, 3]).total, 3);
    assert!((mean("1d6e6k<6") - 3.0).abs() < 1e-9);
    assert!(matches!(
        err("4d6k<"),
        NotationError::UnexpectedEnd { position: 5, ref expected } if expected == "a number after `k<`"
    ));
}

/// Found by the property test: prose punctuation after the roll is a comment
/// of plain words, and the roll is the whole of the text before it.
#[test]
fn a_comma_in_plain_words_is_part_of_the_comment() {
    let e = Expr::parse("0 vs, to hit").unwrap();
    assert_eq!(e.comment(), Some("vs, to hit"));
    assert_eq!(e.root().to_string(), "0");
    assert!(Expr::parse("1d20, 1d20").is_err());
}
