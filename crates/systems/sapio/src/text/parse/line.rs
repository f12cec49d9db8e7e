//! Reading the words of one line: names resolved where they are typed,
//! numbers, free text (see the [parent module](super)).

use super::*;

/// The words of one line after the command word, read left to right.
pub(super) struct Line<'a> {
    pub(super) doc: &'static CommandDoc,
    pub(super) state: &'a State,
    pub(super) words: Vec<String>,
    pub(super) pos: usize,
}

impl Line<'_> {
    pub(super) fn bad(&self, problem: impl Into<String>) -> CommandParseError {
        CommandParseError::arguments(self.doc, problem)
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.words.len()
    }

    /// Refuse words left over: a line never silently does less than it says.
    pub(super) fn done(&self) -> Result<(), CommandParseError> {
        if self.at_end() {
            Ok(())
        } else {
            let rest = self.words[self.pos..].join(" ");
            Err(self.bad(format!("unexpected {rest:?}")))
        }
    }

    /// The next word, or a refusal naming what is missing.
    pub(super) fn word(&mut self, what: &str) -> Result<String, CommandParseError> {
        let w = self
            .words
            .get(self.pos)
            .cloned()
            .ok_or_else(|| self.bad(format!("{what} is missing")))?;
        self.pos += 1;
        Ok(w)
    }

    /// The words left, as typed (quoted groups kept as one word); none are
    /// left after.
    pub(super) fn rest(&mut self) -> Vec<String> {
        let rest = self.words[self.pos.min(self.words.len())..].to_vec();
        self.pos = self.words.len();
        rest
    }

    /// The rest of the line as free text, its words joined by spaces.
    pub(super) fn text(&mut self, what: &str) -> Result<String, CommandParseError> {
        let t = self.words[self.pos.min(self.words.len())..].join(" ");
        self.pos = self.words.len();
        if t.trim().is_empty() {
            Err(self.bad(format!("{what} is missing")))
        } else {
            Ok(t.trim().to_string())
        }
    }

    /// Where `keyword` is among the words left, if it is.
    pub(super) fn find_word(&self, keyword: &str) -> Option<usize> {
        (self.pos..self.words.len()).find(|&i| self.words[i].eq_ignore_ascii_case(keyword))
    }

    /// A name among `candidates` (see the [module documentation](super)): the
    /// longest run of the next words (up to `end`) that is one of them, else
    /// the next word by [`resolve`]. With no candidates, the words up to `end`
    /// are passed on as typed.
    pub(super) fn name_until(
        &mut self,
        field: &str,
        candidates: &[String],
        end: usize,
    ) -> Result<String, CommandParseError> {
        let end = end.min(self.words.len());
        if self.pos >= end {
            return Err(self.bad(format!("the {field} is missing")));
        }
        if candidates.is_empty() {
            let t = self.words[self.pos..end].join(" ");
            self.pos = end;
            return Ok(t.replace('_', " ").trim().to_string());
        }
        for k in (2..=end - self.pos).rev() {
            let run = self.words[self.pos..self.pos + k].join(" ");
            if let Some(c) = candidates.iter().find(|c| same_name(c, &run)) {
                self.pos += k;
                return Ok(c.trim().to_string());
            }
        }
        let typed = &self.words[self.pos];
        let n = resolve(field, typed, candidates.iter().map(String::as_str))?;
        self.pos += 1;
        Ok(n.trim().to_string())
    }

    /// A name that takes every word up to `end` (or to the end of the line),
    /// matched whole among `candidates` by [`pick`].
    pub(super) fn whole_name(
        &mut self,
        field: &str,
        candidates: &[String],
        end: usize,
    ) -> Result<String, CommandParseError> {
        let end = end.min(self.words.len());
        if self.pos >= end {
            return Err(self.bad(format!("the {field} is missing")));
        }
        let typed = self.words[self.pos..end].join(" ");
        self.pos = end;
        pick(field, &typed, candidates)
    }

    /// A character at the table: its index.
    pub(super) fn character(&mut self) -> Result<usize, CommandParseError> {
        let names = self.state.names();
        let n = self.name_until("character", &names, self.words.len())?;
        self.state
            .find(&n)
            .ok_or_else(|| self.bad(format!("no character {n:?}")))
    }

    pub(super) fn number(&mut self, what: &str) -> Result<u32, CommandParseError> {
        let w = self.word(what)?;
        w.trim()
            .parse::<u32>()
            .map_err(|_| self.bad(format!("{w:?} is not a whole number")))
    }
}

