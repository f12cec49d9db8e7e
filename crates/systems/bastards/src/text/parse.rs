//! Command lines: the parser of the reference entries ([`COMMANDS`]), in the
//! one command grammar of `tabula-core` ([`tabula_core::grammar`]).
//!
//! Every line is split by [`tabula_core::grammar::words`]: `"double quotes"`
//! group a name with spaces, `_` still stands for a space. Every name typed is
//! resolved here against the names that fit where it is typed, without regard
//! to case and by unambiguous prefix ([`tabula_core::names::resolve`]), so the
//! [`Command`] carries the name as the table writes it:
//!
//! - characters (`WHO`, `TARGET`, `study TARGET`): every character at the table
//!   (decide refuses one the seat does not command). A first word after `The`
//!   also works (`investor` for `The investor`) when only one name fits.
//! - Traits: Body, Spirit, Mind, Luck (or a pool, BP...; or a suit).
//! - skills: the character's sheet, the book's skills and the skills of its
//!   weapons; another `<Weapon> Combat` or `Craft <Type>` is a book skill too
//!   ("Skills"). A Follower or Extras plays its Power Rating whatever the skill,
//!   so for them a skill that fits nothing is kept as typed.
//! - `spec=NAME`: the character's Specialties.
//! - cards: the book's card syntax (`QH`, `10s`, `"queen of hearts"`, `Joker`),
//!   `best` / `lowest`, or a card of the seat's own hand by unique prefix. A
//!   card that fits nothing is refused listing only the seat's own hand
//!   (R-GB-12: never another seat's).
//! - weapons: the acting character's carried weapons (`wield`), the ground's
//!   (`pickup`); Advantages used on their own (`use`).
//!
//! Where the character a name belongs to is not known yet (no one is acting),
//! the name is passed on and [`crate::decide::decide`] refuses it listing the
//! names that fit.

use tabula_core::cards::CardSpec;
use tabula_core::files::{NoSheets, SheetFiles, names_sheet_file};
use tabula_core::grammar::words;
use tabula_core::names::{NameLookupError, normalize, resolve};
use tabula_core::system::{CommandDoc, CommandParseError, Seat, find_command};

use super::reference::COMMANDS;
use crate::character::{SKILLS, Trait, Weapon, is_skill};
use crate::command::{Command, UseAdvantage};
use crate::decide;
use crate::state::{AttackOptions, Combatant, HandKind, Phase, Side, State};

/// The Advantages used on their own, as `use` takes them.
const ADVANTAGE_WORDS: [&str; 12] = [
    "all-out-defense",
    "stance",
    "defensive-stance",
    "serendipity",
    "iron-wall",
    "karmic-shuffle",
    "soul-of-steel",
    "study",
    "dodge",
    "ass-pull",
    "berserk",
    "calm",
];

/// Card words that pick from a hand without naming a card.
const PICKS: [&str; 6] = ["best", "high", "highest", "lowest", "low", "worst"];

/// Read one command line given by `seat` (without the `seat:` prefix) against
/// `state`, resolving every name it holds (see the [module documentation](self)).
///
/// # Errors
/// [`CommandParseError::Grammar`] for an unclosed quote;
/// [`CommandParseError::Unknown`] for a first word that is no command (listing
/// [`COMMANDS`]); [`CommandParseError::Arguments`] with the command's usage;
/// [`CommandParseError::Name`] for a name that fits nothing, or several, there,
/// listing the names that fit; [`CommandParseError::Sheet`] for `add
/// FILE.toml`, since no sheet file comes with the line
/// ([`parse_command_with`]).
pub fn parse_command(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    parse_command_with(state, seat, line, &NoSheets)
}

