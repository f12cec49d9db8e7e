//! Table talk and the free roller, the same at every table of every book
//! (issue 27, items 1 and 2; `docs/COMMANDS.md`, "Talk and the free roller").
//!
//! | line | who | seen by |
//! |---|---|---|
//! | `say TEXT` | any seat, in character | every seat |
//! | `ooc TEXT` | any seat, out of character | every seat |
//! | `narrate TEXT` | the GM | every seat |
//! | `whisper SEAT TEXT` | any seat | the speaker, `SEAT` and the GM |
//! | `roll EXPR [# reason]` | any seat, in the table's `dice_dialect` | every seat |
//! | `roll secret EXPR`, `roll EXPR secret` | the GM | the GM alone |
//!
//! Each is one journal row ([`crate::session::Entry::Talk`],
//! [`crate::session::Entry::Roll`]): it survives restarts and replays, and an
//! undo never removes it (talk is not a move of the rules; an undo takes back
//! the last command of the rules only). A book's own command of the same
//! name wins (Tiers' `roll` is the book's check), except that a Tiers `roll`
//! line the book cannot read but the dice notation can is a free roll; a
//! leading `/` (`/roll 2d6`) always means the table's word.
//!
//! Talk is plain text: at most [`MAX_TALK_CHARS`] characters, no control
//! characters (the page draws it as text, never as markup).

use serde::{Deserialize, Serialize};
use tabula_core::system::Seat;

/// The longest talk line, in characters (Unicode scalar values).
pub const MAX_TALK_CHARS: usize = 1000;

/// How a talk line is spoken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Voice {
    /// In character (`say`).
    Say,
    /// Out of character (`ooc`).
    Ooc,
    /// The GM's narration (`narrate`).
    Narrate,
    /// To one seat, and the GM (`whisper SEAT`).
    Whisper,
}

impl Voice {
    /// The command word (`say`, `ooc`, `narrate`, `whisper`).
    pub fn word(self) -> &'static str {
        match self {
            Voice::Say => "say",
            Voice::Ooc => "ooc",
            Voice::Narrate => "narrate",
            Voice::Whisper => "whisper",
        }
    }
}

/// One talk line as the journal keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Talk {
    /// How it was spoken.
    pub voice: Voice,
    /// The words: plain text, 1..=[`MAX_TALK_CHARS`] characters.
    pub text: String,
    /// A whisper's listener (besides the GM, who hears every whisper).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Seat>,
}

impl Talk {
    /// Whether `seat` may see this line, spoken by `speaker`: every seat,
    /// except a whisper, which only its speaker, its listener and the GM see.
    pub fn seen_by(&self, speaker: &Seat, seat: &Seat) -> bool {
        match self.voice {
            Voice::Whisper => {
                seat.is_gm()
                    || seat.same_seat(speaker)
                    || self.to.as_ref().is_some_and(|to| seat.same_seat(to))
            }
            _ => true,
        }
    }

    /// The line in words, with the speaker (`Stella says: “We go in.”`).
    pub fn describe(&self, speaker: &Seat) -> String {
        match self.voice {
            Voice::Say => format!("{speaker} says: “{}”", self.text),
            Voice::Ooc => format!("{speaker} (out of character): {}", self.text),
            Voice::Narrate => format!("{speaker} narrates: {}", self.text),
            Voice::Whisper => match &self.to {
                Some(to) => format!("{speaker} whispers to {to}: {}", self.text),
                None => format!("{speaker} whispers: {}", self.text),
            },
        }
    }
}

