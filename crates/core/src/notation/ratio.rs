//! An exact fraction for `d20`'s division and decimals (issue 30, item 2):
//! `d20` keeps the fraction of `/` and of a decimal until the final total,
//! which it then rounds toward zero (`int()` in `d20` 1.1.2's
//! `RollResult.total`). Tabula holds the fraction exactly instead of in a
//! float, so `(1 / 49) * 49` is 1 here (`d20`'s float gives 0.999..., so 0).
//!
//! Numerator and denominator are `i128` with checked arithmetic; the parser
//! bounds every value within ±[`super::MAX_TOTAL`] and every denominator
//! within [`super::MAX_DENOMINATOR`], so no step of a parsed expression
//! overflows (each step still checks and gives `None`).

use std::cmp::Ordering;

/// `num / den`, reduced, `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    pub(crate) const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// A whole number.
    pub(crate) fn int(v: i128) -> Ratio {
        Ratio { num: v, den: 1 }
    }

    /// `num / den`, reduced; `None` when `den` is 0 or on overflow.
    pub(crate) fn new(num: i128, den: i128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg()?;
            d = d.checked_neg()?;
        }
        Some(Ratio { num: n, den: d })
    }

    /// The denominator (1 for a whole number).
    pub(crate) fn den(self) -> i128 {
        self.den
    }

    pub(crate) fn add(self, o: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, o.den).max(1);
        let n = self
            .num
            .checked_mul(o.den / g)?
            .checked_add(o.num.checked_mul(self.den / g)?)?;
        Ratio::new(n, self.den.checked_mul(o.den / g)?)
    }

    pub(crate) fn neg(self) -> Option<Ratio> {
        Some(Ratio {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    pub(crate) fn sub(self, o: Ratio) -> Option<Ratio> {
        self.add(o.neg()?)
    }

    pub(crate) fn mul(self, o: Ratio) -> Option<Ratio> {
        // Cross-reduce first so the products stay small.
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        Ratio::new(
            (self.num / g1).checked_mul(o.num / g2)?,
            (self.den / g2).checked_mul(o.den / g1)?,
        )
    }

    /// `self / o`; `None` when `o` is 0.
    pub(crate) fn div(self, o: Ratio) -> Option<Ratio> {
        if o.num == 0 {
            return None;
        }
        self.mul(Ratio::new(o.den, o.num)?)
    }

    /// Rounded down.
    pub(crate) fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }

    /// Rounded up.
    pub(crate) fn ceil(self) -> i128 {
        -((-self.num).div_euclid(self.den))
    }

    /// Rounded toward zero, as Python's `int()` of a float (`d20`'s total).
    pub(crate) fn trunc(self) -> i128 {
        self.num / self.den
    }

    /// Rounded toward zero, into an `i64`; `None` if it does not fit.
    pub(crate) fn trunc_i64(self) -> Option<i64> {
        i64::try_from(self.trunc()).ok()
    }

    /// Python's `//` (rounds the quotient down); `None` when `o` is 0.
    pub(crate) fn floor_div(self, o: Ratio) -> Option<Ratio> {
        Some(Ratio::int(self.div(o)?.floor()))
    }

    /// Python's `%`: `self - o * floor(self / o)`, with `o`'s sign.
    pub(crate) fn modulo(self, o: Ratio) -> Option<Ratio> {
        self.sub(o.mul(self.floor_div(o)?)?)
    }

    /// JavaScript's `%`: `self - o * trunc(self / o)`, with `self`'s sign.
    pub(crate) fn rem(self, o: Ratio) -> Option<Ratio> {
        self.sub(o.mul(Ratio::int(self.div(o)?.trunc()))?)
    }
}

impl Ord for Ratio {
    fn cmp(&self, o: &Ratio) -> Ordering {
        // Denominators are positive; the parser's bounds keep the products
        // far inside i128 (saturating only past them).
        self.num
            .saturating_mul(o.den)
            .cmp(&o.num.saturating_mul(self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Ratio) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[cfg(test)]
mod tests {
    use super::Ratio;

    fn r(n: i128, d: i128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    #[test]
    fn arithmetic_is_exact_and_reduced() {
        assert_eq!(r(1, 3).add(r(1, 6)), Some(r(1, 2)));
        assert_eq!(r(1, 49).mul(Ratio::int(49)), Some(Ratio::int(1)));
        assert_eq!(r(2, -4), r(-1, 2));
        assert_eq!(Ratio::int(7).div(Ratio::int(2)), Some(r(7, 2)));
        assert_eq!(Ratio::int(1).div(Ratio::ZERO), None);
        assert_eq!(Ratio::new(1, 0), None);
    }

    #[test]
    fn rounding_as_python() {
        assert_eq!(r(-7, 2).trunc(), -3);
        assert_eq!(r(-7, 2).floor(), -4);
        assert_eq!(r(-7, 2).ceil(), -3);
        assert_eq!(r(7, 2).ceil(), 4);
        // -7 % 3 == 2, 7.5 % -2 == -0.5, 3.5 // 2 == 1 in Python.
        assert_eq!(Ratio::int(-7).modulo(Ratio::int(3)), Some(Ratio::int(2)));
        assert_eq!(r(15, 2).modulo(Ratio::int(-2)), Some(r(-1, 2)));
        assert_eq!(r(7, 2).floor_div(Ratio::int(2)), Some(Ratio::int(1)));
        // JavaScript: -7 % 3 == -1.
        assert_eq!(Ratio::int(-7).rem(Ratio::int(3)), Some(Ratio::int(-1)));
    }

    #[test]
    fn overflow_is_none_not_a_panic() {
        let big = Ratio::int(i128::MAX);
        assert_eq!(big.add(Ratio::int(1)), None);
        assert_eq!(big.mul(Ratio::int(2)), None);
        assert_eq!(Ratio::int(i128::MIN).neg(), None);
    }
}
