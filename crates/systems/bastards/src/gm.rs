//! The Dealer's (GM's) tools (issue 27, item 6): `adjust` a combatant's pools,
//! members or Wildcards mid-encounter, `add` a participant (a copy of one the
//! table loaded or of the book's bundled sheets) and `remove` one. The book
//! names no rule for the Dealer changing a tracked value or the cast, so the
//! commands cite the table's own [`GM_TOOLS`] with the book's own rule where
//! one applies (a newcomer joins as Reinforce, Involve and Appearance bring
//! one in, "Building A Scene"; a removed participant's cards are discarded,
//! "Shuffling").

use serde::{Deserialize, Serialize};
use std::fmt;

use std::sync::OnceLock;

use tabula_core::names::{check_name, check_seat_name, same_name};
use tabula_core::{Refusal, Roller, Rule, RuleError, Seat};

use crate::character::{Character, MAX_WILDCARDS, Trait};
use crate::decide::{Out, auto_initiative, pool_emptied, takes_no_further_part, who};
use crate::event::{DrawReason, Event};
use crate::rules::{MAX_COMBATANTS, RULE_EXTRAS, RULE_POOLS, RULE_WILDCARD};
use crate::state::{Body, Combatant, Phase, State, Status};

/// The GM's tools: the table's own citation (issue 27, item 6).
pub const GM_TOOLS: Rule = Rule::table("GM tools (issue 27, item 6)");

/// The most members a group of Extras has ("Optional Rules"; R-GB-9: 1..=5).
pub const MAX_MEMBERS: i64 = 5;

/// A value of a combatant the GM may `adjust`.
///
/// A Game of Bastards, "Combat" (the four pools), "Optional Rules" (Extras),
/// "Jokers" (Wildcards) (003_2dfeea144768d328.txt); R-GB-5, R-GB-9; issue 27,
/// item 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// A Fated's pool of a Trait (BP, SP, MP, LP), 0 to the Trait x 5; a
    /// Follower has one Power Pool, adjusted as `bp` (its pool for damage).
    Pool(Trait),
    /// Members of a group of Extras, 0 to 5.
    Members,
    /// Wildcards banked, 0 to the sheet's cap ([`MAX_WILDCARDS`]) or the
    /// Wildcards banked now, if more.
    Wildcards,
}

impl Value {
    /// Every value, in the order `adjust` lists them.
    pub const ALL: [Value; 6] = [
        Value::Pool(Trait::Body),
        Value::Pool(Trait::Spirit),
        Value::Pool(Trait::Mind),
        Value::Pool(Trait::Luck),
        Value::Members,
        Value::Wildcards,
    ];

    /// The word typed for it (`bp`, `sp`, `mp`, `lp`, `members`, `wildcards`).
    pub fn key(self) -> &'static str {
        match self {
            Value::Pool(Trait::Body) => "bp",
            Value::Pool(Trait::Spirit) => "sp",
            Value::Pool(Trait::Mind) => "mp",
            Value::Pool(Trait::Luck) => "lp",
            Value::Members => "members",
            Value::Wildcards => "wildcards",
        }
    }

    /// Read a value by its word (any case).
    pub fn parse(text: &str) -> Option<Value> {
        let t = text.trim().to_ascii_lowercase();
        Value::ALL.into_iter().find(|v| v.key() == t)
    }

    /// True when only the combatant's controller sees it (a pool, R-GB-12);
    /// members and Wildcards are on the table.
    pub fn hidden(self) -> bool {
        matches!(self, Value::Pool(_))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Pool(t) => f.write_str(t.pool_name()),
            Value::Members => f.write_str("members"),
            Value::Wildcards => f.write_str("Wildcards"),
        }
    }
}

/// The amount of an `adjust` (`N`, `+N`, `-N`), read as every book reads it.
pub use tabula_core::grammar::Amount;

