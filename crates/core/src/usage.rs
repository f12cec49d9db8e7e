//! One core parser for every book's commands, read from the usage lines of
//! the books' [`CommandDoc`]s (issue 26, item 1).
//!
//! A command is declared once, in its book's `COMMANDS` entry: its words,
//! summary, giver, rule and its **usage**, which is both what `help` and
//! `docs/COMMANDS.md` print and the grammar [`read`] matches a typed line
//! against. A book's parser no longer splits words or looks for keywords: it
//! asks [`read`] for a [`Reading`] and builds its command from the values,
//! resolving names against the table.
//!
//! # The usage language
//!
//! | written | means | example |
//! |---|---|---|
//! | `lower-case` | this word, in any case | `with` |
//! | `CAPITALS` | one word the player fills in (quoted if it has spaces) | `TARGET` |
//! | `CAPITALS...` | one or more words, as few as the rest of the line allows | `ACTION...` |
//! | `a\|b\|C` (no spaces) | one of these words or values | `physical\|social` |
//! | `[ ... ]` | may be left out; side by side, in any order, once each | `[zeal] [fortune]` |
//! | `( ... )` | a group, for alternatives | `(swap SIDE \| quality OLD to NEW)` |
//! | ` \| ` (spaced) | alternatives, up to the nearest `[`/`(` or the line's ends | |
//! | `key=VALUE`, `key=a\|b` | a `key=value` word, anywhere after the command | `pay=d3\|d6\|cp` |
//!
//! A word typed unquoted that is one of the usage's own words is read as
//! that word wherever a reading allows it (`fate Mira acrobat` is the flag,
//! not a MODIFIER; `target success 3` names no target); only when no such
//! reading fits may a value hold it (free text: `injury Ann severe a minor
//! cut`). A quoted word is always a value (`roll with "Sword at"`).
//!
//! Words before the command word (`[CHARACTER] attack TARGET`) are allowed:
//! a line whose first word is no command is read as such a prefix when its
//! second word is a command whose usage starts with one. Of alternatives, a
//! literal word is tried before a value (`bet CARD|wild` reads `wild` as the
//! word). A `key=value` word is taken out of the line before the rest is
//! matched, so keys may come in any order; a key the usage does not declare
//! is refused, where the usage declares any key (elsewhere `a=b` is an
//! ordinary word). A key outside `[...]` must be given.
//!
//! # Errors
//! A line that does not fit its usage is refused with
//! [`CommandParseError::Arguments`]: the usage, and what is wrong at the
//! furthest word the line could be read to ("TARGET is missing",
//! `"fast" is not expected here (expected physical, social or SKILL)`).
//!
//! # Examples
//! ```
//! use tabula_core::rule::Rule;
//! use tabula_core::system::{CommandDoc, Giver};
//! use tabula_core::usage::read;
//!
//! const R: Rule = Rule::table("example");
//! const COMMANDS: &[CommandDoc] = &[CommandDoc::new(
//!     "act",
//!     &[],
//!     "act ACTION... [on TARGET...] [cover] [pay=d3|cp]",
//!     "use an Action",
//!     Giver::Player,
//!     R,
//! )];
//! let r = read(COMMANDS, "ACT Shield Up on Iron Wolf pay=cp cover").unwrap();
//! assert_eq!(r.command.name, "act");
//! assert_eq!(r.get("ACTION"), Some("Shield Up"));
//! assert_eq!(r.get("TARGET"), Some("Iron Wolf"));
//! assert!(r.has("cover"));
//! assert_eq!(r.key("pay"), Some("cp"));
//! assert!(read(COMMANDS, "act").unwrap_err().to_string().contains("ACTION is missing"));
//! ```

use std::fmt;

use crate::grammar::{Word, marked_words};
use crate::system::{CommandDoc, CommandParseError};

/// The most matching steps one line may take before it is refused as too
/// complex (a cap; no book's usage comes near it on a line of
/// [`crate::grammar::MAX_WORDS`] words).
pub const MAX_STEPS: usize = 200_000;

/// A usage line that is not written in the usage language (a book's mistake,
/// caught by its test that every usage compiles).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("usage {usage:?}: {problem}")]
pub struct UsageError {
    /// The usage line.
    pub usage: String,
    /// What is wrong with it.
    pub problem: String,
}

/// One piece of a compiled usage.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    /// A literal word, any case (stored lower case).
    Word(String),
    /// A value: one word, or one or more when `many`.
    Slot { name: String, many: bool },
    /// `key=...`: read before matching; matches no word here.
    Key,
    /// `[...]`: one of the alternatives, or nothing.
    Optional(Vec<Vec<Item>>),
    /// `(...)` or `a|b`: one of the alternatives.
    Group(Vec<Vec<Item>>),
}

