//! The legal commands, played at random: every advertised command reads as a
//! line, a refused one changes nothing, some seat always has something to do
//! until the encounter is finished, and replaying the log rebuilds the table.

mod common;

use proptest::prelude::*;
use tabula_core::{CommandSpec, Seat, Seeded, System, Table, TextPlay};
use tabula_tiers::Tiers;

fn example_table(every_rule: bool) -> Table<Tiers> {
    Table::new(common::example_state(every_rule))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random legal commands with random parameters in the advertised ranges
    /// from the example table: each reads as a line; a refusal changes
    /// nothing; some seat always has a legal command until `finished`; and
    /// replaying the log rebuilds the same state.
    #[test]
    fn legal_commands_never_lock_up(
        seed in any::<u64>(),
        every_rule in any::<bool>(),
        steps in prop::collection::vec(
            (any::<u32>(), any::<u32>(), prop::collection::vec(any::<u32>(), 8)),
            1..160,
        ),
    ) {
        let mut t = example_table(every_rule);
        let mut roller = Seeded::from_seed(seed);
        let mut accepted = 0;
        for (seat_pick, cmd_pick, params) in &steps {
            if Tiers::finished(t.state()) {
                break;
            }
            let seats = Tiers::seats(t.state());
            let choices: Vec<(Seat, Vec<CommandSpec>)> = seats
                .iter()
                .map(|s| (s.clone(), Tiers::legal_commands(t.state(), s)))
                .filter(|(_, c)| !c.is_empty())
                .collect();
            prop_assert!(!choices.is_empty(), "no seat has a legal command: {:?}", t.state().mode);
            let (seat, specs) = &choices[*seat_pick as usize % choices.len()];
            // Closing or ending the fight ends the walk early: rarely.
            let rare = |c: &CommandSpec| c.name == "close" || c.name == "end-combat";
            let spec = &specs[*cmd_pick as usize % specs.len()];
            if rare(spec) && cmd_pick % 16 != 0 {
                continue;
            }
            let Some(line) = common::render(spec, params) else { continue };
            let cmd = Tiers::parse_command(t.state(), seat, &line);
            prop_assert!(cmd.is_ok(), "{seat}: {line}: {:?}", cmd.err());
            let Ok(cmd) = cmd else { continue };
            let before = t.clone();
            match t.submit(seat, &cmd, &mut roller) {
                Ok(_) => accepted += 1,
                Err(_) => prop_assert!(t == before, "{seat}: {line}: refused but changed"),
            }
        }
        if !Tiers::finished(t.state()) {
            prop_assert!(Tiers::seats(t.state())
                .iter()
                .any(|s| !Tiers::legal_commands(t.state(), s).is_empty()));
        }
        prop_assert!(t.replay_matches());
        // Most walks get well into combat (dozens of accepted commands).
        prop_assert!(accepted > 0 || steps.len() < 20);
    }
}
