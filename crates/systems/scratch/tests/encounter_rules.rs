//! Each rule of an encounter, one small scene at a time ("Turns", "Hit Points",
//! "Basic Actions", the abilities; R-SCR-3, R-SCR-4, R-SCR-5).

use tabula_core::names::NameLookupError;
use tabula_core::{CommandParseError, Refusal, RuleError, Scripted, Seat, Table, TextPlay};
use tabula_scratch::setup::{EncounterFile, build_state};
use tabula_scratch::state::Phase;
use tabula_scratch::{Character, Scratch, TableRules};

/// A character from inline TOML (name first, then `ability = level` pairs).
fn ch(name: &str, abilities: &str) -> Character {
    let text = format!("name = \"{name}\"\n[abilities]\n{abilities}\n");
    Character::from_toml(&text, &ROOMY).unwrap()
}

/// The scenes' table rules: room for any test character (R-SCR-7: the table's
/// limits bind every sheet).
const ROOMY: TableRules = TableRules {
    cp: 40,
    max_level: 10,
    strength_base: 8,
    d20: tabula_scratch::D20Method::D20,
};

struct Scene {
    t: Table<Scratch>,
}

/// Groups: (seat, side, characters). Terrain names, cover, throwable objects.
fn scene(
    groups: Vec<(&str, &str, Vec<Character>)>,
    terrain: &[&str],
    cover: bool,
    objects: bool,
) -> Scene {
    let enc = EncounterFile {
        terrain: terrain.iter().map(|s| s.to_string()).collect(),
        cover,
        throwable_objects: objects,
    };
    let groups = groups
        .into_iter()
        .map(|(s, side, cs)| {
            (
                s.to_string(),
                side.to_string(),
                cs.into_iter().map(|c| ("test".to_string(), c)).collect(),
            )
        })
        .collect();
    Scene {
        t: Table::new(build_state(TableRules::default(), &enc, groups).unwrap()),
    }
}

impl Scene {
    fn go(&mut self, seat: &str, line: &str, dice: &[u32]) -> Result<(), RuleError> {
        let s = Seat::parse(seat);
        let cmd = Scratch::parse_command(self.t.state(), &s, line)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let before = self.t.clone();
        let mut r = Scripted::dice(dice.iter().copied());
        let out = self.t.submit(&s, &cmd, &mut r).map(|_| ());
        if out.is_err() {
            assert_eq!(self.t, before, "a refused command changes nothing");
        }
        out
    }

    fn ok(&mut self, seat: &str, line: &str, dice: &[u32]) {
        self.go(seat, line, dice)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }

    fn refused(&mut self, seat: &str, line: &str, dice: &[u32]) -> RuleError {
        match self.go(seat, line, dice) {
            Ok(()) => panic!("{line} was accepted"),
            Err(e) => e,
        }
    }

    fn idx(&self, id: &str) -> usize {
        self.t.state().find(id).unwrap()
    }

    fn hp(&self, id: &str) -> u32 {
        self.t.state().characters[self.idx(id)].hit_points
    }

    fn agility(&self, id: &str) -> i64 {
        self.t.state().agility(self.idx(id))
    }

    fn strength(&self, id: &str) -> i64 {
        self.t.state().strength(self.idx(id))
    }
}

/// Two groups: a (first, initiative 20) and b (second, initiative 1).
fn duel(a: Character, b: Character, terrain: &[&str], cover: bool, objects: bool) -> Scene {
    let mut s = scene(
        vec![("a", "A", vec![a]), ("b", "B", vec![b])],
        terrain,
        cover,
        objects,
    );
    s.ok("gm", "initiative", &[20, 1]);
    s
}

#[test]
fn initiative_adds_stealth_and_detection_and_rolls_ties_again() {
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("Sneak", "stealth = 3\ntoughness = 2"),
                    ch("Other", "stealth = 1\ntoughness = 2"),
                ],
            ),
            (
                "b",
                "B",
                vec![ch("Watcher", "detection = 1\ntoughness = 2")],
            ),
            ("c", "C", vec![ch("Plain", "toughness = 2")]),
        ],
        &[],
        false,
        false,
    );
    // a: 10 + 6 = 16; b: 6 + 10 = 16; c: 16. All tied: roll again 5, 9, 9; then b 2, c 7.
    s.ok("gm", "initiative", &[10, 6, 16, 5, 9, 9, 2, 7]);
    let st = s.t.state();
    let order: Vec<String> = st
        .order
        .iter()
        .map(|g| st.groups[*g].seat.to_string())
        .collect();
    assert_eq!(order, ["c", "b", "a"]);
    assert_eq!(st.groups[0].initiative, Some(16));
    // Initiative is rolled once.
    assert_eq!(
        s.refused("gm", "initiative", &[1, 1, 1]).kind,
        Refusal::WrongPhase
    );
}

#[test]
fn one_regular_and_one_bonus_action_and_the_controller_orders_its_characters() {
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![ch("One", "toughness = 3"), ch("Two", "toughness = 3")],
            ),
            ("b", "B", vec![ch("Foe", "toughness = 9")]),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[20, 1]);
    // The controller picks Two first.
    s.ok("a", "two engage", &[]);
    assert!(matches!(
        s.refused("a", "two engage", &[]).kind,
        Refusal::AlreadyUsed { what } if what == "bonus action"
    ));
    // One cannot act while Two's turn is on.
    assert_eq!(
        s.refused("a", "one attack foe", &[10]).kind,
        Refusal::NotYourTurn
    );
    s.ok("a", "two attack foe", &[10]);
    // Two's turn ended with his regular action.
    assert_eq!(
        s.refused("a", "two attack foe", &[10]).kind,
        Refusal::NotYourTurn
    );
    // Another seat, or out of turn.
    assert_eq!(
        s.refused("b", "one attack foe", &[10]).kind,
        Refusal::NotPermitted
    );
    assert_eq!(
        s.refused("b", "foe attack one", &[10]).kind,
        Refusal::NotYourTurn
    );
    s.ok("a", "one end", &[]);
    assert_eq!(s.t.state().current_group(), Some(1));
}

