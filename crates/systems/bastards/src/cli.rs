//! A Game of Bastards outside the table (003_2dfeea144768d328.txt): Skill
//! Hands against the Dealer's Fate Draw (`check`), their exact odds (`odds`),
//! the chance a given card wins an opposed hand (`card-odds`), and the
//! character sheet of a sheet file. The command line builds `tabula bastards
//! ...` from these.

use serde::Serialize;
use tabula_core::Roller;
use tabula_core::cards::CardSpec;
use tabula_core::rule::{Refusal, RuleError};
use tabula_core::sheet::{CharacterSheet, Item, Row, Section};
use tabula_core::tool::{
    BookTools, Chart, ParamValues, Report, Rolled, Tool, ToolError, ToolParam, percent as pct,
};

use crate::Bastards;
use crate::character::{Character, Trait};
use crate::{chance, deck, fate};

/// The flags of `check` and `odds`, by the field the crate names in a range error.
const HAND_FLAGS: [(&str, &str); 4] = [
    ("Trait", "--trait"),
    ("rank", "--rank"),
    ("Difficulty Modifier", "--modifier"),
    ("Specialty", "--specialty"),
];

/// The flags of `card-odds`, by the field the crate names in a range error.
const CARD_ODDS_FLAGS: [(&str, &str); 3] = [
    ("bonus", "--bonus"),
    ("opponent bonus", "--opponent-bonus"),
    ("opponent draws", "--opponent-draws"),
];

/// A refusal from the crate; a number out of range is named by the flag it
/// was typed with (`--opponent-bonus: opponent bonus must be ...`).
fn flag_error(e: RuleError, flags: &[(&str, &str)]) -> ToolError {
    let flag = match &e.kind {
        Refusal::OutOfRange { field, .. } => flags
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, flag)| flag.to_string()),
        _ => None,
    };
    ToolError::Refused { flag, error: e }
}

fn hand_params(tool: Tool) -> Tool {
    tool.param(
        ToolParam::int(
            "trait",
            "The Trait added to your card (Body, Spirit, Mind or Luck score), 1..=20.",
            1,
            20,
        )
        .value_name("T")
        .required(),
    )
    .param(
        ToolParam::int(
            "rank",
            "Your rank in the skill: the cards you draw (at least 1), 0..=20.",
            0,
            20,
        )
        .required(),
    )
    .param(
        ToolParam::int(
            "modifier",
            "The Difficulty Modifier added to the Dealer's card, 0..=20.",
            0,
            20,
        )
        .default("0"),
    )
    .param(
        ToolParam::int(
            "specialty",
            "A Specialty's rank, added to your total, 0..=20.",
            0,
            20,
        )
        .default("0"),
    )
}

impl BookTools for Bastards {
    fn tools() -> Vec<Tool> {
        vec![
            hand_params(Tool::new(
                "check",
                "A Skill Hand against the Dealer's Fate Draw (R-GB-6): draw rank cards and add \
                 the Trait; the Dealer draws 6 - Trait and adds the Difficulty Modifier.",
                run_check,
            ))
            .rolls(Rolled {
                help: "The cards you drew yourself, yours first then the Dealer's, e.g. \
                       9S,4C,JH,2D,7S (a Joker is followed by its replacement).",
                normalize: None,
            }),
            hand_params(Tool::new(
                "odds",
                "The exact chance that a Skill Hand beats the Dealer's Fate Draw (R-GB-11).",
                run_odds,
            ))
            .charts(),
            Tool::new(
                "card-odds",
                "The exact chance that a given card wins an opposed hand against an opponent \
                 who draws some cards and plays the best (R-GB-11).",
                run_card_odds,
            )
            .param(ToolParam::text("card", "The card you play, e.g. QH.").required())
            .param(
                ToolParam::int(
                    "bonus",
                    "Your bonus (the Trait added), -100..=100.",
                    -100,
                    100,
                )
                .default("0"),
            )
            .param(
                ToolParam::int("opponent-draws", "Cards the opponent draws, 1..=20.", 1, 20)
                    .default("1"),
            )
            .param(
                ToolParam::int(
                    "opponent-bonus",
                    "The opponent's bonus, -100..=100.",
                    -100,
                    100,
                )
                .default("0"),
            )
            .param(ToolParam::switch(
                "defending",
                "You are the defender (an identical-suit tie is yours).",
            )),
        ]
    }

