//! What one seat may do now: [`legal_commands`], by phase, each parameter
//! declaring its syntax (issue 26, item 1), from what the seat may see
//! (R-GB-12).

use tabula_core::system::{CommandSpec, ParamSpec, Seat};

use crate::character::Trait;
use crate::state::{Combatant, Exchange, Phase, Side, State};

fn cards_of(c: &Combatant) -> Vec<String> {
    c.hand.iter().map(ToString::to_string).collect()
}

/// The skills the combatants may name now, each once, sorted: every book
/// skill (each at 1), the skills on their sheets and those of the weapons they
/// hold or carry, as the command grammar reads a skill. A Game of Bastards,
/// "Skills", "Weapons" (003_2dfeea144768d328.txt); issue 26, item 1.
fn skills_of<'a>(cs: impl IntoIterator<Item = &'a Combatant>) -> Vec<String> {
    let mut names: std::collections::BTreeSet<String> = crate::character::SKILLS
        .iter()
        .map(|k| (*k).to_string())
        .collect();
    for c in cs {
        if let Some(ch) = c.character() {
            names.extend(ch.skills().keys().cloned());
            names.extend(ch.weapons().iter().map(|w| w.skill.clone()));
        }
        names.extend(c.wielding.iter().map(|w| w.skill.clone()));
        names.extend(c.carried.iter().map(|w| w.skill.clone()));
    }
    names.into_iter().collect()
}

/// What `seat` may do now, with parameters.
///
/// Each parameter declares how it is written ([`tabula_core::ParamSyntax`]),
/// as [`crate::text::COMMANDS`]' usage and the parser read it: `fate`'s
/// MODIFIER, `attack`'s kind and `play`'s SKILL are optional positional
/// values; `attack`'s options (`zeal fortune disarm savage wild=N
/// spec=NAME`) are raw words; the GM's `add ... as NAME to SEAT` are keyword
/// values ([`crate::gm`]). Issue 26, item 1.
pub fn legal_commands(s: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if s.finished {
        return out;
    }
    let mine: Vec<&Combatant> = s
        .combatants
        .iter()
        .filter(|c| c.controlled_by(seat))
        .collect();
    match &s.phase {
        Phase::Scene => scene_commands(s, seat, &mine, &mut out),
        Phase::Initiative => initiative_commands(&mine, &mut out),
        Phase::Turn { actor, drawn } => {
            if let Some(c) = s.combatants.get(*actor).filter(|c| c.controlled_by(seat)) {
                if !drawn {
                    draw_step_commands(&mut out);
                } else {
                    action_commands(s, c, &mut out);
                }
            }
        }
        Phase::Exchange(x) => exchange_commands(s, seat, x, &mut out),
    }
    if !matches!(s.phase, Phase::Scene) {
        opposition_commands(s, seat, &mine, &mut out);
    }
    let absent: Vec<String> = mine
        .iter()
        .filter(|c| !c.present && !c.removed)
        .map(|c| c.name.clone())
        .collect();
    if !absent.is_empty() {
        out.push(CommandSpec::new(
            "appear",
            "Appearance: enter the Opposition in person",
            vec![ParamSpec::choice("who", absent)],
        ));
    }
    crate::gm::legal(s, seat, &mut out);
    out
}

/// The names of the four Traits, as `fate` takes them ("Traits").
fn trait_names() -> Vec<String> {
    Trait::ALL.iter().map(ToString::to_string).collect()
}

/// `fate` for the characters `who` with the skills `skills`: a Skill Check,
/// a Skill Hand against the Dealer's Fate Draw, with an optional Difficulty
/// Modifier 0..20 ("Skill Hand", "Difficulty Modifier"; R-GB-6).
fn fate_spec(who: Vec<String>, skills: Vec<String>) -> CommandSpec {
    CommandSpec::new(
        "fate",
        "Skill Check: a Skill Hand against the Dealer's Fate Draw",
        vec![
            ParamSpec::choice("who", who),
            ParamSpec::choice("skill", skills),
            ParamSpec::choice("trait", trait_names()),
            ParamSpec::int("modifier", 0, 20).optional(),
        ],
    )
}

