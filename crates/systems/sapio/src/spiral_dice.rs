//! The Spiral Die: twelve faces carrying Hits, Spares and Spirals.
//!
//! The Sapio System, "Using The Spiral Dice" (004_f39b4146df158cae.txt); the faces
//! are R-SA-1: Spiral, Spiral, Spare, Spare, Spare+Spare, Hit+Spare, Hit, Hit+Hit,
//! Hit+Hit+Spiral, Hit+Spiral, Hit+Spiral, blank.
//!
//! Face labels (typed with `--rolled`, in scripts and at `play --manual`; matched
//! case-insensitively, the first face carrying a label is used):
//!
//! | face | label | Hits | Spares | Spirals |
//! |---|---|---|---|---|
//! | 1, 2 | `@` | 0 | 0 | 1 |
//! | 3, 4 | `S` | 0 | 1 | 0 |
//! | 5 | `SS` | 0 | 2 | 0 |
//! | 6 | `HS` | 1 | 1 | 0 |
//! | 7 | `H` | 1 | 0 | 0 |
//! | 8 | `HH` | 2 | 0 | 0 |
//! | 9 | `HH@` | 2 | 0 | 1 |
//! | 10, 11 | `H@` | 1 | 0 | 1 |
//! | 12 | `blank` | 0 | 0 | 0 |
//!
//! [`normalize_face`] also reads the book's own symbols (`*` Hit, `Y` Spare) and the
//! words `spiral`, `spare`, `hit`, `hit+hit`, ... and the face numbers 1 to 12.

use serde::{Deserialize, Serialize};
use std::fmt;
use tabula_core::dice::FaceSet;
use tabula_core::{Die, RollError, Roller};

/// The labels of the twelve faces, in the order of R-SA-1.
pub static FACES: FaceSet = FaceSet {
    name: "Spiral Die",
    labels: &[
        "@", "@", "S", "S", "SS", "HS", "H", "HH", "HH@", "H@", "H@", "blank",
    ],
};

/// The Spiral Die as a core [`Die`].
///
/// # Errors
/// Never in practice (twelve faces are within the core caps); the core
/// constructor's error is passed on.
pub fn spiral_die() -> Result<Die, RollError> {
    Die::labelled(&FACES).map_err(RollError::Dice)
}

/// What one face of a Spiral Die shows. R-SA-1. Serialized as its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Face {
    /// One Spiral (faces 1 and 2).
    #[serde(rename = "@")]
    Spiral,
    /// One Spare (faces 3 and 4).
    #[serde(rename = "S")]
    Spare,
    /// Two Spares (face 5).
    #[serde(rename = "SS")]
    SpareSpare,
    /// A Hit and a Spare (face 6).
    #[serde(rename = "HS")]
    HitSpare,
    /// One Hit (face 7).
    #[serde(rename = "H")]
    Hit,
    /// Two Hits (face 8).
    #[serde(rename = "HH")]
    HitHit,
    /// Two Hits and a Spiral (face 9).
    #[serde(rename = "HH@")]
    HitHitSpiral,
    /// A Hit and a Spiral (faces 10 and 11).
    #[serde(rename = "H@")]
    HitSpiral,
    /// Nothing (face 12).
    #[serde(rename = "blank")]
    Blank,
}

/// The twelve faces in die order (face 1 first). R-SA-1.
pub const FACE_ORDER: [Face; 12] = [
    Face::Spiral,
    Face::Spiral,
    Face::Spare,
    Face::Spare,
    Face::SpareSpare,
    Face::HitSpare,
    Face::Hit,
    Face::HitHit,
    Face::HitHitSpiral,
    Face::HitSpiral,
    Face::HitSpiral,
    Face::Blank,
];

/// Counts of the three symbols: Hits, Spares, Spirals.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Symbols {
    /// Hits (the book's `*`): progress towards and above success.
    pub hits: u32,
    /// Spares (the book's `Y`): beneficial effects, offset by Spirals.
    pub spares: u32,
    /// Spirals (the book's `@`): complications, offset by Spares.
    pub spirals: u32,
}

impl Symbols {
    /// The sum of two counts.
    pub fn plus(self, other: Symbols) -> Symbols {
        Symbols {
            hits: self.hits.saturating_add(other.hits),
            spares: self.spares.saturating_add(other.spares),
            spirals: self.spirals.saturating_add(other.spirals),
        }
    }
}

impl Face {
    /// The face for a die value 1..=12 (values outside give `Blank`, which no
    /// roller produces: rollers range-check).
    pub fn from_value(value: u32) -> Face {
        FACE_ORDER
            .get(value.saturating_sub(1) as usize)
            .copied()
            .unwrap_or(Face::Blank)
    }

