//! The table file, command lines, and text for the terminal (`tabula bastards
//! play`).
//!
//! A table file (TOML):
//!
//! ```toml
//! title = "The investor's office"
//! indirect = false            # true: no Dealer; `gm` runs the Indirect Opposition
//! [[fated]]
//! file = "cynthia.toml"       # a character sheet beside the table file
//! controller = "Stella"       # optional: default the sheet's player, else gm
//! present = true              # optional: false waits for `appear`
//! [[followers]]
//! name = "Bodyguard"
//! power = 3                   # 1..=5
//! weapon = { name = "Club", damage = 1, skill = "Club Combat" }
//! [[extras]]
//! name = "Thugs"
//! power = 2                   # 1..=5
//! members = 5                 # 1..=5
//! ```

use serde::Deserialize;
use tabula_core::cards::Shoe;
use tabula_core::names::{NameError, check_name, check_seat_name, same_name};
use tabula_core::system::Seat;

use crate::character::{Character, SheetError, Trait, Weapon};
use crate::deck::{self, DrawStep};
use crate::opposition::{
    self, Body, Combatant, DrawReason, Event, HandKind, Phase, Side, State, Status,
};
use crate::values;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(default)]
    title: String,
    #[serde(default)]
    indirect: bool,
    #[serde(default)]
    fated: Vec<FatedEntry>,
    #[serde(default)]
    followers: Vec<FollowerEntry>,
    #[serde(default)]
    extras: Vec<ExtrasEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FatedEntry {
    file: String,
    controller: Option<String>,
    #[serde(default = "yes")]
    present: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowerEntry {
    name: String,
    power: i64,
    controller: Option<String>,
    weapon: Option<Weapon>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtrasEntry {
    name: String,
    power: i64,
    members: i64,
    controller: Option<String>,
    weapon: Option<Weapon>,
}

/// A table file that could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Unreadable TOML or an unknown field (named).
    #[error("{0}")]
    Toml(String),
    /// A character file could not be read.
    #[error("{file}: {message}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
    /// A character sheet is broken.
    #[error("{file}: {error}")]
    Sheet {
        /// The file.
        file: String,
        /// Every broken rule.
        error: SheetError,
    },
    /// A Power Rating or member count out of range.
    #[error("{name}: {field} must be 1 to 5, not {got} [\"Optional Rules\"]")]
    OutOfRange {
        /// Who.
        name: String,
        /// power or members.
        field: &'static str,
        /// The value.
        got: i64,
    },
    /// Two combatants share a name (without regard to case).
    #[error("two combatants are called {0}")]
    Duplicate(String),
    /// A table with nobody in it.
    #[error(
        "the table has no characters: list at least one [[fated]], [[followers]] or [[extras]]"
    )]
    NoCombatants,
    /// A name or seat name that cannot be used (control characters, empty, too
    /// long, a `:` in a seat name); the field is named.
    #[error("{0}")]
    Name(#[from] NameError),
    /// A weapon's damage bonus out of range (R-GB-10).
    #[error("{field}: the damage bonus must be 0 to 20, not {got} [R-GB-10]")]
    WeaponDamage {
        /// Where the weapon is, e.g. `extras.Thugs.weapon.damage`.
        field: String,
        /// The value.
        got: i64,
    },
    /// Too many combatants.
    #[error("a table holds at most {0} combatants")]
    TooMany(usize),
    /// No shoe.
    #[error("the shoe could not be built")]
    Shoe,
}

/// The seat a table entry names: its `controller`, else `default` (the sheet's
/// player), else the Dealer. The name is checked (`field` names it).
fn seat_of(field: &str, text: Option<&str>, default: &str) -> Result<Seat, NameError> {
    let name = match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => t,
        None if default.trim().is_empty() => return Ok(Seat::Gm),
        None => default.trim(),
    };
    check_seat_name(field, name)?;
    Ok(Seat::parse(name))
}

