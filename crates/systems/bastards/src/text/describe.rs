//! Events in words for the log: what the table sees, and what one seat sees
//! of its own cards and pools (R-GB-3, R-GB-12).

use super::*;

/// Who reads a description: everyone at the table (a shared log) or one seat.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reader<'a> {
    /// Everyone: only what the book puts on the table (R-GB-12).
    Everyone,
    /// One seat: also its own hands and its own characters' pools (R-GB-12).
    Seat(&'a Seat),
}

impl Reader<'_> {
    /// The reader commands combatant `who`, so sees its hand and pools.
    pub(crate) fn owns(self, s: &State, who: usize) -> bool {
        match self {
            Reader::Everyone => false,
            Reader::Seat(seat) => s.combatants.get(who).is_some_and(|c| c.controlled_by(seat)),
        }
    }

    /// The reader is the Dealer, who sees the Dealer's side of a Fate Draw.
    pub(crate) fn dealer(self) -> bool {
        matches!(self, Reader::Seat(Seat::Gm))
    }
}

/// Every Joker of a draw, shown as it is drawn, and who gains its Wildcard
/// ("Jokers – Unbound by Fate"; R-GB-3); then the reshuffle if there was one.
pub(crate) fn joker_notes(holder: &str, steps: &[DrawStep]) -> Vec<String> {
    let mut notes: Vec<String> = steps
        .iter()
        .filter_map(|st| match st {
            DrawStep::Joker(c) => Some(format!("{c} drawn: {holder} gains a Wildcard")),
            _ => None,
        })
        .collect();
    if steps.contains(&DrawStep::Reshuffle) {
        notes.push("the discards are shuffled into the deck".into());
    }
    notes
}

/// The cards of a draw: named when `show`, else counted (R-GB-12: a hand is its
/// own seat's).
pub(crate) fn drawn_text(steps: &[DrawStep], show: bool) -> String {
    let cards = deck::cards(steps);
    if show {
        if cards.is_empty() {
            "no card".into()
        } else {
            cards_text(&cards)
        }
    } else {
        match cards.len() {
            1 => "1 card".into(),
            n => format!("{n} cards"),
        }
    }
}

pub(crate) fn with_notes(text: String, notes: Vec<String>) -> String {
    if notes.is_empty() {
        text
    } else {
        format!("{text}; {}", notes.join("; "))
    }
}

