//! Table data: Actions and Stat perks (R-TI-4), Items by speed, the GM's roll
//! uses, enemy kinds and NPCs. The book's Sample Content ships as
//! `content/sample.toml` ([`Catalog::sample`]); a table file adds its own,
//! marked `house = true` when it is the table's and not the book's.

use serde::{Deserialize, Serialize};

use crate::character::{MAX_AP, MAX_NAME, Stat, TIERS};

/// The book's Sample Content, as data.
pub const SAMPLE: &str = include_str!("../content/sample.toml");
/// The most dice one Action or Item may roll (Tabula's cap).
pub const MAX_DEF_DICE: u32 = 20;
/// The most definitions of each kind a table may add (Tabula's cap).
pub const MAX_DEFS: usize = 200;

/// What an Action does ("Stats and Tiers": damage, healing, reduction...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionEffect {
    /// Deal the roll as damage to an enemy.
    Damage,
    /// Restore the roll as Health to a player or ally (not one at 0 Health).
    Heal,
    /// Reduce the next damage a player or ally takes by the roll.
    Reduce,
    /// Move up to the roll in Zones (the AP cost covers the whole move).
    Move,
    /// A Competing Roll against an enemy (its free 1d3): the roll plus the
    /// Action's Stat's Roleplay Bonus.
    Compete,
}

/// Where an Action reaches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reach {
    /// Targets in the user's own Zone.
    #[default]
    Melee,
    /// Targets in any Zone reachable along accessible Zones ("Ranged actions can't
    /// shoot through inaccessible Zones").
    Ranged,
    /// The user only.
    Own,
}

/// When an Action may be used ("Unless an Action says otherwise, it can only be
/// used during the Player Phase").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum When {
    /// Only in the Player Phase.
    #[default]
    PlayerPhase,
    /// In either phase (its description says so).
    AnyPhase,
}

/// An Action of a Stat's tier, defined by the table (R-TI-4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    /// The Action's name.
    pub name: String,
    /// Its Stat.
    pub stat: Stat,
    /// Its tier, 1..=6: usable with at least 1 SP in that tier.
    pub tier: u32,
    /// Its AP cost, 1..=6.
    pub ap: u32,
    /// d6 rolled.
    #[serde(default)]
    pub d6: u32,
    /// d3 rolled.
    #[serde(default)]
    pub d3: u32,
    /// A flat amount added.
    #[serde(default)]
    pub flat: u32,
    /// What it does.
    pub effect: ActionEffect,
    /// Where it reaches.
    #[serde(default)]
    pub reach: Reach,
    /// When it may be used.
    #[serde(default)]
    pub when: When,
    /// True when this is the table's own content, not the book's (R-TI-4).
    #[serde(default)]
    pub house: bool,
    /// The text, in the table's words.
    #[serde(default)]
    pub description: String,
}

/// A Stat perk of a tier, defined by the table (R-TI-4); perks may raise max
/// Health (R-TI-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerkDef {
    /// The perk's name.
    pub name: String,
    /// Its Stat.
    pub stat: Stat,
    /// Its tier, 1..=6: a character has it with at least 1 SP in that tier.
    pub tier: u32,
    /// Max Health it adds (R-TI-2).
    #[serde(default)]
    pub max_health: u32,
    /// True when this is the table's own content.
    #[serde(default)]
    pub house: bool,
    /// The text.
    #[serde(default)]
    pub description: String,
}

/// An Item's speed ("Items"; R-TI-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Speed {
    /// 1 AP.
    Fast,
    /// 2 AP ("Medial" in the category list; R-TI-7).
    #[serde(alias = "medial")]
    Normal,
    /// 3 AP.
    Slow,
    /// 4 or more AP, unique effects.
    Special,
}

/// An Item that can be used in combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    /// The Item's name.
    pub name: String,
    /// Its speed.
    pub speed: Speed,
    /// AP for a Special Item (at least 4); ignored for the others.
    #[serde(default)]
    pub ap: Option<u32>,
    /// Health it restores.
    #[serde(default)]
    pub heal: u32,
    /// How far above max Health its heal may go (the Slow Shield's 10).
    #[serde(default)]
    pub overheal: u32,
    /// True for the Turret: drops a turret in the user's Zone.
    #[serde(default)]
    pub turret: bool,
    /// True when this is the table's own content.
    #[serde(default)]
    pub house: bool,
    /// The text.
    #[serde(default)]
    pub description: String,
}

