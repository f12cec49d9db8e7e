//! One description of a character sheet, drawn by one renderer per front end
//! (issue 26, item 2).
//!
//! Each book says once what its character sheet holds, with live values at
//! the table, as a [`SheetDoc`]: the table's own facts (round, phase, deck)
//! and one [`CharacterSheet`] per character, made of [`Section`]s of
//! [`Item`]s (labelled values, tracks with current/max, tags, lists of named
//! rows, cards). The text sheet ([`SheetDoc::to_text`]), the command line's
//! JSON and the web page draw this shape and nothing else: none of them knows
//! which book it is drawing.
//!
//! Hidden information stays with the book: a book builds the document *for*
//! one seat and puts in only what that seat may see; a value the seat may not
//! read is an [`Item::Hidden`] (its label and why), and another seat's hand is
//! an [`Item::Cards`] with its cards left out and only `face_down`, the count.
//! Nothing else in a document is secret, so every front end may show all of it.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::system::Seat;

/// Everything one seat may see of the sheets at a table: the table's facts and
/// every character's sheet, in the table's order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetDoc {
    /// Facts of the table as a whole (round, phase, whose turn, the deck's
    /// size), in the order a reader wants them. Empty outside a table.
    pub table: Vec<Item>,
    /// One sheet per character, in the table's order.
    pub characters: Vec<CharacterSheet>,
}

/// One character's sheet, as the book's character sheet lays it out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterSheet {
    /// The character's name.
    pub name: String,
    /// What kind of character it is, in the book's words (`Fated, Hearts /
    /// Cups`; `Level 2 hero`); may be empty.
    pub subtitle: String,
    /// The seat that plays the character (`None` outside a table, for a sheet
    /// file on its own).
    pub controller: Option<Seat>,
    /// True when the seat the document was made for plays this character (its
    /// sheet is drawn first, with the hand face up).
    pub mine: bool,
    /// The sheet's sections, in the book's order.
    pub sections: Vec<Section>,
}

/// One section of a sheet (`Traits`, `Skills`, `Hand`), holding items.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// The section's heading, in the book's words.
    pub title: String,
    /// Its items, in order.
    pub items: Vec<Item>,
}

/// One thing written on a sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Item {
    /// A labelled value (`Suit: Hearts`, `XP: 3 of 5 spent`).
    Value {
        /// The label, in the book's words.
        label: String,
        /// The value as the book writes it.
        value: String,
    },
    /// A track with its current and largest value (`Blood Points 7 of 10`).
    /// `current` may exceed `max` where the book allows it.
    Track {
        /// The track's name.
        label: String,
        /// Its value now.
        current: i64,
        /// Its largest value (its size).
        max: i64,
        /// A word on it (`Desperate`, `2 wounds`), or empty.
        note: String,
    },
    /// A labelled list of short words (conditions, Qualities, statuses).
    Tags {
        /// The list's label.
        label: String,
        /// The words; empty: the list is drawn as `none`.
        tags: Vec<String>,
    },
    /// A labelled list of named rows (abilities with levels, Skills with
    /// ranks, Actions with AP and cost).
    List {
        /// The list's label.
        label: String,
        /// Its rows; empty: drawn as `none`.
        rows: Vec<Row>,
    },
    /// Cards: a hand, a played card. The seat the document is for sees the
    /// faces in `cards`; `face_down` counts cards it may not see (another
    /// seat's hand), drawn as backs.
    Cards {
        /// What the cards are (`Hand`, `Initiative`).
        label: String,
        /// The faces this seat may see.
        cards: Vec<Card>,
        /// How many more cards there are, face down to this seat.
        face_down: usize,
    },
    /// A value this seat may not read (another seat's pools): the label and
    /// the rule that hides it.
    Hidden {
        /// What is hidden.
        label: String,
        /// Why, in the book's words or a ruling id.
        reason: String,
    },
    /// A line of plain text (a note, a rule reminder).
    Note {
        /// The text.
        text: String,
    },
}

/// One row of an [`Item::List`]: a name, its value and a detail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The row's name (`Athletics`, `Strike`).
    pub name: String,
    /// Its value (`3`, `rank 2`, `2 AP`), or empty.
    pub value: String,
    /// More about it (`Agility x Strength`, `cost: 1 Stamina`), or empty.
    pub detail: String,
}

