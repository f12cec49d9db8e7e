//! The legal commands, played at random: every advertised command reads as a
//! line, a refused one changes nothing, some seat always has something to do
//! until the encounter is finished, and replaying the log rebuilds the table.

mod common;

use proptest::prelude::*;
use tabula_core::Table;
use tabula_core::testkit::{self, Choice};
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
        let mut picks = steps.iter();
        let walk = testkit::walk_legal(&mut t, seed, steps.len(), |_, legal| {
            let Some((seat_pick, cmd_pick, params)) = picks.next() else {
                return Choice::Stop;
            };
            let seats = testkit::by_seat(legal);
            let (seat, specs) = &seats[*seat_pick as usize % seats.len()];
            let spec = specs[*cmd_pick as usize % specs.len()];
            // Closing or ending the fight ends the walk early: rarely.
            let rare = spec.name == "close" || spec.name == "end-combat";
            if rare && cmd_pick % 16 != 0 {
                return Choice::Skip;
            }
            match common::render(spec, params) {
                Some(line) => Choice::Line((*seat).clone(), line),
                None => Choice::Skip,
            }
        }, |_, _| {});
        let accepted = walk.accepted;
        // Most walks get well into combat (dozens of accepted commands).
        prop_assert!(accepted > 0 || steps.len() < 20);
    }
}