/// The GM's `adjust`, while an Opposition runs: set or change a combatant's
/// pool, members or Wildcards within its range. A pool reaching 0 has the
/// consequences damage has: a Fated becomes Desperate (and draws) with one
/// empty pool and is knocked out with two (R-GB-5, R-GB-13); a Follower's
/// Power Pool or an Extras group's members at 0 knock it out, and Extras keep
/// their best cards, one per member left (R-GB-9). Raising a value does not
/// undo Desperation or a knock-out. A refusal for a pool the GM does not see
/// (R-GB-12) names the pool and its range but no number.
///
/// A Game of Bastards, "Combat", "Desperation", "Optional Rules"
/// (003_2dfeea144768d328.txt); R-GB-5, R-GB-9, R-GB-12, R-GB-13; issue 27, item 6.
///
/// # Errors
/// Not the GM, no Opposition running, an unknown combatant (listing them), a
/// value the combatant does not have, or a result out of range; nothing
/// changes.
pub(crate) fn adjust(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    name: &str,
    value: Value,
    amount: Amount,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    if !seat.is_gm() {
        return Err(RuleError::new(
            GM_TOOLS,
            Refusal::NotPermitted,
            "only the Dealer (GM) adjusts a combatant's values",
        ));
    }
    if state.phase == Phase::Scene {
        return Err(RuleError::new(
            GM_TOOLS,
            Refusal::WrongPhase,
            "values are adjusted while an Opposition runs (`begin` one first)",
        ));
    }
    let i = who(state, name)?;
    let c = o.c(i)?.clone();
    let (rule, current, max) = match (value, &c.body) {
        // Jokers drawn in play may bank more than a sheet's cap.
        (Value::Wildcards, _) => (
            RULE_WILDCARD,
            i64::from(c.wildcards),
            i64::from(MAX_WILDCARDS.max(c.wildcards)),
        ),
        (Value::Pool(t), Body::Fated { character, .. }) => {
            (RULE_POOLS, c.pool(t), character.pool_max(t))
        }
        (Value::Pool(Trait::Body), Body::Follower { power, .. }) => {
            (RULE_POOLS, c.pool(Trait::Body), power.saturating_mul(5))
        }
        (Value::Members, Body::Extras { members, .. }) => (RULE_EXTRAS, *members, MAX_MEMBERS),
        _ => {
            let has: Vec<&str> = match &c.body {
                Body::Fated { .. } => vec!["bp", "sp", "mp", "lp", "wildcards"],
                Body::Follower { .. } => vec!["bp", "wildcards"],
                Body::Extras { .. } => vec!["members", "wildcards"],
            };
            return Err(RuleError::new(
                GM_TOOLS,
                Refusal::Unknown {
                    field: "value".into(),
                    name: value.key().into(),
                },
                format!(
                    "{} has no {value}: its values are {}",
                    c.name,
                    has.join(", ")
                ),
            ));
        }
    };
    let sees = !value.hidden() || c.controlled_by(seat);
    let out_of_range = |got: Option<i64>| match got {
        Some(got) if sees => RuleError::new(
            rule,
            Refusal::OutOfRange {
                field: value.key().into(),
                min: 0,
                max,
                got,
            },
            format!(
                "{}'s {value} must stay between 0 and {max}, not {got}",
                c.name
            ),
        ),
        _ => RuleError::new(
            rule,
            Refusal::Forbidden,
            format!(
                "{}'s {value} must stay between 0 and {max}: {value} {amount} would leave that range",
                c.name
            ),
        ),
    };
    let to = match amount.apply(current) {
        Some(n) if (0..=max).contains(&n) => n,
        got => return Err(out_of_range(got)),
    };
    o.emit(Event::Adjusted {
        who: i,
        value,
        from: current,
        to,
    });
    if let (Value::Members, Body::Extras { .. }) = (value, &c.body) {
        // "the number of members determining the size of the group's hand":
        // the group keeps its best cards, one per member left (as when it
        // loses members to an attack).
        let left = usize::try_from(to).unwrap_or(0);
        if c.hand.len() > left {
            let mut hand = c.hand.clone();
            hand.sort_by_key(|k| crate::values::key(k.face).unwrap_or(-1));
            let gone: Vec<_> = hand.iter().take(hand.len() - left).copied().collect();
            o.emit(Event::Discarded {
                who: i,
                cards: gone,
            });
        }
    }
    if to > 0 || current == 0 {
        return Ok(());
    }
    match (value, &c.body) {
        (Value::Pool(_), Body::Fated { .. }) => pool_emptied(o, i, roller)?,
        (Value::Pool(_), Body::Follower { .. }) | (Value::Members, Body::Extras { .. })
            if !c.knocked_out =>
        {
            o.emit(Event::KnockedOut { who: i });
        }
        _ => {}
    }
    Ok(())
}