/// [`parse_command`] with the sheet files sent with the line: the GM's `add
/// FILE.toml [as NAME] [to SEAT]` ([`names_sheet_file`]) reads FILE from
/// `sheets` and validates it with the book's reader ([`crate::gm::read_sheet`],
/// the one `character validate` and the table file's sheets use); the command
/// carries the sheet's text, which `decide` validates again (issue 27, item 6).
///
/// # Errors
/// As [`parse_command`]; [`CommandParseError::Sheet`] naming the file when it
/// was not sent or cannot be read (one problem: the file error), or is not a
/// legal character of the book (every broken rule, each naming its field or
/// rule).
pub fn parse_command_with(
    state: &State,
    seat: &Seat,
    line: &str,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let w = words(line)?;
    let Some(head) = w.first() else {
        return Err(CommandParseError::unknown_command("", COMMANDS));
    };
    let Some(doc) = find_command(COMMANDS, head) else {
        return Err(CommandParseError::unknown_command(head, COMMANDS));
    };
    let a = Args {
        doc,
        words: w.iter().skip(1).map(String::as_str).collect(),
    };
    let ctx = Context { state, seat };
    Ok(match doc.name {
        "fate" => parse_fate(&ctx, &a)?,
        "begin" => Command::Begin,
        "scene" => Command::Scene,
        "init" => {
            let who = ctx.character(a.arg(0, "who")?)?;
            let card = ctx.card(decide::find(state, &who), a.arg(1, "card")?)?;
            Command::Init { who, card }
        }
        "draw" => Command::Draw,
        "mulligan" => Command::Mulligan,
        "discard" => Command::Discard {
            card: ctx.card(ctx.discarder(), a.arg(0, "card")?)?,
        },
        "wildcard" => Command::Wildcard {
            who: ctx.character(a.arg(0, "who")?)?,
        },
        "attack" => parse_attack(&ctx, &a)?,
        "play" => parse_play(&ctx, &a)?,
        "bet" => {
            let c = a.arg(0, "card (or wild)")?;
            if c.eq_ignore_ascii_case("wild") || c.eq_ignore_ascii_case("wildcard") {
                Command::BetWild
            } else {
                Command::Bet {
                    card: ctx.card(ctx.player_of_the_hand(), c)?,
                }
            }
        }
        "call" => Command::Call,
        "reinit" => Command::Reinit {
            card: ctx.card(ctx.acting(), a.arg(0, "card")?)?,
        },
        "wield" => {
            let typed = a.arg(0, "weapon")?;
            let carried = ctx.acting().and_then(|i| state.combatants.get(i));
            Command::Wield {
                weapon: match carried {
                    Some(c) => weapon_named("carried weapon", typed, &c.carried)?,
                    None => spaced(typed),
                },
            }
        }
        "pickup" => Command::Pickup {
            weapon: weapon_named("weapon on the ground", a.arg(0, "weapon")?, &state.ground)?,
        },
        "pass" => Command::Pass,
        "use" => parse_use(&ctx, &a)?,
        "reinforce" | "involve" => parse_newcomers(&ctx, &a)?,
        "appear" => Command::Appear {
            who: ctx.character(a.arg(0, "who")?)?,
        },
        "distance" => {
            let who = ctx.character(a.arg(0, "who")?)?;
            let n = a.int(a.arg(1, "wildcards")?, "wildcards")?;
            let wildcards = u32::try_from(n).map_err(|_| {
                a.bad(format!(
                    "wildcards must be 1 or more (and at most the Wildcards held), not {n}"
                ))
            })?;
            Command::Distance { who, wildcards }
        }
        "end" => Command::End,
        "adjust" => parse_adjust(&ctx, &a)?,
        "add" => parse_add(&ctx, &a, sheets)?,
        "remove" => {
            if a.words.len() > 1 {
                return Err(a.bad("remove takes WHO".into()));
            }
            Command::Remove {
                who: ctx.character(a.arg(0, "who")?)?,
            }
        }
        _ => Command::Finish,
    })
}

/// The words after a command's name, with the command's reference entry
/// for the usage its errors quote.
struct Args<'a> {
    /// The command's entry in [`COMMANDS`].
    doc: &'a CommandDoc,
    /// The words after the command's name.
    words: Vec<&'a str>,
}