/// A weapon given in the table file: a usable name and a damage bonus 0..=20
/// (R-GB-10).
fn check_weapon(field: &str, w: Option<&Weapon>) -> Result<(), TableError> {
    if let Some(w) = w {
        check_name(&format!("{field}.weapon.name"), &w.name)?;
        check_name(&format!("{field}.weapon.skill"), &w.skill)?;
        if !(0..=20).contains(&w.damage) {
            return Err(TableError::WeaponDamage {
                field: format!("{field}.weapon.damage"),
                got: w.damage,
            });
        }
    }
    Ok(())
}

fn blank(name: String, controller: Seat, body: Body) -> Combatant {
    Combatant {
        name,
        controller,
        body,
        hand: Vec::new(),
        initiative: None,
        wildcards: 0,
        knocked_out: false,
        present: true,
        wielding: Vec::new(),
        carried: Vec::new(),
        status: Status::default(),
        removed: false,
        added: false,
    }
}

/// A Fated as a table sets it up from its sheet, controlled by `controller`:
/// the pools as the sheet carries them (full unless an earlier encounter left
/// them lower; R-GB-5 and "Decisions" in docs/systems/bastards.md): one empty
/// pool is Desperation, two knock the character out. The Desperation draw
/// ("immediately draws") was made when the pool emptied and is not repeated.
/// It holds its first weapon and carries the rest. The GM's `add` sets up a
/// bundled sheet the same way (issue 27, item 6).
pub(crate) fn fated_from_sheet(ch: &Character, controller: Seat) -> Combatant {
    let pools = Trait::ALL.map(|t| ch.pool_now(t));
    let empty = pools.iter().filter(|p| **p <= 0).count();
    let mut c = blank(
        ch.name().to_string(),
        controller,
        Body::Fated {
            character: Box::new(ch.clone()),
            pools,
            desperate: empty >= 1,
        },
    );
    c.knocked_out = empty >= 2;
    c.wildcards = ch.wildcards();
    // Each Fated starts holding its first weapon; the rest are carried.
    let mut weapons = ch.weapons().to_vec();
    if !weapons.is_empty() {
        c.wielding.push(weapons.remove(0));
    }
    c.carried = weapons;
    c
}

/// Build the initial state from a table file.
///
/// # Errors
/// [`TableError`] naming the field, file or rule.
pub fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, TableError> {
    let t: TableFile = toml::from_str(text).map_err(|e| TableError::Toml(e.to_string()))?;
    let total = t.fated.len() + t.followers.len() + t.extras.len();
    if total > opposition::MAX_COMBATANTS {
        return Err(TableError::TooMany(opposition::MAX_COMBATANTS));
    }
    if total == 0 {
        return Err(TableError::NoCombatants);
    }
    if !t.title.is_empty() {
        check_name("title", &t.title)?;
    }
    let mut combatants: Vec<Combatant> = Vec::new();
    for f in &t.fated {
        let sheet = files.read(&f.file).map_err(|e| TableError::Read {
            file: f.file.clone(),
            message: e.to_string(),
        })?;
        let ch = Character::from_toml(&sheet).map_err(|error| TableError::Sheet {
            file: f.file.clone(),
            error,
        })?;
        let mut c = fated_from_sheet(
            &ch,
            seat_of("fated.controller", f.controller.as_deref(), ch.player())?,
        );
        c.present = f.present;
        combatants.push(c);
    }
    for f in &t.followers {
        if !(1..=5).contains(&f.power) {
            return Err(TableError::OutOfRange {
                name: f.name.clone(),
                field: "power",
                got: f.power,
            });
        }
        check_name("followers.name", &f.name)?;
        check_weapon(&format!("followers.{}", f.name), f.weapon.as_ref())?;
        let mut c = blank(
            f.name.trim().to_string(),
            seat_of("followers.controller", f.controller.as_deref(), "")?,
            Body::Follower {
                power: f.power,
                pool: f.power * 5,
            },
        );
        c.wielding.extend(f.weapon.clone());
        combatants.push(c);
    }
    for f in &t.extras {
        for (field, got) in [("power", f.power), ("members", f.members)] {
            if !(1..=5).contains(&got) {
                return Err(TableError::OutOfRange {
                    name: f.name.clone(),
                    field,
                    got,
                });
            }
        }
        check_name("extras.name", &f.name)?;
        check_weapon(&format!("extras.{}", f.name), f.weapon.as_ref())?;
        let mut c = blank(
            f.name.trim().to_string(),
            seat_of("extras.controller", f.controller.as_deref(), "")?,
            Body::Extras {
                power: f.power,
                members: f.members,
            },
        );
        c.wielding.extend(f.weapon.clone());
        combatants.push(c);
    }
    for (i, c) in combatants.iter().enumerate() {
        if combatants
            .iter()
            .skip(i + 1)
            .any(|d| same_name(&d.name, &c.name))
        {
            return Err(TableError::Duplicate(c.name.clone()));
        }
    }
    // One seat, one spelling: `stella` on one entry and `Stella` on another are
    // the same seat, written as it is first given.
    let mut spellings: Vec<Seat> = Vec::new();
    for c in &mut combatants {
        match spellings.iter().find(|s| s.same_seat(&c.controller)) {
            Some(first) => c.controller = first.clone(),
            None => spellings.push(c.controller.clone()),
        }
    }
    Ok(State {
        title: t.title,
        shoe: Shoe::new(values::DECKS, true).map_err(|_| TableError::Shoe)?,
        loaded: combatants.clone(),
        combatants,
        phase: Phase::Scene,
        round: 0,
        order: Vec::new(),
        turn: 0,
        dealer_wildcards: 0,
        distance: None,
        karmic_shuffle: false,
        indirect: t.indirect,
        finished: false,
        ground: Vec::new(),
    })
}

