//! Each rule of an encounter, one small scene at a time ("Turns", "Hit Points",
//! "Basic Actions", the abilities; R-SCR-3, R-SCR-4, R-SCR-5).

use tabula_core::{Refusal, RuleError, Scripted, Seat, Table, TextPlay};
use tabula_scratch::encounter::Phase;
use tabula_scratch::table::{EncounterFile, build_state};
use tabula_scratch::{Character, Scratch, TableRules};

/// A character from inline TOML (name first, then `ability = level` pairs).
fn ch(name: &str, abilities: &str) -> Character {
    let text = format!("name = \"{name}\"\ncp = 40\nmax_level = 10\n[abilities]\n{abilities}\n");
    Character::from_toml(&text, &TableRules::default()).unwrap()
}

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
    assert_eq!(s.refused("a", "two engage", &[]).kind, Refusal::Forbidden);
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
    assert!(matches!(
        s.refused("a", "a attack nobody", &[10]).kind,
        Refusal::Unknown { .. }
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
