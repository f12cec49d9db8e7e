//! `tabula roll NOTATION` and `tabula odds NOTATION`: free dice notation at the
//! table, rolled or as an exact distribution.

use serde::Serialize;

use crate::common::{self, CliError, Ctx};
use tabula_engine::core::notation::{Dialect, EXPLODE_DEPTH, Expr, Node, RollOutcome};

/// The options of `tabula roll`.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// The dice to roll, quoted or as several words (`2d6 + 1d4`; quote it when
    /// it holds `*`, `(` or a word starting with `-` after the first): NdS, the
    /// operators `+ - * / // %` and parentheses, comparisons of totals
    /// (`1d20 + 5 >= 15` is 1 or 0), keep/drop (4d6kh3, 2d20kl1, 4d6dl1),
    /// reroll (ro<3, rr1), mi/ma, explode (e6), count successes (10d6>=5), dF,
    /// d%, `[label]`s on any term (`1d8 [slashing] + 2d6 [fire]`), and a comment
    /// after the roll: `#` and any text, or plain words (no digits or signs).
    #[arg(allow_hyphen_values = true, value_name = "NOTATION")]
    pub notation: String,
    /// The rest of the notation when it is written as several words.
    #[arg(allow_negative_numbers = true, hide = true)]
    pub more: Vec<String>,
    /// Seed the dice: the same seed gives the same roll.
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// Use the values you rolled yourself, left to right, e.g. --rolled 6,2,1
    /// (for dF: -, 0, +).
    #[arg(long, value_name = "V,V,...")]
    pub rolled: Option<String>,
    /// Whose meaning the notation has: d20 (the default), roll20 (8d6!,
    /// 4d6k3, 10d10>7f1, {4d6+3, 2d8}kh1) or foundry (1d6x, 2d20kh,
    /// 3d6min2, 10d6cs>=5).
    #[arg(long, value_name = "DIALECT", default_value = "d20", value_parser = dialect_arg)]
    pub dialect: Dialect,
}

/// `--dialect`: `d20`, `roll20` or `foundry`.
pub(crate) fn dialect_arg(text: &str) -> Result<Dialect, String> {
    text.parse::<Dialect>().map_err(|e| e.to_string())
}

/// The options of `tabula odds`.
#[derive(Debug, clap::Args)]
pub struct OddsArgs {
    /// The dice expression, quoted or as several words, as for `tabula roll`.
    #[arg(allow_hyphen_values = true, value_name = "NOTATION")]
    pub notation: String,
    /// The rest of the notation when it is written as several words.
    #[arg(allow_negative_numbers = true, hide = true)]
    pub more: Vec<String>,
    /// Draw the chance of rolling at least each total to FILE (.svg or .png),
    /// each exact value labelled (at most 40 totals, the likeliest range).
    #[arg(long, value_name = "FILE")]
    pub chart: Option<std::path::PathBuf>,
    /// Whose meaning the notation has, as for `tabula roll`.
    #[arg(long, value_name = "DIALECT", default_value = "d20", value_parser = dialect_arg)]
    pub dialect: Dialect,
}

/// The words of the notation as one text: `2d6 + 1d4` typed unquoted arrives
/// as three words.
fn joined(first: &str, more: &[String]) -> String {
    let mut text = first.to_string();
    for w in more {
        text.push(' ');
        text.push_str(w);
    }
    text
}

#[derive(Serialize)]
struct RollReport<'a> {
    notation: String,
    #[serde(flatten)]
    outcome: &'a RollOutcome,
}

/// Parse, roll and print.
///
/// # Errors
/// Bad input for notation errors, manual values out of range, missing or left
/// over.
pub fn run(args: &RollArgs, ctx: Ctx) -> Result<(), CliError> {
    let expr =
        Expr::parse_in(&joined(&args.notation, &args.more), args.dialect).map_err(CliError::bad)?;
    let mut roller = common::roller_for(args.seed, args.rolled.as_deref());
    let outcome = expr.roll(roller.as_mut()).map_err(CliError::bad)?;
    common::finish(roller.as_mut())?;
    let report = RollReport {
        notation: expr.to_string(),
        outcome: &outcome,
    };
    ctx.emit(&report, || outcome.to_string())
}

/// One row of the distribution.
#[derive(Serialize)]
struct Row {
    value: i64,
    probability: f64,
}

/// Where explosions were cut.
#[derive(Serialize)]
struct Truncation {
    /// Extra dice followed per exploding die.
    depth: u32,
    /// The probability that some die went that deep and would have exploded again.
    mass: f64,
}