/// A declared `key=value` word.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KeyDecl {
    key: String,
    /// The value's name (`N`), when it is a value.
    slot: Option<String>,
    /// The words allowed, when it is a choice (`d3|d6|cp`).
    choices: Vec<String>,
    optional: bool,
}

/// A usage line compiled for matching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    items: Vec<Item>,
    keys: Vec<KeyDecl>,
    /// Every literal word of the usage, lower case.
    literals: Vec<String>,
    /// True when words come before the command word.
    prefixed: bool,
}

fn is_slot_name(tok: &str) -> bool {
    tok.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

/// Split a usage into tokens: `[`, `]`, `(`, `)`, ` | ` and words.
fn tokens(usage: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    for c in usage.chars() {
        match c {
            '[' | ']' | '(' | ')' => {
                flush(&mut cur, &mut out);
                out.push(c.to_string());
            }
            c if c.is_whitespace() => flush(&mut cur, &mut out),
            c => cur.push(c),
        }
    }
    flush(&mut cur, &mut out);
    out
}

struct Compiler<'u> {
    usage: &'u str,
    toks: Vec<String>,
    at: usize,
    keys: Vec<KeyDecl>,
}

impl Compiler<'_> {
    fn fail(&self, problem: impl Into<String>) -> UsageError {
        UsageError {
            usage: self.usage.to_string(),
            problem: problem.into(),
        }
    }

    /// Alternatives up to `close` (or the end when `None`).
    fn alternatives(
        &mut self,
        close: Option<&str>,
        optional: bool,
    ) -> Result<Vec<Vec<Item>>, UsageError> {
        let mut alts = vec![Vec::new()];
        loop {
            let Some(tok) = self.toks.get(self.at).cloned() else {
                return match close {
                    None => Ok(alts),
                    Some(c) => Err(self.fail(format!("a group is not closed with {c}"))),
                };
            };
            self.at += 1;
            let item = match tok.as_str() {
                "]" | ")" => {
                    if alts.len() > 1 && alts.last().is_some_and(Vec::is_empty) {
                        return Err(self.fail("an alternative is empty"));
                    }
                    return if close == Some(tok.as_str()) {
                        Ok(alts)
                    } else {
                        Err(self.fail(format!("{tok} closes nothing")))
                    };
                }
                "|" => {
                    if alts.last().is_some_and(Vec::is_empty) {
                        return Err(self.fail("an alternative is empty"));
                    }
                    alts.push(Vec::new());
                    continue;
                }
                "[" => Item::Optional(self.alternatives(Some("]"), true)?),
                "(" => Item::Group(self.alternatives(Some(")"), optional)?),
                word => self.word(word, optional)?,
            };
            if let Some(last) = alts.last_mut() {
                last.push(item);
            }
        }
    }

    /// One word of the usage: a literal, a value, `a|b`, or `key=...`.
    fn word(&mut self, word: &str, optional: bool) -> Result<Item, UsageError> {
        if let Some((key, value)) = word.split_once('=')
            && !key.is_empty()
            && !is_slot_name(key)
        {
            let value = value.trim_matches('"');
            let (slot, choices) = if is_slot_name(value) {
                (Some(value.trim_end_matches("...").to_string()), Vec::new())
            } else {
                let choices: Vec<String> = value.split('|').map(str::to_ascii_lowercase).collect();
                if choices.iter().any(String::is_empty) {
                    return Err(self.fail(format!("{word}: a choice is empty")));
                }
                (None, choices)
            };
            if self.keys.iter().any(|k| k.key.eq_ignore_ascii_case(key)) {
                return Err(self.fail(format!("{key}= is declared twice")));
            }
            self.keys.push(KeyDecl {
                key: key.to_ascii_lowercase(),
                slot,
                choices,
                optional,
            });
            return Ok(Item::Key);
        }
        let atom = |w: &str| -> Result<Item, UsageError> {
            if w.is_empty() {
                return Err(self.fail(format!("{word}: an alternative is empty")));
            }
            Ok(if is_slot_name(w) {
                match w.strip_suffix("...") {
                    Some(name) => Item::Slot {
                        name: name.to_string(),
                        many: true,
                    },
                    None => Item::Slot {
                        name: w.to_string(),
                        many: false,
                    },
                }
            } else {
                Item::Word(w.to_ascii_lowercase())
            })
        };
        if !word.contains('|') {
            return atom(word);
        }
        let mut alts: Vec<Vec<Item>> = word
            .split('|')
            .map(|w| atom(w).map(|i| vec![i]))
            .collect::<Result<_, _>>()?;
        // A literal word is tried before a value.
        alts.sort_by_key(|a| matches!(a.first(), Some(Item::Slot { .. })));
        Ok(Item::Group(alts))
    }
}

