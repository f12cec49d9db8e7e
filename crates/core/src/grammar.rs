//! The one command grammar every system, the terminal and the server read.
//!
//! A command line is `[SEAT:] COMMAND WORD...`:
//!
//! - Words are separated by white space.
//! - `"double quotes"` group words into one (`attack "Iron Wolf" Brawl`), in
//!   every system; a quote may also close part of a word (`spec="Knife
//!   Fighting"` is the one word `spec=Knife Fighting`): a `key="quoted value"`
//!   parameter keeps its words together. Inside quotes `\"` is a quote and
//!   `\\` a backslash. Typographic quotes (`“ ”`) work as `"`
//!   (`text=“Knife Fighting”`).
//! - A command given as shell arguments (`tabula <system> character advance
//!   FILE ...`, `tabula campaign advance ...`) is made one line by
//!   [`join_args`], which puts back the quotes the shell took off, so each
//!   argument stays one word.
//! - `_` still stands for a space in a name (`Iron_Wolf`): names compare after
//!   [`crate::names::normalize`].
//! - Names of seats, characters, cards, Stats, Skills, elements and Zones match
//!   without regard to case and by unambiguous prefix ([`crate::names::resolve`]);
//!   a name that fits nothing is refused with the names that fit there.
//! - `SEAT:` before the command is a seat prefix only when the text before the
//!   first colon is a seat's name ([`seat_prefix`]), so free text later in the
//!   line may hold colons.
//!
//! The grammar and each system's commands are written out in
//! `docs/COMMANDS.md`, generated from the same [`crate::system::CommandDoc`]s
//! that `help` prints.

use serde::{Deserialize, Serialize};

use crate::system::Seat;

/// The most words one command line may hold.
pub const MAX_WORDS: usize = 64;

/// A command line could not be split into words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum GrammarError {
    /// A `"` opened a quoted name that never closes.
    #[error("the quote opened at character {column} is never closed: write \"NAME WITH SPACES\"")]
    UnclosedQuote {
        /// Where the quote is, counting characters from 1.
        column: usize,
    },
    /// More than [`MAX_WORDS`] words.
    #[error("a command may have at most {max} words")]
    TooManyWords {
        /// [`MAX_WORDS`].
        max: usize,
    },
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201c}' | '\u{201d}')
}

/// Split a command line into words: white space separates, double quotes
/// group (see the [module documentation](self)). `""` is an empty word.
///
/// # Errors
/// [`GrammarError::UnclosedQuote`] naming where the open quote is;
/// [`GrammarError::TooManyWords`] past [`MAX_WORDS`].
///
/// # Examples
/// ```
/// use tabula_core::grammar::words;
/// assert_eq!(
///     words(r#"attack "Iron Wolf" spec="Knife Fighting" +2"#).unwrap(),
///     ["attack", "Iron Wolf", "spec=Knife Fighting", "+2"]
/// );
/// assert!(words(r#"attack "Iron Wolf"#).is_err());
/// ```
pub fn words(line: &str) -> Result<Vec<String>, GrammarError> {
    Ok(marked_words(line)?.into_iter().map(|w| w.text).collect())
}

/// One word of a command line, and whether any of it was quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The word, quotes taken off.
    pub text: String,
    /// True when some of the word was written in quotes (`"with"`,
    /// `spec="Knife Fighting"`): the usage reader
    /// ([`crate::usage::read`]) never takes such a word for one of a
    /// usage's own words, so a name that is one of them can be typed.
    pub quoted: bool,
}