#[test]
fn engage_adds_two_to_close_attacks_and_costs_two_agility_until_the_next_turn() {
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    s.ok("a", "a engage", &[]);
    assert_eq!(s.agility("a"), 8);
    s.ok("a", "a attack b", &[8]); // 8 + 2 = 10 >= 10
    assert_eq!(s.hp("b"), 8);
    assert_eq!(s.agility("a"), 8, "until the beginning of his next turn");
    s.ok("b", "b end", &[]);
    s.ok("a", "a end", &[]);
    assert_eq!(s.agility("a"), 10);
    // Engage comes before the attack, not after.
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    s.ok("a", "a engage", &[]);
    s.ok("a", "a attack b", &[1]);
    s.ok("b", "b attack a", &[1]);
    s.ok("a", "a attack b", &[1]);
    s.ok("b", "b end", &[]);
    s.ok("a", "a engage", &[]);
}

#[test]
fn take_cover_needs_cover_comes_first_and_forbids_close_attacks() {
    let mut s = duel(
        ch("A", "shooting = 2\ntoughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    assert!(s.refused("a", "a cover", &[]).message.contains("no cover"));
    let mut s = duel(
        ch("A", "shooting = 2\ntoughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        true,
        false,
    );
    s.ok("a", "a cover", &[]);
    assert_eq!(s.agility("a"), 12);
    for line in ["a attack b", "a hold b", "a distract b", "a evade"] {
        assert!(
            s.refused("a", line, &[10]).message.contains("in cover"),
            "{line}"
        );
    }
    // Shooting from cover: -2 to the roll.
    s.ok("a", "a shoot b", &[8]); // 8 + 2 - 2 = 8 < 10
    assert_eq!(s.hp("b"), 9);
    s.ok("b", "b end", &[]);
    // Cover must be taken before other actions.
    s.ok("a", "a leave-cover", &[]);
    assert_eq!(s.agility("a"), 10);
    s.ok("a", "a attack b", &[10]);
}

#[test]
fn evade_adds_the_movement_ability_in_its_terrain_until_held_and_escape_needs_it() {
    let mut s = duel(
        ch("A", "quickness = 3\nacrobatics = 4\ntoughness = 3"),
        ch("B", "wrestling = 1\ntoughness = 9"),
        &["level-ground"],
        false,
        false,
    );
    // Acrobatics needs obstacles (R-SCR-5 names one; the default is the highest legal).
    let m = s.refused("a", "a evade acrobatics", &[]).message;
    assert!(m.contains("obstacles"), "{m}");
    s.ok("a", "a evade", &[]);
    assert_eq!(
        s.agility("a"),
        14 + 3,
        "agility takes the best of quickness and acrobatics; evading adds quickness"
    );
    assert_eq!(s.strength("a"), 11 + 3);
    s.ok("b", "b hold a", &[13]); // 13 + 1 = 14 >= 14
    assert_eq!(s.agility("a"), 14, "a hold stops evading");
    assert_eq!(s.hp("a"), 2, "a healthy wrestler's hold deals 1 (R-SCR-4)");
    // Held: delayed, and no evade last turn: cannot escape.
    assert!(s.refused("a", "a escape", &[]).message.contains("delayed"));
    s.ok("a", "a end", &[]);
    s.ok("b", "b end", &[]);
    assert!(
        s.refused("a", "a escape", &[])
            .message
            .contains("evaded on his last turn")
    );
    s.ok("a", "a evade", &[]);
    s.ok("b", "b end", &[]);
    s.ok("a", "a escape", &[]);
    assert!(s.t.state().characters[s.idx("a")].escaped);
    assert_eq!(s.t.state().phase, Phase::Over, "one side left");
}

#[test]
fn distract_surprise_and_intimidate_are_unrepeatable_per_target() {
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![ch("Boss", "command = 4\nstealth = 1\ntoughness = 3")],
            ),
            (
                "b",
                "B",
                vec![
                    ch("X", "toughness = 9\nwrestling = 5"),
                    ch("Y", "toughness = 2"),
                ],
            ),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[20, 1]);
    // Intimidate: against the greater of intelligence 10 and strength 15.
    s.ok("a", "boss intimidate x", &[10]); // 14 < 15
    s.ok("b", "x end", &[]);
    s.ok("b", "y end", &[]);
    assert!(
        s.refused("a", "boss intimidate x", &[20])
            .message
            .contains("unrepeatable")
    );
    s.ok("a", "boss intimidate y", &[6]); // 10 >= 10: panicked
    let y = s.idx("y");
    assert!(s.t.state().characters[y].panicked());
    // Panicked: must evade or escape; cannot attack.
    s.ok("b", "x end", &[]);
    assert!(
        s.refused("b", "y attack boss", &[10])
            .message
            .contains("panicked")
    );
    s.ok("b", "y evade", &[]);
    assert!(
        !s.t.state().characters[y].panicked(),
        "until the end of his next turn"
    );
    s.ok("a", "boss distract x", &[1]);
    s.ok("b", "x end", &[]);
    s.ok("b", "y end", &[]);
    assert!(
        s.refused("a", "boss distract x", &[20])
            .message
            .contains("unrepeatable")
    );
    s.ok("a", "boss surprise x", &[9]); // stealth 1: 10 >= 10
    assert!(s.t.state().characters[s.idx("x")].panicked());
}

#[test]
fn surprise_requires_stealth_or_detection() {
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    assert!(
        s.refused("a", "a surprise b", &[20])
            .message
            .contains("stealth or detection")
    );
}

#[test]
fn shooting_deals_two_or_five_and_delays_an_injured_shooter() {
    let mut s = duel(
        ch("A", "shooting = 1\ntoughness = 4"),
        ch("B", "toughness = 9\nfighting = 1"),
        &[],
        false,
        false,
    );
    s.ok("a", "a shoot b", &[9]);
    assert_eq!(s.hp("b"), 7);
    s.ok("b", "b fight a", &[19, 19]);
    assert_eq!(s.hp("a"), 2);
    s.ok("a", "a shoot b", &[20]);
    assert_eq!(s.hp("b"), 2, "R-SCR-3: 5 on an automatic success");
    let a = s.idx("a");
    assert!(
        s.t.state().characters[a].delayed(),
        "an injured shooter delays himself"
    );
}

#[test]
fn blasting_hits_up_to_three_different_targets() {
    let mut s = scene(
        vec![
            ("a", "A", vec![ch("Gren", "blasting = 2\ntoughness = 4")]),
            (
                "b",
                "B",
                vec![
                    ch("P", "toughness = 3"),
                    ch("Q", "toughness = 3"),
                    ch("R", "toughness = 3"),
                    ch("S", "toughness = 3"),
                ],
            ),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[20, 1]);
    assert!(
        s.refused("a", "gren blast p p", &[10, 10])
            .message
            .contains("more than once")
    );
    assert!(Scratch::parse_command(s.t.state(), &Seat::parse("a"), "gren blast p q r s").is_err());
    s.ok("a", "gren blast p q r", &[8, 7, 20]);
    assert_eq!((s.hp("p"), s.hp("q"), s.hp("r")), (2, 3, 1));
}

#[test]
fn knockout_deals_four_or_two_and_delays_the_attacker() {
    let mut s = duel(
        ch("A", "knockout = 1\ntoughness = 4"),
        ch("B", "toughness = 9\nshooting = 9"),
        &[],
        false,
        false,
    );
    s.ok("a", "a knockout b", &[9]);
    assert_eq!(s.hp("b"), 5);
    assert!(s.t.state().characters[s.idx("a")].delayed());
    s.ok("b", "b shoot a", &[10]);
    assert_eq!(s.hp("a"), 2);
    assert!(
        s.refused("a", "a knockout b", &[20])
            .message
            .contains("delayed")
    );
    s.ok("a", "a end", &[]);
    s.ok("b", "b end", &[]);
    s.ok("a", "a knockout b", &[20]);
    assert_eq!(s.hp("b"), 2, "injured: 2, automatic: +1");
    // Knockout adds to basic attacks when nothing else does.
    let mut s = duel(
        ch("A", "knockout = 3\ntoughness = 4"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    s.ok("a", "a attack b", &[7]);
    assert_eq!(s.hp("b"), 8);
}

#[test]
fn fighting_gives_two_basic_attacks_only_when_healthy() {
    let mut s = duel(
        ch("A", "fighting = 2\ntoughness = 4"),
        ch("B", "toughness = 9\nshooting = 9"),
        &[],
        false,
        false,
    );
    s.ok("a", "a fight b", &[8, 20]);
    assert_eq!(s.hp("b"), 6);
    s.ok("b", "b shoot a", &[10]);
    assert!(
        s.refused("a", "a fight b b", &[10, 10])
            .message
            .contains("only when healthy")
    );
    s.ok("a", "a fight b", &[8]);
    assert_eq!(s.hp("b"), 5);
}

#[test]
fn wrestling_hold_while_delayed_only_against_the_holder() {
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("W", "wrestling = 1\ntoughness = 4"),
                    ch("V", "toughness = 4"),
                ],
            ),
            (
                "b",
                "B",
                vec![
                    ch("H", "detection = 2\ntoughness = 4"),
                    ch("K", "toughness = 4"),
                ],
            ),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[1, 20]);
    s.ok("b", "h hold w", &[20]); // detection hold: no damage even automatic
    assert_eq!(s.hp("w"), 4);
    s.ok("b", "k end", &[]);
    // W is delayed, healthy, with wrestling: he may hold H back, not K; no damage.
    assert!(
        s.refused("a", "w hold k", &[10])
            .message
            .contains("held him")
    );
    assert!(
        s.refused("a", "w attack h", &[10])
            .message
            .contains("delayed")
    );
    s.ok("a", "w hold h", &[13]); // 13 + 1 = 14 >= 8 + 4 = 12
    assert_eq!(s.hp("h"), 4, "a hold while delayed causes no damage");
    assert!(s.t.state().characters[s.idx("h")].delayed());
}

#[test]
fn healing_revives_to_one_heals_to_half_plus_one_never_oneself_nor_minions() {
    let boss = Character::from_toml(
        "name = \"Boss\"\n[abilities]\ncommand = 2\ntoughness = 3\n[[minions]]\nname = \"Goon\"\n[minions.abilities]\ntoughness = 2\n",
        &TableRules::default(),
    )
    .unwrap();
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("Medic", "healing = 1\ntoughness = 4"),
                    ch("Pal", "toughness = 7"),
                ],
            ),
            (
                "b",
                "B",
                vec![boss, ch("Gun", "shooting = 9\ntoughness = 9")],
            ),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[20, 1]);
    assert!(
        s.refused("a", "medic heal medic", &[10])
            .message
            .contains("himself")
    );
    assert!(
        s.refused("a", "medic heal pal", &[10])
            .message
            .contains("healthy")
    );
    assert!(
        s.refused("a", "medic heal goon", &[10])
            .message
            .contains("minion")
    );
    s.ok("a", "medic end", &[]);
    s.ok("a", "pal end", &[]);
    s.ok("b", "gun shoot pal", &[20]); // 5
    s.ok("b", "boss end", &[]);
    s.ok("b", "goon end", &[]);
    assert_eq!(s.hp("pal"), 2);
    s.ok("a", "medic heal pal", &[9]);
    assert_eq!(s.hp("pal"), 4, "7 / 2 + 1");
}

