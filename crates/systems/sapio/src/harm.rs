//! Injuries and Stresses: the boxes, escalation, the TN penalty; weapons and the
//! injury they cause.
//!
//! The Sapio System, "Injuries and Stresses", "Weapons and causing Injury"
//! (004_f39b4146df158cae.txt); R-SA-4, R-SA-6, R-SA-7.
//!
//! Design decisions (the book is silent): Injuries and Stresses are two separate
//! tracks of two Minor, two Moderate and one Severe box each; an escalated entry
//! keeps the new entry's words; "similar" only escalates an entry of the same
//! level as the new one (R-SA-6: the command names the similar entry).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The most words an Injury or Stress is recorded as ("one or two words"; a table
/// allows up to this many characters).
pub const MAX_ENTRY_CHARS: usize = 60;

/// The level of an Injury, a Stress or a weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Minor: no TN penalty.
    Minor,
    /// Moderate: +1 TN.
    Moderate,
    /// Severe: +2 TN.
    Severe,
}

impl Level {
    /// The TN penalty: Minor 0, Moderate 1, Severe 2. "Injuries and Stresses".
    pub fn penalty(self) -> u32 {
        match self {
            Level::Minor => 0,
            Level::Moderate => 1,
            Level::Severe => 2,
        }
    }

    /// The level above, if any.
    pub fn up(self) -> Option<Level> {
        match self {
            Level::Minor => Some(Level::Moderate),
            Level::Moderate => Some(Level::Severe),
            Level::Severe => None,
        }
    }

    /// Read `minor`, `moderate` or `severe` (any case).
    pub fn parse(text: &str) -> Option<Level> {
        match text.trim().to_ascii_lowercase().as_str() {
            "minor" => Some(Level::Minor),
            "moderate" => Some(Level::Moderate),
            "severe" => Some(Level::Severe),
            _ => None,
        }
    }

    /// How many boxes the level has: two Minor, two Moderate, one Severe.
    pub fn boxes(self) -> usize {
        match self {
            Level::Severe => 1,
            _ => 2,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Minor => "Minor",
            Level::Moderate => "Moderate",
            Level::Severe => "Severe",
        })
    }
}

/// An Injury (a physical wound) or a Stress (a temporary condition).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HarmKind {
    /// A physical wound.
    Injury,
    /// A temporary condition or mental state.
    Stress,
}

impl fmt::Display for HarmKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HarmKind::Injury => "Injury",
            HarmKind::Stress => "Stress",
        })
    }
}

/// One box: its level and slot (0 or 1 for Minor and Moderate, 0 for Severe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxRef {
    /// The level of the box.
    pub level: Level,
    /// The slot within the level.
    pub slot: usize,
}

/// Where a new entry ends up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Written in this box.
    Box(BoxRef),
    /// A second Severe: the character is debilitated ("unconscious, bleeding out,
    /// or overcome to the point that they are not functional").
    Debilitated,
}

/// What recording one Injury or Stress does to a track: decided first, applied by
/// [`Track::apply`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recording {
    /// The words recorded.
    pub name: String,
    /// The level it was dealt at.
    pub dealt: Level,
    /// The similar entry erased by escalation, if any.
    pub erased: Option<BoxRef>,
    /// Where it ends up.
    pub placement: Placement,
}

/// Why an Injury or Stress cannot be recorded as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HarmError {
    /// The words are empty or too long.
    #[error(
        "an Injury or Stress is recorded as one or two words (1 to {MAX_ENTRY_CHARS} characters)"
    )]
    Words,
    /// The named similar entry is not on the track.
    #[error("there is no {kind} called {name:?} to be similar to")]
    NoSuchEntry {
        /// Injury or Stress.
        kind: HarmKind,
        /// The name given.
        name: String,
    },
    /// The similar entry is at another level than the new one.
    #[error("{name:?} is {at}, the new {kind} is {new}: only an entry of the same level escalates")]
    OtherLevel {
        /// Injury or Stress.
        kind: HarmKind,
        /// The entry named.
        name: String,
        /// Its level.
        at: Level,
        /// The new entry's level.
        new: Level,
    },
}