impl Row {
    /// A row with a name, a value and no detail.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Row {
            name: name.into(),
            value: value.into(),
            detail: String::new(),
        }
    }

    /// This row with `detail`.
    #[must_use]
    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = detail.into();
        self
    }
}

impl Item {
    /// A labelled value.
    pub fn value(label: impl Into<String>, value: impl ToString) -> Self {
        Item::Value {
            label: label.into(),
            value: value.to_string(),
        }
    }

    /// A track `current` of `max`, without a note.
    pub fn track(label: impl Into<String>, current: i64, max: i64) -> Self {
        Item::Track {
            label: label.into(),
            current,
            max,
            note: String::new(),
        }
    }

    /// A labelled list of words.
    pub fn tags<I, S>(label: impl Into<String>, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Item::Tags {
            label: label.into(),
            tags: tags.into_iter().map(Into::into).collect(),
        }
    }

    /// A labelled list of rows.
    pub fn list(label: impl Into<String>, rows: Vec<Row>) -> Self {
        Item::List {
            label: label.into(),
            rows,
        }
    }

    /// Cards this seat sees, plus `face_down` it does not.
    pub fn cards(label: impl Into<String>, cards: Vec<Card>, face_down: usize) -> Self {
        Item::Cards {
            label: label.into(),
            cards,
            face_down,
        }
    }

    /// A value hidden from this seat, and why.
    pub fn hidden(label: impl Into<String>, reason: impl Into<String>) -> Self {
        Item::Hidden {
            label: label.into(),
            reason: reason.into(),
        }
    }

    /// A line of text.
    pub fn note(text: impl Into<String>) -> Self {
        Item::Note { text: text.into() }
    }

    /// The item's label (`""` for a note).
    pub fn label(&self) -> &str {
        match self {
            Item::Value { label, .. }
            | Item::Track { label, .. }
            | Item::Tags { label, .. }
            | Item::List { label, .. }
            | Item::Cards { label, .. }
            | Item::Hidden { label, .. } => label,
            Item::Note { .. } => "",
        }
    }
}

impl Section {
    /// An empty section titled `title`.
    pub fn new(title: impl Into<String>) -> Self {
        Section {
            title: title.into(),
            items: Vec::new(),
        }
    }

    /// This section with `item` appended.
    #[must_use]
    pub fn with(mut self, item: Item) -> Self {
        self.items.push(item);
        self
    }

    /// Append `item`.
    pub fn push(&mut self, item: Item) {
        self.items.push(item);
    }
}

impl CharacterSheet {
    /// A sheet for `name` with no sections yet.
    pub fn new(name: impl Into<String>, subtitle: impl Into<String>) -> Self {
        CharacterSheet {
            name: name.into(),
            subtitle: subtitle.into(),
            controller: None,
            mine: false,
            sections: Vec::new(),
        }
    }

    /// This sheet played by `controller`, as seen by `viewer`: `mine` is true
    /// when they are the same seat.
    #[must_use]
    pub fn played_by(mut self, controller: &Seat, viewer: &Seat) -> Self {
        self.mine = controller.same_seat(viewer);
        self.controller = Some(controller.clone());
        self
    }

    /// This sheet with `section` appended (an empty section is left out).
    #[must_use]
    pub fn with(mut self, section: Section) -> Self {
        self.push(section);
        self
    }

    /// Append `section`, unless it holds no item.
    pub fn push(&mut self, section: Section) {
        if !section.items.is_empty() {
            self.sections.push(section);
        }
    }

    /// Every item of every section, in order.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.sections.iter().flat_map(|s| s.items.iter())
    }
}

impl SheetDoc {
    /// The sheets of the characters named by `name`, or of every character
    /// when `name` is `None`, with the table's facts kept.
    pub fn characters_named(&self, name: &str) -> SheetDoc {
        SheetDoc {
            table: self.table.clone(),
            characters: self
                .characters
                .iter()
                .filter(|c| crate::names::same_name(&c.name, name))
                .cloned()
                .collect(),
        }
    }