/// Outside an Opposition: the Dealer's `begin` (two or more in the
/// encounter), `scene` and `finish` ("Steps", "Shuffling"); a Fated's Skill
/// Check ("Skill Hand"); with a Wildcard, Reinforce, Involve and Distance
/// ("Building A Scene", "Optional Rules"; R-GB-9).
fn scene_commands(s: &State, seat: &Seat, mine: &[&Combatant], out: &mut Vec<CommandSpec>) {
    let names = |v: &[&Combatant]| v.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    if seat.is_gm() {
        if s.combatants.iter().filter(|c| c.active()).count() >= 2 {
            out.push(CommandSpec::new(
                "begin",
                "Begin an Opposition: shuffle, everyone draws a hand",
                vec![],
            ));
        }
        out.push(CommandSpec::new(
            "scene",
            "Begin a new scene: shuffle the deck; Berserk and Distance end",
            vec![],
        ));
        out.push(CommandSpec::new("finish", "End the encounter", vec![]));
    }
    let fated: Vec<String> = mine
        .iter()
        .filter(|c| c.character().is_some())
        .map(|c| c.name.clone())
        .collect();
    if !fated.is_empty() {
        out.push(fate_spec(
            fated,
            skills_of(mine.iter().copied().filter(|c| c.character().is_some())),
        ));
    }
    let with_wild: Vec<&Combatant> = mine
        .iter()
        .copied()
        .filter(|c| c.wildcards > 0 && c.character().is_some())
        .collect();
    if !with_wild.is_empty() {
        for (n, sum) in [
            (
                "reinforce",
                "Reinforce: a Wildcard brings a group of 5 Extras",
            ),
            ("involve", "Involve: a Wildcard brings two Touched"),
        ] {
            out.push(CommandSpec::new(
                n,
                sum,
                vec![
                    ParamSpec::choice("who", names(&with_wild)),
                    ParamSpec::text("name"),
                ],
            ));
        }
        if s.distance.is_none() {
            for c in &with_wild {
                out.push(CommandSpec::new(
                    "distance",
                    "Distance: Wildcards for rounds before melee",
                    vec![
                        ParamSpec::choice("who", [c.name.clone()]),
                        ParamSpec::int("wildcards", 1, i64::from(c.wildcards)),
                    ],
                ));
            }
        }
    }
}

/// The Initiative step: each of the seat's combatants still without an
/// initiative card plays one from its hand ("Initiative"; R-GB-2).
fn initiative_commands(mine: &[&Combatant], out: &mut Vec<CommandSpec>) {
    for c in mine
        .iter()
        .filter(|c| c.active() && c.initiative.is_none() && !c.hand.is_empty())
    {
        out.push(CommandSpec::new(
            "init",
            "Play a card for initiative (Ace = 1, lowest acts first)",
            vec![
                ParamSpec::choice("who", [c.name.clone()]),
                ParamSpec::choice("card", cards_of(c)),
            ],
        ));
    }
}

/// The draw step of the actor's turn: draw one card, or sacrifice the action
/// with a mulligan ("Core Mechanic").
fn draw_step_commands(out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new("draw", "Draw one card", vec![]));
    out.push(CommandSpec::new(
        "mulligan",
        "Sacrifice the action: discard the hand, draw a new one",
        vec![],
    ));
}

/// The actor `c`'s action after its draw step: discard once (or as a
/// Disadvantage makes it), act unless it must discard or is in All-Out
/// Defense ([`acting_commands`]), wield, its Advantages
/// ([`own_advantage_commands`]) and a Skill Check ("Core Mechanic", "Steps",
/// "Random Rules", "Skill Hand").
fn action_commands(s: &State, c: &Combatant, out: &mut Vec<CommandSpec>) {
    if (!c.status.discarded || c.status.must_discard > 0) && !c.hand.is_empty() {
        out.push(CommandSpec::new(
            "discard",
            "Discard a card",
            vec![ParamSpec::choice("card", cards_of(c))],
        ));
    }
    if c.status.must_discard == 0 && !c.status.all_out_defense {
        acting_commands(s, c, out);
    }
    if !c.carried.is_empty() && c.wielding.len() < 2 {
        out.push(CommandSpec::new(
            "wield",
            "Take a carried weapon in hand",
            vec![ParamSpec::choice(
                "weapon",
                c.carried.iter().map(|w| w.name.clone()),
            )],
        ));
    }
    own_advantage_commands(s, c, out);
    // A Skill Check draws at least a card for each side ("Shuffling").
    if c.character().is_some() && crate::deck::drawable(&s.shoe) >= 2 {
        out.push(fate_spec(vec![c.name.clone()], skills_of([c])));
    }
}