#[test]
fn craftsmanship_bonuses_before_the_encounter_only() {
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("Smith", "craftsmanship = 1\ntoughness = 3"),
                    ch("Ace", "shooting = 2\nstealth = 1\ntoughness = 3"),
                ],
            ),
            ("b", "B", vec![ch("Foe", "toughness = 9")]),
        ],
        &[],
        false,
        false,
    );
    assert!(
        s.refused("a", "craft smith foe toughness", &[])
            .message
            .contains("companion")
    );
    assert!(
        s.refused("a", "craft smith smith toughness", &[])
            .message
            .contains("companion")
    );
    assert!(
        s.refused("a", "craft smith ace flying", &[])
            .message
            .contains("already at level 1")
    );
    s.ok("a", "craft smith ace stealth hurry", &[8]); // 8 + 1 < 10: not usable in a hurry
    assert_eq!(s.agility("ace"), 11);
    s.ok("a", "uncraft smith ace stealth", &[]);
    s.ok("a", "craft smith ace stealth", &[]);
    assert_eq!(s.agility("ace"), 12);
    assert!(
        s.refused("a", "craft smith ace shooting", &[])
            .message
            .contains("one per level")
    );
    s.ok("gm", "initiative", &[20, 1]);
    assert_eq!(
        s.refused("a", "uncraft smith ace stealth", &[]).kind,
        Refusal::WrongPhase
    );
}