impl Args<'_> {
    /// A problem with the arguments, quoting the command's usage.
    fn bad(&self, problem: String) -> CommandParseError {
        CommandParseError::arguments(self.doc, problem)
    }

    /// Argument `i`, or "missing NAME".
    fn arg(&self, i: usize, name: &str) -> Result<&str, CommandParseError> {
        self.words
            .get(i)
            .copied()
            .ok_or_else(|| self.bad(format!("missing {name}")))
    }

    /// `text` as a whole number (checked: one out of range is "too large").
    fn int(&self, text: &str, name: &str) -> Result<i64, CommandParseError> {
        text.parse::<i64>().map_err(|e| {
            use std::num::IntErrorKind;
            self.bad(match e.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                    format!("{name} {text:?} is too large (out of range)")
                }
                _ => format!("{name} must be a whole number, not {text:?}"),
            })
        })
    }
}

/// `fate WHO SKILL TRAIT [MODIFIER] [acrobat] [spec=NAME]`: a Skill Check
/// ("Skill Hand", "Difficulty Modifier", "Specialties"; R-GB-6).
fn parse_fate(ctx: &Context, a: &Args) -> Result<Command, CommandParseError> {
    let who = ctx.character(a.arg(0, "who")?)?;
    let i = decide::find(ctx.state, &who);
    let skill = ctx.skill(i, a.arg(1, "skill")?)?;
    let trait_used = ctx.trait_named(a.arg(2, "trait")?)?;
    let mut modifier = 0;
    let mut acrobat = false;
    let mut specialty = None;
    for w in a.words.iter().skip(3) {
        if w.eq_ignore_ascii_case("acrobat") {
            acrobat = true;
        } else if let Some(sp) = strip_key(w, "spec=") {
            specialty = Some(ctx.specialty(i, sp)?);
        } else {
            modifier = a.int(w.trim_start_matches('+'), "modifier")?;
        }
    }
    Ok(Command::Fate {
        who,
        skill,
        trait_used,
        modifier,
        acrobat,
        specialty,
    })
}

/// `attack TARGET SKILL [physical|social|fear|simple] [zeal] [fortune]
/// [disarm] [savage] [wild=N] [spec=NAME]`: an opposed hand declared, with
/// the Advantages that go with it ("Steps", "Core Mechanic", "Advantages";
/// R-GB-15).
fn parse_attack(ctx: &Context, a: &Args) -> Result<Command, CommandParseError> {
    let target = ctx.character(a.arg(0, "target")?)?;
    let me = ctx.acting();
    let skill = ctx.skill(me, a.arg(1, "skill")?)?;
    let mut kind = HandKind::Physical;
    let mut options = AttackOptions::default();
    for w in a.words.iter().skip(2) {
        let l = w.to_ascii_lowercase();
        if let Some(k) = HandKind::parse(&l) {
            kind = k;
        } else if l == "zeal" {
            options.zeal = true;
        } else if l == "fortune" {
            options.fortune = true;
        } else if l == "disarm" {
            options.disarm = true;
        } else if l == "savage" {
            options.savage = true;
        } else if let Some(n) = strip_key(w, "wild=") {
            options.wild_swing = a.int(n, "wild swing")?;
        } else if let Some(n) = strip_key(w, "spec=") {
            options.specialty = Some(ctx.specialty(me, n)?);
        } else {
            return Err(a.bad(format!("unknown option {w:?}")));
        }
    }
    Ok(Command::Attack {
        target,
        skill,
        kind,
        options,
    })
}

/// `play CARD [SKILL] [mom] [counter=N]`: the face-down card, the one
/// affected naming its skill, Mind Over Matter or Counter ("Skill Hands in
/// Oppositions", "Advantages").
fn parse_play(ctx: &Context, a: &Args) -> Result<Command, CommandParseError> {
    let me = ctx.player_of_the_hand();
    let card = ctx.card(me, a.arg(0, "card")?)?;
    let mut skill = None;
    let mut mind_over_matter = false;
    let mut counter = 0;
    for w in a.words.iter().skip(1) {
        if w.eq_ignore_ascii_case("mom") {
            mind_over_matter = true;
        } else if let Some(n) = strip_key(w, "counter=") {
            counter = a.int(n, "counter")?;
        } else {
            skill = Some(ctx.skill(me, w)?);
        }
    }
    Ok(Command::Play {
        card,
        skill,
        mind_over_matter,
        counter,
    })
}