/// One track (Injuries or Stresses): two Minor, two Moderate and one Severe box,
/// and whether a second Severe has debilitated the character.
///
/// As TOML (a sheet) or JSON: `minor` and `moderate` are lists of two strings,
/// an empty box written `""` (TOML has no null, so `None` could not be written
/// back); `severe` is a string, left out when the box is empty. Every field may
/// be left out (empty boxes, not debilitated).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Track {
    /// The Minor boxes.
    #[serde(default, with = "two_boxes")]
    pub minor: [Option<String>; 2],
    /// The Moderate boxes.
    #[serde(default, with = "two_boxes")]
    pub moderate: [Option<String>; 2],
    /// The Severe box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severe: Option<String>,
    /// A second Severe was taken.
    #[serde(default)]
    pub debilitated: bool,
}

/// Two boxes as two strings, `""` for an empty box, so a sheet written with an
/// empty box reads back (TOML cannot write `None` in a list).
mod two_boxes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        boxes: &[Option<String>; 2],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let written: [&str; 2] = [
            boxes[0].as_deref().unwrap_or(""),
            boxes[1].as_deref().unwrap_or(""),
        ];
        serde::Serialize::serialize(&written, s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[Option<String>; 2], D::Error> {
        let read: [Option<String>; 2] = Deserialize::deserialize(d)?;
        Ok(read.map(|b| b.filter(|t| !t.is_empty())))
    }
}

impl Track {
    /// True when every box is empty and the character is not debilitated by it
    /// (a sheet leaves such a track out).
    pub fn is_clear(&self) -> bool {
        self == &Track::default()
    }

    fn boxes(&self, level: Level) -> &[Option<String>] {
        match level {
            Level::Minor => &self.minor,
            Level::Moderate => &self.moderate,
            Level::Severe => std::slice::from_ref(&self.severe),
        }
    }

    fn boxes_mut(&mut self, level: Level) -> &mut [Option<String>] {
        match level {
            Level::Minor => &mut self.minor,
            Level::Moderate => &mut self.moderate,
            Level::Severe => std::slice::from_mut(&mut self.severe),
        }
    }

    /// Every entry with its box, lowest level first.
    pub fn entries(&self) -> Vec<(BoxRef, &str)> {
        let mut out = Vec::new();
        for level in [Level::Minor, Level::Moderate, Level::Severe] {
            for (slot, b) in self.boxes(level).iter().enumerate() {
                if let Some(name) = b {
                    out.push((BoxRef { level, slot }, name.as_str()));
                }
            }
        }
        out
    }

    /// The entry named `name` (case-insensitive), highest level first.
    pub fn find(&self, name: &str) -> Option<BoxRef> {
        self.entries()
            .into_iter()
            .rev()
            .find(|(_, n)| crate::name_match::same_name(n, name))
            .map(|(b, _)| b)
    }

    fn first_free(&self, level: Level, except: Option<BoxRef>) -> Option<usize> {
        self.boxes(level)
            .iter()
            .enumerate()
            .position(|(slot, b)| b.is_none() || except == Some(BoxRef { level, slot }))
    }