impl Pattern {
    /// Compile `doc`'s usage (see the [module documentation](self)).
    ///
    /// # Errors
    /// [`UsageError`] when the usage is not in the usage language (an
    /// unclosed or stray bracket, an empty alternative, a key declared
    /// twice) or does not hold the command's own word.
    pub fn compile(doc: &CommandDoc) -> Result<Pattern, UsageError> {
        let mut c = Compiler {
            usage: doc.usage,
            toks: tokens(doc.usage),
            at: 0,
            keys: Vec::new(),
        };
        let alts = c.alternatives(None, false)?;
        let items = match <[_; 1]>::try_from(alts) {
            Ok([one]) => one,
            Err(alts) => vec![Item::Group(alts)],
        };
        let mut literals = Vec::new();
        collect_literals(&items, &mut literals);
        let called = |i: &Item| matches!(i, Item::Word(w) if doc.is_called(w));
        let prefixed = !items.first().is_some_and(called);
        if prefixed && !items.iter().any(called) {
            return Err(c.fail(format!("the command's word {:?} is not in it", doc.name)));
        }
        Ok(Pattern {
            items,
            keys: c.keys,
            literals,
            prefixed,
        })
    }
}

fn collect_literals(items: &[Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Word(w) if !out.contains(w) => out.push(w.clone()),
            Item::Optional(alts) | Item::Group(alts) => {
                alts.iter().for_each(|a| collect_literals(a, out));
            }
            _ => {}
        }
    }
}

/// What is bound while matching: a value's word range or a literal's place.
#[derive(Clone, Debug)]
enum Bind {
    Value {
        name: String,
        from: usize,
        to: usize,
    },
    Word(usize),
}

/// What was expected at the furthest word reached, for the error.
#[derive(Default)]
struct Furthest {
    at: usize,
    expected: Vec<String>,
    end: bool,
}

struct Matcher<'w> {
    words: &'w [String],
    /// Which words were quoted ([`crate::grammar::Word::quoted`]).
    quoted: &'w [bool],
    /// The usage's literal words, lower case.
    literals: &'w [String],
    /// The first reading: an unquoted word that is one of the usage's own
    /// words is never taken into a value, and a quoted word never stands
    /// for one of them.
    strict: bool,
    /// The command's own name and aliases: its literal matches them.
    doc: &'w CommandDoc,
    steps: usize,
    furthest: Furthest,
}

type Cont<'k> = &'k mut dyn FnMut(&mut Matcher<'_>, usize, &mut Vec<Bind>) -> bool;

impl Matcher<'_> {
    /// True when the word at `at` may be (part of) a value in this reading.
    fn free(&self, at: usize) -> bool {
        !self.strict
            || self.quoted.get(at).copied().unwrap_or(false)
            || !self
                .words
                .get(at)
                .is_some_and(|w| self.literals.iter().any(|l| l.eq_ignore_ascii_case(w)))
    }

    fn expect(&mut self, at: usize, what: impl fmt::Display) {
        if at > self.furthest.at {
            self.furthest = Furthest {
                at,
                ..Furthest::default()
            };
        }
        if at == self.furthest.at {
            let w = what.to_string();
            if w.is_empty() {
                self.furthest.end = true;
            } else if !self.furthest.expected.contains(&w) {
                self.furthest.expected.push(w);
            }
        }
    }

    fn seq(&mut self, items: &[Item], at: usize, b: &mut Vec<Bind>, k: Cont<'_>) -> bool {
        let run = items
            .iter()
            .take_while(|i| matches!(i, Item::Optional(_)))
            .count();
        if run >= 2 {
            let (options, rest) = items.split_at(run);
            let options: Vec<&Item> = options.iter().collect();
            return self.any_order(&options, rest, at, b, k);
        }
        match items.split_first() {
            None => k(self, at, b),
            Some((first, rest)) => self.item(first, at, b, &mut |m, p, b| m.seq(rest, p, b, k)),
        }
    }

    /// A run of `[...]` parts side by side, each given at most once and in
    /// any order (`attack B Brawl zeal social`), the usage's own order
    /// tried first; then the rest of the usage.
    fn any_order(
        &mut self,
        options: &[&Item],
        rest: &[Item],
        at: usize,
        b: &mut Vec<Bind>,
        k: Cont<'_>,
    ) -> bool {
        for (i, option) in options.iter().enumerate() {
            let Item::Optional(alts) = option else {
                continue;
            };
            let others: Vec<&Item> = options
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| *o)
                .collect();
            for alt in alts {
                self.steps += 1;
                if self.steps > MAX_STEPS {
                    return false;
                }
                // A part that reads no word (a key) counts as left out.
                let found = self.seq(alt, at, b, &mut |m, p, b| {
                    p > at && m.any_order(&others, rest, p, b, k)
                });
                if found {
                    return true;
                }
            }
        }
        self.seq(rest, at, b, k)
    }

    fn item(&mut self, item: &Item, at: usize, b: &mut Vec<Bind>, k: Cont<'_>) -> bool {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return false;
        }
        match item {
            Item::Key => k(self, at, b),
            Item::Word(w) => {
                let quoted = self.strict && self.quoted.get(at).copied().unwrap_or(false);
                let fits = !quoted
                    && self.words.get(at).is_some_and(|typed| {
                        typed.eq_ignore_ascii_case(w)
                            || (self.doc.is_called(w) && self.doc.is_called(typed))
                    });
                if !fits {
                    self.expect(at, w);
                    return false;
                }
                b.push(Bind::Word(at));
                if k(self, at + 1, b) {
                    return true;
                }
                b.pop();
                false
            }
            Item::Slot { name, many } => {
                if at >= self.words.len() {
                    self.expect(at, name);
                    return false;
                }
                let last = if *many { self.words.len() } else { at + 1 };
                for to in at + 1..=last {
                    if !self.free(to - 1) {
                        self.expect(to - 1, name);
                        break;
                    }
                    b.push(Bind::Value {
                        name: name.clone(),
                        from: at,
                        to,
                    });
                    if k(self, to, b) {
                        return true;
                    }
                    b.pop();
                }
                false
            }
            Item::Optional(alts) | Item::Group(alts) => {
                for alt in alts {
                    if self.seq(alt, at, b, k) {
                        return true;
                    }
                }
                matches!(item, Item::Optional(_)) && k(self, at, b)
            }
        }
    }
}

