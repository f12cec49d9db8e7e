//! Text for the terminal (`tabula bastards play`) and the log: the status
//! line, events in words ([`describe`](fn@describe): R-GB-12, what each seat may see), the
//! command-line parser ([`parse`]: each line is read against its command's usage
//! by [`tabula_core::usage::read`], then its names are resolved against the
//! table) and the command reference ([`reference`](mod@reference)), whose usages
//! are that parser's grammar.

use tabula_core::names::same_name;
use tabula_core::system::Seat;

use crate::character::Trait;
use crate::deck::{self, DrawStep};
use crate::event::{DrawReason, Event};
use crate::odds::{lead_chance, percent};
use crate::state::{HandKind, Phase, Side, State, Status};
use crate::values;

pub mod describe;
pub mod parse;
pub mod reference;

pub use describe::*;
pub use parse::*;
pub use reference::*;

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
