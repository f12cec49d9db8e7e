//! Fuzz the dice notation: any UTF-8 text either is refused with an error whose
//! position lies in the text, or parses into an expression whose canonical
//! spelling parses back to it and which rolls within its caps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_core::Seeded;
use tabula_core::dice::{MAX_POOL, MAX_SIDES};
use tabula_core::notation::Expr;

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
    let mut sum = 0i64;
    let mut dice = 0u32;
    for term in &outcome.terms {
        for die in &term.dice {
            assert!(die.sides <= MAX_SIDES && (1..=die.sides).contains(&die.value));
        }
        dice += term.dice.len() as u32;
        sum += term.sign.apply(term.value);
    }
    assert_eq!(dice, expr.dice_count());
    assert_eq!(outcome.total, sum);
    let _ = outcome.to_string();
});
