//! Every name of a line resolved against the names that fit where it is
//! typed: characters, stats, skills, cards, effects, targets.

use tabula_core::names::{NameLookupError, resolve, same_name};
use tabula_core::{CommandParseError, Seat};

use crate::cards::CardType;
use crate::state::{Pool, State};
use crate::stats::Stat;

/// Resolve `typed` among `preferred` (the names that fit here: exact, case-blind,
/// or an unambiguous prefix). A name of `rest` written out in full is taken
/// too, so `decide` can refuse it saying why (another seat's character, a card
/// of another type); a prefix never reaches into `rest`. Unknown: the error
/// lists `preferred` (or resolves among `rest` when `preferred` is empty).
fn resolve_in(
    field: &str,
    typed: &str,
    preferred: &[String],
    rest: &[String],
) -> Result<String, NameLookupError> {
    if preferred.is_empty() {
        return resolve(field, typed, rest.iter().map(String::as_str)).map(String::from);
    }
    match resolve(field, typed, preferred.iter().map(String::as_str)) {
        Ok(n) => Ok(n.to_string()),
        Err(e @ NameLookupError::Unknown { .. }) => {
            rest.iter().find(|r| same_name(r, typed)).cloned().ok_or(e)
        }
        Err(e) => Err(e),
    }
}

/// The state and seat a line is read against: every name resolves against the
/// names that fit where it is typed.
pub(super) struct Names<'a> {
    pub(super) s: &'a State,
    pub(super) seat: &'a Seat,
}