#[test]
fn a_flyer_who_evades_cannot_be_attacked_at_close_range_by_non_flyers() {
    let mut s = duel(
        ch("Bird", "flying = 2\ntoughness = 3"),
        ch("B", "toughness = 9\nshooting = 1"),
        &["room-to-fly"],
        false,
        false,
    );
    s.ok("a", "bird evade", &[]);
    assert_eq!(s.agility("bird"), 14);
    assert!(
        s.refused("b", "b attack bird", &[20])
            .message
            .contains("flying")
    );
    s.ok("b", "b shoot bird", &[20]);
}

#[test]
fn swimming_in_water_and_deep_water() {
    let mut s = duel(
        ch("Fish", "swimming = 2\ntoughness = 3"),
        ch("B", "toughness = 9\nshooting = 1"),
        &["deep-water"],
        false,
        false,
    );
    assert_eq!(s.agility("fish"), 12);
    s.ok("a", "fish attack b", &[8]); // 8 + 2 (swimming in water) = 10
    assert_eq!(s.hp("b"), 8);
    s.ok("b", "b end", &[]);
    s.ok("a", "fish evade", &[]);
    assert!(
        s.refused("b", "b shoot fish", &[20])
            .message
            .contains("deep water")
    );
    assert!(
        s.refused("b", "b attack fish", &[20])
            .message
            .contains("deep water")
    );
}

#[test]
fn throwing_needs_an_object_and_a_natural_20_deals_one_more() {
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    assert!(
        s.refused("a", "a throw b", &[20])
            .message
            .contains("throwable")
    );
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        true,
    );
    s.ok("a", "a throw b", &[20]);
    assert_eq!(s.hp("b"), 7);
}

#[test]
fn no_toughness_means_no_actions_and_zero_hit_points_cannot_act() {
    let mut s = duel(
        ch("Ghost", "stealth = 2"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    // A character without toughness is incapacitated from the start: no turns.
    assert_eq!(s.t.state().phase, Phase::Over);
    let _ = s.refused("a", "ghost end", &[]);
}

/// A character without toughness who was revived and then panicked can do
/// nothing ("Toughness": no actions during encounters), so the duty to evade
/// or escape ("Stalking Abilities") cannot bind him: he ends his turn, and
/// play goes on (the policy's `end` is accepted).
#[test]
fn a_revived_character_without_toughness_who_is_panicked_ends_his_turn() {
    use tabula_core::policy::{Awaiting, Policy};
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch(
                        "Medic",
                        "healing = 3
toughness = 3",
                    ),
                    ch("Ghost", "stealth = 2"),
                ],
            ),
            (
                "b",
                "B",
                vec![ch(
                    "Sneak",
                    "stealth = 4
toughness = 9",
                )],
            ),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[20, 1]);
    assert_eq!(s.hp("ghost"), 0);
    s.ok("a", "medic heal ghost", &[10]); // revived: 1 hit point
    assert_eq!(s.hp("ghost"), 1);
    s.ok("a", "ghost end", &[]);
    s.ok("b", "sneak surprise ghost", &[20]);
    let g = s.idx("ghost");
    assert!(s.t.state().characters[g].panicked());
    s.ok("a", "medic end", &[]);
    // He can neither evade nor escape...
    assert!(
        s.refused("a", "ghost evade", &[])
            .message
            .contains("toughness")
    );
    // ...and the policy's command for him is accepted: he ends his turn.
    let cmd = Scratch::suggest_for(
        s.t.state(),
        &Awaiting::participant(Seat::parse("a"), "ghost"),
    )
    .unwrap();
    assert_eq!(
        cmd,
        tabula_scratch::Command::Act {
            actor: "ghost".into(),
            action: tabula_scratch::Action::End,
        }
    );
    s.ok("a", "ghost end", &[]);
    // Still panicked until the end of that turn: now over.
    assert!(!s.t.state().characters[g].panicked());
    assert_eq!(s.t.state().phase, Phase::Turns);
}

