//! Zones: a graph of areas. Two Zones may touch (be adjacent) without access
//! between them ("Two Zones being adjacent doesn't mean they can access each
//! other").
//!
//! Movement goes between touching, accessible Zones, 1 AP each; ranged Actions
//! reach a Zone only along accessible Zones ("Ranged actions can't shoot through
//! inaccessible Zones").

use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// The most Zones a table may define (Tabula's cap).
pub const MAX_ZONES: usize = 64;

/// One Zone as a table file writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneDef {
    /// The Zone's name.
    pub name: String,
    /// Zones this one touches (adjacency is symmetric).
    #[serde(default)]
    pub touches: Vec<String>,
    /// Touching Zones with no access between (symmetric): a cliff, a wall.
    #[serde(default)]
    pub no_access: Vec<String>,
}

/// The Zones of a table: names and symmetric touch and access relations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zones {
    names: Vec<String>,
    touch: BTreeSet<(usize, usize)>,
    access: BTreeSet<(usize, usize)>,
}

/// A Zone map could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    /// No Zones, or more than [`MAX_ZONES`].
    #[error("a table has 1 to {MAX_ZONES} Zones, not {0}")]
    Count(usize),
    /// Two Zones share a name.
    #[error("zones: two Zones are called {0:?}")]
    Duplicate(String),
    /// A Zone names a Zone that is not defined.
    #[error("zones: {from:?} names {to:?}, which is not a Zone")]
    Unknown {
        /// The Zone whose list holds the name.
        from: String,
        /// The name.
        to: String,
    },
}

impl Zones {
    /// Build the map from a table's Zone list.
    ///
    /// Tiers, "Zones" (002_631931fd73349179.txt).
    ///
    /// # Errors
    /// [`ZoneError`] for a count outside the caps, a duplicate or unknown name.
    pub fn new(defs: &[ZoneDef]) -> Result<Zones, ZoneError> {
        if defs.is_empty() || defs.len() > MAX_ZONES {
            return Err(ZoneError::Count(defs.len()));
        }
        let mut names: Vec<String> = Vec::new();
        for d in defs {
            let n = d.name.trim().to_string();
            if names.iter().any(|x| tabula_core::names::same_name(x, &n)) || n.is_empty() {
                return Err(ZoneError::Duplicate(n));
            }
            names.push(n);
        }
        let mut z = Zones {
            names,
            touch: BTreeSet::new(),
            access: BTreeSet::new(),
        };
        let mut blocked = BTreeSet::new();
        for (i, d) in defs.iter().enumerate() {
            for t in &d.touches {
                let j = z.index(t).ok_or_else(|| ZoneError::Unknown {
                    from: d.name.clone(),
                    to: t.clone(),
                })?;
                if i != j {
                    z.touch.insert((i.min(j), i.max(j)));
                }
            }
            for t in &d.no_access {
                let j = z.index(t).ok_or_else(|| ZoneError::Unknown {
                    from: d.name.clone(),
                    to: t.clone(),
                })?;
                blocked.insert((i.min(j), i.max(j)));
                z.touch.insert((i.min(j), i.max(j)));
            }
        }
        z.access = z.touch.difference(&blocked).copied().collect();
        Ok(z)
    }

    /// The Zone's index by name (any case).
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|n| tabula_core::names::same_name(n, name))
    }

    /// The Zone's name by index (empty for an unknown index).
    pub fn name(&self, i: usize) -> &str {
        self.names.get(i).map_or("", String::as_str)
    }

    /// Every Zone name.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// True when the two Zones touch.
    pub fn touching(&self, a: usize, b: usize) -> bool {
        self.touch.contains(&(a.min(b), a.max(b)))
    }

    /// True when the two Zones touch and can access each other (a 1-AP move).
    ///
    /// Tiers, "Movement" (002_631931fd73349179.txt).
    pub fn accessible(&self, a: usize, b: usize) -> bool {
        self.access.contains(&(a.min(b), a.max(b)))
    }

    /// Zones a move from `a` may go to in one step.
    pub fn neighbours(&self, a: usize) -> Vec<usize> {
        (0..self.names.len())
            .filter(|&b| b != a && self.accessible(a, b))
            .collect()
    }

    /// Steps along accessible Zones from `a` to `b` (0 for the same Zone; None
    /// when no accessible way exists). Ranged Actions reach exactly the Zones
    /// with `Some` distance.
    ///
    /// "Action Points (AP)": "Ranged actions can't shoot through inaccessible
    /// Zones" (002_631931fd73349179.txt).
    pub fn distance(&self, a: usize, b: usize) -> Option<u32> {
        self.distance_avoiding(a, b, &[])
    }

    /// As [`Zones::distance`], never passing through (but possibly ending in) the
    /// Zones in `avoid`.
    pub fn distance_avoiding(&self, a: usize, b: usize, avoid: &[usize]) -> Option<u32> {
        self.route(a, b, |from, _| from == a || !avoid.contains(&from))
            .and_then(|p| u32::try_from(p.len()).ok())
    }

    /// A shortest way from `a` to `b` along accessible Zones, taking only the
    /// steps `step_ok(from, to)` allows: the Zones entered in order, ending with
    /// `b` (empty when `a` is `b`; None when no way exists).
    pub fn route(
        &self,
        a: usize,
        b: usize,
        step_ok: impl Fn(usize, usize) -> bool,
    ) -> Option<Vec<usize>> {
        let n = self.names.len();
        if a >= n || b >= n {
            return None;
        }
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        if let Some(x) = seen.get_mut(a) {
            *x = true;
        }
        let mut queue = VecDeque::from([a]);
        while let Some(x) = queue.pop_front() {
            if x == b {
                let mut path = Vec::new();
                let mut at = b;
                while at != a {
                    path.push(at);
                    at = parent.get(at).copied().flatten()?;
                }
                path.reverse();
                return Some(path);
            }
            for y in self.neighbours(x) {
                if !seen.get(y).copied().unwrap_or(true) && step_ok(x, y) {
                    if let Some(v) = seen.get_mut(y) {
                        *v = true;
                    }
                    if let Some(p) = parent.get_mut(y) {
                        *p = Some(x);
                    }
                    queue.push_back(y);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, touches: &[&str], no_access: &[&str]) -> ZoneDef {
        ZoneDef {
            name: name.into(),
            touches: touches.iter().map(|s| s.to_string()).collect(),
            no_access: no_access.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// "Zones": a plateau touches four Zones; only one slope gives access.
    #[test]
    fn plateau_with_one_slope() {
        let z = Zones::new(&[
            def("Plateau", &["Slope"], &["North", "East", "West"]),
            def("Slope", &["North"], &[]),
            def("North", &["East"], &[]),
            def("East", &[], &[]),
            def("West", &[], &[]),
        ])
        .unwrap();
        let p = z.index("plateau").unwrap();
        let n = z.index("North").unwrap();
        let w = z.index("West").unwrap();
        assert!(z.touching(p, n));
        assert!(!z.accessible(p, n));
        assert_eq!(z.distance(p, n), Some(2));
        assert_eq!(z.distance(p, w), None);
        let s = z.index("Slope").unwrap();
        assert_eq!(z.distance_avoiding(p, n, &[s]), None);
        assert_eq!(z.route(p, n, |_, _| true), Some(vec![s, n]));
        assert_eq!(z.route(p, p, |_, _| true), Some(vec![]));
        assert!(Zones::new(&[def("A", &["B"], &[])]).is_err());
        assert!(Zones::new(&[]).is_err());
    }
}
