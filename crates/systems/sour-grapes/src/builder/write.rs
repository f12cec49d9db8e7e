//! Writing a sheet as TOML the way the example sheets are written by hand:
//! the stats in the book's order ("Stats"), an exhausted or injured stat as
//! one inline table, skills in the sheet's order, defaults left out. The
//! output always reads back as the same [`CharacterDraft`] (tested), so the
//! campaign's history diffs one line per change.

use std::fmt::Write as _;

use crate::character::{CharacterDraft, StatEntry};
use crate::stats::Stat;

/// A TOML basic string: `"..."` with `"`, `\` and control characters escaped.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A key: bare when TOML allows it (`A-Za-z0-9_-`), else quoted.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        string(k)
    }
}

fn stat_value(e: &StatEntry) -> String {
    match e {
        StatEntry::Value(v) => v.to_string(),
        StatEntry::Full {
            actual,
            current,
            injured,
        } => {
            let mut parts = vec![format!("actual = {actual}")];
            if let Some(c) = current {
                parts.push(format!("current = {c}"));
            }
            if *injured {
                parts.push("injured = true".into());
            }
            format!("{{ {} }}", parts.join(", "))
        }
    }
}

/// The sheet as TOML (see the [module documentation](self)).
pub fn sheet_toml(d: &CharacterDraft) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "name = {}", string(&d.name));
    if d.monster {
        out.push_str("monster = true\n");
    }
    if !d.concept.is_empty() {
        let _ = writeln!(out, "concept = {}", string(&d.concept));
    }
    if d.experience != 0 {
        let _ = writeln!(out, "experience = {}", d.experience);
    }
    if let Some(cards) = &d.cards {
        let list: Vec<String> = cards.iter().map(|c| string(c)).collect();
        let _ = writeln!(out, "cards = [{}]", list.join(", "));
    }
    if !d.comparable.is_empty() {
        let pairs: Vec<String> = d
            .comparable
            .iter()
            .map(|(k, v)| format!("{} = {}", key(k), string(v)))
            .collect();
        let _ = writeln!(out, "comparable = {{ {} }}", pairs.join(", "));
    }
    if !d.effects.is_empty() {
        let list: Vec<String> = d
            .effects
            .iter()
            .map(|e| {
                let mut parts = vec![format!("card = {}", string(&e.card))];
                if let Some(t) = e.tokens {
                    parts.push(format!("tokens = {t}"));
                }
                // The card a table defined, as one inline table (`[[card]]`'s keys).
                if let Some(v) = e
                    .definition
                    .as_ref()
                    .and_then(|d| toml::Value::try_from(d).ok())
                {
                    parts.push(format!("definition = {v}"));
                }
                format!("{{ {} }}", parts.join(", "))
            })
            .collect();
        let _ = writeln!(out, "effects = [{}]", list.join(", "));
    }
    out.push_str("\n[stats]\n");
    // The book's order first (under the key the sheet uses), then any other key.
    let mut written: Vec<&str> = Vec::new();
    for s in Stat::ALL {
        for (k, e) in d.stats.iter().filter(|(k, _)| Stat::parse(k) == Some(s)) {
            let _ = writeln!(out, "{} = {}", key(k), stat_value(e));
            written.push(k);
        }
    }
    for (k, e) in d
        .stats
        .iter()
        .filter(|(k, _)| !written.contains(&k.as_str()))
    {
        let _ = writeln!(out, "{} = {}", key(k), stat_value(e));
    }
    for k in &d.skills {
        let _ = write!(
            out,
            "\n[[skills]]\nname = {}\nrating = {}\n",
            string(&k.name),
            k.rating
        );
        if k.used != 0 {
            let _ = writeln!(out, "used = {}", k.used);
        }
        if !k.notes.is_empty() {
            let _ = writeln!(out, "notes = {}", string(&k.notes));
        }
    }
    if !d.card_bonuses.is_empty() {
        out.push_str("\n[card_bonuses]\n");
        for (card, b) in &d.card_bonuses {
            let _ = writeln!(
                out,
                "{} = {{ easier = {}, damage = {} }}",
                key(card),
                b.easier,
                b.damage
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::{CardBonus, EffectEntry, SkillDraft};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn any_text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z _'\"\\\\-]{0,12}",
            any::<String>().prop_map(|s| s.chars().take(12).collect()),
        ]
    }

    fn stat_entry() -> impl Strategy<Value = StatEntry> {
        prop_oneof![
            any::<i64>().prop_map(StatEntry::Value),
            (any::<i64>(), any::<Option<i64>>(), any::<bool>()).prop_map(
                |(actual, current, injured)| StatEntry::Full {
                    actual,
                    current,
                    injured
                }
            ),
        ]
    }

    prop_compose! {
        fn draft()(
            name in any_text(),
            monster in any::<bool>(),
            concept in any_text(),
            stats in prop::collection::btree_map(
                prop_oneof![Just("agility".to_string()), Just("strength".to_string()), Just("might".to_string()), any_text()],
                stat_entry(), 0..6),
            skills in prop::collection::vec((any_text(), any::<i64>(), any::<i64>(), any_text()), 0..4),
            experience in any::<i64>(),
            bonuses in prop::collection::btree_map(any_text(), (any::<u32>(), any::<u32>()), 0..3),
            cards in prop::option::of(prop::collection::vec(any_text(), 0..3)),
            comparable in prop::collection::btree_map(any_text(), any_text(), 0..3),
            effects in prop::collection::vec((any_text(), any::<Option<i64>>()), 0..3),
        ) -> CharacterDraft {
            CharacterDraft {
                name,
                monster,
                concept,
                stats,
                skills: skills.into_iter().map(|(name, rating, used, notes)| SkillDraft { name, rating, used, notes }).collect(),
                experience,
                card_bonuses: bonuses.into_iter().map(|(k, (easier, damage))| (k, CardBonus { easier, damage })).collect::<BTreeMap<_, _>>(),
                cards,
                comparable,
                effects: effects.into_iter().map(|(card, tokens)| EffectEntry { card, tokens, definition: None }).collect(),
            }
        }
    }

    proptest! {
        /// Whatever a draft holds (quotes, backslashes, control characters,
        /// any key), the written sheet reads back as the same draft.
        #[test]
        fn written_sheets_read_back(d in draft()) {
            let text = sheet_toml(&d);
            let back: CharacterDraft = toml::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(back, d);
        }
    }

    #[test]
    fn stats_in_the_books_order() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../examples/sour-grapes/example-character.toml"
        ))
        .unwrap();
        let d: CharacterDraft = toml::from_str(&text).unwrap();
        let out = sheet_toml(&d);
        let order: Vec<&str> = out
            .lines()
            .skip_while(|l| *l != "[stats]")
            .skip(1)
            .take(9)
            .map(|l| l.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(
            order,
            [
                "agility",
                "might",
                "knowledge",
                "perception",
                "prestige",
                "resolve",
                "spirit",
                "stamina",
                "vitality"
            ]
        );
        assert!(out.contains("resolve = { actual = 4, current = 2, injured = true }"));
    }
}
