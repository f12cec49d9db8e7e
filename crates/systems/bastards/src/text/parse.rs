//! Command lines: each is read against its command's usage in the reference
//! ([`COMMANDS`]) by the one core parser, [`tabula_core::usage::read`]
//! (issue 26, item 1), and the [`Command`] is built here from the values read.
//!
//! The usage line is the one declaration of a command's syntax: the reader
//! splits the line ([`tabula_core::grammar::words`]: `"double quotes"` group a
//! name with spaces), finds the command by name or alias, matches literal
//! words, optional parts and `key=value` words, and refuses a line that does
//! not fit, naming what is missing or unexpected, with the usage. What is left
//! to the book is what the usage cannot know: every name typed is resolved
//! against the names that fit where it is typed, without regard to case and by
//! unambiguous prefix ([`tabula_core::names::resolve`]; `_` still stands for a
//! space), so the [`Command`] carries the name as the table writes it; numbers
//! are read as whole numbers (one past the integer range is "too large") and
//! range-checked by [`crate::decide`]; the sub-syntax inside one value is the
//! book's (a card, an Advantage word, an `adjust` AMOUNT):
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
use tabula_core::names::{NameLookupError, normalize, resolve};
use tabula_core::system::{CommandParseError, Seat};
use tabula_core::usage::{Reading, read};

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
    let r = read(COMMANDS, line)?;
    let ctx = Context { state, seat };
    Ok(match r.command.name {
        "fate" => parse_fate(&ctx, &r)?,
        "begin" => Command::Begin,
        "scene" => Command::Scene,
        "init" => {
            let who = ctx.character(r.require("WHO")?)?;
            let card = ctx.card(decide::find(state, &who), r.require("CARD")?)?;
            Command::Init { who, card }
        }
        "draw" => Command::Draw,
        "mulligan" => Command::Mulligan,
        "discard" => Command::Discard {
            card: ctx.card(ctx.discarder(), r.require("CARD")?)?,
        },
        "wildcard" => Command::Wildcard {
            who: ctx.character(r.require("WHO")?)?,
        },
        "attack" => parse_attack(&ctx, &r)?,
        "play" => parse_play(&ctx, &r)?,
        "bet" => {
            if r.has("wild") || r.has("wildcard") {
                Command::BetWild
            } else {
                Command::Bet {
                    card: ctx.card(ctx.player_of_the_hand(), r.require("CARD")?)?,
                }
            }
        }
        "call" => Command::Call,
        "reinit" => Command::Reinit {
            card: ctx.card(ctx.acting(), r.require("CARD")?)?,
        },
        "wield" => {
            let typed = r.require("WEAPON")?;
            let carried = ctx.acting().and_then(|i| state.combatants.get(i));
            Command::Wield {
                weapon: match carried {
                    Some(c) => weapon_named("carried weapon", typed, &c.carried)?,
                    None => spaced(typed),
                },
            }
        }
        "pickup" => Command::Pickup {
            weapon: weapon_named("weapon on the ground", r.require("WEAPON")?, &state.ground)?,
        },
        "pass" => Command::Pass,
        "use" => parse_use(&ctx, &r)?,
        "reinforce" | "involve" => parse_newcomers(&ctx, &r)?,
        "appear" => Command::Appear {
            who: ctx.character(r.require("WHO")?)?,
        },
        "distance" => {
            let who = ctx.character(r.require("WHO")?)?;
            let n = int(&r, r.require("WILDCARDS")?, "WILDCARDS")?;
            let wildcards = u32::try_from(n).map_err(|_| {
                r.problem(format!(
                    "WILDCARDS must be 1 or more (and at most the Wildcards held), not {n}"
                ))
            })?;
            Command::Distance { who, wildcards }
        }
        "end" => Command::End,
        "adjust" => parse_adjust(&ctx, &r)?,
        "add" => parse_add(&ctx, &r, sheets)?,
        "remove" => Command::Remove {
            who: ctx.character(r.require("WHO")?)?,
        },
        _ => Command::Finish,
    })
}

/// `text` as a whole number for the value `name` of `r`'s command (checked:
/// one out of range is "too large"; the book's ranges are `decide`'s).
fn int(r: &Reading, text: &str, name: &str) -> Result<i64, CommandParseError> {
    text.parse::<i64>().map_err(|e| {
        use std::num::IntErrorKind;
        r.problem(match e.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                format!("{name} {text:?} is too large (out of range)")
            }
            _ => format!("{name} must be a whole number, not {text:?}"),
        })
    })
}