    fn character_sheet(_settings: &str, sheet: &str) -> Result<CharacterSheet, String> {
        Character::from_toml(sheet)
            .map(|c| character_sheet(&c))
            .map_err(|e| e.to_string())
    }
}

fn hand(v: &ParamValues, trait_score: Option<i64>) -> Result<fate::SkillHand, ToolError> {
    Ok(fate::SkillHand {
        trait_score: match trait_score {
            Some(t) => t,
            None => v.need_int("trait")?,
        },
        rank: v.need_int("rank")?,
        modifier: v.int("modifier")?.unwrap_or(0),
        specialty: v.int("specialty")?.unwrap_or(0),
    })
}

/// `check`: a Skill Hand against the Dealer's Fate Draw. A Game of Bastards,
/// "Skill Hands", "Fate Draw" (003_2dfeea144768d328.txt); R-GB-3, R-GB-6.
fn run_check(v: &ParamValues, roller: &mut dyn Roller) -> Result<Report, ToolError> {
    let hand = hand(v, None)?;
    let res = fate::check(hand, roller).map_err(|e| flag_error(e, &HAND_FLAGS))?;
    // R-GB-3: a Joker is shown as it is drawn, with who gains its Wildcard;
    // the draw is finished with a replacement card.
    let show = |steps: &[deck::DrawStep], holder: &str| {
        steps
            .iter()
            .map(|s| match s {
                deck::DrawStep::Card(c) => c.to_string(),
                deck::DrawStep::Joker(c) => {
                    format!("{c} ({holder} a Wildcard; a replacement is drawn)")
                }
                deck::DrawStep::Reshuffle => "(discards reshuffled)".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let text = format!(
        "You drew {} and play {} + {} = {}\nThe Dealer drew {} and plays {} + {} = {} ({})\n{} by {}",
        show(&res.player_draw, "you gain"),
        res.player_card,
        hand.player_bonus(),
        res.player_total,
        show(&res.dealer_draw, "the Dealer gains"),
        res.dealer_card,
        hand.modifier,
        res.dealer_total,
        res.difficulty,
        if res.success { "Success" } else { "Failure" },
        res.margin.abs()
    );
    Report::of(&res, text)
}

/// `odds`: the exact chance of a Skill Hand. A Game of Bastards, "Skill
/// Hands" (003_2dfeea144768d328.txt); R-GB-11.
fn run_odds(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let h = hand(v, None)?;
    let odds = chance::skill_hand(h).map_err(|e| flag_error(e, &HAND_FLAGS))?;
    let chart = if v.has("chart") {
        let mut points = Vec::new();
        for t in 1..=20 {
            let o =
                chance::skill_hand(hand(v, Some(t))?).map_err(|e| flag_error(e, &HAND_FLAGS))?;
            points.push((t, o.probability));
        }
        Some(Chart {
            title: format!(
                "A Game of Bastards: Skill Hand, rank {}, Difficulty Modifier {}",
                h.rank, h.modifier
            ),
            x_label: "Trait".into(),
            points,
        })
    } else {
        None
    };
    let text = format!(
        "You draw {}, the Dealer draws {} (+{}, {}): {} ({} of {})",
        odds.player_draws,
        odds.dealer_draws,
        h.modifier,
        odds.difficulty,
        pct(odds.probability),
        odds.successes,
        odds.outcomes
    );
    Ok(Report::of(&odds, text)?.with_chart(chart))
}

#[derive(Serialize)]
struct CardOddsOut {
    probability: f64,
    card: String,
    bonus: i64,
    opponent_draws: i64,
    opponent_bonus: i64,
    defending: bool,
}

/// `card-odds`: the chance a card wins an opposed hand. A Game of Bastards,
/// "Opposed Hands" (003_2dfeea144768d328.txt); R-GB-3, R-GB-11.
fn run_card_odds(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let card = v.get("card").unwrap_or_default();
    let face = match card
        .parse::<CardSpec>()
        .map_err(|e| ToolError::invalid("--card", e))?
    {
        CardSpec::Face(f) => f,
        CardSpec::AnyJoker => {
            return Err(ToolError::invalid(
                "--card",
                "a Joker is never played: it becomes a Wildcard (R-GB-3)",
            ));
        }
    };
    let bonus = v.int("bonus")?.unwrap_or(0);
    let opponent_draws = v.int("opponent-draws")?.unwrap_or(1);
    let opponent_bonus = v.int("opponent-bonus")?.unwrap_or(0);
    let defending = v.has("defending");
    let probability = chance::card_wins(face, bonus, opponent_draws, opponent_bonus, defending)
        .map_err(|e| flag_error(e, &CARD_ODDS_FLAGS))?;
    let out = CardOddsOut {
        probability,
        card: face.to_string(),
        bonus,
        opponent_draws,
        opponent_bonus,
        defending,
    };
    Report::of(&out, format!("{face} + {bonus} wins {}", pct(probability)))
}

/// A sheet file as the book's character sheet: Suit, Traits with their
/// pools, Skills with ranks, Specialties, Advantages, Disadvantages, XP,
/// Wildcards, weapons and armour. A Game of Bastards, "Character Creation"
/// (003_2dfeea144768d328.txt); R-GB-1.
pub fn character_sheet(c: &Character) -> CharacterSheet {
    let mut doc = CharacterSheet::new(
        c.name(),
        format!("{} / {}", c.suit(), c.suit().tarot_name()),
    );
    if !c.player().is_empty() {
        doc.push(Section::new("Player").with(Item::value("Played by", c.player())));
    }
    let mut traits = Section::new("Traits");
    for t in Trait::ALL {
        traits.push(Item::value(t.to_string(), c.trait_score(t)));
    }
    for t in Trait::ALL {
        traits.push(Item::track(t.pool_name(), c.pool_now(t), c.pool_max(t)));
    }
    doc.push(traits);
    let skills: Vec<Row> = c
        .skills()
        .iter()
        .map(|(k, r)| Row::new(k.clone(), r.to_string()))
        .collect();
    let specialties: Vec<Row> = c
        .specialties()
        .iter()
        .map(|(n, a, b)| {
            Row::new(n.clone(), c.specialty_rank(n).unwrap_or(0).to_string())
                .detail(format!("{a} x {b}"))
        })
        .collect();
    doc.push(
        Section::new("Skills")
            .with(Item::note("Every book skill at rank 1 unless raised."))
            .with(Item::list("Skills (rank)", skills))
            .with(Item::list("Specialties (rank)", specialties)),
    );
    doc.push(
        Section::new("Advantages")
            .with(Item::tags(
                "Advantages",
                c.advantages().iter().map(|a| format!("{a} ({})", a.suit())),
            ))
            .with(Item::tags(
                "Disadvantages",
                c.disadvantages().iter().cloned(),
            )),
    );
    let (available, spent) = c.xp();
    let mut gear = Section::new("Experience and gear")
        .with(Item::value("XP", format!("{spent} of {available} spent")))
        .with(Item::value("Wildcards", c.wildcards()))
        .with(Item::list(
            "Weapons",
            c.weapons()
                .iter()
                .map(|w| Row::new(w.name.clone(), format!("+{}", w.damage)).detail(w.skill.clone()))
                .collect(),
        ));
    if let Some(a) = c.armour() {
        gear.push(Item::value(
            "Armour",
            format!("{} (-{})", a.name, a.reduction),
        ));
    }
    doc.push(gear);
    doc
}