/// The GM's tools among the legal commands: `adjust` while an Opposition
/// runs; `add` (while the table has room) and `remove` (while someone is
/// still in the encounter) until the encounter is finished.
pub(crate) fn legal(state: &State, seat: &Seat, out: &mut Vec<tabula_core::CommandSpec>) {
    use tabula_core::{CommandSpec, ParamSpec};
    if !seat.is_gm() || state.finished {
        return;
    }
    if state.combatants.len() < MAX_COMBATANTS {
        out.push(CommandSpec::new(
            "add",
            "Bring a participant in: a copy of one the table loaded or of the book's sheets (as NAME; to SEAT, else the GM)",
            vec![
                ParamSpec::choice_or_sheet("kind", kinds(state).into_iter().map(|(n, _)| n)),
                ParamSpec::text("as name").keyword("as"),
                ParamSpec::choice("to seat", seats(state).iter().map(seat_word)).keyword("to"),
            ],
        ));
    }
    let here: Vec<String> = state
        .combatants
        .iter()
        .filter(|c| !c.removed)
        .map(|c| c.name.clone())
        .collect();
    if !here.is_empty() {
        out.push(CommandSpec::new(
            "remove",
            "Take a participant out of the encounter (its cards to the discard pile)",
            vec![ParamSpec::choice("character", here)],
        ));
    }
    if state.phase == Phase::Scene || state.combatants.is_empty() {
        return;
    }
    out.push(CommandSpec::new(
        "adjust",
        "Set (N) or change (+N, -N) a combatant's pool (bp, sp, mp, lp), members or Wildcards",
        vec![
            ParamSpec::choice("who", state.combatants.iter().map(|c| c.name.clone())),
            ParamSpec::choice("value", Value::ALL.iter().map(|v| v.key())),
            ParamSpec::text("amount"),
        ],
    ));
}

/// The book's example characters, bundled with the crate so the GM's `add`
/// needs no file: Carlton ("Skill Hand"), Cynthia, Kodos and the investor
/// ("Core Mechanic"), as `examples/bastards/` gives them (the table files and
/// the broken sheet are not characters).
const BUNDLED_SHEETS: [&str; 4] = [
    include_str!("../../../../examples/bastards/carlton.toml"),
    include_str!("../../../../examples/bastards/cynthia.toml"),
    include_str!("../../../../examples/bastards/kodos.toml"),
    include_str!("../../../../examples/bastards/investor.toml"),
];

/// The bundled sheets read once (a sheet that did not validate would be left
/// out; the crate's tests check that all four do).
pub fn bundled() -> &'static [Character] {
    static SHEETS: OnceLock<Vec<Character>> = OnceLock::new();
    SHEETS.get_or_init(|| {
        BUNDLED_SHEETS
            .iter()
            .filter_map(|t| Character::from_toml(t).ok())
            .collect()
    })
}

/// Read an uploaded character sheet (the GM's `add FILE.toml`) with the
/// book's validating reader, [`Character::from_toml`], the one `tabula
/// bastards character validate` and a table file's `file = "..."` sheets use:
/// the character, or every problem, each naming its field or rule (a TOML
/// error names its field; each broken rule of [`Character::from_draft`] its
/// field and the book's section: "Suits", "Points & Costs", "Skills",
/// "Advantages"; R-GB-8).
///
/// A sheet longer than [`tabula_core::files::MAX_FILE_BYTES`] is refused
/// unread, as a file of that size is (a command sent as JSON carries the
/// text itself). Issue 27, item 6.
///
/// # Errors
/// Every problem, at least one, as text.
pub fn read_sheet(text: &str) -> Result<Character, Vec<String>> {
    let max = tabula_core::files::MAX_FILE_BYTES;
    if text.len() as u64 > max {
        return Err(vec![format!(
            "the sheet is larger than {max} bytes; refused"
        )]);
    }
    Character::from_toml(text).map_err(|e| match e {
        crate::character::SheetError::Toml(message) => vec![message],
        crate::character::SheetError::Rules(d) => {
            d.problems.iter().map(ToString::to_string).collect()
        }
    })
}