/// A line read against its command's usage: which command, and the values
/// and words it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading<'a> {
    /// The command's entry.
    pub command: &'a CommandDoc,
    /// Each value given, in line order: its name in the usage (without
    /// `...`) and its words joined by one space, as typed.
    pub values: Vec<(String, String)>,
    /// The usage's literal words the line holds, lower case, in line order
    /// (the command's own word is left out).
    pub words: Vec<String>,
    /// The `key=value` words, keys lower case, values as typed.
    pub keys: Vec<(String, String)>,
    /// The words each value of [`Reading::values`] was read from, in the
    /// same order (a name quoted stays one word: `"Tavern Brute" Sailor`).
    pub parts: Vec<Vec<String>>,
}

impl Reading<'_> {
    /// The first value given for `name` (as written in the usage, without
    /// `...`), if any.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.nth(name, 0)
    }

    /// The `i`-th value given for `name` (counting from 0), for a usage that
    /// names a value twice (`compete FIRST STAT SECOND STAT`).
    pub fn nth(&self, name: &str, i: usize) -> Option<&str> {
        self.values
            .iter()
            .filter(|(n, _)| n == name)
            .nth(i)
            .map(|(_, v)| v.as_str())
    }

    /// The words the first value for `name` was read from (quotes taken
    /// off, each quoted name one word), if given: for a list of names typed
    /// one after another (`target "Tavern Brute" "Drunk Sailor"`).
    pub fn parts(&self, name: &str) -> Option<&[String]> {
        self.values
            .iter()
            .position(|(n, _)| n == name)
            .and_then(|i| self.parts.get(i))
            .map(Vec::as_slice)
    }

    /// The value for `name`, which the caller's rules need here.
    ///
    /// # Errors
    /// [`CommandParseError::Arguments`] "NAME is missing", with the usage.
    pub fn require(&self, name: &str) -> Result<&str, CommandParseError> {
        self.get(name)
            .ok_or_else(|| self.problem(format!("{name} is missing")))
    }

    /// True when the line holds the usage's literal word `word` (any case).
    pub fn has(&self, word: &str) -> bool {
        self.words.iter().any(|w| w.eq_ignore_ascii_case(word))
    }

    /// The first of `options` the line holds as a literal word.
    pub fn which<'o>(&self, options: &[&'o str]) -> Option<&'o str> {
        options.iter().copied().find(|o| self.has(o))
    }

    /// The value of `key=value`, if given.
    pub fn key(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// The value `name` (or else the key `name=`) as a whole number of type
    /// `T`, `None` when the line leaves it out.
    ///
    /// # Errors
    /// [`CommandParseError::Arguments`] naming the value when it is not a
    /// whole number `T` holds.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, CommandParseError> {
        match self.get(name).or_else(|| self.key(name)) {
            None => Ok(None),
            Some(t) => t.parse::<T>().map(Some).map_err(|_| {
                self.problem(format!("{name} must be a whole number in range, not {t:?}"))
            }),
        }
    }

    /// The error "`problem`" for this command, with its usage.
    pub fn problem(&self, problem: impl Into<String>) -> CommandParseError {
        CommandParseError::arguments(self.command, problem)
    }
}

