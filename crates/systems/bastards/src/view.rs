//! What one seat may see (its [`View`]); what it may do now is
//! [`crate::legal::legal_commands`].
//!
//! Hidden information, R-GB-12: "Only a seat's own hand, its own characters' pools
//! and what the book puts on the table are visible to it; the Dealer (GM) sees
//! every hand the Dealer controls." A seat's view never shows another seat's hand,
//! another seat's face-down card before the reveal, another seat's characters'
//! pools (BP, SP, MP, LP, a Follower's Power Pool), the deck's content or order
//! (only the sizes of the deck and the discard pile), nor the discarded cards.
//! On the table, so shown to everyone: initiative cards, face-up cards, hand
//! sizes, Wildcards (gained from Jokers shown when drawn, spent in the open),
//! Extras' members, Desperation and knock-outs, weapons in hand and the effects
//! of Advantages.

use serde::Serialize;
use tabula_core::cards::Card;
use tabula_core::system::{CommandSpec, Seat};

use crate::character::{Trait, Weapon};
use crate::legal::legal_commands;
use crate::state::{Body, Combatant, HandKind, Phase, Side, State, Status};

/// One combatant as a seat sees it.
#[derive(Clone, Debug, Serialize)]
pub struct CombatantView {
    /// Name.
    pub name: String,
    /// Who commands it.
    pub controller: Seat,
    /// `Fated`, `Follower` or `Extras`.
    pub kind: &'static str,
    /// Pools: (name, now, full), only for the seat that commands it (R-GB-12).
    /// Followers: the Power Pool; Extras: members.
    pub pools: Option<Vec<(String, i64, i64)>>,
    /// Extras: members left (on the table, so public).
    pub members: Option<i64>,
    /// Desperate.
    pub desperate: bool,
    /// Knocked out.
    pub knocked_out: bool,
    /// In the scene.
    pub present: bool,
    /// Taken out of the encounter by the GM (`remove`; issue 27, item 6).
    pub removed: bool,
    /// Wildcards.
    pub wildcards: u32,
    /// The initiative card (face up).
    pub initiative: Option<Card>,
    /// The hand: only for the seat that commands it.
    pub hand: Option<Vec<Card>>,
    /// Cards in the hand (public).
    pub hand_size: usize,
    /// Weapons in hand.
    pub wielding: Vec<Weapon>,
    /// Statuses (public effects of Advantages).
    pub status: Status,
}

/// An opposed hand as a seat sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ExchangeView {
    /// The acting combatant.
    pub attacker: String,
    /// The affected combatant.
    pub defender: String,
    /// The attacker's skill.
    pub skill: String,
    /// The kind of hand.
    pub kind: HandKind,
    /// The attacker has played its face-down card.
    pub attacker_down_played: bool,
    /// The attacker's face-down card: only to its own seat.
    pub attacker_down: Option<Card>,
    /// The defender has played its face-down card.
    pub defender_down_played: bool,
    /// The defender's face-down card: only to its own seat.
    pub defender_down: Option<Card>,
    /// Face-up cards.
    pub attacker_up: Vec<Card>,
    /// Face-up cards.
    pub defender_up: Vec<Card>,
    /// Who bets next.
    pub to_act: Side,
}

/// Where the table is, as seen.
#[derive(Clone, Debug, Serialize)]
pub enum PhaseView {
    /// Outside an Opposition.
    Scene,
    /// Waiting for initiative cards from these.
    Initiative(Vec<String>),
    /// Someone's turn.
    Turn {
        /// Who.
        actor: String,
        /// The draw step is done.
        drawn: bool,
    },
    /// An opposed hand.
    Exchange(Box<ExchangeView>),
}

/// What one seat sees.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The seat.
    pub seat: Seat,
    /// The title.
    pub title: String,
    /// Round.
    pub round: u32,
    /// Where the table is.
    pub phase: PhaseView,
    /// Everyone.
    pub combatants: Vec<CombatantView>,
    /// Cards left in the deck (never their order).
    pub deck: usize,
    /// Cards in the discard pile.
    pub discards: usize,
    /// The Dealer's Wildcards.
    pub dealer_wildcards: u32,
    /// Weapons on the ground.
    pub ground: Vec<Weapon>,
    /// What this seat may do now.
    pub legal: Vec<CommandSpec>,
}

fn combatant_view(c: &Combatant, seat: &Seat) -> CombatantView {
    let mine = c.controlled_by(seat);
    let (kind, pools) = match &c.body {
        Body::Fated {
            character, pools, ..
        } => (
            "Fated",
            Trait::ALL
                .iter()
                .zip(pools.iter())
                .map(|(t, p)| (t.pool_name().to_string(), *p, character.pool_max(*t)))
                .collect(),
        ),
        Body::Follower { power, pool } => ("Follower", vec![("Power".into(), *pool, power * 5)]),
        Body::Extras { members, .. } => ("Extras", vec![("Members".into(), *members, 5)]),
    };
    CombatantView {
        name: c.name.clone(),
        controller: c.controller.clone(),
        kind,
        pools: mine.then_some(pools),
        members: match c.body {
            Body::Extras { members, .. } => Some(members),
            _ => None,
        },
        desperate: c.desperate(),
        knocked_out: c.knocked_out,
        present: c.present,
        removed: c.removed,
        wildcards: c.wildcards,
        initiative: c.initiative,
        hand: mine.then(|| c.hand.clone()),
        hand_size: c.hand.len(),
        wielding: c.wielding.clone(),
        status: c.status.clone(),
    }
}

/// What `seat` sees of the phase: whose turn, the initiative cards awaited,
/// an exchange's cards (a face-down card only to its owner's seat).
pub(crate) fn phase_view(s: &State, seat: &Seat) -> PhaseView {
    let name = |i: usize| {
        s.combatants
            .get(i)
            .map(|c| c.name.clone())
            .unwrap_or_default()
    };
    let owns = |i: usize| s.combatants.get(i).is_some_and(|c| c.controlled_by(seat));
    match &s.phase {
        Phase::Scene => PhaseView::Scene,
        Phase::Initiative => PhaseView::Initiative(
            s.combatants
                .iter()
                .filter(|c| c.active() && c.initiative.is_none())
                .map(|c| c.name.clone())
                .collect(),
        ),
        Phase::Turn { actor, drawn } => PhaseView::Turn {
            actor: name(*actor),
            drawn: *drawn,
        },
        Phase::Exchange(x) => PhaseView::Exchange(Box::new(ExchangeView {
            attacker: name(x.attacker),
            defender: name(x.defender),
            skill: x.skill.clone(),
            kind: x.kind,
            attacker_down_played: x.attacker_down.is_some(),
            attacker_down: x.attacker_down.filter(|_| owns(x.attacker)),
            defender_down_played: x.defender_down.is_some(),
            defender_down: x.defender_down.filter(|_| owns(x.defender)),
            attacker_up: x.attacker_up.clone(),
            defender_up: x.defender_up.clone(),
            to_act: x.to_act,
        })),
    }
}

/// The view of `seat`.
pub fn view(s: &State, seat: &Seat) -> View {
    let phase = phase_view(s, seat);
    View {
        seat: seat.clone(),
        title: s.title.clone(),
        round: s.round,
        phase,
        combatants: s
            .combatants
            .iter()
            .map(|c| combatant_view(c, seat))
            .collect(),
        deck: s.shoe.pile().len(),
        discards: s.shoe.discards().len(),
        dealer_wildcards: s.dealer_wildcards,
        ground: s.ground.clone(),
        legal: legal_commands(s, seat),
    }
}