/// Every kind the GM's `add` copies, by name, with the combatant it sets up:
/// first everyone the table loaded (as the table file set them up, before
/// play), then each bundled sheet ([`bundled`]) whose name the table did not
/// load, set up as the table sets up a Fated (controlled by the GM).
pub fn kinds(state: &State) -> Vec<(String, Combatant)> {
    let mut out: Vec<(String, Combatant)> = state
        .loaded
        .iter()
        .map(|c| (c.name.clone(), c.clone()))
        .collect();
    for ch in bundled() {
        if !out.iter().any(|(n, _)| same_name(n, ch.name())) {
            out.push((
                ch.name().to_string(),
                crate::setup::fated_from_sheet(ch, Seat::Gm),
            ));
        }
    }
    out
}

/// The seats at the table (the GM first, then every controller).
fn seats(state: &State) -> Vec<Seat> {
    tabula_core::system::seat_list(state.combatants.iter().map(|c| c.controller.clone()))
}

/// A seat as typed after `to` (`gm`, or the player's name).
fn seat_word(seat: &Seat) -> String {
    match seat {
        Seat::Gm => "gm".into(),
        Seat::Player(p) => p.clone(),
    }
}

fn gm_only(seat: &Seat, what: &str) -> Result<(), RuleError> {
    if seat.is_gm() {
        return Ok(());
    }
    Err(RuleError::new(
        GM_TOOLS,
        Refusal::NotPermitted,
        format!("only the Dealer (GM) {what}"),
    ))
}