#[test]
fn unknown_names_and_bad_lines_are_refused() {
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    let seat = Seat::parse("a");
    assert!(Scratch::parse_command(s.t.state(), &seat, "a attack").is_err());
    assert!(Scratch::parse_command(s.t.state(), &seat, "a dance b").is_err());
    assert!(Scratch::parse_command(s.t.state(), &seat, "zed attack b").is_err());
    assert!(Scratch::parse_command(s.t.state(), &seat, "a attack b with lasers").is_err());
    // An unknown target is refused by the parser, listing the characters.
    assert!(matches!(
        Scratch::parse_command(s.t.state(), &seat, "a attack nobody"),
        Err(CommandParseError::Name(NameLookupError::Unknown { candidates, .. }))
            if candidates == ["A", "B"]
    ));
    assert!(
        s.refused("a", "a attack b with stealth", &[10])
            .message
            .contains("cannot be added")
    );
    assert!(
        s.refused("a", "a attack a", &[10])
            .message
            .contains("himself")
    );
}

#[test]
fn what_may_this_seat_do_now() {
    use tabula_core::{ParamKind, System};
    let mut s = scene(
        vec![
            ("a", "A", vec![ch("Gunner", "shooting = 2\ntoughness = 3")]),
            (
                "b",
                "B",
                vec![ch("Foe", "toughness = 9"), ch("Foe Two", "toughness = 2")],
            ),
        ],
        &["level-ground"],
        true,
        false,
    );
    let before = Scratch::legal_commands(s.t.state(), &Seat::Gm);
    assert_eq!(
        before.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["roll", "initiative"]
    );
    s.ok("gm", "initiative", &[20, 1]);
    let a = Scratch::legal_commands(s.t.state(), &Seat::parse("a"));
    let names: Vec<&str> = a.iter().map(|c| c.name.as_str()).collect();
    for want in [
        "gunner shoot",
        "gunner attack",
        "gunner evade",
        "gunner cover",
        "gunner engage",
        "gunner end",
    ] {
        assert!(names.contains(&want), "{want} in {names:?}");
    }
    assert!(!names.contains(&"gunner throw"), "no throwable objects");
    assert!(!names.contains(&"gunner heal"), "no healing");
    let shoot = a.iter().find(|c| c.name == "gunner shoot").unwrap();
    assert_eq!(
        shoot.params[0].kind,
        ParamKind::Choice {
            options: vec!["foe".into(), "foe-two".into()]
        }
    );
    // Not b's turn: nothing to do.
    assert!(Scratch::legal_commands(s.t.state(), &Seat::parse("b")).is_empty());
    // After taking cover, close attacks leave the list.
    s.ok("a", "gunner cover", &[]);
    let names: Vec<String> = Scratch::legal_commands(s.t.state(), &Seat::parse("a"))
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert!(
        names.contains(&"gunner shoot".to_string())
            && !names.contains(&"gunner attack".to_string()),
        "{names:?}"
    );
    assert!(names.contains(&"gunner leave-cover".to_string()));
}

#[test]
fn rolls_the_gm_calls_for_with_or_without_an_ability() {
    let mut s = duel(
        ch("Healer", "healing = 3\ntoughness = 3"),
        ch("B", "toughness = 9"),
        &[],
        false,
        false,
    );
    // "Make a healing roll of 11 (requires healing)".
    s.ok("gm", "roll healer healing 11 requires", &[8]);
    let last = s.t.log().entries().last().unwrap();
    match &last.event {
        tabula_scratch::Event::Rolled { check, .. } => assert!(check.success && check.total == 11),
        other => panic!("{other:?}"),
    }
    assert!(
        s.refused("gm", "roll b healing 11 requires", &[20])
            .message
            .contains("cannot attempt")
    );
    // Without `requires` anyone may roll, adding nothing.
    s.ok("gm", "roll b healing 11", &[10]);
    s.ok("gm", "roll b 25", &[20]);
    assert_eq!(
        s.refused("a", "roll b 25", &[20]).kind,
        Refusal::NotPermitted
    );
    // It takes no action: A's turn is still to come.
    s.ok("a", "healer end", &[]);
}