/// One free roll as the journal keeps it: the dice are not rolled again on
/// replay (the row carries the roller after it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FreeRoll {
    /// The expression as typed, without its reason (`2d6 + 1`).
    pub expr: String,
    /// The outcome with every die (`2d6 (3, 5) + 1 = 9`).
    pub outcome: String,
    /// The total.
    pub total: i64,
    /// The reason written after `#` (or plain words after the roll).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// True for the GM's secret roll: only the GM sees it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    /// True when the dice were typed by the seat that rolled (rolled at the
    /// real table), not rolled by the table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub typed: bool,
    /// The dialect that read `expr` (the table's `dice_dialect`; issue 30,
    /// item 3). Left out for `d20`, which rows from before dialects are.
    #[serde(
        default,
        skip_serializing_if = "tabula_core::notation::Dialect::is_d20"
    )]
    pub dialect: tabula_core::notation::Dialect,
}

impl FreeRoll {
    /// Whether `seat` may see this roll: every seat, but a secret roll the GM
    /// alone.
    pub fn seen_by(&self, seat: &Seat) -> bool {
        !self.secret || seat.is_gm()
    }

    /// The roll in words (`Stella rolls 2d6 (3, 5) + 1 = 9 for “test”`).
    /// The outcome writes each group in one spelling, d20's; read in another
    /// dialect, the text as typed comes first, so a Roll20 player sees
    /// their own `8d6!` (`Stella rolls 8d6! → 8d6e6 (6!, 2, ...) = 30
    /// (roll20)`).
    pub fn describe(&self, roller: &Seat) -> String {
        let mut out = format!(
            "{roller} rolls{} ",
            if self.secret { " in secret" } else { "" },
        );
        if !self.dialect.is_d20() {
            out.push_str(&format!("{} → ", self.expr));
        }
        out.push_str(&self.outcome);
        if let Some(r) = &self.reason {
            out.push_str(&format!(" for “{r}”"));
        }
        if self.typed {
            out.push_str(&format!(" (typed by {roller})"));
        }
        out
    }
}

/// Why a talk line or free roll was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum TalkError {
    /// Nothing to say (or no expression to roll).
    #[error("`{word}` needs {what}")]
    Empty {
        /// The command word.
        word: String,
        /// What is missing.
        what: String,
    },
    /// The line is longer than [`MAX_TALK_CHARS`].
    #[error("a talk line may be at most {max} characters (this one has {got})")]
    TooLong {
        /// [`MAX_TALK_CHARS`].
        max: usize,
        /// Its length in characters.
        got: usize,
    },
    /// Talk is plain text: no control characters.
    #[error("talk is plain text: it may not hold control characters (found U+{code:04X})")]
    ControlCharacter {
        /// The first control character found.
        code: u32,
    },
    /// Narration is the GM's.
    #[error("only the GM may narrate; players `say` (in character) or `ooc`")]
    NarrateGmOnly,
    /// A secret roll is the GM's.
    #[error("only the GM may roll in secret")]
    SecretGmOnly,
    /// A whisper to oneself.
    #[error("whisper to another seat: `whisper SEAT TEXT`")]
    WhisperToSelf,
    /// The roll's expression could not be read in the table's dice
    /// dialect (the table setting `dice_dialect`, issue 30, item 3).
    #[error(
        "the roll {expr:?} could not be read in {dialect} notation (this table's `dice_dialect`): {message}"
    )]
    Notation {
        /// The expression.
        expr: String,
        /// The dialect the table reads (`d20`, `roll20`, `foundry`).
        dialect: tabula_core::notation::Dialect,
        /// The notation's words, with the position.
        message: String,
    },
    /// The dice could not be rolled (typed values that are not faces, or too
    /// few or too many of them).
    #[error("the roll could not be made: {message}")]
    Roll {
        /// The roller's words.
        message: String,
    },
}

/// A table word at the start of a line: which, whether written with a
/// leading `/`, and the rest of the line (trimmed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableWord<'a> {
    /// The word.
    pub kind: TableWordKind,
    /// True for `/say`, `/roll`, ...: always the table's, never a book's.
    pub slashed: bool,
    /// The rest of the line after the word, trimmed.
    pub rest: &'a str,
}

/// The table's own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableWordKind {
    /// `say`, `ooc`, `narrate`, `whisper`.
    Talk(Voice),
    /// `roll`.
    Roll,
}

