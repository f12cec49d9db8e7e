//! `tabula campaign ...` as the README's tour uses it (issue "Characters and
//! campaigns"): a campaign in a SQLite file beside the user, a character
//! imported, advanced by the book's command (and refused by another), its
//! history shown and replayed, exported to the sheet format, and a seat's link
//! reissued. Every refusal names the rule and changes nothing.

mod common;
use common::tabula_text;

/// A fresh directory and its SQLite URL for one test.
fn database(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("tabula-campaign-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let url = format!("sqlite://{}", dir.join("tabula.db").display());
    (dir, url)
}

/// Run `tabula ARGS --database-url URL`, which must succeed; its stdout.
fn ok(args: &[&str], url: &str) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--database-url", url]);
    let (code, out, err) = tabula_text(&all);
    assert_eq!(code, 0, "tabula {args:?}: {err}{out}");
    out
}

/// Run `tabula ARGS --database-url URL`, which must fail; its stderr.
fn refused(args: &[&str], url: &str) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--database-url", url]);
    let (code, out, err) = tabula_text(&all);
    assert_ne!(code, 0, "tabula {args:?} should be refused: {out}");
    err
}

/// The link's token (after `#`) for `seat` in `out` (lines `  SEAT  LINK`).
fn link_of(out: &str, seat: &str) -> String {
    out.lines()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            (words.next() == Some(seat)).then(|| words.next().unwrap_or_default().to_string())
        })
        .unwrap_or_else(|| panic!("no link for {seat} in {out}"))
}