/// `use WHO ADVANTAGE [N|TARGET]`: an Advantage used on its own
/// ("Advantages"; R-GB-8).
fn parse_use(ctx: &Context, a: &Args) -> Result<Command, CommandParseError> {
    let who = ctx.character(a.arg(0, "who")?)?;
    let advantage = match advantage_word(a.arg(1, "advantage")?)? {
        "all-out-defense" => UseAdvantage::AllOutDefense,
        "stance" | "defensive-stance" => UseAdvantage::DefensiveStance(a.int(a.arg(2, "N")?, "N")?),
        "serendipity" => UseAdvantage::Serendipity,
        "iron-wall" => UseAdvantage::IronWall,
        "karmic-shuffle" => UseAdvantage::KarmicShuffle,
        "soul-of-steel" => UseAdvantage::SoulOfSteel,
        "study" => UseAdvantage::Study(ctx.character(a.arg(2, "target")?)?),
        "dodge" => UseAdvantage::Dodge,
        "ass-pull" => UseAdvantage::AssPull,
        "berserk" => UseAdvantage::Berserk,
        _ => UseAdvantage::Calm,
    };
    Ok(Command::Use { who, advantage })
}

/// `reinforce|involve WHO NAME [WEAPON DAMAGE]`: a Wildcard brings Extras
/// or Touched ("Optional Rules", "Building A Scene"; R-GB-9).
fn parse_newcomers(ctx: &Context, a: &Args) -> Result<Command, CommandParseError> {
    let who = ctx.character(a.arg(0, "who")?)?;
    let name = spaced(a.arg(1, "name")?);
    let weapon = match a.words.get(2) {
        Some(w) => {
            let damage = a.int(a.arg(3, "weapon damage")?, "weapon damage")?;
            let w = spaced(w);
            Some(Weapon {
                skill: format!("{w} Combat"),
                name: w,
                damage,
                melee: true,
                ready: true,
            })
        }
        None => None,
    };
    Ok(if a.doc.name == "reinforce" {
        Command::Reinforce { who, name, weapon }
    } else {
        Command::Involve { who, name, weapon }
    })
}

/// `adjust WHO VALUE AMOUNT`: the Dealer sets or changes a pool, members or
/// Wildcards ([`crate::gm::GM_TOOLS`]; issue 27, item 6).
fn parse_adjust(ctx: &Context, a: &Args) -> Result<Command, CommandParseError> {
    let who = ctx.character(a.arg(0, "who")?)?;
    let typed = a.arg(1, "value")?;
    let value = match crate::gm::Value::parse(typed) {
        Some(v) => v,
        None => {
            let found = tabula_core::names::resolve(
                "value",
                typed,
                crate::gm::Value::ALL.iter().map(|v| v.key()),
            )?;
            crate::gm::Value::parse(found)
                .ok_or_else(|| a.bad(format!("{typed:?} is not a value")))?
        }
    };
    let typed = a.arg(2, "amount")?;
    let amount = crate::gm::Amount::parse(typed).ok_or_else(|| {
        a.bad(format!(
            "the amount must be N, +N or -N (whole numbers), not {typed:?}"
        ))
    })?;
    if a.words.len() > 3 {
        return Err(a.bad("adjust takes WHO VALUE AMOUNT".into()));
    }
    Ok(Command::Adjust { who, value, amount })
}