/// The seat a line without `seat:` is given by: whoever must act now.
pub fn default_seat(s: &State) -> Seat {
    let ctl = |i: usize| {
        s.combatants
            .get(i)
            .map_or(Seat::Gm, |c| c.controller.clone())
    };
    match &s.phase {
        Phase::Scene => Seat::Gm,
        Phase::Initiative => s
            .combatants
            .iter()
            .find(|c| c.active() && c.initiative.is_none())
            .map_or(Seat::Gm, |c| c.controller.clone()),
        Phase::Turn { actor, .. } => ctl(*actor),
        Phase::Exchange(x) => {
            if x.attacker_down.is_none()
                || (x.defender_down.is_some() && x.to_act == Side::Attacker)
            {
                ctl(x.attacker)
            } else {
                ctl(x.defender)
            }
        }
    }
}

/// Who reads a description: everyone at the table (a shared log) or one seat.
#[derive(Clone, Copy, Debug)]
enum Reader<'a> {
    /// Everyone: only what the book puts on the table (R-GB-12).
    Everyone,
    /// One seat: also its own hands and its own characters' pools (R-GB-12).
    Seat(&'a Seat),
}

impl Reader<'_> {
    /// The reader commands combatant `who`, so sees its hand and pools.
    fn owns(self, s: &State, who: usize) -> bool {
        match self {
            Reader::Everyone => false,
            Reader::Seat(seat) => s.combatants.get(who).is_some_and(|c| c.controlled_by(seat)),
        }
    }

    /// The reader is the Dealer, who sees the Dealer's side of a Fate Draw.
    fn dealer(self) -> bool {
        matches!(self, Reader::Seat(Seat::Gm))
    }
}

