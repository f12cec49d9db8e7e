//! Finding combatants by name, who may command whom, and [`Out`]: the events
//! a command emits with the state as they leave it (core's [`Decided`]).

use super::*;
use tabula_core::decided::Decided;

/// Find a combatant by name: without regard to case, spaces may be written `-` or
/// `_`, or its first word (`investor` for `The investor`) when only one matches.
pub fn find(state: &State, name: &str) -> Option<usize> {
    let norm = |s: &str| s.trim().to_lowercase().replace(['-', '_'], " ");
    let n = norm(name);
    state
        .combatants
        .iter()
        .position(|c| norm(&c.name) == n)
        .or_else(|| {
            let hits: Vec<usize> = state
                .combatants
                .iter()
                .enumerate()
                .filter(|(_, c)| {
                    let cn = norm(&c.name);
                    cn.split_whitespace().next() == Some(n.as_str())
                        || cn
                            .strip_prefix("the ")
                            .and_then(|r| r.split_whitespace().next())
                            == Some(n.as_str())
                })
                .map(|(i, _)| i)
                .collect();
            if hits.len() == 1 {
                hits.first().copied()
            } else {
                None
            }
        })
}

pub(crate) fn who(state: &State, name: &str) -> Result<usize, RuleError> {
    find(state, name).ok_or_else(|| {
        RuleError::unknown_among(
            RULE_SEATS,
            "combatant",
            name,
            state.combatants.iter().map(|c| c.name.as_str()),
        )
    })
}

pub(crate) fn may_command(state: &State, seat: &Seat, i: usize) -> Result<(), RuleError> {
    let c = state
        .combatants
        .get(i)
        .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()))?;
    if c.controlled_by(seat) {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotPermitted,
            format!("{} is commanded by {}, not {seat}", c.name, c.controller),
        ))
    }
}

/// A card for initiative: as [`card_in_hand`], but `lowest` and `best` follow the
/// initiative values (the Ace is 1, R-GB-2).
pub(crate) fn initiative_card(c: &Combatant, text: &str) -> Result<Card, RuleError> {
    let sel = text.trim().to_ascii_lowercase();
    let key = |k: &Card| {
        values::initiative_value(k.face).unwrap_or(99) * 4
            + values::suit_of(k.face).map_or(0, |s| i64::from(values::suit_order(s)))
    };
    let pick = match sel.as_str() {
        "lowest" | "low" | "worst" => c.hand.iter().min_by_key(|k| key(k)),
        "best" | "high" | "highest" => c.hand.iter().max_by_key(|k| key(k)),
        _ => return card_in_hand(c, text),
    };
    pick.copied().ok_or_else(|| {
        RuleError::spent(
            RULE_HAND,
            "cards in hand",
            format!("{} holds no card", c.name),
        )
    })
}

/// A card of a hand named by `text`: a card (`QH`, `10s`, `2 of cups`), or `best`
/// (the highest value, then suit) or `lowest` (the lowest), so scripts need not
/// know a shuffled hand.
pub(crate) fn card_in_hand(c: &Combatant, text: &str) -> Result<Card, RuleError> {
    let sel = text.trim().to_ascii_lowercase();
    if matches!(
        sel.as_str(),
        "best" | "high" | "highest" | "lowest" | "low" | "worst"
    ) {
        let keyed = c
            .hand
            .iter()
            .filter_map(|k| values::key(k.face).map(|v| (v, *k)));
        let pick = if sel.starts_with('b') || sel.starts_with('h') {
            keyed.max_by_key(|(v, _)| *v)
        } else {
            keyed.min_by_key(|(v, _)| *v)
        };
        return pick.map(|(_, k)| k).ok_or_else(|| {
            RuleError::spent(
                RULE_HAND,
                "cards in hand",
                format!("{} holds no card", c.name),
            )
        });
    }
    let spec: tabula_core::cards::CardSpec = text
        .parse()
        .map_err(|_| RuleError::unknown(RULE_HAND, "card", text))?;
    c.hand
        .iter()
        .find(|k| spec.matches(k.face))
        .copied()
        .ok_or_else(|| {
            RuleError::not_held(
                RULE_HAND,
                &spec.to_string(),
                format!("{} holds no {spec}", c.name),
            )
        })
}

/// The refusal for an Advantage `c` cannot use now ([`Combatant::usable`] is 0),
/// of the kind that says why, in this order: [`Refusal::NotHeld`] (`what` the
/// Advantage as written, e.g. `Counter<Sword>`) when it is not taken (or `c` is
/// no Fated), [`Refusal::Spent`] (`resource` the pool, `BP`..`LP`) when its
/// suit's pool is 0, [`Refusal::Condition`] (`Berserk`) when Berserk allows only
/// offensive Advantages; `message` is kept as given.
///
/// A Game of Bastards, "Advantages" ("If a character has a 0 in the trait pool
/// indicated by the suit, they cannot use advantages of that suit"), "Berserk"
/// (003_2dfeea144768d328.txt).
pub(crate) fn unusable(c: &Combatant, a: &Advantage, rule: Rule, message: String) -> RuleError {
    let pool = Trait::of_suit(a.suit());
    if c.character().is_none_or(|ch| ch.has(a) == 0) {
        RuleError::not_held(rule, &a.to_string(), message)
    } else if c.pool(pool) <= 0 {
        RuleError::spent(rule, pool.pool_name(), message)
    } else if c.status.berserk {
        RuleError::condition(rule, "Berserk", message)
    } else {
        RuleError::forbidden(rule, message)
    }
}