impl ItemDef {
    /// AP to use it: Fast 1, Normal 2, Slow 3, Special its own (at least 4).
    ///
    /// Tiers, "Items" (002_631931fd73349179.txt); R-TI-7.
    pub fn ap(&self) -> u32 {
        match self.speed {
            Speed::Fast => 1,
            Speed::Normal => 2,
            Speed::Slow => 3,
            Speed::Special => self.ap.unwrap_or(4).max(4),
        }
    }
}

/// Which die a roll use spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UseDie {
    /// d6 Rolls.
    D6,
    /// d3 Rolls.
    D3,
    /// Either.
    Any,
}

/// What a roll use does ("Describing Rolls", "Enemy Behavior").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UseEffect {
    /// Move the enemy to an adjacent Zone (1d3 or 1 CP).
    Move,
    /// A Competing Roll; on success the player cannot move away.
    Grapple,
    /// Damage one player.
    Damage,
    /// Reduce the damage of the next attack on the enemy.
    Block,
    /// Damage divided among players in one Zone.
    Divided,
    /// Damage one player, heal an enemy with the other dice.
    Drain,
    /// A Competing Roll; on success move the player up to X Zones away.
    Shove,
    /// Heal an enemy.
    Heal,
}

/// A way the GM may spend Rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollUse {
    /// The use's name, e.g. "Bite".
    pub name: String,
    /// Which die it spends.
    pub die: UseDie,
    /// What it does.
    pub effect: UseEffect,
    /// The enemy kinds that have this roll (a kind's named roll, e.g. the
    /// Healer's Heal); empty for a roll any enemy may use (the book's
    /// "Describing Rolls"). R-TI-9.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// True when this is the table's own content.
    #[serde(default)]
    pub house: bool,
    /// The text.
    #[serde(default)]
    pub description: String,
}

impl RollUse {
    /// True when an enemy of `kind` may use this roll (R-TI-9).
    pub fn usable_by(&self, kind: &str) -> bool {
        self.kinds.is_empty() || self.kinds.iter().any(|k| same(k, kind))
    }
}

/// How an enemy kind responds, built in for the kinds the book describes
/// ("Enemies"; R-TI-9). A table may give one of these to a kind of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Response {
    /// Goblin: "When a goblin is attacked, they will block with whatever is
    /// nearby": a 1d6 Block before the attack's damage, when a d6 is left and
    /// no Block is up.
    Block,
    /// Goblin Boss: "When Goblin Boss is dealt damage, it will screech at the
    /// attacker or threaten/insult other Goblins" (told in the log).
    Screech,
    /// Shadow Goblin: "Whenever a Shadow Goblin is dealt damage, they spend any
    /// roll to sink into a shadow" (a d3 if one is left, else a d6).
    Sink,
    /// Healer: "Whenever one of their allies takes large amounts of damage,
    /// Healers respond by healing with Combat Points" (the GM's `spend HEALER
    /// Heal cp=N on ALLY`, not doubled).
    HealWithCombatPoints,
    /// Enchanted Armor: "Whenever this enemy takes damage, it will face whoever
    /// most recently attacked it and use its Movement to approach that
    /// character" (one Zone, 1 CP or 1d3).
    Approach,
}

/// A kind of enemy from "Enemies" (or the table's own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyKind {
    /// The kind's name.
    pub name: String,
    /// What it looks like.
    #[serde(default)]
    pub description: String,
    /// How it moves.
    #[serde(default)]
    pub movement: String,
    /// What it does.
    #[serde(default)]
    pub actions: String,
    /// How it responds.
    #[serde(default)]
    pub responses: String,
    /// The Shadow Goblin's shadow form.
    #[serde(default)]
    pub shadow_form: bool,
    /// The Enchanted Armor's Ensnare and Absorb.
    #[serde(default)]
    pub ensnare: bool,
    /// Its built-in Response (R-TI-9).
    #[serde(default)]
    pub response: Option<Response>,
    /// True when this is the table's own content.
    #[serde(default)]
    pub house: bool,
}