/// [`words`], each marked with whether it was quoted.
///
/// # Errors
/// As [`words`].
///
/// # Examples
/// ```
/// use tabula_core::grammar::marked_words;
/// let w = marked_words(r#"roll with "at""#).unwrap();
/// assert_eq!((w[2].text.as_str(), w[2].quoted), ("at", true));
/// assert!(!w[1].quoted);
/// ```
pub fn marked_words(line: &str) -> Result<Vec<Word>, GrammarError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = line.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        if is_quote(c) {
            in_word = true;
            quoted = true;
            let mut closed = false;
            while let Some((_, q)) = chars.next() {
                if is_quote(q) {
                    closed = true;
                    break;
                }
                if q == '\\'
                    && let Some(&(_, n)) = chars.peek()
                    && (n == '\\' || is_quote(n))
                {
                    cur.push(n);
                    chars.next();
                    continue;
                }
                cur.push(q);
            }
            if !closed {
                return Err(GrammarError::UnclosedQuote { column: i + 1 });
            }
        } else if c.is_whitespace() {
            if in_word {
                push_word(&mut out, &mut cur, quoted)?;
                in_word = false;
                quoted = false;
            }
        } else {
            in_word = true;
            cur.push(c);
        }
    }
    if in_word {
        push_word(&mut out, &mut cur, quoted)?;
    }
    Ok(out)
}

fn push_word(out: &mut Vec<Word>, cur: &mut String, quoted: bool) -> Result<(), GrammarError> {
    if out.len() >= MAX_WORDS {
        return Err(GrammarError::TooManyWords { max: MAX_WORDS });
    }
    out.push(Word {
        text: std::mem::take(cur),
        quoted,
    });
    Ok(())
}