/// The acting combatant, if it is someone's turn.
pub fn actor(state: &State) -> Option<usize> {
    match &state.phase {
        Phase::Turn { actor, .. } => Some(*actor),
        Phase::Exchange(x) => Some(x.attacker),
        _ => None,
    }
}

/// The events of one command and the state they lead to: core's
/// [`Decided`] (the state after the events decided so far), with what this
/// book knows of its events, so that reading the combatants after an event
/// that changed only the phase or the shoe, or after the end of a turn,
/// copies nothing.
///
/// [`Decided`] copies the given state only when it is read after an event.
/// `Out` reads it only when an event changed what is read: no copy is made
/// while the command only reads the state it was given, or after events
/// that change nothing read (`TurnEnded`), and [`Out::people`] and
/// [`Out::snapshot`] read the given state's combatants after events that
/// change only the phase or the shoe. Most steps of an Opposition (a draw, a
/// declaration, a face-down card, a bet, a first call, a pass, a failed
/// attack) never read what their events changed, so they never copy.
pub(crate) struct Out<'a> {
    /// The events so far, and the state they lead to once it is read.
    decided: Decided<'a, crate::Bastards>,
    /// An event that changes the combatants, the turn order, the turn or the
    /// round was emitted.
    stale: bool,
    /// An event that changes only the phase or the shoe was emitted.
    stale_table: bool,
    /// The state was read after an event: `decided` holds its own copy,
    /// which every later read brings up to date.
    made: bool,
}

