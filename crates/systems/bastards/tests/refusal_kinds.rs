//! The kinds of refusal a caller can match (issue 26, item 6): each kind the
//! book uses besides `Forbidden`, triggered through the table's text commands.

mod common;
use common::*;
use tabula_bastards::state::{Body, Combatant};
use tabula_core::roller::Scripted;
use tabula_core::rule::{Refusal, RuleError};

const A_HAND: [&str; 5] = ["2C", "9S", "5H", "KD", "4H"];
const B_HAND: [&str; 5] = ["3C", "7S", "6H", "QD", "8H"];
/// Cards for draws after the opening (never in the hands above).
const MORE: [&str; 8] = ["JC", "10D", "9C", "JS", "10H", "9D", "6C", "5S"];

fn none() -> Scripted {
    Scripted::values(Vec::<String>::new())
}

/// Set pool `k` (BP, SP, MP, LP) of a Fated (one empty pool: Desperate, R-GB-5).
fn with_pool(mut c: Combatant, k: usize, to: i64) -> Combatant {
    if let Body::Fated {
        pools, desperate, ..
    } = &mut c.body
    {
        pools[k] = to;
        *desperate = pools.contains(&0);
    }
    c
}

/// A's turn (it has drawn), A and B with the hands above.
fn table(a: Combatant, b: Combatant) -> tabula_core::system::Table<tabula_bastards::Bastards> {
    opened(a, b, A_HAND, B_HAND, "10C")
}

fn plain() -> tabula_core::system::Table<tabula_bastards::Bastards> {
    table(fated(draft("A", "a", &[])), fated(draft("B", "b", &[])))
}

fn refused(t: &mut tabula_core::system::Table<tabula_bastards::Bastards>, line: &str) -> RuleError {
    let before = t.clone();
    let e = submit(t, line, &mut Scripted::values(MORE)).unwrap_err();
    assert_eq!(*t, before, "{line}: a refusal changes nothing");
    e
}

#[test]
fn spent_a_wildcard_a_pool_and_the_cards_in_hand() {
    // No Wildcard to spend ("Wildcards").
    let mut t = plain();
    let e = refused(&mut t, "a: wildcard A");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "Wildcards"),
        "{e:?}"
    );
    assert!(e.message.contains("costs a Wildcard"), "{}", e.message);

    // Dodge (Clubs) with BP at 0: the suit's pool is spent ("Advantages").
    let a = with_pool(fated(draft("A", "a", &["Dodge"])), 0, 0);
    let mut t = table(a, fated(draft("B", "b", &[])));
    let e = refused(&mut t, "a: use A dodge");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "BP"),
        "{e:?}"
    );
    assert!(e.message.contains("cannot use Dodge"), "{}", e.message);

    // The one acted against keeps a card to play face down ("Betting").
    let mut t = plain();
    let mut hand = t.state().clone();
    let b = hand.combatants.iter().position(|c| c.name == "B").unwrap();
    // B draws one card when acted against ("Each hand ... draws a new card").
    hand.combatants[b].hand.clear();
    let mut t2 = tabula_core::system::Table::new(hand);
    run(
        &mut t2,
        &["a: attack B Unarmed_Combat physical", "a: play KD"],
        &mut Scripted::values(MORE),
    );
    let e = refused(&mut t2, "b: discard best");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "cards in hand"),
        "{e:?}"
    );
    assert!(e.message.contains("keeps a card"), "{}", e.message);
    // The same table without the cut hand discards.
    run(
        &mut t,
        &[
            "a: attack B Unarmed_Combat physical",
            "a: play KD",
            "b: discard best",
        ],
        &mut Scripted::values(MORE),
    );
}

#[test]
fn already_used_a_mulligan_and_the_discard() {
    let mut t = plain();
    run(
        &mut t,
        &[
            "a: attack B Unarmed_Combat physical",
            "a: play KD",
            "b: mulligan",
        ],
        &mut Scripted::values(MORE),
    );
    let e = refused(&mut t, "b: mulligan");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "mulligan"),
        "{e:?}"
    );

    let mut t = plain();
    run(&mut t, &["a: discard 9S"], &mut none());
    let e = refused(&mut t, "a: discard 5H");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "discard"),
        "{e:?}"
    );
    assert_eq!(e.message, "a hand may discard one card");
}

#[test]
fn not_held_a_card_and_an_advantage() {
    let mut t = plain();
    run(
        &mut t,
        &["a: attack B Unarmed_Combat physical"],
        &mut Scripted::values(["2S"]),
    );
    // 3C is in B's hand, not A's.
    let e = refused(&mut t, "a: play 3C");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what.contains('3')),
        "{e:?}"
    );
    assert!(e.message.starts_with("A holds no "), "{}", e.message);

    // Dodge was never taken.
    let mut t = plain();
    let e = refused(&mut t, "a: use A dodge");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Dodge"),
        "{e:?}"
    );
}

#[test]
fn condition_removed_and_berserk() {
    let mut t = plain();
    run(&mut t, &["gm: remove B"], &mut none());
    let e = refused(&mut t, "gm: remove B");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "removed"),
        "{e:?}"
    );
    assert_eq!(e.message, "B is already out of the encounter");

    // Berserk allows only offensive Advantages: Dodge is refused for it.
    let mut ad = draft("A", "a", &["Berserk", "Dodge"]);
    ad.wildcards = 1;
    let mut t = table(fated(ad), fated(draft("B", "b", &[])));
    run(&mut t, &["a: use A berserk"], &mut none());
    let e = refused(&mut t, "a: use A dodge");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "Berserk"),
        "{e:?}"
    );
}
