//! A command line split into words: the command, positional words and
//! keyword arguments, and the numbers among them.

use tabula_core::CommandParseError;
use tabula_core::grammar;
use tabula_core::system::{CommandDoc, find_command};

use super::COMMANDS;
use crate::state::Bet;

/// The words that start a keyword argument.
const KEYWORDS: [&str; 8] = [
    "as",
    "with",
    "vs",
    "success",
    "result",
    "to",
    "on",
    "difficulty",
];

/// A command line split into words: the command, positional words and keyword
/// arguments.
pub(crate) struct Args {
    pub(super) doc: &'static CommandDoc,
    /// The words before the first keyword.
    pub(crate) positional: Vec<String>,
    keywords: Vec<(&'static str, Vec<String>)>,
}

fn keyword(word: &str) -> Option<&'static str> {
    KEYWORDS
        .iter()
        .find(|k| k.eq_ignore_ascii_case(word))
        .copied()
}

pub(super) fn split(line: &str) -> Result<Args, CommandParseError> {
    let words = grammar::words(line)?;
    let mut it = words.into_iter();
    let first = it.next().unwrap_or_default();
    let doc = find_command(COMMANDS, &first)
        .ok_or_else(|| CommandParseError::unknown_command(&first, COMMANDS))?;
    let mut positional = Vec::new();
    let mut keywords: Vec<(&'static str, Vec<String>)> = Vec::new();
    for w in it {
        if let Some(k) = keyword(&w) {
            keywords.push((k, Vec::new()));
            continue;
        }
        // `KEY=VALUE` is the keyword and its first value in one word.
        if let Some((k, v)) = w.split_once('=')
            && let Some(k) = keyword(k)
        {
            keywords.push((k, vec![v.to_string()]));
            continue;
        }
        match keywords.last_mut() {
            Some((_, v)) => v.push(w),
            None => positional.push(w),
        }
    }
    Ok(Args {
        doc,
        positional,
        keywords,
    })
}

impl Args {
    pub(crate) fn err(&self, problem: impl Into<String>) -> CommandParseError {
        CommandParseError::arguments(self.doc, problem)
    }

    pub(crate) fn kw(&self, k: &str) -> Option<&[String]> {
        self.keywords
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.as_slice())
    }

    /// The words after keyword `k` as one name (several words unquoted join
    /// with spaces); `None` when the keyword is absent or has no words.
    pub(crate) fn kw_text(&self, k: &str) -> Option<String> {
        self.kw(k)
            .map(|v| v.join(" "))
            .filter(|s| !s.trim().is_empty())
    }

    /// Leading non-numeric positional words (a card or stat name), joined,
    /// and the numbers after them.
    pub(super) fn name_and_numbers(&self) -> (String, &[String]) {
        let at = self
            .positional
            .iter()
            .position(|w| looks_numeric(w))
            .unwrap_or(self.positional.len());
        (self.positional[..at].join(" "), &self.positional[at..])
    }

    pub(super) fn num(&self, what: &str, text: Option<&String>) -> Result<u32, CommandParseError> {
        let Some(t) = text else {
            return Err(self.err(format!("{what} is missing")));
        };
        t.parse::<u32>().map_err(|e| {
            self.err(match e.kind() {
                std::num::IntErrorKind::PosOverflow => {
                    format!("{what} is too large: {t} (at most {})", u32::MAX)
                }
                _ if looks_numeric(t) => format!("{what} must be 0 or more, not {t}"),
                _ => format!("{what} must be a whole number 0 or more, not {t:?}"),
            })
        })
    }

    pub(super) fn opt_num(
        &self,
        what: &str,
        text: Option<&String>,
    ) -> Result<u32, CommandParseError> {
        match text {
            None => Ok(0),
            some => self.num(what, some),
        }
    }

    /// The bet after keyword `k`: `k DICE [TOKENS]`; no bet when absent.
    pub(super) fn bet(&self, k: &str) -> Result<Bet, CommandParseError> {
        match self.kw(k) {
            None => Ok(Bet::default()),
            Some(v) => Ok(Bet {
                dice: self.num(&format!("{k} dice"), v.first())?,
                tokens: self.opt_num(&format!("{k} tokens"), v.get(1))?,
            }),
        }
    }

    /// The bet of positional numbers: `DICE [TOKENS]`.
    pub(super) fn bet_of(&self, nums: &[String]) -> Result<Bet, CommandParseError> {
        Ok(Bet {
            dice: self.num("dice", nums.first())?,
            tokens: self.opt_num("tokens", nums.get(1))?,
        })
    }
}

/// A word that is a whole number, perhaps negative or too large (`-4`,
/// `99999999999`): it is read as a number, so a bad one is refused as one.
fn looks_numeric(w: &str) -> bool {
    let digits = w.strip_prefix('-').unwrap_or(w);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