impl Names<'_> {
    pub(super) fn everyone(&self) -> Vec<String> {
        self.s.participant_names()
    }

    pub(super) fn mine(&self) -> Vec<String> {
        self.s.controlled_by(self.seat)
    }

    /// A character anyone may name (a target, `to NAME`, the storyteller's
    /// `as NAME`).
    pub(super) fn character(&self, typed: &str) -> Result<String, CommandParseError> {
        Ok(resolve_in("character", typed, &self.everyone(), &[])?)
    }

    /// `as NAME` of a command a seat gives for its own character: the seat's
    /// characters first (the storyteller: every character), then the rest (so
    /// `decide` refuses another seat's character with the seat rule).
    pub(super) fn acting(&self, typed: &str) -> Result<String, CommandParseError> {
        if self.seat.is_gm() {
            return self.character(typed);
        }
        Ok(resolve_in(
            "character",
            typed,
            &self.mine(),
            &self.everyone(),
        )?)
    }

    /// The character a command from this seat acts for when it names none:
    /// the Controller when the seat plays it, else the seat's one character.
    pub(super) fn actor(&self, who: Option<&str>) -> Option<String> {
        if let Some(w) = who {
            return Some(w.to_string());
        }
        let mine = self.mine();
        if let Some(t) = self.s.turn()
            && mine.iter().any(|m| m == &t.controller)
        {
            return Some(t.controller.clone());
        }
        match mine.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    pub(super) fn controller(&self) -> Option<String> {
        self.s.turn().map(|t| t.controller.clone())
    }

    /// A stat: its name, its abbreviation (`AGI`), `Strength` for Might
    /// (R-SG-3), or an unambiguous prefix.
    pub(super) fn stat(&self, typed: &str) -> Result<Stat, CommandParseError> {
        if let Some(st) = Stat::parse(typed) {
            return Ok(st);
        }
        let names = stat_words();
        let n = resolve("Stat", typed, names.iter().map(String::as_str))?;
        Ok(Stat::parse(n).unwrap_or(Stat::Might))
    }

    /// The skills `who` may name: their own and the comparables the table
    /// agreed (a card's skill standing for one of theirs).
    pub(super) fn skills_of(&self, who: Option<&str>) -> Vec<String> {
        let Some(p) = who.and_then(|w| self.s.participant(w)) else {
            return Vec::new();
        };
        p.character
            .skills()
            .iter()
            .map(|k| k.name.clone())
            .chain(p.comparable.keys().cloned())
            .collect()
    }

    /// A skill of `who`; when the character is not known here, the name as typed
    /// (`decide` refuses it with the character's skills).
    pub(super) fn skill(
        &self,
        who: Option<&str>,
        typed: &str,
    ) -> Result<String, CommandParseError> {
        let skills = self.skills_of(who);
        if skills.is_empty() {
            return Ok(typed.trim().to_string());
        }
        Ok(resolve_in("Skill", typed, &skills, &[])?)
    }

    /// A stat or a skill of `who` (`recover`, `giveback`, `raise`). With
    /// `new_skill`, a name that is no stat and none of their skills is a new
    /// skill (`raise`, "Experience").
    pub(super) fn pool(
        &self,
        who: Option<&str>,
        typed: &str,
        new_skill: bool,
    ) -> Result<Pool, CommandParseError> {
        if let Some(st) = Stat::parse(typed) {
            return Ok(Pool::Stat(st));
        }
        let skills = self.skills_of(who);
        if let Some(k) = skills.iter().find(|k| same_name(k, typed)) {
            return Ok(Pool::Skill(k.clone()));
        }
        let mut names = stat_words();
        names.extend(skills);
        match resolve("Stat or Skill", typed, names.iter().map(String::as_str)) {
            Ok(n) => Ok(Stat::parse(n).map_or_else(|| Pool::Skill(n.to_string()), Pool::Stat)),
            Err(NameLookupError::Unknown { .. }) if new_skill || who.is_none() => {
                Ok(Pool::Skill(typed.trim().to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A card `who` would play: by its key (`sand-strike`), else by name among
    /// their cards of `kind` (any kind with `None`), then among the table's
    /// cards (which `decide` may refuse them, saying why).
    pub(super) fn card(
        &self,
        who: Option<&str>,
        kind: Option<CardType>,
        typed: &str,
    ) -> Result<String, CommandParseError> {
        if let Some(c) = self.s.card(typed) {
            return Ok(c.name.clone());
        }
        let fits = |k: CardType| kind.is_none_or(|want| want == k);
        let hand: Vec<String> = who
            .and_then(|w| self.s.participant(w))
            .map(|p| {
                p.cards
                    .iter()
                    .filter_map(|c| self.s.card(c))
                    .filter(|c| fits(c.kind))
                    .map(|c| c.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let table: Vec<String> = self.s.cards.iter().map(|c| c.name.clone()).collect();
        let field = kind.map_or_else(|| "card".to_string(), |k| format!("{k} card"));
        Ok(resolve_in(&field, typed, &hand, &table)?)
    }

    /// An effect: by its key, else among the effects in play on `who` (when
    /// given), then among the table's effect cards.
    pub(super) fn effect(
        &self,
        who: Option<&str>,
        typed: &str,
    ) -> Result<String, CommandParseError> {
        if let Some(c) = self.s.card(typed) {
            return Ok(c.name.clone());
        }
        let on: Vec<String> = who
            .and_then(|w| self.s.participant(w))
            .map(|p| p.effects.iter().map(|e| e.card.clone()).collect())
            .unwrap_or_default();
        let all: Vec<String> = self
            .s
            .cards
            .iter()
            .filter(|c| c.effect.is_some())
            .map(|c| c.name.clone())
            .collect();
        Ok(resolve_in("effect", typed, &on, &all)?)
    }

    /// Targets: names separated by commas, or each a (quoted) word of its own;
    /// unquoted words of one name join (`target Tavern Brute success 3`).
    pub(super) fn targets(&self, words: &[String]) -> Result<Vec<String>, CommandParseError> {
        let joined = words.join(" ");
        if joined.contains(',') {
            return joined
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| self.character(n))
                .collect();
        }
        if joined.trim().is_empty() {
            return Ok(Vec::new());
        }
        match self.character(&joined) {
            Ok(n) => Ok(vec![n]),
            Err(e) if words.len() > 1 => {
                let each: Result<Vec<String>, _> =
                    words.iter().map(|w| self.character(w)).collect();
                each.map_err(|_| e)
            }
            Err(e) => Err(e),
        }
    }
}

/// The nine stat names and `Strength` (R-SG-3), as a name may be typed.
fn stat_words() -> Vec<String> {
    Stat::ALL
        .iter()
        .map(|s| s.name().to_string())
        .chain(std::iter::once("Strength".to_string()))
        .collect()
}