/// What the actor `c` may do as its action: attack one who can play a card,
/// replace its initiative card, pick up a weapon from the ground, or pass
/// ("Steps", "Initiative", "Random Rules"; R-GB-12 for what it sees).
fn acting_commands(s: &State, c: &Combatant, out: &mut Vec<CommandSpec>) {
    // Someone to act against who can play a card (R-GB-12:
    // hand sizes and the deck's size are on the table).
    let dry = crate::deck::drawable(&s.shoe) == 0;
    let others: Vec<String> = s
        .combatants
        .iter()
        .filter(|t| t.active() && t.name != c.name && crate::decide::can_play_in_a_hand(t, dry))
        .map(|t| t.name.clone())
        .collect();
    out.push(CommandSpec::new(
        "attack",
        "Declare an opposed hand against a target",
        vec![
            ParamSpec::choice("target", others),
            ParamSpec::choice("skill", skills_of([c])),
            ParamSpec::choice("kind", ["physical", "social", "fear", "simple"]).optional(),
            ParamSpec::text("options: zeal fortune disarm savage wild=N spec=NAME").raw(),
        ],
    ));
    if !c.hand.is_empty() {
        out.push(CommandSpec::new(
            "reinit",
            "Replace the initiative card (the action, unless Speedy)",
            vec![ParamSpec::choice("card", cards_of(c))],
        ));
    }
    if !s.ground.is_empty() {
        out.push(CommandSpec::new(
            "pickup",
            "Pick up a weapon (the action)",
            vec![ParamSpec::choice(
                "weapon",
                s.ground.iter().map(|w| w.name.clone()),
            )],
        ));
    }
    out.push(CommandSpec::new("pass", "End the action", vec![]));
}

/// The Advantages the actor `c` uses during its own action: those used on
/// their own ([`usable_now`]), Defensive Stance with its N and Study with
/// its target ("Advantages"; R-GB-8).
fn own_advantage_commands(s: &State, c: &Combatant, out: &mut Vec<CommandSpec>) {
    let uses = usable_now(s, c, true);
    if !uses.is_empty() {
        out.push(CommandSpec::new(
            "use",
            "Use an Advantage",
            vec![
                ParamSpec::choice("who", [c.name.clone()]),
                ParamSpec::choice("advantage", uses),
            ],
        ));
    }
    use crate::advantages::Advantage as A;
    if c.usable(&A::DefensiveStance) > 0 {
        out.push(CommandSpec::new(
            "use",
            "Defensive Stance: N fewer attack cards, N more defense cards",
            vec![
                ParamSpec::choice("who", [c.name.clone()]),
                ParamSpec::choice("advantage", ["stance"]),
                ParamSpec::int("N", 0, c.trait_score(Trait::Body)),
            ],
        ));
    }
    if c.usable(&A::Study) > 0 {
        out.push(CommandSpec::new(
            "use",
            "Study an opponent (the action)",
            vec![
                ParamSpec::choice("who", [c.name.clone()]),
                ParamSpec::choice("advantage", ["study"]),
                ParamSpec::choice(
                    "target",
                    s.combatants
                        .iter()
                        .filter(|t| t.active() && t.name != c.name)
                        .map(|t| t.name.clone()),
                ),
            ],
        ));
    }
}

/// An opposed hand: the one affected discards or mulligans before its
/// face-down card ("Core Mechanic"; R-GB-16); the side to play plays its
/// face-down card, then bets a card or a Wildcard's card, or calls ("Skill
/// Hands in Oppositions", "Jokers – Unbound by Fate").
fn exchange_commands(s: &State, seat: &Seat, x: &Exchange, out: &mut Vec<CommandSpec>) {
    // The one affected may discard a card before playing face down ("Core
    // Mechanic": every player involved draws and may discard).
    if x.defender_down.is_none()
        && let Some(d) = s
            .combatants
            .get(x.defender)
            .filter(|c| c.controlled_by(seat))
        && !d.status.discarded
        && d.hand.len() >= 2
    {
        out.push(CommandSpec::new(
            "discard",
            "Discard a card (the one affected, before its face-down card)",
            vec![ParamSpec::choice("card", cards_of(d))],
        ));
    }
    // R-GB-16: the one acted against may mulligan once, before playing.
    if x.defender_down.is_none()
        && let Some(d) = s
            .combatants
            .get(x.defender)
            .filter(|c| c.controlled_by(seat))
        && !d.status.mulliganed
    {
        out.push(CommandSpec::new(
            "mulligan",
            "Mulligan (the one acted against, before its face-down card): discard the hand, draw a new one; its action this round is sacrificed",
            vec![],
        ));
    }
    let side_i = if x.attacker_down.is_none() {
        Some((x.attacker, true))
    } else if x.defender_down.is_none() {
        Some((x.defender, true))
    } else if x.to_act == Side::Attacker {
        Some((x.attacker, false))
    } else {
        Some((x.defender, false))
    };
    if let Some((i, face_down)) = side_i
        && let Some(c) = s.combatants.get(i).filter(|c| c.controlled_by(seat))
    {
        if face_down {
            out.push(CommandSpec::new(
                "play",
                "Play a card face down (defender: and its skill, `mom` for Mind Over Matter)",
                vec![
                    ParamSpec::choice("card", cards_of(c)),
                    ParamSpec::choice("skill", skills_of([c])).optional(),
                ],
            ));
        } else {
            let limit = if x.to_act == Side::Attacker {
                x.attacker_limit
            } else {
                x.defender_limit
            };
            if limit > 0 && !c.hand.is_empty() {
                out.push(CommandSpec::new(
                    "bet",
                    "Bet a card face up",
                    vec![ParamSpec::choice("card", cards_of(c))],
                ));
            }
            if c.wildcards > 0 && crate::deck::drawable(&s.shoe) > 0 {
                out.push(CommandSpec::new(
                    "bet wild",
                    "Spend a Wildcard: draw a card and bet it face up",
                    vec![],
                ));
            }
            out.push(CommandSpec::new("call", "Call (both call: reveal)", vec![]));
        }
    }
}