/// Read one command line (without the seat prefix) against the usage of the
/// command it names (see the [module documentation](self)).
///
/// # Errors
/// [`CommandParseError::Unknown`] listing the commands when no command is
/// named; [`CommandParseError::Grammar`] for an unclosed quote or too many
/// words; [`CommandParseError::Arguments`] with the usage when the line does
/// not fit it (naming what is missing or unexpected, an undeclared key, a key
/// given twice, a key's value that is not one of its choices), or when the
/// usage itself cannot be compiled ([`UsageError`]).
pub fn read<'a>(commands: &'a [CommandDoc], line: &str) -> Result<Reading<'a>, CommandParseError> {
    let all = marked_words(line)?;
    let first = all.first().map(|w| w.text.as_str()).unwrap_or_default();
    let (doc, pattern) = match crate::system::find_command(commands, first) {
        Some(doc) => (doc, compiled(doc)?),
        None => {
            let second = all.get(1).map(|w| w.text.as_str()).unwrap_or_default();
            let prefixed = crate::system::find_command(commands, second)
                .map(|doc| compiled(doc).map(|p| (doc, p)))
                .transpose()?
                .filter(|(_, p)| p.prefixed);
            match prefixed {
                Some(found) => found,
                None => return Err(CommandParseError::unknown_command(first, commands)),
            }
        }
    };
    read_with(doc, &pattern, all)
}

fn compiled(doc: &CommandDoc) -> Result<Pattern, CommandParseError> {
    Pattern::compile(doc).map_err(|e| CommandParseError::arguments(doc, e.to_string()))
}

/// The `key=value` words of a line: keys lower case, values as typed.
type Keys = Vec<(String, String)>;

/// The `key=value` words of `all` that `pattern` declares, taken out.
fn take_keys(
    doc: &CommandDoc,
    pattern: &Pattern,
    all: Vec<Word>,
) -> Result<(Vec<Word>, Keys), CommandParseError> {
    let mut rest = Vec::with_capacity(all.len());
    let mut keys: Vec<(String, String)> = Vec::new();
    for (i, word) in all.into_iter().enumerate() {
        let w = &word.text;
        let split = w
            .split_once('=')
            .filter(|(k, _)| i > 0 && !k.is_empty() && !pattern.keys.is_empty());
        let Some((k, v)) = split else {
            rest.push(word);
            continue;
        };
        let key = k.to_ascii_lowercase();
        let Some(decl) = pattern.keys.iter().find(|d| d.key == key) else {
            let known: Vec<String> = pattern.keys.iter().map(|d| format!("{}=", d.key)).collect();
            return Err(CommandParseError::arguments(
                doc,
                format!("unknown key {key}= (keys: {})", known.join(", ")),
            ));
        };
        if keys.iter().any(|(k, _)| *k == key) {
            return Err(CommandParseError::arguments(
                doc,
                format!("{key}= is given twice"),
            ));
        }
        let v = if decl.choices.is_empty() {
            v.to_string()
        } else {
            let low = v.to_ascii_lowercase();
            if !decl.choices.contains(&low) {
                return Err(CommandParseError::arguments(
                    doc,
                    format!("{key}={v} (use {})", or_list(&decl.choices)),
                ));
            }
            low
        };
        if v.is_empty() {
            let what = decl.slot.as_deref().unwrap_or("a value");
            return Err(CommandParseError::arguments(
                doc,
                format!("{key}= needs {what}"),
            ));
        }
        keys.push((key, v));
    }
    if let Some(missing) = pattern
        .keys
        .iter()
        .find(|d| !d.optional && !keys.iter().any(|(k, _)| *k == d.key))
    {
        return Err(CommandParseError::arguments(
            doc,
            format!("{}= is missing", missing.key),
        ));
    }
    Ok((rest, keys))
}

fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
    }
}

/// One way through `pattern` for `words`: the binds, or what was expected
/// at the furthest word reached and whether the step cap was passed.
fn match_words(
    doc: &CommandDoc,
    pattern: &Pattern,
    words: &[String],
    quoted: &[bool],
    strict: bool,
) -> Result<Vec<Bind>, (Furthest, bool)> {
    let mut m = Matcher {
        words,
        quoted,
        literals: &pattern.literals,
        strict,
        doc,
        steps: 0,
        furthest: Furthest::default(),
    };
    let n = words.len();
    let mut found: Option<Vec<Bind>> = None;
    let mut end = |m: &mut Matcher<'_>, at: usize, b: &mut Vec<Bind>| {
        if at == n {
            found = Some(b.clone());
            true
        } else {
            m.expect(at, "");
            false
        }
    };
    m.seq(&pattern.items, 0, &mut Vec::new(), &mut end);
    found.ok_or((m.furthest, m.steps > MAX_STEPS))
}