/// `add KIND|FILE.toml [as NAME] [to SEAT]`: the Dealer brings a
/// participant in, a copy of a loaded or bundled character or a sheet file
/// sent with the line ([`crate::gm::GM_TOOLS`]; issue 27, item 6).
fn parse_add(
    ctx: &Context,
    a: &Args,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let state = ctx.state;
    let typed = a.arg(0, "kind")?;
    let (kind, sheet) = if names_sheet_file(typed) {
        let file = typed.trim().to_string();
        (file.clone(), Some(read_sheet_file(&file, sheets)?))
    } else {
        let kinds = crate::gm::kinds(state);
        let kind = resolve("kind", typed, kinds.iter().map(|(n, _)| n.as_str()))?;
        (kind.to_string(), None)
    };
    let mut name = None;
    let mut to = None;
    let mut rest = a.words.iter().skip(1);
    while let Some(word) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| a.bad(format!("say what follows `{word}`")))?;
        if word.eq_ignore_ascii_case("as") && name.is_none() {
            name = Some(spaced(value));
        } else if word.eq_ignore_ascii_case("to") && to.is_none() {
            let seats = tabula_core::system::seat_list(
                state.combatants.iter().map(|c| c.controller.clone()),
            );
            let words: Vec<String> = seats.iter().map(ToString::to_string).collect();
            let found = if Seat::parse(value).is_gm() {
                "GM"
            } else {
                resolve("seat", value, words.iter().map(String::as_str))?
            };
            to = Some(Seat::parse(found));
        } else {
            return Err(a.bad(format!(
                "add takes KIND|FILE.toml [as NAME] [to SEAT], not {word:?}"
            )));
        }
    }
    Ok(Command::Add {
        kind,
        name,
        to,
        sheet,
    })
}

/// The text of the sheet file `file` (`add FILE.toml`), read from `sheets`
/// and checked with [`crate::gm::read_sheet`] (issue 27, item 6).
///
/// # Errors
/// [`CommandParseError::Sheet`] naming `file`: the file error, or every
/// broken rule of the sheet.
fn read_sheet_file(file: &str, sheets: &dyn SheetFiles) -> Result<String, CommandParseError> {
    tabula_core::files::read_checked_sheet(sheets, file, crate::gm::read_sheet)
}

/// `key=value` without regard to the key's case.
fn strip_key<'a>(word: &'a str, key: &str) -> Option<&'a str> {
    let head = word.get(..key.len())?;
    head.eq_ignore_ascii_case(key)
        .then(|| word.get(key.len()..))
        .flatten()
}

/// A typed name as the table compares it: `_` read as a space, trimmed.
fn spaced(typed: &str) -> String {
    typed.replace('_', " ").trim().to_string()
}

/// The state and the seat a line is read for.
#[derive(Clone, Copy)]
struct Context<'a> {
    state: &'a State,
    seat: &'a Seat,
}