    /// Decide where a new entry goes. "Injuries and Stresses"; R-SA-6:
    ///
    /// - a second Minor similar to a Minor becomes Moderate (the Minor is erased);
    /// - a second Moderate similar to a Moderate becomes Severe (the Moderate is erased);
    /// - a different one goes in the level's second box without raising the level;
    /// - when every box of the level is full it is recorded a level higher, and the
    ///   lower entries stay;
    /// - a second Severe debilitates the character.
    ///
    /// # Errors
    /// [`HarmError`] for empty words or a similar entry that is missing or at
    /// another level.
    pub fn plan(
        &self,
        kind: HarmKind,
        level: Level,
        name: &str,
        similar_to: Option<&str>,
    ) -> Result<Recording, HarmError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_ENTRY_CHARS {
            return Err(HarmError::Words);
        }
        let mut erased = None;
        let mut at = level;
        if let Some(similar) = similar_to {
            let b = self.find(similar).ok_or_else(|| HarmError::NoSuchEntry {
                kind,
                name: similar.trim().to_string(),
            })?;
            if b.level != level {
                return Err(HarmError::OtherLevel {
                    kind,
                    name: similar.trim().to_string(),
                    at: b.level,
                    new: level,
                });
            }
            match level.up() {
                Some(up) => {
                    erased = Some(b);
                    at = up;
                }
                // A second Severe, similar or not, debilitates.
                None => {
                    return Ok(Recording {
                        name: name.to_string(),
                        dealt: level,
                        erased: None,
                        placement: Placement::Debilitated,
                    });
                }
            }
        }
        let mut level_now = Some(at);
        while let Some(l) = level_now {
            if let Some(slot) = self.first_free(l, erased) {
                return Ok(Recording {
                    name: name.to_string(),
                    dealt: level,
                    erased,
                    placement: Placement::Box(BoxRef { level: l, slot }),
                });
            }
            level_now = l.up();
        }
        Ok(Recording {
            name: name.to_string(),
            dealt: level,
            erased,
            placement: Placement::Debilitated,
        })
    }

    /// Apply a recording decided by [`Track::plan`]. Never fails.
    pub fn apply(&mut self, rec: &Recording) {
        if let Some(b) = rec.erased
            && let Some(cell) = self.boxes_mut(b.level).get_mut(b.slot)
        {
            *cell = None;
        }
        match rec.placement {
            Placement::Box(b) => {
                if let Some(cell) = self.boxes_mut(b.level).get_mut(b.slot) {
                    *cell = Some(rec.name.clone());
                }
            }
            Placement::Debilitated => self.debilitated = true,
        }
    }

    /// Erase the entry in box `b` (healed or rested). Returns its words.
    ///
    /// Healing the Severe box also ends the debilitation: "A second Severe
    /// Injury or Stress debilitates the character", and once the Severe entry is
    /// healed there is no Severe left for a second one to stand on
    /// ("Injuries and Stresses").
    pub fn clear(&mut self, b: BoxRef) -> Option<String> {
        let taken = self
            .boxes_mut(b.level)
            .get_mut(b.slot)
            .and_then(Option::take);
        if taken.is_some() && b.level == Level::Severe {
            self.debilitated = false;
        }
        taken
    }

    /// The penalties of the entries, with their names (Moderate 1, Severe 2).
    pub fn penalties(&self) -> Vec<(String, u32)> {
        self.entries()
            .into_iter()
            .filter(|(b, _)| b.level.penalty() > 0)
            .map(|(b, n)| (n.to_string(), b.level.penalty()))
            .collect()
    }
}

/// The TN penalty from the applicable Injuries and Stresses: only the largest
/// applies (R-SA-7: it may push the TN past 5). With `ignore_one_injury` (a
/// Special Talent like "Usually Bloody") the largest Injury's increase is ignored
/// first.
pub fn largest_penalty(injuries: &[u32], stresses: &[u32], ignore_one_injury: bool) -> u32 {
    let mut inj: Vec<u32> = injuries.to_vec();
    inj.sort_unstable();
    if ignore_one_injury {
        inj.pop();
    }
    inj.iter()
        .chain(stresses.iter())
        .copied()
        .max()
        .unwrap_or(0)
}

/// What a weapon's hit does: its base level upgraded by extra Hits. R-SA-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Damage {
    /// An Injury of this level.
    Injury(Level),
    /// Death.
    Death,
}