pub(crate) fn cards_text(cards: &[tabula_core::cards::Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Text for one event (after it was applied) for everyone at the table: a shared
/// log. It names only what the book puts on the table (R-GB-12): no card drawn
/// into a hand, no discarded or face-down card before the reveal, no pool's
/// points; Jokers are shown as they are drawn with the Wildcard they give (R-GB-3).
/// [`describe_for`] adds what one seat may see.
pub fn describe(s: &State, e: &Event) -> String {
    describe_as(s, e, Reader::Everyone)
}

/// Text for one event (after it was applied) for one seat: [`describe`](fn@describe) plus that
/// seat's own cards drawn and discarded and its own characters' pools, and for the
/// Dealer (the GM seat) the Dealer's side of a Fate Draw (R-GB-12). A server or a
/// driver that shows each seat its own log uses this; a shared screen uses
/// [`describe`](fn@describe).
pub fn describe_for(s: &State, e: &Event, seat: &Seat) -> String {
    describe_as(s, e, Reader::Seat(seat))
}

/// The text of `e` for `reader` ([`describe`](fn@describe), [`describe_for`]), by the kind
/// of event: the flow, cards, the opposed hand, pools, the cast.
pub(crate) fn describe_as(s: &State, e: &Event, reader: Reader<'_>) -> String {
    match e {
        Event::Shuffled
        | Event::OppositionBegan
        | Event::Order { .. }
        | Event::TurnBegan { .. }
        | Event::DrawStepDone
        | Event::TurnEnded
        | Event::RoundEnded { .. }
        | Event::OppositionEnded
        | Event::Finished
        | Event::SceneBegan
        | Event::KarmicShuffle => describe_flow(s, e),
        Event::Drew { .. }
        | Event::Discarded { .. }
        | Event::Initiative { .. }
        | Event::FateDrawn { .. }
        | Event::WildcardSpent { .. }
        | Event::DealerWildcards { .. } => describe_cards(s, e, reader),
        Event::Declared(_)
        | Event::FaceDown { .. }
        | Event::FaceUp { .. }
        | Event::Called { .. }
        | Event::Revealed { .. } => describe_hand(s, e),
        Event::Damage { .. }
        | Event::MembersLost { .. }
        | Event::Spent { .. }
        | Event::StatusChanged { .. }
        | Event::Desperate { .. }
        | Event::KnockedOut { .. }
        | Event::Adjusted { .. } => describe_pools(s, e, reader),
        Event::Weapons { .. }
        | Event::Dropped { .. }
        | Event::PickedUp { .. }
        | Event::Joined(_)
        | Event::Appeared { .. }
        | Event::Distance { .. }
        | Event::Added { .. }
        | Event::Removed { .. } => describe_cast(s, e),
    }
}

/// The name of combatant `i` (`?` for none).
fn name(s: &State, i: &usize) -> String {
    s.combatants
        .get(*i)
        .map_or("?".to_string(), |c| c.name.clone())
}

/// The encounter's flow: shuffles, the Opposition's steps, turns and rounds
/// ("Steps", "Shuffling", "Initiative"), Karmic Shuffle ("Advantages") and
/// the end.
fn describe_flow(s: &State, e: &Event) -> String {
    let n = |i: &usize| name(s, i);
    match e {
        Event::Shuffled => "Every card is shuffled back into the deck.".into(),
        Event::OppositionBegan => {
            "The Opposition begins: everyone draws a hand, then plays a card for initiative.".into()
        }
        Event::Order { order } => format!(
            "Round {}: the order is {}",
            s.round,
            order.iter().map(n).collect::<Vec<_>>().join(", ")
        ),
        Event::TurnBegan { who } => format!("{}'s turn: draw or mulligan.", n(who)),
        Event::DrawStepDone => "Active phase: declare an action.".into(),
        Event::TurnEnded => "The turn ends.".into(),
        Event::RoundEnded { round } => {
            format!("End of round; round {round} restarts from the lowest initiative.")
        }
        Event::OppositionEnded => "The Opposition ends.".into(),
        Event::Finished => "The encounter is over.".into(),
        Event::SceneBegan => "A new scene: Berserk and Distance end.".into(),
        Event::KarmicShuffle => "Karmic Shuffle: physical defense draws use Luck.".into(),
        // Another group's: `describe_as` gives it to its own.
        _ => String::new(),
    }
}

/// Cards drawn and discarded (named only to their own seat; R-GB-12), played for
/// initiative, Fate Draws (the Dealer's side to the Dealer) and Wildcards, with
/// every Joker drawn ("Core Mechanic", "Fate Draw", "Jokers – Unbound by
/// Fate"; R-GB-3).
fn describe_cards(s: &State, e: &Event, reader: Reader<'_>) -> String {
    let n = |i: &usize| name(s, i);
    match e {
        Event::Drew { who, steps, reason } => {
            let why = match reason {
                DrawReason::Opening => "a hand",
                DrawReason::Hand => "the hand's card",
                DrawReason::Mulligan => "a mulligan",
                DrawReason::Wildcard => "a Wildcard",
                DrawReason::Desperation => "Desperation",
                DrawReason::Advantage => "an Advantage",
                DrawReason::AssPull => "Ass Pull",
                DrawReason::Acrobat => "Acrobat",
            };
            with_notes(
                format!(
                    "{} draws ({why}): {}",
                    n(who),
                    drawn_text(steps, reader.owns(s, *who))
                ),
                joker_notes(&n(who), steps),
            )
        }
        Event::Discarded { who, cards } => {
            if reader.owns(s, *who) {
                format!("{} discards {}", n(who), cards_text(cards))
            } else {
                format!("{} discards {} card(s) face down", n(who), cards.len())
            }
        }
        Event::Initiative { who, card } => format!(
            "{} plays {card} for initiative ({})",
            n(who),
            values::initiative_value(card.face).unwrap_or(0)
        ),
        Event::WildcardSpent { who, why } => format!("{} spends a Wildcard on {why}", n(who)),
        Event::FateDrawn { who, skill, result } => {
            let mut notes = joker_notes(&n(who), &result.player_draw);
            notes.extend(joker_notes("the Dealer", &result.dealer_draw));
            notes.dedup();
            with_notes(
                format!(
                    "{} ({skill}) draws {} and plays {} + {} = {}; the Dealer draws {} and plays {} + {} = {}: {} by {}",
                    n(who),
                    drawn_text(&result.player_draw, reader.owns(s, *who)),
                    result.player_card,
                    result.hand.player_bonus(),
                    result.player_total,
                    drawn_text(&result.dealer_draw, reader.dealer()),
                    result.dealer_card,
                    result.hand.modifier,
                    result.dealer_total,
                    if result.success { "success" } else { "failure" },
                    result.margin.abs()
                ),
                notes,
            )
        }
        Event::DealerWildcards { gained } => format!("The Dealer banks {gained} Wildcard(s)"),
        // Another group's: `describe_as` gives it to its own.
        _ => String::new(),
    }
}

/// The opposed hand: declared, face-down cards (never named before the
/// reveal; R-GB-12), bets, calls and the reveal ("Skill Hands in
/// Oppositions"; R-GB-15).
fn describe_hand(s: &State, e: &Event) -> String {
    let n = |i: &usize| name(s, i);
    let exchange_side = |side: &Side| match &s.phase {
        Phase::Exchange(x) => n(if *side == Side::Attacker {
            &x.attacker
        } else {
            &x.defender
        }),
        _ => side.to_string(),
    };
    match e {
        Event::Declared(x) if x.kind == HandKind::Simple => format!(
            "{} acts against {} with {} (a simple hand: one card each, no bets; R-GB-15). {} plays a card face down.",
            n(&x.attacker),
            n(&x.defender),
            x.skill,
            n(&x.attacker)
        ),
        Event::Declared(x) => format!(
            "{} acts against {} with {} ({}), +{}; up to {} face-up card(s). {} plays a card face down.",
            n(&x.attacker),
            n(&x.defender),
            x.skill,
            x.kind,
            x.attacker_bonus,
            x.attacker_limit,
            n(&x.attacker)
        ),
        Event::FaceDown { side, defense, .. } => match (side, defense) {
            (Side::Defender, Some(_)) if matches!(&s.phase, Phase::Exchange(x) if x.kind == HandKind::Simple) =>
            {
                format!("{} plays a card face down. Reveal.", exchange_side(side))
            }
            (Side::Defender, Some(d)) => format!(
                "{} plays a card face down ({}, +{}, up to {} face-up{}). Betting: the defender first.",
                exchange_side(side),
                d.skill,
                d.bonus,
                d.limit,
                if d.counter > 0 {
                    format!("; {} card(s) held back to Counter", d.counter)
                } else {
                    String::new()
                }
            ),
            _ => format!("{} plays a card face down.", exchange_side(side)),
        },
        Event::FaceUp { side, card, wild } => {
            let who = exchange_side(side);
            match wild {
                Some(steps) => with_notes(
                    format!("{who} bets {card} face up, drawn from the deck with the Wildcard"),
                    joker_notes(&who, steps),
                ),
                None => format!("{who} bets {card} face up"),
            }
        }
        Event::Called { side } => format!("{} calls.", exchange_side(side)),
        Event::Revealed {
            attacker,
            defender,
            success,
            margin,
            raises,
            cards,
        } => format!(
            "Reveal: {} = {attacker} against {} = {defender}: {} by {} ({raises} raise(s))",
            cards_text(&cards.0),
            cards_text(&cards.1),
            if *success { "success" } else { "failure" },
            margin.abs()
        ),
        // Another group's: `describe_as` gives it to its own.
        _ => String::new(),
    }
}

/// Damage, costs, statuses, Desperation and knock-outs; a pool's points only to
/// its controller's seat ("Combat"; R-GB-5, R-GB-12), and the Dealer's
/// `adjust` (issue 27, item 6).
fn describe_pools(s: &State, e: &Event, reader: Reader<'_>) -> String {
    let n = |i: &usize| name(s, i);
    match e {
        Event::Damage {
            who,
            pool,
            raw,
            taken,
        } => {
            if reader.owns(s, *who) {
                format!(
                    "{} takes {taken} to {} ({raw} before reductions), {} left",
                    n(who),
                    pool.pool_name(),
                    s.combatants.get(*who).map_or(0, |c| c.pool(*pool))
                )
            } else {
                format!("{} is hit for {raw} to {}", n(who), pool.pool_name())
            }
        }
        Event::MembersLost { who, lost } => format!(
            "{} lose {lost} member(s), {} left",
            n(who),
            s.combatants.get(*who).map_or(0, |c| c.pool(Trait::Body))
        ),
        Event::Spent { who, pool, why } => {
            format!("{} spends 1 {} on {why}", n(who), pool.pool_name())
        }
        Event::StatusChanged { who, status } => {
            format!("{} now: {}", n(who), status_text(s, status))
        }
        Event::Desperate { who } => format!("{} is Desperate", n(who)),
        Event::KnockedOut { who } => format!("{} is knocked out", n(who)),
        // The numbers of a pool only for its controller's seat (R-GB-12);
        // members and Wildcards are on the table (issue 27, item 6).
        Event::Adjusted {
            who,
            value,
            from,
            to,
        } => {
            if !value.hidden() || reader.owns(s, *who) {
                format!("The GM sets {}'s {value} to {to} (was {from}).", n(who))
            } else {
                format!("The GM adjusts {}'s {value}.", n(who))
            }
        }
        // Another group's: `describe_as` gives it to its own.
        _ => String::new(),
    }
}

/// Weapons ("Random Rules"), newcomers, Appearance and Distance ("Building A
/// Scene"), the Dealer's `add` and `remove` (issue 27, item 6).
fn describe_cast(s: &State, e: &Event) -> String {
    let n = |i: &usize| name(s, i);
    match e {
        Event::Weapons { who, wielding, .. } => format!(
            "{} holds {}",
            n(who),
            wielding
                .iter()
                .map(|w| w.name.clone())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Event::Dropped { who, weapon } => format!("{} drops {}", n(who), weapon.name),
        Event::PickedUp { who, weapon } => format!("{} takes {}", n(who), weapon.name),
        Event::Joined(c) => format!("{} join the scene", c.name),
        Event::Appeared { who } => format!("{} appears in person", n(who)),
        Event::Distance { who, rounds } => format!(
            "{} keeps everyone at a distance for {rounds} round(s)",
            n(who)
        ),
        Event::Added { kind, combatant } => {
            let copy = if same_name(kind, &combatant.name) {
                String::new()
            } else {
                format!(" (a copy of {kind})")
            };
            let by = match &combatant.controller {
                Seat::Gm => "the GM".to_string(),
                Seat::Player(p) => p.clone(),
            };
            format!(
                "The GM brings {}{copy} into the encounter, played by {by}.",
                combatant.name
            )
        }
        Event::Removed { who } => format!(
            "The GM takes {} out of the encounter: its hand and initiative card go to the discard pile.",
            n(who)
        ),
        // Another group's: `describe_as` gives it to its own.
        _ => String::new(),
    }
}
