//! Charts for `odds --chart` and `simulate --chart`, drawn with `plotters`
//! to SVG or PNG (chosen by the file's extension). The font is bundled
//! (DejaVu Sans, `assets/DejaVuSans-LICENSE.txt`), so a chart draws the same
//! on a machine with no fonts installed.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use tabula_engine::simulate::SimReport;

use crate::common::CliError;

/// The largest chart side, in pixels.
const WIDTH: u32 = 960;
const HEIGHT: u32 = 480;

static FONT: Once = Once::new();

fn register_font() {
    FONT.call_once(|| {
        // The bundled font is a valid TrueType file: registering it cannot
        // fail; if it ever did, text would be missing, not the chart.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            include_bytes!("../assets/DejaVuSans.ttf"),
        );
    });
}

/// The kind of image a path asks for.
enum Format {
    Svg,
    Png,
}

fn format_of(path: &Path) -> Result<Format, CliError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(CliError::BadInput(format!(
            "--chart {}: the file must end in .svg or .png",
            path.display()
        ))),
    }
}

/// Draws a chart on an SVG drawing area.
type DrawSvg<'a> = &'a dyn Fn(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>;
/// Draws a chart on a bitmap (PNG) drawing area.
type DrawPng<'a> = &'a dyn Fn(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>;

fn draw_to(path: &Path, draw: DrawSvg<'_>, draw_png: DrawPng<'_>) -> Result<(), CliError> {
    register_font();
    let fail = |e: String| CliError::Failure(format!("--chart {}: {e}", path.display()));
    match format_of(path)? {
        Format::Svg => {
            let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
            draw(&root).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        Format::Png => {
            let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
            draw_png(&root).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
    }
}

/// One point of an odds chart: the parameter's value and the chance of
/// success there (`0.0..=1.0`).
pub type OddsPoint = (i64, f64);

/// Draw the chance of success against the main parameter (dice risked,
/// Trait, pool size, difficulty) as bars with each exact value labelled.
///
/// # Errors
/// Bad input for a path that is not `.svg`/`.png` or no points; a failure
/// when the file cannot be written.
pub fn odds_chart(
    path: &Path,
    title: &str,
    parameter: &str,
    points: &[OddsPoint],
) -> Result<(), CliError> {
    if points.is_empty() {
        return Err(CliError::BadInput(
            "--chart: there is nothing to draw for these settings".into(),
        ));
    }
    draw_to(
        path,
        &|root| draw_odds(root, title, parameter, points),
        &|root| draw_odds(root, title, parameter, points),
    )
}

fn draw_odds<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    parameter: &str,
    points: &[OddsPoint],
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let lo = points.iter().map(|p| p.0).min().unwrap_or(0) as f64 - 0.6;
    let hi = points.iter().map(|p| p.0).max().unwrap_or(0) as f64 + 0.6;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(lo..hi, 0f64..110f64)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(parameter)
        .y_desc("chance of success (%)")
        .x_labels(points.len().min(30))
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{}", x.round() as i64)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(e)?;
    let blue = RGBColor(52, 101, 164);
    chart
        .draw_series(points.iter().map(|&(x, p)| {
            let x = x as f64;
            Rectangle::new([(x - 0.35, 0.0), (x + 0.35, p * 100.0)], blue.filled())
        }))
        .map_err(e)?;
    let size = if points.len() > 16 { 11 } else { 14 };
    chart
        .draw_series(points.iter().map(|&(x, p)| {
            Text::new(
                format!("{:.1}%", p * 100.0),
                (x as f64 - 0.35, p * 100.0 + 6.0),
                ("sans-serif", size),
            )
        }))
        .map_err(e)?;
    Ok(())
}

/// Draw a simulation: the rounds-to-end histogram (left) and each side's win
/// rate with its 95% interval (right).
///
/// # Errors
/// Bad input for a path that is not `.svg`/`.png`; a failure when the file
/// cannot be written.
pub fn simulate_chart(path: &Path, report: &SimReport) -> Result<(), CliError> {
    draw_to(path, &|root| draw_simulation(root, report), &|root| {
        draw_simulation(root, report)
    })
}

fn draw_simulation<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &SimReport,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let root = root
        .titled(
            &format!(
                "{}: {} encounters (seed {})",
                report.title, report.runs, report.seed
            ),
            ("sans-serif", 22),
        )
        .map_err(e)?;
    let (left, right) = root.split_horizontally(WIDTH * 11 / 20);
    let finished = report.finished.max(1) as f64;
    let hist: Vec<(u32, f64)> = report
        .rounds
        .histogram
        .iter()
        .map(|&(r, n)| (r, n as f64 * 100.0 / finished))
        .collect();
    let max_round = hist.iter().map(|h| h.0).max().unwrap_or(1);
    let min_round = hist.iter().map(|h| h.0).min().unwrap_or(0);
    let top = hist.iter().map(|h| h.1).fold(0.0, f64::max).max(1.0) * 1.15;
    let mut chart = ChartBuilder::on(&left)
        .caption(
            format!(
                "Rounds to the end (mean {:.2}, median {}, p90 {})",
                report.rounds.mean, report.rounds.median, report.rounds.p90
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(min_round as f64 - 0.6..max_round as f64 + 0.6, 0f64..top)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("round the encounter ended in")
        .y_desc("runs (%)")
        .x_labels(((max_round - min_round) as usize + 1).min(25))
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{}", x.round() as i64)
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(e)?;
    let green = RGBColor(78, 154, 6);
    chart
        .draw_series(hist.iter().map(|&(r, pct)| {
            let x = f64::from(r);
            Rectangle::new([(x - 0.4, 0.0), (x + 0.4, pct)], green.filled())
        }))
        .map_err(e)?;

    let sides = &report.sides;
    let n = sides.len().max(1);
    let mut chart = ChartBuilder::on(&right)
        .caption("Win rate with 95% interval", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.6..n as f64 - 0.4, 0f64..110f64)
        .map_err(e)?;
    let names: Vec<String> = sides.iter().map(|s| s.side.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("wins (%)")
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(e)?;
    let blue = RGBColor(52, 101, 164);
    chart
        .draw_series(sides.iter().enumerate().map(|(i, s)| {
            let x = i as f64;
            Rectangle::new([(x - 0.3, 0.0), (x + 0.3, s.rate * 100.0)], blue.filled())
        }))
        .map_err(e)?;
    for (i, s) in sides.iter().enumerate() {
        let x = i as f64;
        let (lo, hi) = (s.interval.0 * 100.0, s.interval.1 * 100.0);
        chart
            .draw_series([
                PathElement::new(vec![(x, lo), (x, hi)], BLACK.stroke_width(2)),
                PathElement::new(vec![(x - 0.08, lo), (x + 0.08, lo)], BLACK.stroke_width(2)),
                PathElement::new(vec![(x - 0.08, hi), (x + 0.08, hi)], BLACK.stroke_width(2)),
            ])
            .map_err(e)?;
        chart
            .draw_series([Text::new(
                format!("{:.1}% ({:.1}-{:.1})", s.rate * 100.0, lo, hi),
                (x - 0.3, hi + 5.0),
                ("sans-serif", 13),
            )])
            .map_err(e)?;
    }
    Ok(())
}