/// The injury a weapon deals with `extra_hits` beyond the TN: Minor -> Moderate
/// costs one extra Hit, Moderate -> Severe two more, Severe -> Death three more,
/// counting from the weapon's base level. "Weapons and causing Injury"; R-SA-4.
pub fn weapon_damage(base: Level, extra_hits: u32) -> Damage {
    let mut left = extra_hits;
    let mut now = base;
    loop {
        let cost = match now {
            Level::Minor => 1,
            Level::Moderate => 2,
            Level::Severe => 3,
        };
        if left < cost {
            return Damage::Injury(now);
        }
        left -= cost;
        match now.up() {
            Some(up) => now = up,
            None => return Damage::Death,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(t: &mut Track, level: Level, name: &str, similar: Option<&str>) -> Recording {
        let r = t.plan(HarmKind::Injury, level, name, similar).unwrap();
        t.apply(&r);
        r
    }

    #[test]
    fn five_boxes() {
        // "A character has two boxes for Minor, two boxes for Moderate, and one box for Severe."
        assert_eq!(
            [Level::Minor, Level::Moderate, Level::Severe].map(Level::boxes),
            [2, 2, 1]
        );
    }

    #[test]
    fn a_second_similar_minor_becomes_moderate() {
        let mut t = Track::default();
        record(&mut t, Level::Minor, "Bruised ribs", None);
        let r = record(&mut t, Level::Minor, "Cracked ribs", Some("bruised ribs"));
        assert_eq!(
            r.erased,
            Some(BoxRef {
                level: Level::Minor,
                slot: 0
            })
        );
        assert_eq!(t.minor, [None, None]);
        assert_eq!(t.moderate[0].as_deref(), Some("Cracked ribs"));
    }

    #[test]
    fn a_second_similar_moderate_becomes_severe() {
        let mut t = Track::default();
        record(&mut t, Level::Moderate, "Deep cut", None);
        record(&mut t, Level::Moderate, "Gash", Some("Deep cut"));
        assert_eq!(t.moderate, [None, None]);
        assert_eq!(t.severe.as_deref(), Some("Gash"));
    }

    #[test]
    fn a_different_one_goes_in_the_second_box() {
        let mut t = Track::default();
        record(&mut t, Level::Minor, "Scraped", None);
        record(&mut t, Level::Minor, "Winded", None);
        assert_eq!(t.minor, [Some("Scraped".into()), Some("Winded".into())]);
        assert_eq!(t.moderate, [None, None]);
        record(&mut t, Level::Moderate, "Sprained", None);
        record(&mut t, Level::Moderate, "Burned", None);
        assert_eq!(t.moderate, [Some("Sprained".into()), Some("Burned".into())]);
        assert_eq!(t.severe, None);
    }

    #[test]
    fn full_boxes_record_one_level_up_and_keep_the_lower() {
        let mut t = Track::default();
        record(&mut t, Level::Minor, "Scraped", None);
        record(&mut t, Level::Minor, "Winded", None);
        let r = record(&mut t, Level::Minor, "Bitten", None);
        assert_eq!(
            r.placement,
            Placement::Box(BoxRef {
                level: Level::Moderate,
                slot: 0
            })
        );
        assert_eq!(t.minor, [Some("Scraped".into()), Some("Winded".into())]);
        // Moderate full too: to Severe.
        record(&mut t, Level::Moderate, "Sprained", None);
        let r = record(&mut t, Level::Minor, "Stung", None);
        assert_eq!(
            r.placement,
            Placement::Box(BoxRef {
                level: Level::Severe,
                slot: 0
            })
        );
    }

    #[test]
    fn a_second_severe_debilitates() {
        let mut t = Track::default();
        record(&mut t, Level::Severe, "Stabbed", None);
        assert!(!t.debilitated);
        let r = record(&mut t, Level::Severe, "Shot", None);
        assert_eq!(r.placement, Placement::Debilitated);
        assert!(t.debilitated);
        // Similar Severe as well.
        let mut t = Track::default();
        record(&mut t, Level::Severe, "Stabbed", None);
        record(&mut t, Level::Severe, "Stabbed again", Some("Stabbed"));
        assert!(t.debilitated);
    }

    #[test]
    fn similar_must_exist_and_share_the_level() {
        let mut t = Track::default();
        record(&mut t, Level::Minor, "Scraped", None);
        assert!(matches!(
            t.plan(HarmKind::Injury, Level::Minor, "x", Some("nope")),
            Err(HarmError::NoSuchEntry { .. })
        ));
        assert!(matches!(
            t.plan(HarmKind::Injury, Level::Moderate, "x", Some("Scraped")),
            Err(HarmError::OtherLevel { .. })
        ));
        assert_eq!(
            t.plan(HarmKind::Stress, Level::Minor, "  ", None),
            Err(HarmError::Words)
        );
    }

    #[test]
    fn only_the_largest_penalty() {
        assert_eq!(largest_penalty(&[1, 2], &[1], false), 2);
        assert_eq!(largest_penalty(&[2], &[1], true), 1);
        assert_eq!(largest_penalty(&[], &[], false), 0);
    }

    #[test]
    fn weapon_upgrades_count_from_the_base_level() {
        use Damage::*;
        assert_eq!(weapon_damage(Level::Minor, 0), Injury(Level::Minor));
        assert_eq!(weapon_damage(Level::Minor, 1), Injury(Level::Moderate));
        assert_eq!(weapon_damage(Level::Minor, 2), Injury(Level::Moderate));
        assert_eq!(weapon_damage(Level::Minor, 3), Injury(Level::Severe));
        assert_eq!(weapon_damage(Level::Minor, 6), Death);
        assert_eq!(weapon_damage(Level::Moderate, 1), Injury(Level::Moderate));
        assert_eq!(weapon_damage(Level::Moderate, 2), Injury(Level::Severe));
        assert_eq!(weapon_damage(Level::Moderate, 5), Death);
        assert_eq!(weapon_damage(Level::Severe, 2), Injury(Level::Severe));
        assert_eq!(weapon_damage(Level::Severe, 3), Death);
    }
}