impl Context<'_> {
    fn combatant(&self, i: Option<usize>) -> Option<&Combatant> {
        i.and_then(|i| self.state.combatants.get(i))
    }

    /// A character at the table, by unique prefix; `investor` still finds `The
    /// investor` ([`decide::find`]).
    fn character(&self, typed: &str) -> Result<String, CommandParseError> {
        let names = self.state.combatants.iter().map(|c| c.name.as_str());
        match resolve("character", typed, names) {
            Ok(n) => Ok(n.to_string()),
            Err(e @ NameLookupError::Unknown { .. }) => decide::find(self.state, typed)
                .and_then(|i| self.state.combatants.get(i))
                .map(|c| c.name.clone())
                .ok_or(e.into()),
            Err(e) => Err(e.into()),
        }
    }

    /// The acting character in its active phase ([`decide::actor`]), if any.
    fn acting(&self) -> Option<usize> {
        decide::actor(self.state)
    }

    /// Whoever discards now: the actor in its turn, the one affected before its
    /// face-down card.
    fn discarder(&self) -> Option<usize> {
        match &self.state.phase {
            Phase::Turn { actor, .. } => Some(*actor),
            Phase::Exchange(x) if x.defender_down.is_none() => Some(x.defender),
            _ => None,
        }
    }

    /// In an exchange, the side whose card is played or bet now; else the actor.
    fn player_of_the_hand(&self) -> Option<usize> {
        match &self.state.phase {
            Phase::Exchange(x) => {
                if x.attacker_down.is_none() {
                    Some(x.attacker)
                } else if x.defender_down.is_none() {
                    Some(x.defender)
                } else if x.to_act == Side::Attacker {
                    Some(x.attacker)
                } else {
                    Some(x.defender)
                }
            }
            _ => self.acting(),
        }
    }

    fn trait_named(&self, typed: &str) -> Result<Trait, CommandParseError> {
        if let Some(t) = Trait::parse(typed) {
            return Ok(t);
        }
        let names = ["Body", "Spirit", "Mind", "Luck"];
        let n = resolve("Trait", typed, names)?;
        Ok(Trait::parse(n).unwrap_or(Trait::Body))
    }

    /// A skill of combatant `i` (see the [module documentation](self)).
    fn skill(&self, i: Option<usize>, typed: &str) -> Result<String, CommandParseError> {
        let Some(c) = self.combatant(i) else {
            return Ok(spaced(typed));
        };
        let mut names: Vec<&str> = Vec::new();
        if let Some(ch) = c.character() {
            names.extend(ch.skills().keys().map(String::as_str));
            names.extend(ch.weapons().iter().map(|w| w.skill.as_str()));
        }
        names.extend(SKILLS);
        names.extend(c.wielding.iter().map(|w| w.skill.as_str()));
        names.extend(c.carried.iter().map(|w| w.skill.as_str()));
        match resolve("skill", typed, names) {
            Ok(n) => Ok(n.to_string()),
            Err(NameLookupError::Unknown { .. })
                if c.character().is_none() || is_skill(&spaced(typed), &[]) =>
            {
                Ok(spaced(typed))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A Specialty of combatant `i`'s sheet.
    fn specialty(&self, i: Option<usize>, typed: &str) -> Result<String, CommandParseError> {
        match self.combatant(i).and_then(Combatant::character) {
            Some(ch) => Ok(resolve(
                "Specialty",
                typed,
                ch.specialties().iter().map(|(n, _, _)| n.as_str()),
            )?
            .to_string()),
            None => Ok(spaced(typed)),
        }
    }

    /// A card of combatant `i`'s hand (see the [module documentation](self)).
    fn card(&self, i: Option<usize>, typed: &str) -> Result<String, CommandParseError> {
        let text = spaced(typed);
        if let Ok(spec) = text.parse::<CardSpec>() {
            return Ok(spec.to_string());
        }
        if PICKS.iter().any(|p| p.eq_ignore_ascii_case(&text)) {
            return Ok(text.to_ascii_lowercase());
        }
        // R-GB-12: only the seat's own hand is listed.
        let hand: Vec<String> = self
            .combatant(i)
            .filter(|c| c.controlled_by(self.seat))
            .map(|c| c.hand.iter().map(ToString::to_string).collect())
            .unwrap_or_default();
        let names = ["best", "lowest"]
            .into_iter()
            .chain(hand.iter().map(String::as_str));
        Ok(resolve("card", &text, names)?.to_string())
    }
}

fn weapon_named(field: &str, typed: &str, weapons: &[Weapon]) -> Result<String, CommandParseError> {
    Ok(resolve(field, typed, weapons.iter().map(|w| w.name.as_str()))?.to_string())
}

/// The `use` word for an Advantage used on its own: without regard to case or
/// punctuation (`Iron Wall`, `iron_wall`, `ironwall`), or by unique prefix.
fn advantage_word(typed: &str) -> Result<&'static str, CommandParseError> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = squash(typed);
    if let Some(w) = ADVANTAGE_WORDS.iter().find(|w| squash(w) == want) {
        return Ok(w);
    }
    let starts: Vec<&&str> = ADVANTAGE_WORDS
        .iter()
        .filter(|w| !want.is_empty() && squash(w).starts_with(&want))
        .collect();
    match starts.as_slice() {
        [one] => Ok(one),
        [] => Err(NameLookupError::Unknown {
            field: "Advantage used on its own".into(),
            got: typed.trim().into(),
            candidates: ADVANTAGE_WORDS.iter().map(|w| w.to_string()).collect(),
        }
        .into()),
        many => Err(NameLookupError::Ambiguous {
            field: "Advantage used on its own".into(),
            got: normalize(typed),
            matches: many.iter().map(|w| w.to_string()).collect(),
        }
        .into()),
    }
}
