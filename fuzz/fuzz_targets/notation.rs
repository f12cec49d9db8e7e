//! Fuzz the dice notation: any UTF-8 text either is refused with an error whose
//! position lies in the text, or parses into an expression whose canonical
//! spelling parses back to it and which rolls within its caps, its total the
//! evaluation of its outcome tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_core::Seeded;
use tabula_core::dice::{MAX_POOL, MAX_SIDES};
use tabula_core::notation::{Expr, MAX_ROLLS, MAX_TOTAL};

fuzz_target!(|text: &str| {
    let expr = match Expr::parse(text) {
        Ok(expr) => expr,
        Err(e) => {
            assert!(e.position() <= text.len(), "{e:?} past the end of {text:?}");
            assert!(text.is_char_boundary(e.position()), "{e:?} inside a character");
            let _ = e.to_string();
            return;
        }
    };
    let printed = expr.to_string();
    assert_eq!(Expr::parse(&printed).as_ref(), Ok(&expr), "{text:?} printed as {printed:?}");
    assert!(expr.dice_count() <= MAX_POOL);

    let mut roller = Seeded::from_seed(text.len() as u64);
    let outcome = expr.roll(&mut roller).expect("a seeded roller never fails");
    let dice = outcome.root.dice();
    for die in &dice {
        let (lo, hi) = if die.fudge { (-1, 1) } else { (1, i64::from(die.sides)) };
        assert!(die.sides <= MAX_SIDES && (lo..=hi).contains(&die.value));
    }
    assert!(dice.len() as u64 >= u64::from(expr.dice_count()));
    assert!(dice.len() as u64 <= MAX_ROLLS);
    assert_eq!(Some(outcome.total), outcome.root.evaluate());
    assert!(outcome.total.abs() <= MAX_TOTAL);
    let _ = outcome.to_string();
});