impl<'a> Out<'a> {
    pub(crate) fn new(s: &'a State) -> Self {
        Out {
            decided: Decided::new(s),
            stale: false,
            stale_table: false,
            made: false,
        }
    }
    /// The state now, with every event so far applied.
    pub(crate) fn s(&mut self) -> &State {
        if self.stale || self.stale_table {
            self.made = true;
            return self.decided.state();
        }
        self.decided.base()
    }
    pub(crate) fn emit(&mut self, e: Event) {
        match e {
            // The end of a turn changes nothing by itself.
            Event::TurnEnded => {}
            // Only the phase or the shoe.
            Event::DrawStepDone | Event::Called { .. } | Event::Revealed { .. } => {
                self.stale_table = true;
            }
            _ => self.stale = true,
        }
        self.decided.emit(e);
    }
    /// The events emitted so far, in order.
    pub(crate) fn events(&self) -> &[Event] {
        self.decided.events()
    }
    /// The events emitted, in order: `decide`'s answer.
    pub(crate) fn into_events(self) -> Vec<Event> {
        self.decided.into_events()
    }
    /// Combatant `i` as it stands now, to keep while emitting: borrowed from
    /// the given state while no event changed anything, else a copy.
    pub(crate) fn snapshot(&mut self, i: usize) -> Result<Cow<'a, Combatant>, RuleError> {
        if !self.stale && !self.made {
            let base: &'a State = self.decided.base();
            return base
                .combatants
                .get(i)
                .map(Cow::Borrowed)
                .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()));
        }
        Ok(Cow::Owned(self.c(i)?.clone()))
    }
    pub(crate) fn draw(
        &mut self,
        who: usize,
        n: usize,
        reason: DrawReason,
        roller: &mut dyn Roller,
    ) -> Result<(), RuleError> {
        if let Some(e) = self.drawn(who, n, reason, roller)? {
            self.emit(e);
        }
        Ok(())
    }
    /// The cards `who` draws now, as the event to emit (`None`: no room in
    /// the hand); the state is not changed.
    pub(crate) fn drawn(
        &mut self,
        who: usize,
        n: usize,
        reason: DrawReason,
        roller: &mut dyn Roller,
    ) -> Result<Option<Event>, RuleError> {
        let s = self.s();
        let room = MAX_HAND.saturating_sub(s.combatants.get(who).map_or(0, |c| c.hand.len()));
        // "Shuffling": an empty deck takes the discards back; with neither, the
        // draw gets what is left, perhaps nothing (`deck::drawable`).
        let n = n.min(room).min(deck::drawable(&s.shoe));
        if n == 0 {
            return Ok(None);
        }
        let name = s
            .combatants
            .get(who)
            .map(|c| c.name.as_str())
            .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &who.to_string()))?;
        let what = match reason {
            DrawReason::Opening => "Draw Step",
            DrawReason::Hand => "draw",
            DrawReason::Mulligan => "mulligan",
            DrawReason::Wildcard => "Wildcard",
            DrawReason::Desperation => "Desperation",
            DrawReason::Advantage => "Advantage",
            DrawReason::AssPull => "Ass Pull",
            DrawReason::Acrobat => "Acrobat",
        };
        roller.announce_draw(name, what, n.try_into().unwrap_or(u32::MAX));
        let steps = deck::draw_from(&s.shoe, roller, n)?;
        Ok(Some(Event::Drew { who, steps, reason }))
    }
    /// The state now for its combatants, turn order, turn and round only:
    /// its phase and shoe may be behind (see [`Out::s`] for those).
    pub(crate) fn people(&mut self) -> &State {
        if self.stale || self.made {
            self.made = true;
            return self.decided.state();
        }
        self.decided.base()
    }
    pub(crate) fn c(&mut self, i: usize) -> Result<&Combatant, RuleError> {
        self.people()
            .combatants
            .get(i)
            .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()))
    }
    /// Pay 1 point of `pool` for `why` (an Advantage's or action's cost), then
    /// settle a pool that reached zero ([`pool_emptied`], R-GB-13).
    pub(crate) fn spend_pool(
        &mut self,
        who: usize,
        pool: Trait,
        why: &str,
        roller: &mut dyn Roller,
    ) -> Result<(), RuleError> {
        if self.c(who)?.pool(pool) < 1 {
            return Err(RuleError::spent(
                RULE_ADVANTAGES,
                pool.pool_name(),
                format!("{why} costs 1 {} and the pool is empty", pool.pool_name()),
            ));
        }
        self.emit(Event::Spent {
            who,
            pool,
            why: why.into(),
        });
        pool_emptied(self, who, roller)
    }
    pub(crate) fn has_wildcard(&mut self, who: usize, why: &str) -> Result<(), RuleError> {
        let c = self.c(who)?;
        if c.wildcards < 1 {
            return Err(RuleError::spent(
                RULE_WILDCARD,
                "Wildcards",
                format!("{why} costs a Wildcard and {} has none", c.name),
            ));
        }
        Ok(())
    }
    pub(crate) fn spend_wildcard(&mut self, who: usize, why: &str) -> Result<(), RuleError> {
        self.has_wildcard(who, why)?;
        self.emit(Event::WildcardSpent {
            who,
            why: why.into(),
        });
        Ok(())
    }
    pub(crate) fn need(&mut self, who: usize, a: &Advantage) -> Result<(), RuleError> {
        let c = self.c(who)?;
        if c.usable(a) == 0 {
            return Err(unusable(
                c,
                a,
                RULE_ADVANTAGES,
                format!(
                    "{} cannot use {a} (not taken, its suit's pool is 0, or Berserk allows only offensive Advantages)",
                    c.name
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of two of the book's sheets (Carlton and Kodos), outside an
    /// Opposition.
    fn two() -> State {
        let sheets = crate::gm::bundled();
        State {
            title: "test".into(),
            shoe: Shoe::new(crate::values::DECKS, true).expect("the book's shoe"),
            combatants: sheets
                .iter()
                .take(2)
                .map(|ch| crate::setup::fated_from_sheet(ch, Seat::Gm))
                .collect(),
            phase: Phase::Scene,
            round: 0,
            order: vec![],
            turn: 0,
            dealer_wildcards: 0,
            distance: None,
            karmic_shuffle: false,
            indirect: false,
            finished: false,
            ground: vec![],
            loaded: vec![],
        }
    }

    /// The optimisation `Out` keeps over core's `Decided`: a combatant is
    /// borrowed from the given state (no copy) while only events that change
    /// the phase or the shoe, or nothing (`TurnEnded`), were emitted; after
    /// one that changes a combatant, or once the whole state was read after
    /// an event, reads see the events.
    #[test]
    fn combatants_are_borrowed_until_an_event_changes_what_is_read() {
        let base = two();
        let mut o = Out::new(&base);
        assert!(matches!(o.snapshot(0), Ok(Cow::Borrowed(_))));
        o.emit(Event::TurnEnded);
        o.emit(Event::DrawStepDone);
        assert!(matches!(o.snapshot(0), Ok(Cow::Borrowed(_))));
        assert!(std::ptr::eq(o.people(), &base));
        o.emit(Event::KnockedOut { who: 1 });
        assert!(matches!(o.snapshot(1), Ok(Cow::Owned(c)) if c.knocked_out));
        assert!(o.c(1).is_ok_and(|c| c.knocked_out));
        assert!(!base.combatants[1].knocked_out);
        assert_eq!(o.events().len(), 3);

        // The whole state read after a table-only event: later reads are
        // copies brought up to date.
        let mut o = Out::new(&base);
        o.emit(Event::DrawStepDone);
        assert!(std::ptr::eq(o.people(), &base));
        assert!(!std::ptr::eq(o.s(), &base));
        assert!(matches!(o.snapshot(0), Ok(Cow::Owned(_))));
        o.emit(Event::Desperate { who: 0 });
        assert!(o.c(0).is_ok_and(Combatant::desperate));
        assert_eq!(
            o.into_events(),
            vec![Event::DrawStepDone, Event::Desperate { who: 0 }]
        );
    }
}