/// Match the line: first the strict reading (an unquoted word that is one
/// of the usage's own words stays that word: `act Slash on` misses its
/// TARGET, `add thug as a as b` has one `as` too many), then, when none
/// fits, the loose one (free text may hold such words: `injury Ann severe a
/// minor cut`). A line that fits neither is refused with what the strict
/// reading expected.
fn read_with<'a>(
    doc: &'a CommandDoc,
    pattern: &Pattern,
    all: Vec<Word>,
) -> Result<Reading<'a>, CommandParseError> {
    let (marked, keys) = take_keys(doc, pattern, all)?;
    let quoted: Vec<bool> = marked.iter().map(|w| w.quoted).collect();
    let words: Vec<String> = marked.into_iter().map(|w| w.text).collect();
    let binds = match match_words(doc, pattern, &words, &quoted, true) {
        Ok(b) => b,
        Err((strict, _)) => match match_words(doc, pattern, &words, &quoted, false) {
            Ok(b) => b,
            Err((_, too_many_steps)) if too_many_steps => {
                return Err(CommandParseError::arguments(
                    doc,
                    "the line is too complex to read; quote names with spaces",
                ));
            }
            Err(_) => {
                return Err(CommandParseError::arguments(doc, mismatch(&words, &strict)));
            }
        },
    };
    let mut r = Reading {
        command: doc,
        values: Vec::new(),
        words: Vec::new(),
        keys,
        parts: Vec::new(),
    };
    for bind in binds {
        match bind {
            Bind::Value { name, from, to } => {
                let part = words.get(from..to).map(<[_]>::to_vec).unwrap_or_default();
                r.values.push((name, part.join(" ")));
                r.parts.push(part);
            }
            Bind::Word(at) => {
                r.words.push(
                    words
                        .get(at)
                        .map(|w| w.to_ascii_lowercase())
                        .unwrap_or_default(),
                );
            }
        }
    }
    // The command's own word is not one of the line's literal words.
    if let Some(i) = r.words.iter().position(|w| doc.is_called(w)) {
        r.words.remove(i);
    }
    Ok(r)
}

/// The problem with a line that fits no way through its usage.
fn mismatch(words: &[String], f: &Furthest) -> String {
    let expected = or_list(&f.expected);
    match words.get(f.at) {
        None if expected.is_empty() => "the line ends too early".into(),
        None => match f.expected.iter().find(|e| is_slot_name(e)) {
            Some(slot) if f.expected.len() == 1 => format!("{slot} is missing"),
            _ => format!("expected {expected} at the end"),
        },
        Some(w) if expected.is_empty() => format!("{w:?} is one word too many"),
        Some(w) if f.end => {
            let mut all = f.expected.clone();
            all.push("the end".into());
            format!("{w:?} is not expected here (expected {})", or_list(&all))
        }
        Some(w) => format!("{w:?} is not expected here (expected {expected})"),
    }
}