/// "Support Abilities" (craftsmanship), "Hit Points": a temporary bonus on an
/// ability changes every derived value it feeds; +1 toughness raises maximum
/// hit points, stamina and strength, and the encounter starts at full hit
/// points.
#[test]
fn a_temporary_bonus_feeds_the_derived_values_and_the_encounter_starts_at_full_hit_points() {
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("Smith", "craftsmanship = 2\ntoughness = 3"),
                    ch("Tank", "stealth = 1\ntoughness = 3"),
                ],
            ),
            ("b", "B", vec![ch("Foe", "toughness = 9")]),
        ],
        &[],
        false,
        false,
    );
    let tank = s.idx("tank");
    let rules = s.t.state().rules;
    let view = |s: &Scene| {
        let c = &s.t.state().characters[tank];
        let d = c.base_defenses(&rules);
        (
            c.hit_points,
            d.max_hit_points,
            d.stamina,
            s.strength("tank"),
        )
    };
    // 3 toughness: 3 hit points, stamina 1, strength 8 + 3.
    assert_eq!(view(&s), (3, 3, 1, 11));
    s.ok("a", "craft smith tank toughness", &[]);
    // 4 toughness: 4 of 4 hit points, stamina 2, strength 8 + 4.
    assert_eq!(view(&s), (4, 4, 2, 12));
    s.ok("a", "craft smith tank stealth", &[]);
    assert_eq!(s.agility("tank"), 12, "10 + 1 stealth + 1");
    s.ok("a", "uncraft smith tank toughness", &[]);
    assert_eq!(view(&s), (3, 3, 1, 11));
    s.ok("a", "craft smith tank toughness", &[]);
    // Initiative adds the stealth bonus: 2 x 2.
    s.ok("gm", "initiative", &[10, 10]);
    let st = s.t.state();
    assert_eq!(st.groups[0].initiative, Some(14));
    assert_eq!(
        view(&s),
        (4, 4, 2, 12),
        "the encounter starts at full hit points"
    );
    // Two damage leaves him healthy (stamina 2): 2 hit points is injured.
    s.ok("a", "smith end", &[]);
    s.ok("a", "tank end", &[]);
    s.ok("b", "foe attack tank", &[20]);
    assert_eq!(s.hp("tank"), 2);
    assert_eq!(
        s.t.state().characters[tank].hp_state(&rules),
        tabula_scratch::HitPointState::Injured
    );
    // A bonus that failed in a hurry is not used: it feeds nothing.
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("Smith", "craftsmanship = 1\ntoughness = 3"),
                    ch("Tank", "toughness = 3"),
                ],
            ),
            ("b", "B", vec![ch("Foe", "toughness = 9")]),
        ],
        &[],
        false,
        false,
    );
    s.ok("a", "craft smith tank toughness hurry", &[2]);
    s.ok("gm", "initiative", &[10, 1]);
    assert_eq!(s.hp("tank"), 3);
}

/// "Basic Actions": engage adds 2 to close range attack rolls only (basic
/// attack, hold, distract, knockout, fighting), never to long range ones
/// (throw, shooting, blasting, surprise, intimidate) nor to healing.
#[test]
fn engage_bonus_is_for_close_range_attacks_only() {
    fn last_modifiers(s: &Scene) -> Vec<i64> {
        s.t.log()
            .entries()
            .iter()
            .rev()
            .find_map(|e| match &e.event {
                tabula_scratch::Event::Acted { rolls, .. } if !rolls.is_empty() => {
                    Some(rolls.iter().map(|r| r.check.modifier).collect())
                }
                _ => None,
            })
            .unwrap()
    }
    let attacker = "shooting = 1\nblasting = 1\nknockout = 1\nfighting = 1\nstealth = 1\ncommand = 1\nhealing = 1\nquickness = 1\ntoughness = 9";
    let close: [(&str, &[u32]); 5] = [
        ("attack b", &[5]),
        ("hold b", &[5]),
        ("distract b", &[5]),
        ("knockout b", &[5]),
        ("fight b", &[5, 5]),
    ];
    for (line, dice) in close {
        let mut s = duel(
            ch("A", attacker),
            ch("B", "toughness = 10"),
            &["level-ground"],
            false,
            true,
        );
        s.ok("a", "a engage", &[]);
        s.ok("a", &format!("a {line}"), dice);
        assert!(
            last_modifiers(&s).iter().all(|m| *m == 2),
            "{line}: {:?}",
            last_modifiers(&s)
        );
    }
    let long: [(&str, &[u32]); 5] = [
        ("throw b", &[5]),
        ("shoot b", &[5]),
        ("blast b", &[5]),
        ("surprise b", &[5]),
        ("intimidate b", &[5]),
    ];
    for (line, dice) in long {
        let mut s = duel(
            ch("A", attacker),
            ch("B", "toughness = 10"),
            &["level-ground"],
            false,
            true,
        );
        // R-SCR-10: after engage the turn's action is a close range attack,
        // so a long range one is refused (it would get no +2 either).
        s.ok("a", "a engage", &[]);
        let e = s.refused("a", &format!("a {line}"), dice);
        assert!(e.message.contains("close range attack"), "{line}: {e}");
    }
    // Healing is no attack.
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![ch("A", attacker), ch("Pal", "toughness = 4")],
            ),
            ("b", "B", vec![ch("B", "knockout = 1\ntoughness = 10")]),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[1, 20]);
    s.ok("b", "b knockout pal", &[19]);
    s.ok("a", "a heal pal", &[5]);
    assert_eq!(last_modifiers(&s), vec![0]);
    // The odds say the same: engaged is refused for a long range attack.
    use tabula_scratch::rolls::{AttackKind, situational_modifier};
    assert_eq!(
        situational_modifier(0, false, true, Some(AttackKind::Fighting)).unwrap(),
        2
    );
    for kind in [
        AttackKind::Throw,
        AttackKind::Shooting,
        AttackKind::Blasting,
        AttackKind::Surprise,
        AttackKind::Intimidate,
        AttackKind::NoDamage,
    ] {
        let err = situational_modifier(0, false, true, Some(kind)).unwrap_err();
        assert!(err.message.contains("close range"), "{kind:?}: {err}");
    }
    assert!(situational_modifier(0, false, true, None).is_err());
    assert!(situational_modifier(i64::MAX, false, true, Some(AttackKind::Basic)).is_err());
}