/// The table word `line` starts with, if any (case does not matter).
pub fn table_word(line: &str) -> Option<TableWord<'_>> {
    let line = line.trim();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let (word, rest) = line.split_at(end);
    let (slashed, word) = match word.strip_prefix('/') {
        Some(w) => (true, w),
        None => (false, word),
    };
    let kind = match word.to_ascii_lowercase().as_str() {
        "say" => TableWordKind::Talk(Voice::Say),
        "ooc" => TableWordKind::Talk(Voice::Ooc),
        "narrate" => TableWordKind::Talk(Voice::Narrate),
        "whisper" => TableWordKind::Talk(Voice::Whisper),
        "roll" => TableWordKind::Roll,
        _ => return None,
    };
    Some(TableWord {
        kind,
        slashed,
        rest: rest.trim(),
    })
}

/// Check a talk text: trimmed, 1..=[`MAX_TALK_CHARS`] characters, no
/// control characters.
///
/// # Errors
/// [`TalkError::Empty`], [`TalkError::TooLong`], [`TalkError::ControlCharacter`].
pub fn clean_text(word: &str, text: &str) -> Result<String, TalkError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(TalkError::Empty {
            word: word.into(),
            what: "something to say".into(),
        });
    }
    let got = text.chars().count();
    if got > MAX_TALK_CHARS {
        return Err(TalkError::TooLong {
            max: MAX_TALK_CHARS,
            got,
        });
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(TalkError::ControlCharacter { code: u32::from(c) });
    }
    Ok(text.to_string())
}

/// A whisper's `SEAT TEXT`: the seat's name (one word, `SEAT:`, or in
/// double quotes) and the text.
///
/// # Errors
/// [`TalkError::Empty`] when the seat or the text is missing.
pub fn split_whisper(rest: &str) -> Result<(&str, &str), TalkError> {
    let missing = || TalkError::Empty {
        word: "whisper".into(),
        what: "a seat and something to say (`whisper SEAT TEXT`)".into(),
    };
    let rest = rest.trim();
    let (name, text) = if let Some(quoted) = rest.strip_prefix('"') {
        let close = quoted.find('"').ok_or_else(missing)?;
        (&quoted[..close], &quoted[close + 1..])
    } else {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest.split_at(end)
    };
    let name = name.trim().trim_end_matches(':').trim();
    let text = text.trim().trim_start_matches(':').trim();
    if name.is_empty() || text.is_empty() {
        return Err(missing());
    }
    Ok((name, text))
}

/// A free roll's line after `roll`: the expression, its reason, and whether
/// it is secret (`secret` first, or as the first plain word after the roll).
/// The expression is read in the table's dice dialect `dialect` (the table
/// setting `dice_dialect`, issue 30, item 3) by
/// [`tabula_core::notation::Expr::parse_in`]: at a `roll20` table `roll 8d6!`
/// explodes and `roll 10d10>7` counts the dice of 7 or more, as Roll20 reads
/// them; at a `d20` table (the default) the same text is read as d20 reads
/// it or refused.
///
/// # Errors
/// [`TalkError::Empty`] for no expression; [`TalkError::Notation`] for an
/// expression the dialect cannot read.
pub fn read_roll(
    rest: &str,
    dialect: tabula_core::notation::Dialect,
) -> Result<RollLine, TalkError> {
    let mut text = rest.trim();
    let mut secret = false;
    if let Some(after) = strip_word(text, "secret") {
        secret = true;
        text = after;
    }
    if text.is_empty() {
        return Err(TalkError::Empty {
            word: "roll".into(),
            what: "a dice expression (`roll 2d6 + 1 # reason`)".into(),
        });
    }
    let expr =
        tabula_core::notation::Expr::parse_in(text, dialect).map_err(|e| TalkError::Notation {
            expr: text.to_string(),
            dialect,
            message: e.to_string(),
        })?;
    let mut reason = None;
    let mut written = text;
    if let Some(c) = expr.comment() {
        if let Some(at) = text.rfind(c) {
            written = text[..at].trim_end();
        }
        let words = c.strip_prefix('#').unwrap_or(c).trim();
        let words = match strip_word(words, "secret") {
            Some(after) if !c.starts_with('#') => {
                secret = true;
                after
            }
            _ => words,
        };
        if !words.is_empty() {
            reason = Some(clean_text("roll", words)?);
        }
    }
    Ok(RollLine {
        written: written.to_string(),
        expr,
        reason,
        secret,
    })
}