/// `typed` resolved among `candidates` ([`resolve`]: the same name, else a
/// unique prefix); with no candidates, `typed` as written (`_` read as a space)
/// for `decide` to judge.
pub(super) fn pick(
    field: &str,
    typed: &str,
    candidates: &[String],
) -> Result<String, CommandParseError> {
    if candidates.is_empty() {
        return Ok(typed.replace('_', " ").trim().to_string());
    }
    Ok(
        resolve(field, typed, candidates.iter().map(String::as_str))?
            .trim()
            .to_string(),
    )
}

/// An element of `c` typed whole: resolved among its elements; a Special
/// Talent, the Principle or the Worst Impulse typed in full is passed on, so
/// `decide` says why it is no element ("Invoking an Element", R-SA-8).
pub(super) fn element_of(c: Option<&Character>, typed: &str) -> Result<String, CommandParseError> {
    let elements = c.map(Character::elements).unwrap_or_default();
    match pick("element", typed, &elements) {
        Err(e) => {
            let other = c.is_some_and(|c| {
                let d = c.sheet();
                d.special_talents.iter().any(|t| same_name(&t.name, typed))
                    || same_name(&d.principle, typed)
                    || same_name(&d.worst_impulse, typed)
            });
            if other {
                Ok(typed.trim().to_string())
            } else {
                Err(e)
            }
        }
        ok => ok,
    }
}

/// The rest of the line as an element's name and how a Profession applies:
/// a last word `full`/`fully` (the default) or `partial`/`partly`
/// ("Professions and Specializations"; for `defend`, R-SA-11).
pub(super) fn element_and_use(l: &mut Line<'_>) -> Result<(String, bool), CommandParseError> {
    let mut end = l.words.len();
    let mut fully = true;
    if end >= 2 {
        let last = l.words[end - 1].to_ascii_lowercase();
        if matches!(last.as_str(), "full" | "fully") {
            end -= 1;
        } else if matches!(last.as_str(), "partial" | "partly") {
            end -= 1;
            fully = false;
        }
    }
    if l.pos >= end {
        return Err(l.bad("the element is missing"));
    }
    let typed = l.words[l.pos..end].join(" ");
    l.pos = l.words.len();
    Ok((typed, fully))
}

pub(super) fn sheet_of(state: &State, i: usize) -> Option<&Character> {
    state.characters.get(i).map(|m| &m.character)
}

pub(super) fn entries(track: &Track) -> Vec<String> {
    track.entries().iter().map(|(_, n)| n.to_string()).collect()
}

pub(super) fn track(c: &Character, kind: HarmKind) -> &Track {
    match kind {
        HarmKind::Injury => c.injuries(),
        HarmKind::Stress => c.stresses(),
    }
}

pub(super) fn talents(c: &Character) -> Vec<String> {
    c.sheet()
        .special_talents
        .iter()
        .map(|t| t.name.trim().to_string())
        .collect()
}

pub(super) fn weapons(c: &Character) -> Vec<String> {
    c.sheet()
        .weapons
        .iter()
        .map(|w| w.name.trim().to_string())
        .collect()
}

pub(super) fn professions(c: &Character) -> Vec<String> {
    std::iter::once(&c.sheet().profession)
        .chain(c.sheet().side_professions.iter())
        .map(|p| p.name.trim().to_string())
        .collect()
}

pub(super) fn sides(c: &Character) -> Vec<String> {
    c.sheet()
        .side_professions
        .iter()
        .map(|p| p.name.trim().to_string())
        .collect()
}