/// `fate WHO SKILL TRAIT [MODIFIER] [acrobat] [spec=NAME]` (the options in
/// any order): a Skill Check ("Skill Hand", "Difficulty Modifier",
/// "Specialties"; R-GB-6). The modifier may be written `+N`.
fn parse_fate(ctx: &Context, r: &Reading) -> Result<Command, CommandParseError> {
    let who = ctx.character(r.require("WHO")?)?;
    let i = decide::find(ctx.state, &who);
    let skill = ctx.skill(i, r.require("SKILL")?)?;
    let trait_used = ctx.trait_named(r.require("TRAIT")?)?;
    let modifier = match r.get("MODIFIER") {
        Some(m) => int(r, m.trim_start_matches('+'), "MODIFIER")?,
        None => 0,
    };
    let specialty = match r.key("spec") {
        Some(sp) => Some(ctx.specialty(i, sp)?),
        None => None,
    };
    Ok(Command::Fate {
        who,
        skill,
        trait_used,
        modifier,
        acrobat: r.has("acrobat"),
        specialty,
    })
}

/// The words of an opposed hand's kind ([`HandKind::parse`]), as `attack`'s
/// usage lists them.
const HAND_KINDS: [&str; 7] = [
    "physical", "social", "fear", "simple", "melee", "mental", "sanity",
];

/// `attack TARGET SKILL [physical|social|fear|simple|melee|mental|sanity]
/// [zeal] [fortune] [disarm] [savage] [wild=N] [spec=NAME]`: an opposed hand
/// declared (physical unless said), with the Advantages that go with it
/// ("Steps", "Core Mechanic", "Advantages"; R-GB-15).
fn parse_attack(ctx: &Context, r: &Reading) -> Result<Command, CommandParseError> {
    let target = ctx.character(r.require("TARGET")?)?;
    let me = ctx.acting();
    let skill = ctx.skill(me, r.require("SKILL")?)?;
    let kind = r
        .which(&HAND_KINDS)
        .and_then(HandKind::parse)
        .unwrap_or(HandKind::Physical);
    let mut options = AttackOptions {
        zeal: r.has("zeal"),
        fortune: r.has("fortune"),
        disarm: r.has("disarm"),
        savage: r.has("savage"),
        ..AttackOptions::default()
    };
    if let Some(n) = r.key("wild") {
        options.wild_swing = int(r, n, "wild swing")?;
    }
    if let Some(n) = r.key("spec") {
        options.specialty = Some(ctx.specialty(me, n)?);
    }
    Ok(Command::Attack {
        target,
        skill,
        kind,
        options,
    })
}

/// `play CARD [SKILL] [mom] [counter=N]` (the options in any order): the face-down card,
/// the one affected naming its skill, Mind Over Matter or Counter ("Skill
/// Hands in Oppositions", "Advantages").
fn parse_play(ctx: &Context, r: &Reading) -> Result<Command, CommandParseError> {
    let me = ctx.player_of_the_hand();
    let card = ctx.card(me, r.require("CARD")?)?;
    let skill = match r.get("SKILL") {
        Some(s) => Some(ctx.skill(me, s)?),
        None => None,
    };
    let counter = match r.key("counter") {
        Some(n) => int(r, n, "counter")?,
        None => 0,
    };
    Ok(Command::Play {
        card,
        skill,
        mind_over_matter: r.has("mom"),
        counter,
    })
}