/// In an Opposition, at any time: Advantages used outside the combatant's
/// own action ("Advantages"), a Wildcard's card while one is left to draw
/// ("Jokers – Unbound by Fate"), and the Dealer's `end` and `finish`
/// ("Steps").
fn opposition_commands(s: &State, seat: &Seat, mine: &[&Combatant], out: &mut Vec<CommandSpec>) {
    let acting = crate::decide::actor(s);
    for (k, c) in s.combatants.iter().enumerate() {
        if !c.controlled_by(seat) || !c.active() {
            continue;
        }
        let own_turn = acting == Some(k) && matches!(s.phase, Phase::Turn { drawn: true, .. });
        if own_turn {
            continue; // listed with the turn's commands
        }
        let uses = usable_now(s, c, false);
        if !uses.is_empty() {
            out.push(CommandSpec::new(
                "use",
                "Use an Advantage (any time)",
                vec![
                    ParamSpec::choice("who", [c.name.clone()]),
                    ParamSpec::choice("advantage", uses),
                ],
            ));
        }
    }
    let left = crate::deck::drawable(&s.shoe) > 0;
    let wild: Vec<String> = mine
        .iter()
        .filter(|c| left && c.wildcards > 0 && c.active())
        .map(|c| c.name.clone())
        .collect();
    if !wild.is_empty() {
        out.push(CommandSpec::new(
            "wildcard",
            "Spend a Wildcard to draw a card into the hand",
            vec![ParamSpec::choice("who", wild)],
        ));
    }
    if seat.is_gm() {
        out.push(CommandSpec::new(
            "end",
            "End the Opposition and shuffle every card back",
            vec![],
        ));
        out.push(CommandSpec::new("finish", "End the encounter", vec![]));
    }
}

/// The `use` Advantages a combatant has and may use now: `own_action` adds the
/// ones used only during its own action.
fn usable_now(s: &State, c: &Combatant, own_action: bool) -> Vec<String> {
    use crate::advantages::Advantage as A;
    let mut v = Vec::new();
    let has = |a: &A| c.usable(a) > 0;
    let wild = c.wildcards > 0;
    if has(&A::AllOutDefense) && !c.status.all_out_defense {
        v.push("all-out-defense");
    }
    if has(&A::Dodge) && c.pool(Trait::Body) > 0 {
        v.push("dodge");
    }
    if has(&A::Serendipity) && c.pool(Trait::Luck) > 0 {
        v.push("serendipity");
    }
    if has(&A::IronWall) && wild {
        v.push("iron-wall");
    }
    if has(&A::KarmicShuffle) && wild {
        v.push("karmic-shuffle");
    }
    if has(&A::SoulOfSteel) && wild {
        v.push("soul-of-steel");
    }
    if own_action {
        // Defensive Stance and Study take a number / a target: their own specs.
        if has(&A::AssPull) && c.pool(Trait::Luck) > 0 {
            v.push("ass-pull");
        }
        if has(&A::Berserk) && wild && !c.status.berserk {
            v.push("berserk");
        }
        // Calm is a Meditation Fate Draw off Mind: its cards must be there.
        if c.status.berserk && crate::decide::fate_cards_left(s, c, "Meditation", Trait::Mind) {
            v.push("calm");
        }
    }
    v.into_iter().map(String::from).collect()
}