/// Quote a word for a command line when it needs it (it holds white space or
/// a quote, or is empty), so `words(&quote(w)) == [w]`.
pub fn quote(word: &str) -> String {
    if !word.is_empty() && !word.chars().any(|c| c.is_whitespace() || is_quote(c)) {
        return word.to_string();
    }
    let mut s = String::from("\"");
    for c in word.chars() {
        if c == '\\' || is_quote(c) {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

/// The command line the arguments of a shell command are: the shell has taken
/// the user's quotes off (`text="This character can cast"` arrives as the one
/// argument `text=This character can cast`), so joining them with spaces
/// would split that argument into words. Here:
///
/// - a single argument is the whole line, as typed
///   (`tabula ... advance FILE 'advance quality Durable'`);
/// - of several, each stays one word: an argument that holds a quote is
///   written as it is (the user quoted for this grammar:
///   `'text="two words"'`), one that needs quoting is quoted, a `key=value`
///   one behind its `key=` (`text="This character can cast"`), the rest as
///   they are.
///
/// # Examples
/// ```
/// use tabula_core::grammar::{join_args, words};
/// let args = ["advance", "talent", "Spellcaster", "text=This character can cast"];
/// let line = join_args(&args);
/// assert_eq!(line, r#"advance talent Spellcaster text="This character can cast""#);
/// assert_eq!(words(&line).unwrap(), args);
/// assert_eq!(join_args(&["advance quality Durable"]), "advance quality Durable");
/// ```
pub fn join_args<S: AsRef<str>>(args: &[S]) -> String {
    if let [one] = args {
        return one.as_ref().to_string();
    }
    args.iter()
        .map(|a| {
            let a = a.as_ref();
            if a.chars().any(is_quote) {
                return a.to_string();
            }
            match a.split_once('=') {
                Some((key, value)) if !key.is_empty() && !key.chars().any(char::is_whitespace) => {
                    if value.is_empty() {
                        a.to_string()
                    } else {
                        format!("{key}={}", quote(value))
                    }
                }
                _ => quote(a),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Split a `SEAT:` prefix off `line` when the text before the first colon is
/// the name of one of `seats` (without regard to case or `_`; `GM`,
/// `Storyteller` and `Dealer` name the GM; quotes around it are allowed). Returns that seat (as written in `seats`) and the rest of the
/// line, trimmed; `None` when the line has no such prefix, so `note: the door
/// is locked` stays one command when no seat is called `note`.
///
/// # Examples
/// ```
/// use tabula_core::grammar::seat_prefix;
/// use tabula_core::system::Seat;
/// let seats = [Seat::Gm, Seat::Player("Breakhelm X-19".into())];
/// let (seat, rest) = seat_prefix("breakhelm x-19: attack Goon", &seats).unwrap();
/// assert_eq!((seat, rest), (Seat::Player("Breakhelm X-19".into()), "attack Goon"));
/// assert_eq!(seat_prefix("gm: undo", &seats).unwrap().0, Seat::Gm);
/// assert!(seat_prefix("say: hello", &seats).is_none());
/// ```
pub fn seat_prefix<'a>(line: &'a str, seats: &[Seat]) -> Option<(Seat, &'a str)> {
    let (before, rest) = line.split_once(':')?;
    let name = before.trim();
    let name = name
        .strip_prefix(is_quote)
        .and_then(|n| n.strip_suffix(is_quote))
        .unwrap_or(name);
    let wanted = Seat::parse(name);
    let seat = seats.iter().find(|s| s.same_seat(&wanted))?.clone();
    Some((seat, rest.trim()))
}

/// The amount of an `adjust`: `N` sets the value to N, `+N` and `-N` change
/// it by N.
///
/// Issue 27, item 6 (GM tools): every book's `adjust` reads its amount here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "n", rename_all = "kebab-case")]
pub enum Amount {
    /// Set the value to this.
    Set(i64),
    /// Change the value by this (negative lowers it).
    By(i64),
}

impl Amount {
    /// Read `N`, `+N` or `-N`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Amount> {
        let t = text.trim();
        if let Some(rest) = t.strip_prefix('+') {
            return digits(rest).map(Amount::By);
        }
        if let Some(rest) = t.strip_prefix('-') {
            return digits(rest).and_then(i64::checked_neg).map(Amount::By);
        }
        digits(t).map(Amount::Set)
    }

    /// The value after the adjustment of `current`; `None` on i64 overflow.
    pub fn apply(self, current: i64) -> Option<i64> {
        match self {
            Amount::Set(n) => Some(n),
            Amount::By(d) => current.checked_add(d),
        }
    }
}

fn digits(t: &str) -> Option<i64> {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Amount::Set(n) => write!(f, "{n}"),
            Amount::By(d) if *d >= 0 => write!(f, "+{d}"),
            Amount::By(d) => write!(f, "{d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn quotes_group_words_and_escape() {
        assert_eq!(words("  draw   2 ").unwrap(), ["draw", "2"]);
        assert_eq!(words("").unwrap(), Vec::<String>::new());
        assert_eq!(words(r#"say "a \"b\" c""#).unwrap(), ["say", r#"a "b" c"#]);
        assert_eq!(
            words("play “Queen of Hearts”").unwrap(),
            ["play", "Queen of Hearts"]
        );
        assert_eq!(words(r#"x """#).unwrap(), ["x", ""]);
        assert_eq!(
            words(r#"go "a"#).unwrap_err(),
            GrammarError::UnclosedQuote { column: 4 }
        );
        let many = "w ".repeat(MAX_WORDS + 1);
        assert_eq!(
            words(&many).unwrap_err(),
            GrammarError::TooManyWords { max: MAX_WORDS }
        );
    }

    /// `key="quoted value"` keeps its words together, with straight or
    /// typographic quotes, anywhere in the line.
    #[test]
    fn a_quoted_key_value_keeps_its_words_together() {
        assert_eq!(
            words(r#"advance talent Spellcaster text="This character can cast" magic=yes"#)
                .unwrap(),
            [
                "advance",
                "talent",
                "Spellcaster",
                "text=This character can cast",
                "magic=yes"
            ]
        );
        assert_eq!(
            words("talent Spellcaster text=“This character can cast”").unwrap(),
            ["talent", "Spellcaster", "text=This character can cast"]
        );
        assert_eq!(
            words(r#"x text="say \"hi\" now""#).unwrap(),
            ["x", r#"text=say "hi" now"#]
        );
        assert_eq!(
            words(r#"x text="open"#).unwrap_err(),
            GrammarError::UnclosedQuote { column: 8 }
        );
    }

    /// Shell arguments joined into a line keep each argument one word: the
    /// quotes the shell took off are put back.
    #[test]
    fn shell_arguments_keep_their_words_together() {
        let args = [
            "advance",
            "talent",
            "Spellcaster",
            "text=This character can cast",
        ];
        let line = join_args(&args);
        assert_eq!(
            line,
            r#"advance talent Spellcaster text="This character can cast""#
        );
        assert_eq!(words(&line).unwrap(), args);
        // A name with spaces, an empty value, a value with a quote.
        let args = ["attack", "Iron Wolf", "note=", "said=a \"b\" c"];
        assert_eq!(join_args(&args), r#"attack "Iron Wolf" note= said=a "b" c"#);
        let args = ["attack", "Iron Wolf", "note=", "spec=Knife Fighting"];
        assert_eq!(words(&join_args(&args)).unwrap(), args);
        // An argument quoted for the grammar, and one argument that is the
        // whole line, are written as typed.
        assert_eq!(
            words(&join_args(&["talent", "Spellcaster", "text=“two words”"])).unwrap(),
            ["talent", "Spellcaster", "text=two words"]
        );
        assert_eq!(
            join_args(&[r#"advance talent Seer text="sees far""#]),
            r#"advance talent Seer text="sees far""#
        );
        assert_eq!(join_args::<&str>(&[]), "");
    }

    #[test]
    fn a_colon_is_a_seat_prefix_only_before_a_seat() {
        let seats = [Seat::Gm, Seat::Player("Ana".into())];
        assert_eq!(
            seat_prefix("\"ana\": dodge", &seats),
            Some((Seat::Player("Ana".into()), "dodge"))
        );
        assert_eq!(seat_prefix("note: ana: hi", &seats), None);
        assert_eq!(seat_prefix("no colon", &seats), None);
    }

    proptest! {
        /// Quoting any words and joining them with spaces reads back the same words.
        #[test]
        fn quoted_words_read_back(ws in proptest::collection::vec("[ a-zA-Z_\"\\\\:=+-]{0,12}", 0..8)) {
            let line: Vec<String> = ws.iter().map(|w| quote(w)).collect();
            prop_assert_eq!(words(&line.join(" ")).unwrap(), ws);
        }

        /// Several shell arguments without quotes read back as the same words.
        #[test]
        fn joined_arguments_read_back(ws in proptest::collection::vec("[ a-zA-Z_\\:=+-]{0,12}", 2..8)) {
            prop_assert_eq!(words(&join_args(&ws)).unwrap(), ws);
        }

        /// Splitting never panics, whatever the text.
        #[test]
        fn any_text_splits_or_is_refused(s in "\\PC{0,80}") {
            let _ = words(&s);
        }
    }

    /// Issue 27, item 6: `N` sets, `+N`/`-N` change, anything else (and an
    /// overflow) is refused rather than wrapped.
    #[test]
    fn an_adjust_amount_reads_set_and_change_and_never_wraps() {
        assert_eq!(Amount::parse("7"), Some(Amount::Set(7)));
        assert_eq!(Amount::parse("+3"), Some(Amount::By(3)));
        assert_eq!(Amount::parse(" -2 "), Some(Amount::By(-2)));
        for bad in ["", "+", "-", "1.5", "x", "+-1", "99999999999999999999"] {
            assert_eq!(Amount::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Amount::By(-2).apply(5), Some(3));
        assert_eq!(Amount::Set(1).apply(5), Some(1));
        assert_eq!(Amount::By(1).apply(i64::MAX), None);
        assert_eq!(Amount::By(-3).to_string(), "-3");
        assert_eq!(Amount::By(3).to_string(), "+3");
    }
}