#[derive(Serialize)]
struct OddsReport {
    expression: String,
    /// The dialect that read it, when not d20 (issue 30, item 3).
    #[serde(skip_serializing_if = "Dialect::is_d20")]
    dialect: Dialect,
    distribution: Vec<Row>,
    mean: f64,
    exact: bool,
    /// For a comparison of totals (`1d20 + 5 >= 15`), the chance that it
    /// holds: the probability of 1 (issue 30, item 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    chance_of_passing: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncation: Option<Truncation>,
}

/// The width of the longest text bar.
const BAR: f64 = 40.0;

/// Parse and print the exact distribution: a table with a text bar per value.
///
/// # Errors
/// Bad input for notation errors and for distributions too large to compute.
pub fn odds(args: &OddsArgs, ctx: Ctx) -> Result<(), CliError> {
    let expr =
        Expr::parse_in(&joined(&args.notation, &args.more), args.dialect).map_err(CliError::bad)?;
    let odds = expr.odds().map_err(CliError::bad)?;
    let report = OddsReport {
        expression: expr.to_string(),
        dialect: expr.dialect(),
        distribution: odds
            .dist
            .iter()
            .map(|(v, p)| Row {
                value: *v,
                probability: p,
            })
            .collect(),
        mean: odds.dist.mean(),
        exact: odds.exact,
        chance_of_passing: is_comparison(expr.root()).then(|| odds.dist.p(&1)),
        truncation: (!odds.exact).then_some(Truncation {
            depth: EXPLODE_DEPTH,
            mass: odds.truncated_mass,
        }),
    };
    if let Some(path) = &args.chart {
        crate::chart::odds_chart(
            path,
            &format!("{}: chance of at least each total", report.expression),
            "total",
            &at_least_points(&report.distribution),
        )?;
    }
    ctx.emit(&report, || odds_text(&report))
}

/// Whether the whole expression compares two totals (perhaps in parentheses
/// or with a label): its value is 1 when it holds, else 0.
fn is_comparison(node: &Node) -> bool {
    match node {
        Node::Binary(op, _) => op.is_comparison(),
        Node::Group(x) | Node::Labelled(x, _) => is_comparison(x),
        _ => false,
    }
}

/// The most totals an odds chart labels.
const CHART_POINTS: usize = 40;

/// `(total, chance of at least that total)` over the totals between the
/// 0.1% and 99.9% tails, thinned evenly to [`CHART_POINTS`].
fn at_least_points(rows: &[Row]) -> Vec<(i64, f64)> {
    let mut tail: f64 = 1.0;
    let mut all = Vec::with_capacity(rows.len());
    for r in rows {
        all.push((r.value, tail.clamp(0.0, 1.0)));
        tail -= r.probability;
    }
    let kept: Vec<(i64, f64)> = all
        .into_iter()
        .filter(|&(_, p)| (0.001..=0.999).contains(&p))
        .collect();
    let kept = if kept.is_empty() {
        rows.iter().map(|r| (r.value, 1.0)).take(1).collect()
    } else {
        kept
    };
    let step = kept.len().div_ceil(CHART_POINTS).max(1);
    kept.into_iter().step_by(step).collect()
}

fn odds_text(r: &OddsReport) -> String {
    let mut out = r.expression.clone();
    if !r.dialect.is_d20() {
        out.push_str(&format!(" ({})", r.dialect));
    }
    out.push_str(&format!(": mean {:.2}", r.mean));
    if let Some(p) = r.chance_of_passing {
        out.push_str(&format!(", chance of passing {:.2}%", p * 100.0));
    }
    match &r.truncation {
        None => out.push_str(" (exact)\n"),
        Some(t) => out.push_str(&format!(
            " (explosions followed {} dice deep: exact for Tabula's capped rolls; \
             unbounded exploding dice differ with probability {:.3e})\n",
            t.depth, t.mass
        )),
    }
    let width = r
        .distribution
        .iter()
        .map(|row| row.value.to_string().len())
        .max()
        .unwrap_or(1)
        .max(5);
    let top = r
        .distribution
        .iter()
        .map(|row| row.probability)
        .fold(0.0, f64::max);
    out.push_str(&format!(
        "{:>width$}  {:>9}  {:>9}\n",
        "value", "P(=)", "P(>=)"
    ));
    let mut at_least = 1.0f64;
    for row in &r.distribution {
        let bar = if top > 0.0 {
            "#".repeat((row.probability / top * BAR).round() as usize)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{:>width$}  {:>9}  {:>9}  {bar}\n",
            row.value,
            tabula_engine::play::percent(row.probability),
            tabula_engine::play::percent(at_least.clamp(0.0, 1.0))
        ));
        at_least -= row.probability;
    }
    out.pop();
    out
}