/// `base`, or the first of `base 2`, `base 3`, ... that no one at the table
/// is called (names compared as the table compares them).
fn free_name(state: &State, base: &str) -> String {
    let taken = |n: &str| state.combatants.iter().any(|c| same_name(&c.name, n));
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|k| format!("{base} {k}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// What the GM's `add` copies: a kind the table knows ([`kinds`]) by name, or
/// the text of an uploaded sheet (`add FILE.toml`; issue 27, item 6).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// A kind's name, as typed.
    Kind(&'a str),
    /// A sheet's text, read again with [`read_sheet`] (a command sent as
    /// JSON cannot skip the validation).
    Sheet(&'a str),
}

/// The kind's name and the combatant it sets up, or the refusal.
fn template(state: &State, source: Source<'_>) -> Result<(String, Combatant), RuleError> {
    match source {
        Source::Kind(kind) => {
            let mut all = kinds(state);
            match all.iter().position(|(n, _)| same_name(n, kind)) {
                Some(i) => Ok(all.swap_remove(i)),
                None => Err(RuleError::unknown_among(
                    GM_TOOLS,
                    "kind",
                    kind,
                    all.iter().map(|(n, _)| n.as_str()),
                )),
            }
        }
        Source::Sheet(text) => {
            let ch = read_sheet(text).map_err(|problems| {
                RuleError::forbidden(
                    GM_TOOLS,
                    format!(
                        "the sheet is not a legal character of A Game of Bastards: {}",
                        problems.join("; ")
                    ),
                )
            })?;
            Ok((
                ch.name().to_string(),
                crate::setup::fated_from_sheet(&ch, Seat::Gm),
            ))
        }
    }
}

/// The GM's `add KIND [as NAME] [to SEAT]`: a new participant joins, a fresh
/// copy of KIND ([`kinds`]: as the table set it up, or a bundled sheet set up
/// as the table sets up a Fated), named NAME (default the kind's name; a name
/// already at the table becomes `NAME 2`, `NAME 3`...), controlled by SEAT
/// (one of the table's seats; default the GM). The event carries the whole
/// combatant, so a replay needs no file.
///
/// It joins as the book's other newcomers do (Reinforce, Involve,
/// Appearance: "Building A Scene"): in the scene, nothing drawn; during an
/// Opposition it draws its hand (5 for a Fated, its Power Rating for a
/// Follower, its members for Extras: "Followers", "Optional Rules") and plays
/// its lowest card as initiative, so it acts from the next round (the
/// crate's own decision for anyone entering mid-Opposition, which the book
/// leaves open). Its pools, Wildcards and weapons are the kind's as set up.
///
/// `add FILE.toml` ([`Source::Sheet`]) joins exactly so, the sheet set up as
/// the table sets up a Fated: the kind is the sheet's character name (the
/// event and the log name it, never the file), and the sheet is validated
/// again here, so a broken one is refused naming every broken rule.
///
/// A Game of Bastards, "Building A Scene", "Followers", "Optional Rules",
/// "Initiative" (003_2dfeea144768d328.txt); issue 27, item 6 ([`GM_TOOLS`]).
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]), a full table, an unknown kind or
/// seat ([`Refusal::Unknown`], listing them), a sheet that is not a legal
/// character ([`Refusal::Forbidden`], every problem), a name that cannot be
/// used; nothing changes.
pub(crate) fn add(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    source: Source<'_>,
    name: Option<&str>,
    to: Option<&Seat>,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    gm_only(seat, "adds a participant")?;
    if state.combatants.len() >= MAX_COMBATANTS {
        return Err(RuleError::forbidden(
            GM_TOOLS,
            format!("the table is full: at most {MAX_COMBATANTS} participants"),
        ));
    }
    let (kind_name, template) = template(state, source)?;
    let base = name.map_or(kind_name.as_str(), str::trim);
    check_name("name", base).map_err(|e| RuleError::forbidden(GM_TOOLS, e.to_string()))?;
    let controller = match to {
        None => Seat::Gm,
        Some(to) => {
            if let Seat::Player(p) = to {
                check_seat_name("seat", p)
                    .map_err(|e| RuleError::forbidden(GM_TOOLS, e.to_string()))?;
            }
            let known = seats(state);
            let Some(found) = known.iter().find(|s| s.same_seat(to)) else {
                let words: Vec<String> = known.iter().map(seat_word).collect();
                return Err(RuleError::unknown_among(
                    GM_TOOLS,
                    "seat",
                    &seat_word(to),
                    words.iter().map(String::as_str),
                ));
            };
            found.clone()
        }
    };
    let newcomer = Combatant {
        name: free_name(state, base),
        controller,
        hand: Vec::new(),
        initiative: None,
        present: true,
        status: Status::default(),
        removed: false,
        added: true,
        ..template
    };
    o.emit(Event::Added {
        kind: kind_name,
        combatant: Box::new(newcomer),
    });
    let k = o.s().combatants.len() - 1;
    if o.s().phase != Phase::Scene && o.c(k)?.active() {
        let n = o.c(k)?.hand_size();
        o.draw(k, n, DrawReason::Opening, roller)?;
        auto_initiative(o, k)?;
    }
    Ok(())
}

/// The GM's `remove CHARACTER`: the participant leaves the encounter and
/// takes no further part. Its hand and its initiative card go to the discard
/// pile, where the book puts discarded cards ("Shuffling": the discards are
/// reshuffled into the deck), so no card is lost or duplicated; if it was
/// acting, its turn ends; if it was in an opposed hand, the hand is abandoned
/// (the cards played are discarded) and the turn ends; if the round waited
/// only for its initiative card, the round starts without it (as for one
/// knocked out by its own payment, R-GB-13). It keeps its place in the list
/// (its sheet and pools stay readable), a player's character included.
///
/// A Game of Bastards, "Shuffling", "Steps" (003_2dfeea144768d328.txt);
/// issue 27, item 6 ([`GM_TOOLS`]).
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]), an unknown character
/// ([`Refusal::Unknown`], listing them), or one already removed
/// ([`Refusal::Condition`] `removed`); nothing changes. After `finish` every
/// command is refused ("Steps").
pub(crate) fn remove(o: &mut Out, state: &State, seat: &Seat, name: &str) -> Result<(), RuleError> {
    gm_only(seat, "removes a participant")?;
    let i = who(state, name)?;
    let c = o.c(i)?;
    if c.removed {
        return Err(RuleError::condition(
            GM_TOOLS,
            "removed",
            format!("{} is already out of the encounter", c.name),
        ));
    }
    o.emit(Event::Removed { who: i });
    takes_no_further_part(o, |c| c.removed);
    Ok(())
}