    /// The symbols this face shows. R-SA-1.
    pub fn symbols(self) -> Symbols {
        let (hits, spares, spirals) = match self {
            Face::Spiral => (0, 0, 1),
            Face::Spare => (0, 1, 0),
            Face::SpareSpare => (0, 2, 0),
            Face::HitSpare => (1, 1, 0),
            Face::Hit => (1, 0, 0),
            Face::HitHit => (2, 0, 0),
            Face::HitHitSpiral => (2, 0, 1),
            Face::HitSpiral => (1, 0, 1),
            Face::Blank => (0, 0, 0),
        };
        Symbols {
            hits,
            spares,
            spirals,
        }
    }

    /// The short label typed for this face (see the module table).
    pub fn label(self) -> &'static str {
        match self {
            Face::Spiral => "@",
            Face::Spare => "S",
            Face::SpareSpare => "SS",
            Face::HitSpare => "HS",
            Face::Hit => "H",
            Face::HitHit => "HH",
            Face::HitHitSpiral => "HH@",
            Face::HitSpiral => "H@",
            Face::Blank => "blank",
        }
    }

    /// True for the faces with two Hits (the Improbable Success faces). R-SA-3.
    pub fn is_double_hit(self) -> bool {
        matches!(self, Face::HitHit | Face::HitHitSpiral)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Rewrite a typed face in the canonical label: accepts the labels, the face
/// numbers 1 to 12, the book's symbols (`*` for Hit, `Y` for Spare) and words
/// (`spiral`, `spare`, `hit`, `hit+spare`, `hit+hit+spiral`, ...). Text it does not
/// recognise is returned trimmed, for the roller to refuse with its own message.
pub fn normalize_face(text: &str) -> String {
    let t = text.trim();
    if t.parse::<u32>().is_ok() {
        return t.to_string();
    }
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "blank" | "-" | "none" | "empty" => return "blank".into(),
        "spiral" => return "@".into(),
        "spare" => return "S".into(),
        "hit" => return "H".into(),
        _ => {}
    }
    let mut out = String::new();
    for part in lower.split('+') {
        let sym = match part.trim() {
            "hit" | "h" | "*" => "H",
            "spare" | "s" | "y" => "S",
            "spiral" | "@" => "@",
            other => {
                // Runs of symbols such as "hh@", "**", "yy".
                let mapped: Option<String> = other
                    .chars()
                    .map(|c| match c {
                        'h' | '*' => Some('H'),
                        's' | 'y' => Some('S'),
                        '@' => Some('@'),
                        _ => None,
                    })
                    .collect();
                match mapped {
                    Some(m) if !m.is_empty() => {
                        out.push_str(&m);
                        continue;
                    }
                    _ => return t.to_string(),
                }
            }
        };
        out.push_str(sym);
    }
    out
}

/// Roll `count` Spiral Dice through `roller`.
///
/// # Errors
/// Whatever the roller reports (a typed value that is no face, a script run out),
/// or [`RollError::Dice`] past the core pool cap.
pub fn roll_dice(count: u32, roller: &mut dyn Roller) -> Result<Vec<Face>, RollError> {
    let die = spiral_die()?;
    Ok(die
        .roll_pool(count, roller)?
        .into_iter()
        .map(Face::from_value)
        .collect())
}

/// The symbols shown by a set of faces.
pub fn count(faces: &[Face]) -> Symbols {
    faces
        .iter()
        .fold(Symbols::default(), |acc, f| acc.plus(f.symbols()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::roller::parse_face;

    #[test]
    fn twelve_faces_in_the_order_of_r_sa_1() {
        assert_eq!(FACES.labels.len(), 12);
        for (i, face) in FACE_ORDER.iter().enumerate() {
            assert_eq!(FACES.labels[i], face.label());
        }
        let total = count(&FACE_ORDER);
        // 2 Spirals, 2 Spares, Spare+Spare, Hit+Spare, Hit, Hit+Hit,
        // Hit+Hit+Spiral, 2 Hit+Spiral, blank.
        assert_eq!(
            total,
            Symbols {
                hits: 1 + 1 + 2 + 2 + 1 + 1,
                spares: 2 + 2 + 1,
                spirals: 2 + 1 + 2
            }
        );
    }

    #[test]
    fn labels_parse_to_the_first_face_carrying_them() {
        let die = spiral_die().unwrap();
        assert_eq!(parse_face(die, "@"), Ok(1));
        assert_eq!(parse_face(die, "h@"), Ok(10));
        assert_eq!(parse_face(die, "BLANK"), Ok(12));
        assert_eq!(parse_face(die, &normalize_face("hit+hit+spiral")), Ok(9));
        assert_eq!(parse_face(die, &normalize_face("**")), Ok(8));
        assert_eq!(parse_face(die, &normalize_face("Y")), Ok(3));
        assert_eq!(parse_face(die, &normalize_face("*Y")), Ok(6));
        assert_eq!(parse_face(die, &normalize_face("spiral")), Ok(1));
        assert!(parse_face(die, &normalize_face("HHH")).is_err());
        assert!(parse_face(die, &normalize_face("x")).is_err());
    }
}