    /// The document as plain text: the table's facts, then each sheet, one
    /// item per line, sheets separated by a blank line. Every front end that
    /// prints text prints this.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let none = |f: &mut fmt::Formatter<'_>, label: &str| write!(f, "{label}: none");
        match self {
            Item::Value { label, value } => write!(f, "{label}: {value}"),
            Item::Track {
                label,
                current,
                max,
                note,
            } => {
                write!(f, "{label}: {current}/{max}")?;
                if !note.is_empty() {
                    write!(f, " ({note})")?;
                }
                Ok(())
            }
            Item::Tags { label, tags } if tags.is_empty() => none(f, label),
            Item::Tags { label, tags } => write!(f, "{label}: {}", tags.join(", ")),
            Item::List { label, rows } if rows.is_empty() => none(f, label),
            Item::List { label, rows } => {
                let mut line = String::new();
                for (i, r) in rows.iter().enumerate() {
                    if i > 0 {
                        line.push_str(", ");
                    }
                    line.push_str(&r.name);
                    if !r.value.is_empty() {
                        let _ = write!(line, " {}", r.value);
                    }
                    if !r.detail.is_empty() {
                        let _ = write!(line, " ({})", r.detail);
                    }
                }
                write!(f, "{label}: {line}")
            }
            Item::Cards {
                label,
                cards,
                face_down,
            } => {
                let faces: Vec<String> = cards.iter().map(ToString::to_string).collect();
                write!(f, "{label}: ")?;
                match (faces.is_empty(), *face_down) {
                    (true, 0) => f.write_str("none"),
                    (false, 0) => f.write_str(&faces.join(", ")),
                    (true, n) => write!(f, "{n} face down"),
                    (false, n) => write!(f, "{}, and {n} face down", faces.join(", ")),
                }
            }
            Item::Hidden { label, reason } => write!(f, "{label}: hidden ({reason})"),
            Item::Note { text } => f.write_str(text),
        }
    }
}

impl fmt::Display for CharacterSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.subtitle.is_empty() {
            write!(f, " ({})", self.subtitle)?;
        }
        if let Some(c) = &self.controller {
            write!(f, ", played by {c}")?;
        }
        for s in &self.sections {
            write!(f, "\n  {}", s.title)?;
            for i in &s.items {
                write!(f, "\n    {i}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for SheetDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for i in &self.table {
            if !first {
                f.write_str("\n")?;
            }
            first = false;
            write!(f, "{i}")?;
        }
        for c in &self.characters {
            if !first {
                f.write_str("\n\n")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ana() -> CharacterSheet {
        CharacterSheet::new("Ana", "Fated, Hearts / Cups")
            .played_by(
                &Seat::Player("Blaine".into()),
                &Seat::Player("blaine".into()),
            )
            .with(
                Section::new("Traits")
                    .with(Item::track("Blood Points", 7, 10))
                    .with(Item::hidden("Mind Points", "R-GB-12")),
            )
            .with(Section::new("Empty"))
            .with(Section::new("Skills").with(Item::list(
                "Skills",
                vec![Row::new("Athletics", "3").detail("Agility x Strength")],
            )))
    }

    #[test]
    fn text_draws_every_item_and_leaves_empty_sections_out() {
        let doc = SheetDoc {
            table: vec![Item::value("Round", 2), Item::cards("Deck", vec![], 40)],
            characters: vec![ana()],
        };
        assert_eq!(
            doc.to_text(),
            "Round: 2\nDeck: 40 face down\n\nAna (Fated, Hearts / Cups), played by Blaine\n  \
             Traits\n    Blood Points: 7/10\n    Mind Points: hidden (R-GB-12)\n  \
             Skills\n    Skills: Athletics 3 (Agility x Strength)"
        );
        assert!(
            doc.characters[0].mine,
            "the same seat without regard to case"
        );
    }

    #[test]
    fn json_names_each_item_by_kind() {
        let json = serde_json::to_value(ana()).unwrap();
        assert_eq!(json["sections"][0]["items"][0]["kind"], "track");
        assert_eq!(json["sections"][0]["items"][1]["kind"], "hidden");
        assert_eq!(
            json["sections"][1]["items"][0]["rows"][0]["name"],
            "Athletics"
        );
        let back: CharacterSheet = serde_json::from_value(json).unwrap();
        assert_eq!(back, ana());
    }

    #[test]
    fn characters_named_keeps_the_table_and_matches_without_case() {
        let doc = SheetDoc {
            table: vec![Item::value("Round", 1)],
            characters: vec![ana(), CharacterSheet::new("Bo", "")],
        };
        let one = doc.characters_named("ANA");
        assert_eq!(one.characters.len(), 1);
        assert_eq!(one.table.len(), 1);
    }
}