/// Compile every usage of `commands`, for a book's test.
///
/// # Errors
/// The first [`UsageError`].
pub fn check_all(commands: &[CommandDoc]) -> Result<(), UsageError> {
    commands
        .iter()
        .try_for_each(|d| Pattern::compile(d).map(|_| ()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;
    use crate::system::Giver;

    const R: Rule = Rule::table("test");

    fn doc(name: &'static str, usage: &'static str) -> CommandDoc {
        CommandDoc::new(name, &["alias"], usage, "", Giver::Any, R)
    }

    fn read1(usage: &'static str, line: &str) -> Result<Reading<'static>, CommandParseError> {
        let name: &'static str = usage
            .split_whitespace()
            .find(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .unwrap_or("x");
        let docs: &'static [CommandDoc] = Box::leak(Box::new([doc(name, usage)]));
        read(docs, line)
    }

    fn err(usage: &'static str, line: &str) -> String {
        match read1(usage, line) {
            Err(CommandParseError::Arguments { problem, .. }) => problem,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn positional_values_one_word_each() {
        let r = read1("fate WHO SKILL TRAIT [MODIFIER]", "fate Mira Brawl Body +2").unwrap();
        assert_eq!(r.get("WHO"), Some("Mira"));
        assert_eq!(r.get("MODIFIER"), Some("+2"));
        let r = read1("fate WHO SKILL TRAIT [MODIFIER]", "FATE Mira Brawl Body").unwrap();
        assert_eq!(r.get("MODIFIER"), None);
        assert_eq!(
            err("fate WHO SKILL TRAIT [MODIFIER]", "fate Mira"),
            "SKILL is missing"
        );
        assert_eq!(
            err("fate WHO SKILL TRAIT [MODIFIER]", "fate a b c d e"),
            "\"e\" is one word too many"
        );
    }

    #[test]
    fn alias_and_repeated_names() {
        let r = read1("compete FIRST STAT SECOND STAT", "alias a str b sch").unwrap();
        assert_eq!(r.command.name, "compete");
        assert_eq!(r.nth("STAT", 1), Some("sch"));
        assert!(r.words.is_empty());
    }

    #[test]
    fn many_words_lazily_up_to_keywords_and_flags() {
        let u = "act ACTION... [on TARGET...] [cover]";
        let r = read1(u, "act Shield Up on Iron Wolf cover").unwrap();
        assert_eq!(r.get("ACTION"), Some("Shield Up"));
        assert_eq!(r.get("TARGET"), Some("Iron Wolf"));
        assert!(r.has("cover"));
        assert_eq!(
            r.parts("TARGET"),
            Some(&["Iron".to_string(), "Wolf".to_string()][..])
        );
        let r = read1(u, "act \"Shield on\" on Cristy").unwrap();
        assert_eq!(r.get("ACTION"), Some("Shield on"));
        assert!(!r.has("cover"));
        assert_eq!(err(u, "act"), "ACTION is missing");
        // A last `on` with nothing after it is part of the name.
        let r = read1(u, "act Shield on").unwrap();
        assert_eq!(r.get("ACTION"), Some("Shield on"));
    }

    #[test]
    fn literal_tried_before_value() {
        let r = read1("bet CARD|wild", "bet WILD").unwrap();
        assert!(r.has("wild"));
        assert_eq!(r.get("CARD"), None);
        let r = read1("bet CARD|wild", "bet 7h").unwrap();
        assert_eq!(r.get("CARD"), Some("7h"));
    }

    #[test]
    fn groups_and_alternatives() {
        let u = "change CHARACTER (word PROFESSION to NEW | swap SIDE | quality OLD to NEW)";
        let r = read1(u, "change Ann quality Brave to Bold").unwrap();
        assert_eq!(r.which(&["word", "swap", "quality"]), Some("quality"));
        assert_eq!(r.get("NEW"), Some("Bold"));
        assert!(r.has("to"));
        let r = read1(u, "change Ann swap left").unwrap();
        assert_eq!(r.get("SIDE"), Some("left"));
        assert_eq!(
            err(u, "change Ann fly"),
            "\"fly\" is not expected here (expected word, swap or quality)"
        );
        let r = read1("roll [with WEAPON [at TARGET]]", "roll with Knife at Bo").unwrap();
        assert_eq!(r.get("TARGET"), Some("Bo"));
        assert_eq!(
            err("roll [with WEAPON [at TARGET]]", "roll at Bo"),
            "\"at\" is not expected here (expected with or the end)"
        );
    }

    #[test]
    fn keys_anywhere_checked_and_required() {
        let u = "spawn NAME KIND... zone=ZONE [health=N] [pay=d3|d6|cp]";
        let r = read1(u, "spawn Gob zone=Yard Big Goblin PAY=CP").unwrap();
        assert_eq!(r.get("KIND"), Some("Big Goblin"));
        assert_eq!(r.key("zone"), Some("Yard"));
        assert_eq!(r.key("pay"), Some("cp"));
        assert_eq!(r.number::<u32>("health").unwrap(), None);
        assert_eq!(err(u, "spawn Gob Goblin"), "zone= is missing");
        assert_eq!(
            err(u, "spawn Gob Goblin zone=Y pay=gold"),
            "pay=gold (use d3, d6 or cp)"
        );
        assert_eq!(
            err(u, "spawn Gob Goblin zone=Y zone=Z"),
            "zone= is given twice"
        );
        assert!(err(u, "spawn Gob Goblin zone=Y hp=2").starts_with("unknown key hp="));
        let r = read1(u, "spawn Gob Goblin zone=Y health=x").unwrap();
        assert!(r.number::<u32>("health").is_err());
        // Without declared keys, `a=b` is an ordinary word.
        let r = read1("frame TEXT...", "frame a=b c").unwrap();
        assert_eq!(r.get("TEXT"), Some("a=b c"));
    }

    #[test]
    fn prefix_before_the_command_word() {
        let docs: &'static [CommandDoc] = Box::leak(Box::new([doc(
            "attack",
            "[CHARACTER] attack TARGET [with ABILITY]",
        )]));
        let r = read(docs, "Pip attack Rat with Bite").unwrap();
        assert_eq!(r.get("CHARACTER"), Some("Pip"));
        assert_eq!(r.get("ABILITY"), Some("Bite"));
        let r = read(docs, "attack Rat").unwrap();
        assert_eq!(r.get("CHARACTER"), None);
        assert_eq!(r.get("TARGET"), Some("Rat"));
        assert!(matches!(
            read(docs, "Pip run"),
            Err(CommandParseError::Unknown { .. })
        ));
    }

    #[test]
    fn a_usage_word_stays_itself_where_it_can_and_quotes_make_it_a_value() {
        // The strict reading: `acrobat` is the usage's word, not MODIFIER.
        let r = read1("fate WHO [MODIFIER] [acrobat]", "fate Mira acrobat").unwrap();
        assert_eq!(r.get("MODIFIER"), None);
        assert!(r.has("acrobat"));
        // An optional value before a keyword is left out rather than take it.
        let u = "target [TARGETS...] [success DICE]";
        let r = read1(u, "target success 3").unwrap();
        assert_eq!((r.get("TARGETS"), r.get("DICE")), (None, Some("3")));
        // Quoted, the word is a value.
        let r = read1("fate WHO [MODIFIER] [acrobat]", "fate Mira \"acrobat\"").unwrap();
        assert_eq!(r.get("MODIFIER"), Some("acrobat"));
        let r = read1(
            "roll [with WEAPON... [at TARGET...]]",
            "roll with \"Sword at\"",
        )
        .unwrap();
        assert_eq!((r.get("WEAPON"), r.get("TARGET")), (Some("Sword at"), None));
        // When no strict reading fits, free text may hold usage words.
        let u = "injury WHO minor|severe WORDS... [similar-to ENTRY]";
        let r = read1(u, "injury Ann severe a minor cut").unwrap();
        assert_eq!(r.get("WORDS"), Some("a minor cut"));
    }

    #[test]
    fn options_side_by_side_come_in_any_order_once_each() {
        let u = "attack TARGET SKILL [physical|social] [zeal] [wild=N] [as NAME... [to SEAT]]";
        let r = read1(u, "attack B Brawl zeal social wild=2").unwrap();
        assert_eq!(r.which(&["physical", "social"]), Some("social"));
        assert!(r.has("zeal"));
        let r = read1(u, "attack B Brawl as Big Boss zeal").unwrap();
        assert_eq!(r.get("NAME"), Some("Big Boss"));
        assert!(r.has("zeal"));
        assert_eq!(
            err(u, "attack B Brawl zeal zeal"),
            "\"zeal\" is not expected here (expected physical, social, as or the end)"
        );
        // In the usage's order, as before.
        let r = read1(u, "attack B Brawl physical zeal").unwrap();
        assert_eq!(r.words, ["physical", "zeal"]);
    }

    /// Usages of every shape the books use, for the property test.
    const SHAPES: &[&str] = &[
        "act ACTION... [on TARGET...] [cover] [pay=d3|cp]",
        "[CHARACTER] attack TARGET [with ABILITY]",
        "change CHARACTER... (word PROFESSION... to NEW... | swap SIDE... | quality OLD... to NEW...)",
        "target [TARGETS...] [success DICE [TOKENS]] [result DICE [TOKENS]]",
        "fate WHO SKILL TRAIT [MODIFIER] [acrobat] [spec=NAME]",
        "bet CARD|wild",
    ];

    proptest::proptest! {
        /// Nothing a player types makes the reader panic or hang; a reading
        /// holds only the line's own words, each used once.
        #[test]
        fn any_line_is_read_or_refused_never_a_panic(
            shape in 0..SHAPES.len(),
            words in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("on".to_string()),
                    proptest::strategy::Just("to".to_string()),
                    proptest::strategy::Just("success".to_string()),
                    proptest::strategy::Just("cover".to_string()),
                    proptest::strategy::Just("pay=cp".to_string()),
                    proptest::strategy::Just("\"a b\"".to_string()),
                    "[a-z0-9=]{1,6}",
                ],
                0..40,
            ),
        ) {
            let usage = SHAPES[shape];
            let name = if shape == 1 { "attack" } else { usage.split_whitespace().next().unwrap_or("x") };
            let docs: &'static [CommandDoc] = Box::leak(Box::new([doc(
                Box::leak(name.to_string().into_boxed_str()),
                usage,
            )]));
            let line = format!("{name} {}", words.join(" "));
            if let Ok(r) = read(docs, &line) {
                let typed = crate::grammar::words(&line).unwrap();
                let used: usize = r.parts.iter().map(Vec::len).sum::<usize>()
                    + r.words.len()
                    + r.keys.len();
                proptest::prop_assert_eq!(used + 1, typed.len(), "{:?}", r);
                for part in &r.parts {
                    for w in part {
                        proptest::prop_assert!(typed.contains(w));
                    }
                }
            }
        }
    }

    #[test]
    fn bad_usages_are_refused() {
        for bad in ["x [a", "x a]", "x (a | )", "x k=a| k=b", "y TARGET"] {
            let d = doc("x", bad);
            assert!(Pattern::compile(&d).is_err(), "{bad}");
        }
    }

    #[test]
    fn too_many_ways_is_a_clear_error_not_a_hang() {
        let u = "x A... B... C... D... E... end";
        let line = format!("x {}", vec!["w"; 60].join(" "));
        let e = err(u, &line);
        assert!(
            e.contains("too complex") || e.contains("expected end"),
            "{e}"
        );
    }
}
