//! The record of the night (issue 27, item 7): a table's whole log as one
//! seat may see it, with the talk, every roll and who made it, as Markdown or
//! HTML to keep or share. It is made from [`AnyTable::log_for`], so it holds
//! exactly what that seat's log holds: a player's record has no other seat's
//! hidden cards, whispers or the GM's secret rolls.

use tabula_core::system::Seat;

use crate::any::AnyTable;
use crate::session::LogLine;

/// The record's format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordFormat {
    /// Markdown (`text/markdown`), the default.
    #[default]
    Markdown,
    /// A self-contained HTML page (`text/html`), every text escaped.
    Html,
}

impl RecordFormat {
    /// `md`/`markdown` or `html`, without regard to case.
    pub fn parse(s: &str) -> Option<RecordFormat> {
        match s.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Some(RecordFormat::Markdown),
            "html" => Some(RecordFormat::Html),
            _ => None,
        }
    }

    /// The media type of a record in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            RecordFormat::Markdown => "text/markdown; charset=utf-8",
            RecordFormat::Html => "text/html; charset=utf-8",
        }
    }
}

/// What a line of the record is, for its style.
fn kind_label(line: &LogLine) -> &'static str {
    match line.kind.as_str() {
        "say" => "says",
        "ooc" => "out of character",
        "narrate" => "narration",
        "whisper" => "whisper",
        "roll" => "roll",
        "undo" => "undo",
        _ => "event",
    }
}

/// The seat's name as the record writes it (`GM` for the GM).
fn who(seat: &str) -> String {
    if seat.eq_ignore_ascii_case("gm") {
        "GM".to_string()
    } else {
        seat.to_string()
    }
}

/// Markdown's special characters, escaped so the text reads as typed.
fn md_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// HTML's special characters, escaped.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The record of `table` as `seat` may see it, titled `title`, in `format`:
/// a heading with the book and the seat, the seats at the table, and every
/// log line `seat` may see, oldest first, each with its number, who gave it
/// and its text (talk and rolls marked as such; undone commands stay, with
/// the undo after them, as in the log).
pub fn record(table: &AnyTable, seat: &Seat, title: &str, format: RecordFormat) -> String {
    record_of_lines(table, seat, &table.log_for(seat, 0), title, format)
}

/// [`record`] from `lines`, `seat`'s log lines as already described (the
/// server's stored lines), so nothing is replayed.
pub fn record_of_lines(
    table: &AnyTable,
    seat: &Seat,
    lines: &[LogLine],
    title: &str,
    format: RecordFormat,
) -> String {
    let seats: Vec<String> = table.seats().iter().map(ToString::to_string).collect();
    let book = table.system().title();
    let viewer = seat.to_string();
    let state = if table.finished() {
        "the encounter is over"
    } else {
        "the encounter goes on"
    };
    match format {
        RecordFormat::Markdown => {
            let mut out = format!(
                "# {}\n\n{} · the record as {} may see it · {} lines · {}\n\nSeats: {}\n\n",
                md_escape(title),
                md_escape(book),
                md_escape(&viewer),
                lines.len(),
                state,
                md_escape(&seats.join(", "))
            );
            for l in lines {
                let text = md_escape(&l.text);
                let text = match l.kind.as_str() {
                    "say" => format!("*{text}*"),
                    "whisper" => format!("(whisper) {text}"),
                    "narrate" => format!("> {text}"),
                    _ => text,
                };
                out.push_str(&format!(
                    "- #{} **{}**: {text}\n",
                    l.seq,
                    md_escape(&who(&l.seat))
                ));
            }
            out
        }
        RecordFormat::Html => {
            let mut out = format!(
                "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n<style>body{{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.4}}li{{margin:.3rem 0}}.seq{{color:#777;font-family:monospace}}.says .text{{font-style:italic}}.whisper{{background:#f1ecf8}}.narration{{background:#f6f1e4}}.roll{{background:#eef3fb}}.undo{{background:#fff4d6}}</style>\n</head>\n<body>\n<h1>{t}</h1>\n<p>{b} · the record as {v} may see it · {n} lines · {s}</p>\n<p>Seats: {seats}</p>\n<ol class=\"log\">\n",
                t = html_escape(title),
                b = html_escape(book),
                v = html_escape(&viewer),
                n = lines.len(),
                s = state,
                seats = html_escape(&seats.join(", "))
            );
            for l in lines {
                out.push_str(&format!(
                    "<li class=\"{k}\" data-kind=\"{kind}\"><span class=\"seq\">#{seq}</span> <strong>{w}</strong>: <span class=\"text\">{text}</span></li>\n",
                    k = kind_label(l).replace(' ', "-"),
                    kind = html_escape(&l.kind),
                    seq = l.seq,
                    w = html_escape(&who(&l.seat)),
                    text = html_escape(&l.text),
                ));
            }
            out.push_str("</ol>\n</body>\n</html>\n");
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_in_both_formats() {
        assert_eq!(md_escape("a*b_[c]"), "a\\*b\\_\\[c\\]");
        assert_eq!(
            html_escape("<script>&\"'"),
            "&lt;script&gt;&amp;&quot;&#39;"
        );
        assert_eq!(RecordFormat::parse("HTML"), Some(RecordFormat::Html));
        assert_eq!(RecordFormat::parse("md"), Some(RecordFormat::Markdown));
        assert_eq!(RecordFormat::parse("pdf"), None);
    }
}