/// A Non-Player Character of the Sample Content (who, what, where, when, why, how).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Npc {
    /// The name.
    pub name: String,
    /// Who.
    pub who: String,
    /// What.
    pub what: String,
    /// Where.
    #[serde(rename = "where")]
    pub place: String,
    /// When.
    pub when: String,
    /// Why.
    pub why: String,
    /// How.
    pub how: String,
    /// Marun's ice cream flavors.
    #[serde(default)]
    pub flavors: Vec<String>,
}

/// Everything a table knows by name: Actions, perks, Items, roll uses, enemy
/// kinds and NPCs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Actions (table data; R-TI-4).
    #[serde(default)]
    pub actions: Vec<ActionDef>,
    /// Stat perks (table data; R-TI-4).
    #[serde(default)]
    pub perks: Vec<PerkDef>,
    /// Items.
    #[serde(default)]
    pub items: Vec<ItemDef>,
    /// Roll uses.
    #[serde(default)]
    pub uses: Vec<RollUse>,
    /// Enemy kinds.
    #[serde(default)]
    pub enemies: Vec<EnemyKind>,
    /// NPCs.
    #[serde(default)]
    pub npcs: Vec<Npc>,
}

/// A definition in table data breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    /// The book's sample content did not parse (a bug in this crate).
    #[error("sample content: {0}")]
    Sample(String),
    /// A definition is out of range.
    #[error("{kind} {name:?}: {problem}")]
    Bad {
        /// actions, perks, items, uses, enemies.
        kind: &'static str,
        /// Its name.
        name: String,
        /// What is wrong.
        problem: ContentProblem,
    },
}

/// What is wrong with one definition of table data.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContentProblem {
    /// More definitions of one kind than [`MAX_DEFS`].
    #[error("at most {MAX_DEFS} definitions, not {0}")]
    TooMany(usize),
    /// The name is empty or longer than the cap.
    #[error("needs a name of 1 to {MAX_NAME} bytes, without control characters")]
    Name,
    /// A tier outside 1..=6.
    #[error("tier must be 1..=6, not {0}")]
    Tier(u32),
    /// An AP cost outside 1..=6.
    #[error("ap must be 1..=6, not {0}")]
    Ap(u32),
    /// More than [`MAX_DEF_DICE`] of a die, or a number above 1000.
    #[error("at most {MAX_DEF_DICE} of each die and amounts up to 1000")]
    Amount,
    /// A Special Item's AP outside 4..=6.
    #[error("a Special Item costs 4 to 6 AP, not {0}")]
    SpecialAp(u32),
    /// A roll use names an enemy kind the table does not know.
    #[error("kinds: there is no enemy kind {0:?}")]
    UnknownKind(String),
}

/// Two names of table data are the same without regard to case, with `_`
/// typed for a space (`Weak_Attack` is "Weak Attack").
/// The core reads `_` as a space already ([`tabula_core::names::same_name`]).
pub fn same(a: &str, b: &str) -> bool {
    tabula_core::names::same_name(a, b)
}

fn find<'a, T>(list: &'a [T], name: &str, key: impl Fn(&T) -> &str) -> Option<&'a T> {
    list.iter().find(|x| same(key(x), name))
}

impl Catalog {
    /// The book's Sample Content: four Items, the seven roll uses of "Describing
    /// Rolls", five enemies with their named rolls and Responses (R-TI-9), and
    /// three NPCs.
    ///
    /// "Sample Items", "Describing Rolls", "Enemies", "Non-Player Characters"
    /// (002_631931fd73349179.txt).
    ///
    /// # Errors
    /// [`ContentError::Sample`] only if the shipped file is broken.
    pub fn sample() -> Result<Catalog, ContentError> {
        let c: Catalog = toml::from_str(SAMPLE).map_err(|e| ContentError::Sample(e.to_string()))?;
        c.check(&[])
            .map_err(|e| ContentError::Sample(e.to_string()))?;
        Ok(c)
    }