/// `text` without its first word when that word is `word` (any case).
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    text[..end]
        .eq_ignore_ascii_case(word)
        .then(|| text[end..].trim())
}

/// A free roll read from a line ([`read_roll`]).
#[derive(Clone, Debug)]
pub struct RollLine {
    /// The expression as written, without its reason.
    pub written: String,
    /// The parsed expression.
    pub expr: tabula_core::notation::Expr,
    /// The reason, if any.
    pub reason: Option<String>,
    /// True when `secret` was asked for.
    pub secret: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::notation::Dialect::D20;

    #[test]
    fn table_words_are_read_with_or_without_a_slash() {
        let w = table_word("  /Say hello there ").unwrap();
        assert_eq!(w.kind, TableWordKind::Talk(Voice::Say));
        assert!(w.slashed);
        assert_eq!(w.rest, "hello there");
        assert_eq!(table_word("roll 2d6").unwrap().kind, TableWordKind::Roll);
        assert!(table_word("sayonara").is_none());
        assert!(table_word("draw").is_none());
    }

    #[test]
    fn a_roll_reads_its_reason_and_secret() {
        let r = read_roll("2d6 + 1 # test", D20).unwrap();
        assert_eq!(r.written, "2d6 + 1");
        assert_eq!(r.reason.as_deref(), Some("test"));
        assert!(!r.secret);
        let r = read_roll("secret 1d20 # ambush", D20).unwrap();
        assert!(r.secret);
        assert_eq!(r.written, "1d20");
        let r = read_roll("1d20 secret", D20).unwrap();
        assert!(r.secret);
        assert_eq!(r.reason, None);
        assert!(matches!(read_roll("", D20), Err(TalkError::Empty { .. })));
        assert!(matches!(
            read_roll("2d6 +", D20),
            Err(TalkError::Notation { .. })
        ));
    }

    #[test]
    fn talk_is_plain_and_capped() {
        assert!(matches!(
            clean_text("say", "  "),
            Err(TalkError::Empty { .. })
        ));
        let long = "a".repeat(MAX_TALK_CHARS + 1);
        assert!(matches!(
            clean_text("say", &long),
            Err(TalkError::TooLong { got, .. }) if got == MAX_TALK_CHARS + 1
        ));
        assert!(matches!(
            clean_text("say", "a\u{7}b"),
            Err(TalkError::ControlCharacter { code: 7 })
        ));
        assert_eq!(clean_text("say", " <b>hi</b> ").unwrap(), "<b>hi</b>");
    }

    #[test]
    fn a_whisper_reaches_its_listener_the_speaker_and_the_gm_only() {
        let ana = Seat::Player("Ana".into());
        let sam = Seat::Player("Sam".into());
        let bo = Seat::Player("Bo".into());
        let t = Talk {
            voice: Voice::Whisper,
            text: "psst".into(),
            to: Some(sam.clone()),
        };
        assert!(t.seen_by(&ana, &ana));
        assert!(t.seen_by(&ana, &sam));
        assert!(t.seen_by(&ana, &Seat::Gm));
        assert!(!t.seen_by(&ana, &bo));
        assert_eq!(split_whisper("\"Sam\" psst").unwrap(), ("Sam", "psst"));
        assert_eq!(split_whisper("gm: psst").unwrap(), ("gm", "psst"));
        assert!(split_whisper("gm").is_err());
    }
}