/// Every Joker of a draw, shown as it is drawn, and who gains its Wildcard
/// ("Jokers – Unbound by Fate"; R-GB-3); then the reshuffle if there was one.
fn joker_notes(holder: &str, steps: &[DrawStep]) -> Vec<String> {
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
fn drawn_text(steps: &[DrawStep], show: bool) -> String {
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

fn with_notes(text: String, notes: Vec<String>) -> String {
    if notes.is_empty() {
        text
    } else {
        format!("{text}; {}", notes.join("; "))
    }
}

fn cards_text(cards: &[tabula_core::cards::Card]) -> String {
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

/// Text for one event (after it was applied) for one seat: [`describe`] plus that
/// seat's own cards drawn and discarded and its own characters' pools, and for the
/// Dealer (the GM seat) the Dealer's side of a Fate Draw (R-GB-12). A server or a
/// driver that shows each seat its own log uses this; a shared screen uses
/// [`describe`].
pub fn describe_for(s: &State, e: &Event, seat: &Seat) -> String {
    describe_as(s, e, Reader::Seat(seat))
}

fn describe_as(s: &State, e: &Event, reader: Reader<'_>) -> String {
    let n = |i: &usize| {
        s.combatants
            .get(*i)
            .map_or("?".to_string(), |c| c.name.clone())
    };
    let exchange_side = |side: &Side| match &s.phase {
        Phase::Exchange(x) => n(if *side == Side::Attacker {
            &x.attacker
        } else {
            &x.defender
        }),
        _ => side.to_string(),
    };
    match e {
        Event::Shuffled => "Every card is shuffled back into the deck.".into(),
        Event::OppositionBegan => {
            "The Opposition begins: everyone draws a hand, then plays a card for initiative.".into()
        }
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
        Event::Order { order } => format!(
            "Round {}: the order is {}",
            s.round,
            order.iter().map(n).collect::<Vec<_>>().join(", ")
        ),
        Event::TurnBegan { who } => format!("{}'s turn: draw or mulligan.", n(who)),
        Event::DrawStepDone => "Active phase: declare an action.".into(),
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
        Event::WildcardSpent { who, why } => format!("{} spends a Wildcard on {why}", n(who)),
        Event::StatusChanged { who, status } => {
            format!("{} now: {}", n(who), status_text(s, status))
        }
        Event::Desperate { who } => format!("{} is Desperate", n(who)),
        Event::KnockedOut { who } => format!("{} is knocked out", n(who)),
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
        Event::TurnEnded => "The turn ends.".into(),
        Event::RoundEnded { round } => {
            format!("End of round; round {round} restarts from the lowest initiative.")
        }
        Event::OppositionEnded => "The Opposition ends.".into(),
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
        Event::Joined(c) => format!("{} join the scene", c.name),
        Event::Appeared { who } => format!("{} appears in person", n(who)),
        Event::Distance { who, rounds } => format!(
            "{} keeps everyone at a distance for {rounds} round(s)",
            n(who)
        ),
        Event::Finished => "The encounter is over.".into(),
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
        Event::SceneBegan => "A new scene: Berserk and Distance end.".into(),
        Event::DealerWildcards { gained } => format!("The Dealer banks {gained} Wildcard(s)"),
        Event::KarmicShuffle => "Karmic Shuffle: physical defense draws use Luck.".into(),
    }
}

/// Status text for `seat`: the phase, whose move it is, every combatant as the
/// seat may see it (its own hands and pools; R-GB-12), and what it may do.
pub fn status(s: &State, seat: &Seat) -> String {
    let v = crate::view::view(s, seat);
    let mut out = format!("[{}] round {} - {}", seat, s.round, short_phase(s));
    for c in &v.combatants {
        let pools = match (&c.pools, c.members) {
            (Some(p), _) => p
                .iter()
                .map(|(p, n, m)| format!("{p} {n}/{m}"))
                .collect::<Vec<_>>()
                .join(" "),
            (None, Some(m)) => format!("Members {m}"),
            (None, None) => "pools hidden".into(),
        };
        out += &format!(
            "\n  {}{}: {} W{}{}{}",
            c.name,
            if c.removed {
                " (removed)"
            } else if c.knocked_out {
                " (out)"
            } else if c.desperate {
                " (Desperate)"
            } else {
                ""
            },
            pools,
            c.wildcards,
            c.initiative
                .map(|k| format!(" init {k}"))
                .unwrap_or_default(),
            match &c.hand {
                Some(h) => format!(" hand [{}]", cards_text(h)),
                None => format!(" {} cards", c.hand_size),
            }
        );
    }
    if let Some(p) = lead_chance(s, seat) {
        out += &format!(
            "\n  If both call now, you win with chance {} (the other face-down card is unknown)",
            percent(p)
        );
    }
    let legal: Vec<String> = v.legal.iter().map(|c| c.name.clone()).collect();
    out += &format!(
        "\n  {} may: {}",
        seat,
        if legal.is_empty() {
            "nothing now".into()
        } else {
            legal.join(", ")
        }
    );
    out
}

fn short_phase(s: &State) -> String {
    let n = |i: usize| {
        s.combatants
            .get(i)
            .map_or("?".to_string(), |c| c.name.clone())
    };
    // The encounter the Dealer finished is over, whatever phase it was in
    // (issue 27, bug 4: the status still read "round 2 - scene").
    if s.finished {
        return "the encounter is over".into();
    }
    match &s.phase {
        Phase::Scene => "scene".into(),
        Phase::Initiative => "initiative".into(),
        Phase::Turn { actor, drawn } => format!(
            "{}'s turn{}",
            n(*actor),
            if *drawn { "" } else { " (draw step)" }
        ),
        Phase::Exchange(x) => format!(
            "{} vs {}, {} to act",
            n(x.attacker),
            n(x.defender),
            if x.attacker_down.is_none()
                || (x.defender_down.is_some() && x.to_act == Side::Attacker)
            {
                n(x.attacker)
            } else {
                n(x.defender)
            }
        ),
    }
}

/// In the betting step, the chance that `seat`'s side wins if both call now: the
/// other side's face-down card is any card the seat cannot see (the 104 non-Joker
/// cards less the seat's own hands, its face-down card, and every card on the
/// table: face-up cards and initiative cards), equally likely. The discard pile
/// is face down (R-GB-12: only what the book puts on the table is seen), so its
/// cards count as unknown. `None` outside betting or for a seat not in the
/// exchange. The attacker's side when the seat plays both.
pub fn lead_chance(s: &State, seat: &Seat) -> Option<f64> {
    let Phase::Exchange(x) = &s.phase else {
        return None;
    };
    let owns = |i: usize| s.combatants.get(i).is_some_and(|c| c.controlled_by(seat));
    let side = if owns(x.attacker) {
        Side::Attacker
    } else if owns(x.defender) {
        Side::Defender
    } else {
        return None;
    };
    lead_chance_after(s, seat, side, BetMove::Call)
}

/// A move of the betting step ("Steps" 6-8, "Skill Hands in Oppositions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BetMove<'a> {
    /// Call: the cards stay as they are.
    Call,
    /// Bet this card of the hand face up.
    Bet(&'a tabula_core::cards::Card),
    /// Spend a Wildcard: draw a card (one the seat cannot see) and bet it face up
    /// (R-GB-3).
    BetWild,
}

/// The chance that `side` (played by `seat`) wins if both call after `mv`,
/// from what `seat` may see (R-GB-12): the other side's face-down card, and
/// for [`BetMove::BetWild`] the drawn card, are cards the seat cannot see,
/// equally likely, drawn without replacement from the 104 non-Joker cards
/// (R-GB-11) less the seat's own hands, its side's face-down card and every
/// card on the table (face-up and initiative cards). Exact counts; `None`
/// outside betting (both face-down cards played), or for a seat that does not
/// play `side`.
///
/// A Game of Bastards, "Skill Hands in Oppositions", "Steps" 5-9
/// (003_2dfeea144768d328.txt); R-GB-2, R-GB-3, R-GB-11, R-GB-12.
pub fn lead_chance_after(s: &State, seat: &Seat, side: Side, mv: BetMove<'_>) -> Option<f64> {
    let Phase::Exchange(x) = &s.phase else {
        return None;
    };
    let (attacker_down, defender_down) = (x.attacker_down?, x.defender_down?);
    let aggressor = side == Side::Attacker;
    let me = if aggressor { x.attacker } else { x.defender };
    if !s.combatants.get(me).is_some_and(|c| c.controlled_by(seat)) {
        return None;
    }
    let (my_down, my_up, my_bonus, their_up, their_bonus) = if aggressor {
        (
            attacker_down,
            &x.attacker_up,
            x.attacker_bonus,
            &x.defender_up,
            x.defender_bonus,
        )
    } else {
        (
            defender_down,
            &x.defender_up,
            x.defender_bonus,
            &x.attacker_up,
            x.attacker_bonus,
        )
    };
    // The cards the seat cannot see, by strength key: two of each (R-GB-1,
    // R-GB-11) less every card it has seen.
    let mut counts = vec![2u64; 52];
    let mut seen = |c: &tabula_core::cards::Card| {
        if let Some(k) = values::key(c.face).and_then(|k| usize::try_from(k).ok())
            && let Some(n) = counts.get_mut(k)
        {
            *n = n.saturating_sub(1);
        }
    };
    for c in s.combatants.iter().filter(|c| c.controlled_by(seat)) {
        c.hand.iter().for_each(&mut seen);
    }
    for c in &s.combatants {
        c.initiative.iter().for_each(&mut seen);
    }
    x.attacker_up
        .iter()
        .chain(x.defender_up.iter())
        .for_each(&mut seen);
    seen(&my_down);
    let sum = |cards: &[tabula_core::cards::Card]| -> i64 {
        cards
            .iter()
            .filter_map(|c| values::value(c.face))
            .fold(0i64, i64::saturating_add)
    };
    let face_value = |f| values::value(f).unwrap_or(0);
    let base = face_value(my_down.face)
        .saturating_add(sum(my_up))
        .saturating_add(my_bonus);
    let their_base = sum(their_up).saturating_add(their_bonus);
    // Each key's value and suit, once.
    let faces: Vec<(i64, Option<tabula_core::cards::Suit>)> = (0..counts.len())
        .map(|k| {
            let face = crate::chance::face_of_key(k);
            (face_value(face), values::suit_of(face))
        })
        .collect();
    let my_suit = values::suit_of(my_down.face);
    // Wins and outcomes, weighted by how many unseen cards give each.
    let won = |mine: i64, k: usize| {
        let (value, suit) = faces.get(k).copied().unwrap_or((0, None));
        let mine = values::Total {
            total: mine,
            suit: my_suit,
        };
        let theirs = values::Total {
            total: value.saturating_add(their_base),
            suit,
        };
        if aggressor {
            values::aggressor_wins(mine, theirs)
        } else {
            !values::aggressor_wins(theirs, mine)
        }
    };
    let tally = |mine: i64, counts: &[u64], weight: u64, wins: &mut u64, total: &mut u64| {
        for (k, n) in counts.iter().enumerate() {
            let w = n.saturating_mul(weight);
            if w == 0 {
                continue;
            }
            *total = total.saturating_add(w);
            if won(mine, k) {
                *wins = wins.saturating_add(w);
            }
        }
    };
    let (mut wins, mut total) = (0u64, 0u64);
    match mv {
        BetMove::Call => tally(base, &counts, 1, &mut wins, &mut total),
        BetMove::Bet(card) => tally(
            base.saturating_add(face_value(card.face)),
            &counts,
            1,
            &mut wins,
            &mut total,
        ),
        BetMove::BetWild => {
            // The drawn card of key k leaves the unseen cards for the other
            // side's face-down card: one count less, put back after.
            let mut rest = counts.clone();
            for (k, n) in counts.iter().enumerate() {
                if *n == 0 {
                    continue;
                }
                if let Some(r) = rest.get_mut(k) {
                    *r = n.saturating_sub(1);
                }
                let drawn = faces.get(k).map_or(0, |(v, _)| *v);
                tally(base.saturating_add(drawn), &rest, *n, &mut wins, &mut total);
                if let Some(r) = rest.get_mut(k) {
                    *r = *n;
                }
            }
        }
    }
    (total > 0).then(|| wins as f64 / total as f64)
}

/// The odds of each betting move in front of `seat`: when it is the turn of a
/// side the seat plays to bet (both face-down cards on the table), `call` (the
/// lead chance status prints), `bet CARD` for each card of the hand it may bet,
/// and `bet wild` when it has a Wildcard, each the chance of winning if both
/// call after it ([`lead_chance_after`]: only cards the seat has seen count as
/// known, R-GB-12). Nothing for any other seat or moment (the face-down card
/// is chosen before the other side's bonus is known).
///
/// A Game of Bastards, "Skill Hands in Oppositions", "Steps" 6-9
/// (003_2dfeea144768d328.txt); R-GB-2, R-GB-3, R-GB-11, R-GB-12.
pub fn bet_odds(s: &State, seat: &Seat) -> Vec<tabula_core::system::ChoiceOdds> {
    use tabula_core::system::ChoiceOdds;
    let mut out = Vec::new();
    let Phase::Exchange(x) = &s.phase else {
        return out;
    };
    if x.attacker_down.is_none() || x.defender_down.is_none() {
        return out;
    }
    let side = x.to_act;
    let i = if side == Side::Attacker {
        x.attacker
    } else {
        x.defender
    };
    let Some(c) = s.combatants.get(i).filter(|c| c.controlled_by(seat)) else {
        return out;
    };
    let detail = |when: &str, wild: bool| {
        format!(
            "{} wins if both call {when} (the other face-down card{} any card you have not seen)",
            c.name,
            if wild {
                " and the drawn card are"
            } else {
                " is"
            }
        )
    };
    if let Some(p) = lead_chance_after(s, seat, side, BetMove::Call) {
        out.push(ChoiceOdds {
            choice: "call".into(),
            probability: p.clamp(0.0, 1.0),
            detail: detail("now", false),
        });
    }
    let limit = if side == Side::Attacker {
        x.attacker_limit
    } else {
        x.defender_limit
    };
    if limit > 0 {
        let mut offered: Vec<tabula_core::cards::Face> = Vec::new();
        for card in &c.hand {
            if offered.contains(&card.face) {
                continue;
            }
            offered.push(card.face);
            if let Some(p) = lead_chance_after(s, seat, side, BetMove::Bet(card)) {
                out.push(ChoiceOdds {
                    choice: format!("bet {card}"),
                    probability: p.clamp(0.0, 1.0),
                    detail: detail(&format!("after betting {card} face up"), false),
                });
            }
        }
    }
    if c.wildcards > 0
        && deck::drawable(&s.shoe) > 0
        && let Some(p) = lead_chance_after(s, seat, side, BetMove::BetWild)
    {
        out.push(ChoiceOdds {
            choice: "bet wild".into(),
            probability: p.clamp(0.0, 1.0),
            detail: detail("after betting the Wildcard's card face up", true),
        });
    }
    out
}

/// A probability (`0.0..=1.0`) as the terminal writes every chance: percent
/// with one decimal (`80.4%`).
pub fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// The statuses in force, in words.
pub fn status_text(s: &State, st: &Status) -> String {
    let mut v: Vec<String> = Vec::new();
    if st.berserk {
        v.push("Berserk".into());
    }
    if st.all_out_defense {
        v.push("All-Out Defense".into());
    }
    if st.iron_wall {
        v.push("Iron Wall".into());
    }
    if st.soul_of_steel {
        v.push("Soul of Steel".into());
    }
    for i in &st.studied {
        if let Some(c) = s.combatants.get(*i) {
            v.push(format!("Studied {}", c.name));
        }
    }
    if st.stance > 0 {
        v.push(format!("Defensive Stance {}", st.stance));
    }
    if let Some(t) = st.next_defense {
        v.push(format!("next physical defense with {t}"));
    }
    if st.must_discard > 0 {
        v.push(format!("must discard {}", st.must_discard));
    }
    if st.discarded {
        v.push("has discarded this hand".into());
    }
    if st.sacrificed {
        v.push("action of this round given up".into());
    }
    if v.is_empty() {
        "nothing special".into()
    } else {
        v.join(", ")
    }
}