/// `use WHO ADVANTAGE [N|TARGET]`: an Advantage used on its own, by its
/// word in [`ADVANTAGE_WORDS`] ("Advantages"; R-GB-8); Defensive Stance
/// takes N, Study its TARGET. The Advantage is a value, not the usage's
/// words, because it is read without regard to case or punctuation and by
/// unique prefix ([`advantage_word`]).
fn parse_use(ctx: &Context, r: &Reading) -> Result<Command, CommandParseError> {
    let who = ctx.character(r.require("WHO")?)?;
    // `[N|TARGET]` is one word: the reader binds it to the first name, N.
    let more = || r.get("N").or_else(|| r.get("TARGET"));
    let advantage = match advantage_word(r.require("ADVANTAGE")?)? {
        "all-out-defense" => UseAdvantage::AllOutDefense,
        "stance" | "defensive-stance" => {
            let n = more().ok_or_else(|| r.problem("N is missing"))?;
            UseAdvantage::DefensiveStance(int(r, n, "N")?)
        }
        "serendipity" => UseAdvantage::Serendipity,
        "iron-wall" => UseAdvantage::IronWall,
        "karmic-shuffle" => UseAdvantage::KarmicShuffle,
        "soul-of-steel" => UseAdvantage::SoulOfSteel,
        "study" => {
            let target = more().ok_or_else(|| r.problem("TARGET is missing"))?;
            UseAdvantage::Study(ctx.character(target)?)
        }
        "dodge" => UseAdvantage::Dodge,
        "ass-pull" => UseAdvantage::AssPull,
        "berserk" => UseAdvantage::Berserk,
        _ => UseAdvantage::Calm,
    };
    Ok(Command::Use { who, advantage })
}

/// `reinforce|involve WHO NAME [WEAPON DAMAGE]`: a Wildcard brings Extras
/// or Touched ("Optional Rules", "Building A Scene"; R-GB-9).
fn parse_newcomers(ctx: &Context, r: &Reading) -> Result<Command, CommandParseError> {
    let who = ctx.character(r.require("WHO")?)?;
    let name = spaced(r.require("NAME")?);
    let weapon = match r.get("WEAPON") {
        Some(w) => {
            let damage = int(r, r.require("DAMAGE")?, "DAMAGE")?;
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
    Ok(if r.command.name == "reinforce" {
        Command::Reinforce { who, name, weapon }
    } else {
        Command::Involve { who, name, weapon }
    })
}

/// `adjust WHO VALUE AMOUNT`: the Dealer sets or changes a pool, members or
/// Wildcards ([`crate::gm::GM_TOOLS`]; issue 27, item 6).
fn parse_adjust(ctx: &Context, r: &Reading) -> Result<Command, CommandParseError> {
    let who = ctx.character(r.require("WHO")?)?;
    let typed = r.require("VALUE")?;
    let value = match crate::gm::Value::parse(typed) {
        Some(v) => v,
        None => {
            let found = resolve(
                "value",
                typed,
                crate::gm::Value::ALL.iter().map(|v| v.key()),
            )?;
            crate::gm::Value::parse(found)
                .ok_or_else(|| r.problem(format!("{typed:?} is not a value")))?
        }
    };
    let typed = r.require("AMOUNT")?;
    let amount = crate::gm::Amount::parse(typed).ok_or_else(|| {
        r.problem(format!(
            "the amount must be N, +N or -N (whole numbers), not {typed:?}"
        ))
    })?;
    Ok(Command::Adjust { who, value, amount })
}

/// `add KIND|FILE.toml [as NAME] [to SEAT]`: the Dealer brings a
/// participant in, a copy of a loaded or bundled character or a sheet file
/// sent with the line ([`crate::gm::GM_TOOLS`]; issue 27, item 6).
fn parse_add(
    ctx: &Context,
    r: &Reading,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let state = ctx.state;
    // `KIND|FILE.toml` is one word: the reader binds it to the first name.
    let typed = r.get("KIND").or_else(|| r.get("FILE.toml"));
    let typed = typed.ok_or_else(|| r.problem("KIND is missing"))?;
    let (kind, sheet) = if names_sheet_file(typed) {
        let file = typed.trim().to_string();
        (file.clone(), Some(read_sheet_file(&file, sheets)?))
    } else {
        let kinds = crate::gm::kinds(state);
        let kind = resolve("kind", typed, kinds.iter().map(|(n, _)| n.as_str()))?;
        (kind.to_string(), None)
    };
    let name = r.get("NAME").map(spaced);
    let to = match r.get("SEAT") {
        Some(value) => {
            let seats = tabula_core::system::seat_list(
                state.combatants.iter().map(|c| c.controller.clone()),
            );
            let words: Vec<String> = seats.iter().map(ToString::to_string).collect();
            let found = if Seat::parse(value).is_gm() {
                "GM"
            } else {
                resolve("seat", value, words.iter().map(String::as_str))?
            };
            Some(Seat::parse(found))
        }
        None => None,
    };
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
