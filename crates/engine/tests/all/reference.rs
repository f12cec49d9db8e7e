//! `docs/COMMANDS.md` is the generated command reference: it must equal what the
//! systems' command lists make now (run with `TABULA_UPDATE_DOCS=1` to rewrite it).

use tabula_engine::SystemId;
use tabula_engine::reference;

#[test]
fn docs_commands_md_is_generated_from_the_command_lists() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/COMMANDS.md");
    let made = reference::markdown();
    if std::env::var_os("TABULA_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == made,
        "docs/COMMANDS.md is out of date: run `TABULA_UPDATE_DOCS=1 cargo test -p tabula-engine --test all -- reference::`"
    );
}

#[test]
fn every_system_lists_its_commands_once_with_usage_and_rule() {
    for system in SystemId::ALL {
        let commands = reference::commands(system);
        assert!(!commands.is_empty(), "{system} lists no commands");
        let mut words: Vec<String> = Vec::new();
        for c in commands {
            // The command word opens the usage, after an optional actor
            // (Scratch's `[CHARACTER] attack ...`).
            let mut usage = c.usage.split_whitespace();
            let first = usage.next();
            let word = if first.is_some_and(|w| w.starts_with('[')) {
                usage.next()
            } else {
                first
            };
            assert!(
                word == Some(c.name),
                "{system}: usage of {} does not name it first: {}",
                c.name,
                c.usage
            );
            // The usage is the grammar the one parser reads (issue 26, item 1).
            if let Err(e) = tabula_core::usage::Pattern::compile(c) {
                panic!("{system}: {e}");
            }
            assert!(!c.summary.is_empty(), "{system}: {} has no summary", c.name);
            assert!(
                !c.rule.section.is_empty(),
                "{system}: {} cites no rule",
                c.name
            );
            for w in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
                let w = w.to_ascii_lowercase();
                assert!(!words.contains(&w), "{system}: {w} names two commands");
                words.push(w);
            }
        }
    }
}

/// Tiers, "Custom Rules", "Super 6": "they can roll 2d6. If both dice are 6s,
/// then the cool thing happens" (not a natural 6 out of combat): the summary
/// the reference and `help` print says so.
#[test]
fn super6_is_two_d6_both_sixes() {
    let super6 = reference::commands(SystemId::Tiers)
        .iter()
        .find(|c| c.name == "super6")
        .expect("Tiers lists super6");
    assert!(super6.summary.contains("2d6"), "{}", super6.summary);
    assert!(
        super6.summary.contains("both dice are 6s"),
        "{}",
        super6.summary
    );
    assert!(!super6.summary.contains("natural 6"), "{}", super6.summary);
    assert!(
        !super6.summary.contains("out of combat"),
        "{}",
        super6.summary
    );
}
