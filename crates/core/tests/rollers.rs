//! Rollers stay in range: every die face in 1..=sides, every d3 in 1..=3.

use proptest::prelude::*;
use tabula_core::dice::MAX_SIDES;
use tabula_core::{D3Mode, Die, Roller, Scripted, Seeded};

proptest! {
    #[test]
    fn seeded_faces_are_in_range(seed in any::<u64>(), sides in 1..=u64::from(MAX_SIDES)) {
        let die = Die::new(sides).unwrap();
        let mut r = Seeded::from_seed(seed);
        for _ in 0..64 {
            let v = r.roll(die).unwrap();
            prop_assert!(v >= 1 && u64::from(v) <= sides, "{} on a d{}", v, sides);
        }
        prop_assert!(r.finish().is_ok());
    }

    #[test]
    fn seeded_d3_is_in_range_both_ways(seed in any::<u64>()) {
        let mut r = Seeded::from_seed(seed);
        for _ in 0..64 {
            let t = D3Mode::True.roll(&mut r).unwrap();
            prop_assert!((1..=3).contains(&t.value));
            prop_assert_eq!(t.d6, None);
            let h = D3Mode::HalvedD6.roll(&mut r).unwrap();
            prop_assert!((1..=3).contains(&h.value));
            let d6 = h.d6.unwrap();
            prop_assert!((1..=6).contains(&d6));
            prop_assert_eq!(h.value, d6.div_ceil(2));
        }
    }

    #[test]
    fn scripted_values_are_range_checked(sides in 1..=u64::from(MAX_SIDES), v in 0..=u32::MAX) {
        let die = Die::new(sides).unwrap();
        let got = Scripted::dice([v]).roll(die);
        prop_assert_eq!(got.is_ok(), v >= 1 && u64::from(v) <= sides);
    }
}

#[test]
fn seeded_covers_every_face_of_a_d3_both_ways() {
    let mut r = Seeded::from_seed(3);
    let mut seen_true = [false; 3];
    let mut seen_halved = [false; 3];
    for _ in 0..200 {
        seen_true[D3Mode::True.roll(&mut r).unwrap().value as usize - 1] = true;
        seen_halved[D3Mode::HalvedD6.roll(&mut r).unwrap().value as usize - 1] = true;
    }
    assert_eq!(seen_true, [true; 3]);
    assert_eq!(seen_halved, [true; 3]);
}