/// "Turns": each person's initiative group holds the characters that person
/// controls; a player seat acts only for its own characters, the GM for the
/// table's phases (initiative, terrain, rolls). Seat names match without
/// regard to case.
#[test]
fn a_player_acts_only_for_its_own_characters() {
    let mut s = scene(
        vec![
            (
                "alice",
                "A",
                vec![
                    ch("Smith", "craftsmanship = 1\ntoughness = 3"),
                    ch("Ace", "shooting = 2\ntoughness = 3"),
                ],
            ),
            ("bob", "A", vec![ch("Bo", "toughness = 3")]),
            ("gm", "B", vec![ch("Foe", "toughness = 9")]),
        ],
        &[],
        false,
        false,
    );
    // Bob cannot craft with Alice's crafter; the GM neither.
    assert_eq!(
        s.refused("bob", "craft smith bo toughness", &[]).kind,
        Refusal::NotPermitted
    );
    assert_eq!(
        s.refused("gm", "craft smith bo toughness", &[]).kind,
        Refusal::NotPermitted
    );
    // Alice, typed in any case, may give her companion Bo a bonus.
    s.ok("ALICE", "craft Smith BO toughness", &[]);
    // Initiative is the GM's.
    let e = s.refused("alice", "initiative", &[20, 10, 1]);
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert!(e.message.contains("GM"), "{e}");
    s.ok("gm", "initiative", &[20, 10, 1]);
    // Alice's turn: Bob and the GM cannot act for her characters.
    for seat in ["bob", "gm"] {
        let e = s.refused(seat, "ace shoot foe", &[10]);
        assert_eq!(e.kind, Refusal::NotPermitted, "{seat}");
        assert!(e.message.contains("does not control"), "{e}");
    }
    s.ok("Alice", "ace shoot foe", &[1]);
    s.ok("alice", "smith end", &[]);
    // Bob's turn: Alice cannot act for Bo.
    assert_eq!(
        s.refused("alice", "bo end", &[]).kind,
        Refusal::NotPermitted
    );
    s.ok("bob", "bo end", &[]);
    // The GM's: a player cannot act for the GM's characters, nor change the
    // terrain, nor call for rolls.
    assert_eq!(s.refused("bob", "foe end", &[]).kind, Refusal::NotPermitted);
    assert_eq!(
        s.refused("bob", "terrain add water", &[]).kind,
        Refusal::NotPermitted
    );
    assert_eq!(
        s.refused("bob", "roll foe 10", &[10]).kind,
        Refusal::NotPermitted
    );
    s.ok("gm", "foe end", &[]);
}

/// Names typed in commands: ids and names match without regard to case; an
/// unknown one is refused with the valid choices.
#[test]
fn character_names_match_without_regard_to_case_and_unknown_ones_list_the_choices() {
    let mut s = duel(
        ch("Zed", "toughness = 3"),
        ch("Foe Two", "toughness = 9"),
        &[],
        false,
        false,
    );
    s.ok("a", "ZED attack FOE-TWO", &[10]);
    assert_eq!(s.hp("foe-two"), 8);
    let e = Scratch::parse_command(s.t.state(), &Seat::parse("b"), "foe-two attack nobody")
        .unwrap_err()
        .to_string();
    assert!(e.contains("Zed, Foe Two"), "{e}");
    // A command built without the parser is refused by the rules the same way.
    let cmd = tabula_scratch::Command::Act {
        actor: "foe-two".into(),
        action: tabula_scratch::Action::Attack {
            target: "nobody".into(),
            with: None,
        },
    };
    let before = s.t.clone();
    let e =
        s.t.submit(&Seat::parse("b"), &cmd, &mut Scripted::dice([10]))
            .unwrap_err();
    assert!(matches!(e.kind, Refusal::Unknown { .. }));
    assert!(e.message.contains("zed, foe-two"), "{e}");
    assert_eq!(s.t, before);
    let seat = Seat::parse("b");
    let e = Scratch::parse_command(s.t.state(), &seat, "foe-two attack zed with lasers")
        .unwrap_err()
        .to_string();
    assert!(e.contains("toughness, shooting"), "{e}");
    let e = Scratch::parse_command(s.t.state(), &Seat::Gm, "terrain add lava")
        .unwrap_err()
        .to_string();
    assert!(e.contains("level-ground"), "{e}");
    let e = Scratch::parse_command(s.t.state(), &Seat::Gm, "roll zed 99999999999999999999")
        .unwrap_err()
        .to_string();
    assert!(e.contains("difficulty") && e.contains("too large"), "{e}");
}

/// Initiative with too few physical dice says what it needs ("need 2 more
/// d20"), the tie-breaks included, instead of re-rolling stand-ins forever.
#[test]
fn initiative_short_of_dice_says_what_it_needs() {
    use tabula_core::roller::Manual;
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch");
    let text = std::fs::read_to_string(dir.join("combat-example.toml")).unwrap();
    let state =
        <tabula_scratch::Scratch as tabula_core::system::TextPlay>::setup(&text, &dir).unwrap();
    let mut t = tabula_core::system::Table::<tabula_scratch::Scratch>::new(state);
    let mut none = Manual::from_values(Vec::<String>::new());
    let e = t
        .submit(
            &tabula_core::system::Seat::Gm,
            &tabula_scratch::Command::Initiative,
            &mut none,
        )
        .unwrap_err();
    assert!(e.to_string().contains("more d20"), "{e}");
    assert!(!e.to_string().contains("ties"), "{e}");
    assert!(t.log().is_empty());
}