    /// Add a table's own definitions after checking them; a name the catalog
    /// already has is replaced (a table may redefine a sample Item).
    ///
    /// # Errors
    /// [`ContentError::Bad`] naming the first definition out of range.
    pub fn extend(&mut self, more: Catalog) -> Result<(), ContentError> {
        more.check(&self.enemies)?;
        fn merge<T>(into: &mut Vec<T>, from: Vec<T>, key: impl Fn(&T) -> String) {
            for x in from {
                let k = key(&x).to_ascii_lowercase();
                into.retain(|y| key(y).to_ascii_lowercase() != k);
                into.push(x);
            }
        }
        merge(&mut self.actions, more.actions, |x| x.name.clone());
        merge(&mut self.perks, more.perks, |x| x.name.clone());
        merge(&mut self.items, more.items, |x| x.name.clone());
        merge(&mut self.uses, more.uses, |x| x.name.clone());
        merge(&mut self.enemies, more.enemies, |x| x.name.clone());
        merge(&mut self.npcs, more.npcs, |x| x.name.clone());
        Ok(())
    }

    /// Check every definition; a roll use may name the kinds of `also_kinds` (the
    /// catalog being extended) as well as its own.
    fn check(&self, also_kinds: &[EnemyKind]) -> Result<(), ContentError> {
        let bad = |kind: &'static str, name: &str, problem: ContentProblem| {
            Err(ContentError::Bad {
                kind,
                name: name.to_string(),
                problem,
            })
        };
        let counts = [
            ("actions", self.actions.len()),
            ("perks", self.perks.len()),
            ("items", self.items.len()),
            ("uses", self.uses.len()),
            ("enemies", self.enemies.len()),
            ("npcs", self.npcs.len()),
        ];
        for (kind, n) in counts {
            if n > MAX_DEFS {
                return bad(kind, "", ContentProblem::TooMany(n));
            }
        }
        let name_ok = |n: &str| {
            !n.trim().is_empty()
                && n.len() <= MAX_NAME
                && tabula_core::names::check_name("name", n).is_ok()
        };
        let tier_ok = |t: u32| (1..=TIERS as u32).contains(&t);
        for a in &self.actions {
            if !name_ok(&a.name) {
                return bad("actions", &a.name, ContentProblem::Name);
            }
            if !tier_ok(a.tier) {
                return bad("actions", &a.name, ContentProblem::Tier(a.tier));
            }
            if !(1..=MAX_AP).contains(&a.ap) {
                return bad("actions", &a.name, ContentProblem::Ap(a.ap));
            }
            if a.d6 > MAX_DEF_DICE || a.d3 > MAX_DEF_DICE || a.flat > 1000 {
                return bad("actions", &a.name, ContentProblem::Amount);
            }
        }
        for p in &self.perks {
            if !name_ok(&p.name) {
                return bad("perks", &p.name, ContentProblem::Name);
            }
            if !tier_ok(p.tier) {
                return bad("perks", &p.name, ContentProblem::Tier(p.tier));
            }
            if p.max_health > 1000 {
                return bad("perks", &p.name, ContentProblem::Amount);
            }
        }
        for i in &self.items {
            if !name_ok(&i.name) {
                return bad("items", &i.name, ContentProblem::Name);
            }
            if i.heal > 1000 || i.overheal > 1000 {
                return bad("items", &i.name, ContentProblem::Amount);
            }
            if let Some(ap) = i.ap
                && i.speed == Speed::Special
                && !(4..=MAX_AP).contains(&ap)
            {
                return bad("items", &i.name, ContentProblem::SpecialAp(ap));
            }
        }
        for u in &self.uses {
            if !name_ok(&u.name) {
                return bad("uses", &u.name, ContentProblem::Name);
            }
            for k in &u.kinds {
                if !self
                    .enemies
                    .iter()
                    .chain(also_kinds)
                    .any(|e| same(&e.name, k))
                {
                    return bad("uses", &u.name, ContentProblem::UnknownKind(k.clone()));
                }
            }
        }
        for e in &self.enemies {
            if !name_ok(&e.name) {
                return bad("enemies", &e.name, ContentProblem::Name);
            }
        }
        for n in &self.npcs {
            if !name_ok(&n.name) {
                return bad("npcs", &n.name, ContentProblem::Name);
            }
        }
        Ok(())
    }

    /// An Action by name (any case).
    pub fn action(&self, name: &str) -> Option<&ActionDef> {
        find(&self.actions, name, |a| &a.name)
    }

    /// An Item by name (any case).
    pub fn item(&self, name: &str) -> Option<&ItemDef> {
        find(&self.items, name, |a| &a.name)
    }

    /// A roll use by name (any case).
    pub fn roll_use(&self, name: &str) -> Option<&RollUse> {
        find(&self.uses, name, |a| &a.name)
    }

    /// An enemy kind by name (any case).
    pub fn enemy(&self, name: &str) -> Option<&EnemyKind> {
        find(&self.enemies, name, |a| &a.name)
    }

    /// Max Health the perks of `stats` add: every perk whose tier the character
    /// has at least 1 SP in (R-TI-2, R-TI-4).
    pub fn perk_health(&self, has_tier: impl Fn(Stat, u32) -> bool) -> u32 {
        self.perks
            .iter()
            .filter(|p| has_tier(p.stat, p.tier))
            .fold(0u32, |acc, p| acc.saturating_add(p.max_health))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_books_sample_content() {
        let c = Catalog::sample().unwrap();
        assert_eq!(c.items.len(), 4);
        assert_eq!(c.enemies.len(), 5);
        assert_eq!(c.npcs.len(), 3);
        // The seven of "Describing Rolls" for any enemy, and six named rolls of
        // the kinds in "Enemies" (R-TI-9).
        assert_eq!(c.uses.iter().filter(|u| u.kinds.is_empty()).count(), 7);
        assert_eq!(c.uses.len(), 13);
        let heal = c.roll_use("heal").unwrap();
        assert!(heal.usable_by("Healer") && !heal.usable_by("Goblin"));
        assert!(c.roll_use("Weak_Attack").is_some());
        for (kind, response) in [
            ("Goblin", Response::Block),
            ("Goblin Boss", Response::Screech),
            ("Shadow Goblin", Response::Sink),
            ("Healer", Response::HealWithCombatPoints),
            ("Enchanted Armor", Response::Approach),
        ] {
            assert_eq!(c.enemy(kind).and_then(|k| k.response), Some(response));
        }
        let ap: Vec<u32> = c.items.iter().map(ItemDef::ap).collect();
        assert_eq!(ap, vec![1, 2, 3, 4]);
        assert_eq!(c.item("fast potion").map(|i| i.heal), Some(2));
        assert_eq!(c.item("Slow Shield").map(|i| i.overheal), Some(10));
        assert!(c.enemy("Shadow Goblin").is_some_and(|e| e.shadow_form));
        assert!(c.enemy("Enchanted Armor").is_some_and(|e| e.ensnare));
        assert_eq!(
            c.npcs
                .iter()
                .find(|n| n.name.starts_with("Marun"))
                .map(|n| n.flavors.len()),
            Some(14)
        );
        assert!(c.items.iter().all(|i| !i.house));
    }

    #[test]
    fn medial_is_normal() {
        let i: ItemDef = toml::from_str("name = \"Rope\"\nspeed = \"medial\"\n").unwrap();
        assert_eq!(i.ap(), 2);
    }

    #[test]
    fn bad_table_content_is_named() {
        let mut c = Catalog::sample().unwrap();
        let more: Catalog = toml::from_str(
            "[[actions]]\nname = \"Smash\"\nstat = \"strength\"\ntier = 7\nap = 2\neffect = \"damage\"\n",
        )
        .unwrap();
        let e = c.extend(more).unwrap_err();
        assert!(e.to_string().contains("Smash"));
        assert!(matches!(
            e,
            ContentError::Bad {
                problem: ContentProblem::Tier(7),
                ..
            }
        ));
    }
}
