//! The Dealer's (GM's) tools: `adjust` a combatant's pools, members or
//! Wildcards mid-encounter (issue 27, item 6). The book names no rule for the
//! Dealer changing a tracked value, so the command cites the table's own
//! [`GM_TOOLS`] with the pool's own rule where one applies.

use serde::{Deserialize, Serialize};
use std::fmt;

use tabula_core::{Refusal, Roller, Rule, RuleError, Seat};

use crate::character::{MAX_WILDCARDS, Trait};
use crate::opposition::{
    Body, Event, Out, Phase, RULE_EXTRAS, RULE_POOLS, RULE_WILDCARD, State, pool_emptied, who,
};

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

/// The GM's `adjust` among the legal commands, while an Opposition runs.
pub(crate) fn legal(state: &State, seat: &Seat, out: &mut Vec<tabula_core::CommandSpec>) {
    use tabula_core::{CommandSpec, ParamSpec};
    if !seat.is_gm() || state.finished || state.phase == Phase::Scene || state.combatants.is_empty()
    {
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