/// R-SCR-10: blasting targets "up to three separate enemies" ("Attack
/// Abilities"): a character of the blaster's own side is no target. The
/// legal list does not offer him, and the policy never blasts him.
#[test]
fn r_scr_10_blasting_targets_enemies_not_allies() {
    use tabula_core::System;
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![
                    ch("Blaster", "blasting = 2\ntoughness = 4"),
                    ch("Pal", "toughness = 4"),
                ],
            ),
            ("c", "a", vec![ch("Cousin", "toughness = 4")]),
            (
                "b",
                "B",
                vec![ch("Foe", "toughness = 4"), ch("Foe Two", "toughness = 4")],
            ),
        ],
        &[],
        false,
        false,
    );
    s.ok("gm", "initiative", &[20, 10, 1]);
    for line in [
        "blaster blast pal",
        "blaster blast foe pal",
        "blaster blast foe foe-two cousin",
    ] {
        let e = s.refused("a", line, &[20, 20, 20]);
        assert_eq!(e.kind, Refusal::Forbidden, "{line}");
        assert!(e.message.contains("enemies"), "{line}: {e}");
        assert!(e.rule.ruling == Some("R-SCR-10"), "{line}: {e:?}");
    }
    assert_eq!(s.hp("pal"), 4);
    assert_eq!(s.hp("cousin"), 4);
    let legal = Scratch::legal_commands(s.t.state(), &Seat::parse("a"));
    let blast = legal
        .iter()
        .find(|c| c.name == "blaster blast")
        .expect("blast offered");
    assert_eq!(
        blast.params[0].kind,
        tabula_core::ParamKind::Choice {
            options: vec!["foe".into(), "foe-two".into()]
        }
    );
    // The policy blasts foes only.
    use tabula_core::policy::{Awaiting, Policy};
    let cmd = Scratch::suggest_for(
        s.t.state(),
        &Awaiting::participant(Seat::parse("a"), "blaster"),
    )
    .expect("a suggestion");
    if let tabula_scratch::Command::Act {
        action: tabula_scratch::Action::Blast { targets },
        ..
    } = &cmd
    {
        assert!(targets.iter().all(|t| t.starts_with("foe")), "{targets:?}");
    }
    s.ok("a", "blaster blast foe foe-two", &[20, 20]);
    assert_eq!((s.hp("foe"), s.hp("foe-two")), (2, 2));
}

/// R-SCR-10: engage is "a bonus action which an attacker can use before a
/// close range attack" ("Basic Actions"): after engage, the turn's action is
/// a close range attack; a long range attack, healing, evading, escaping or
/// ending the turn is refused until it is made. The legal list offers only
/// close range attacks, and the policy makes one. Engage is refused when no
/// close range attack is possible (docs/systems/scratch.md).
#[test]
fn r_scr_10_after_engage_the_action_is_a_close_range_attack() {
    use tabula_core::System;
    let attacker =
        "shooting = 1\nblasting = 1\nhealing = 1\nquickness = 1\nfighting = 1\ntoughness = 9";
    let mut s = scene(
        vec![
            (
                "a",
                "A",
                vec![ch("A", attacker), ch("Pal", "toughness = 4")],
            ),
            ("b", "B", vec![ch("B", "knockout = 1\ntoughness = 10")]),
        ],
        &["level-ground"],
        false,
        true,
    );
    s.ok("gm", "initiative", &[20, 1]);
    s.ok("a", "a engage", &[]);
    for line in [
        "a end",
        "a shoot b",
        "a blast b",
        "a throw b",
        "a evade",
        "a escape",
        "a cover",
    ] {
        let e = s.refused("a", line, &[5]);
        assert!(
            e.message.contains("close range attack") || e.message.contains("bonus action"),
            "{line}: {e}"
        );
    }
    let legal: Vec<String> = Scratch::legal_commands(s.t.state(), &Seat::parse("a"))
        .into_iter()
        .map(|c| c.name)
        .collect();
    for name in &legal {
        let w = name.rsplit(' ').next().unwrap_or("");
        assert!(
            matches!(w, "attack" | "hold" | "distract" | "knockout" | "fight"),
            "{name} offered after engage: {legal:?}"
        );
    }
    assert!(legal.contains(&"a attack".to_string()), "{legal:?}");
    // The policy makes the close range attack.
    use tabula_core::policy::{Awaiting, Policy};
    let cmd = Scratch::suggest_for(s.t.state(), &Awaiting::participant(Seat::parse("a"), "a"))
        .expect("a suggestion");
    match &cmd {
        tabula_scratch::Command::Act { action, .. } => assert!(
            matches!(
                action,
                tabula_scratch::Action::Attack { .. }
                    | tabula_scratch::Action::Hold { .. }
                    | tabula_scratch::Action::Distract { .. }
                    | tabula_scratch::Action::Fight { .. }
                    | tabula_scratch::Action::Knockout { .. }
            ),
            "{cmd:?}"
        ),
        other => panic!("{other:?}"),
    }
    s.ok("a", "a fight b", &[8, 8]);
    assert_eq!(s.hp("b"), 8);
    // Engage needs someone to attack at close range: with every foe out of
    // reach, it is refused (so the attack it promises is never impossible).
    let mut s = duel(
        ch("A", "toughness = 3"),
        ch("B", "flying = 2\nshooting = 1\ntoughness = 9"),
        &["room-to-fly"],
        false,
        false,
    );
    s.ok("a", "a end", &[]);
    s.ok("b", "b shoot a", &[1]);
    let e = s.refused("a", "a engage", &[]);
    assert!(e.message.contains("close range"), "{e}");
}