#[test]
fn a_campaign_from_the_terminal_keeps_its_character_and_history() {
    let (dir, url) = database("tour");
    let created = ok(
        &[
            "campaign",
            "new",
            "tiers",
            "Goblin Summer",
            "--player",
            "John",
            "--player",
            "Cristy",
        ],
        &url,
    );
    let id = created
        .split_whitespace()
        .nth(2)
        .expect("the campaign id")
        .to_string();
    assert_eq!(id.len(), 32, "{created}");
    let john_link = link_of(&created, "John");
    assert!(john_link.contains(&format!("/c/{id}#")), "{created}");

    let listed = ok(&["campaign", "list"], &url);
    assert!(
        listed.contains(&id) && listed.contains("Goblin Summer"),
        "{listed}"
    );

    // Import John's sheet for John; a sheet that does not validate is refused
    // with its rule and adds nothing.
    let imported = ok(
        &[
            "campaign",
            "import",
            &id,
            "examples/tiers/john.toml",
            "--owner",
            "John",
        ],
        &url,
    );
    assert!(imported.contains("imported John"), "{imported}");
    let err = refused(
        &[
            "campaign",
            "import",
            &id,
            "examples/tiers/broken-character.toml",
        ],
        &url,
    );
    assert!(
        err.contains("Tiers, \""),
        "the refusal names the rule: {err}"
    );
    let shown = ok(&["campaign", "show", &id], &url);
    assert!(
        shown.contains("John") && !shown.contains("Broken"),
        "{shown}"
    );

    // Advancement: a level for John (the GM's), then SP placed by the book's
    // gates; a step past them is refused and changes nothing.
    let levelled = ok(&["campaign", "advance", &id, "John", "level-up"], &url);
    assert!(levelled.contains("level 2"), "{levelled}");
    let err = refused(
        &[
            "campaign", "advance", &id, "John", "increase", "strength", "9",
        ],
        &url,
    );
    assert!(err.contains("Tiers, \""), "{err}");
    let placed = ok(
        &["campaign", "advance", &id, "John", "increase", "skill", "4"],
        &url,
    );
    assert!(placed.to_lowercase().contains("skill"), "{placed}");

    // The history: imported, then the two advancements, replaying to the sheet.
    let history = ok(&["campaign", "show", &id, "--character", "John"], &url);
    assert!(
        history.contains("History (replays to this sheet)"),
        "{history}"
    );
    assert!(
        history.contains("imported") && history.contains("level-up"),
        "{history}"
    );
    assert!(history.contains("level = 2"), "{history}");

    // Export: the sheet format `character validate` accepts, at level 2.
    let out = dir.join("john-now.toml");
    ok(
        &[
            "campaign",
            "export",
            &id,
            "John",
            "--out",
            out.to_str().expect("a path"),
        ],
        &url,
    );
    let (code, said, err) = tabula_text(&[
        "tiers",
        "character",
        "validate",
        out.to_str().expect("a path"),
    ]);
    assert_eq!(code, 0, "the exported sheet validates: {said}{err}");
    let sheet = std::fs::read_to_string(&out).expect("the exported sheet");
    assert!(sheet.contains("level = 2"), "{sheet}");

    // The GM's edit: an Item given, from the exported file; the history
    // records it and still replays to the sheet.
    std::fs::write(
        &out,
        sheet.replace("\"Turret\"", "\"Turret\", \"Goblin ear\""),
    )
    .expect("written");
    let edited = ok(
        &[
            "campaign",
            "edit",
            &id,
            "John",
            out.to_str().expect("a path"),
        ],
        &url,
    );
    assert!(
        edited.contains("edited") && edited.contains("Goblin ear"),
        "{edited}"
    );
    let history = ok(&["campaign", "show", &id, "--character", "John"], &url);
    assert!(history.contains("[gm] edited"), "{history}");
    assert!(history.contains("Goblin ear"), "{history}");

    // A lost link: John's is reissued; the new one differs, the old is gone.
    let reissued = ok(&["campaign", "reissue", &id, "john"], &url);
    assert!(reissued.contains("A new link for John"), "{reissued}");
    assert!(!reissued.contains(&john_link), "{reissued}");
    let err = refused(&["campaign", "reissue", &id, "Nobody"], &url);
    assert!(err.contains("no seat"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// R-SCR-9: a campaign carries its setting's rules. `campaign new scratch
/// NAME --rules FILE` keeps them, and the book's own characters (refused
/// under the book's 10 CP and level 4) are imported and advanced under them.
#[test]
fn r_scr_9_a_scratch_campaign_takes_its_settings_rules() {
    let (dir, url) = database("scratch-rules");
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scratch");
    let breakhelm = examples.join("breakhelm-x-19.toml");
    let zim = examples.join("zimzambamalam.toml");
    let id_of = |created: &str| {
        created
            .split_whitespace()
            .nth(2)
            .expect("the campaign id")
            .to_string()
    };
    // The book's rules: refused.
    let plain = id_of(&ok(&["campaign", "new", "scratch", "Average People"], &url));
    let err = refused(
        &["campaign", "import", &plain, breakhelm.to_str().unwrap()],
        &url,
    );
    assert!(err.contains("14") || err.contains("10"), "{err}");
    // A setting with room for them.
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "[rules]\ncp = 14\nmax_level = 8\n").unwrap();
    let set = id_of(&ok(
        &[
            "campaign",
            "new",
            "scratch",
            "Outlaws",
            "--rules",
            rules.to_str().unwrap(),
        ],
        &url,
    ));
    for sheet in [&breakhelm, &zim] {
        ok(&["campaign", "import", &set, sheet.to_str().unwrap()], &url);
    }
    let done = ok(
        &[
            "campaign",
            "advance",
            &set,
            "Zimzambamalam",
            "award-cp",
            "2",
        ],
        &url,
    );
    assert!(done.contains("2"), "{done}");
    // Bad settings are refused naming the field, and make no campaign.
    std::fs::write(&rules, "[rules]\ncp = 0\n").unwrap();
    let err = refused(
        &[
            "campaign",
            "new",
            "scratch",
            "Broken",
            "--rules",
            rules.to_str().unwrap(),
        ],
        &url,
    );
    assert!(err.contains("cp"), "{err}");
    let err = refused(
        &[
            "campaign",
            "new",
            "tiers",
            "Not Scratch",
            "--rules",
            rules.to_str().unwrap(),
        ],
        &url,
    );
    assert!(err.contains("settings"), "{err}");
    let listed = ok(&["campaign", "list"], &url);
    assert!(
        !listed.contains("Broken") && !listed.contains("Not Scratch"),
        "{listed}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
