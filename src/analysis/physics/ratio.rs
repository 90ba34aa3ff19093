//! `Ratio`: a non-negative exact fraction of `u128`s, for the formulas whose published form
//! divides (SONiC's Lua, the dynamic pause point). In: numerators and denominators; out:
//! `floor`/`ceil` and exact comparisons. Arithmetic is checked: `None` means the exact value
//! does not fit, which only absurd inputs reach.

use std::cmp::Ordering;

#[derive(Debug, Clone, Copy)]
pub struct Ratio {
    num: u128,
    den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `num / den`; `None` when `den` is 0.
    pub fn new(num: u128, den: u128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        Some(Ratio {
            num: num / g,
            den: den / g,
        })
    }

    pub fn int(value: u128) -> Ratio {
        Ratio { num: value, den: 1 }
    }

    pub fn num(self) -> u128 {
        self.num
    }

    pub fn den(self) -> u128 {
        self.den
    }

    pub fn floor(self) -> u128 {
        self.num / self.den
    }

    pub fn ceil(self) -> u128 {
        self.num.div_ceil(self.den)
    }

    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, other.den);
        let den = (self.den / g).checked_mul(other.den)?;
        let num = self
            .num
            .checked_mul(other.den / g)?
            .checked_add(other.num.checked_mul(self.den / g)?)?;
        Ratio::new(num, den)
    }

    pub fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        // Cross-reduce first so that products of already-reduced fractions stay small.
        let g1 = gcd(self.num, other.den);
        let g2 = gcd(other.num, self.den);
        let num = (self.num / g1.max(1)).checked_mul(other.num / g2.max(1))?;
        let den = (self.den / g2.max(1)).checked_mul(other.den / g1.max(1))?;
        Ratio::new(num, den)
    }

    #[cfg(test)]
    pub fn checked_div(self, other: Ratio) -> Option<Ratio> {
        self.checked_mul(Ratio::new(other.den, other.num)?)
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Ratio) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        // a/b vs c/d ⇔ a·d vs c·b; widen through the integer parts when the products overflow.
        match (
            self.num.checked_mul(other.den),
            other.num.checked_mul(self.den),
        ) {
            (Some(l), Some(r)) => l.cmp(&r),
            _ => {
                let (qa, qb) = (self.floor(), other.floor());
                if qa == qb {
                    let ra = Ratio {
                        num: self.num % self.den,
                        den: self.den,
                    };
                    let rb = Ratio {
                        num: other.num % other.den,
                        den: other.den,
                    };
                    // Both remainders are < 1; compare their reciprocals inverted.
                    match (ra.num, rb.num) {
                        (0, 0) => Ordering::Equal,
                        (0, _) => Ordering::Less,
                        (_, 0) => Ordering::Greater,
                        _ => Ratio {
                            num: rb.den,
                            den: rb.num,
                        }
                        .cmp(&Ratio {
                            num: ra.den,
                            den: ra.num,
                        }),
                    }
                } else {
                    qa.cmp(&qb)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: u128, d: u128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    #[test]
    fn arithmetic_and_rounding() {
        assert_eq!(r(6, 4).floor(), 1);
        assert_eq!(r(6, 4).ceil(), 2);
        assert_eq!(r(8, 4).ceil(), 2);
        assert_eq!(r(1, 3).checked_add(r(1, 6)).unwrap(), r(1, 2));
        assert_eq!(r(2, 3).checked_mul(r(9, 4)).unwrap(), r(3, 2));
        assert_eq!(r(2, 3).checked_div(r(4, 3)).unwrap(), r(1, 2));
        assert!(Ratio::new(1, 0).is_none());
        assert!(r(1, 3) < r(1, 2));
    }

    #[test]
    fn comparison_survives_overflowing_cross_products() {
        let big = u128::MAX / 2;
        assert!(r(big, big - 1) < r(big - 1, big - 2));
        assert!(r(big, 3) > r(big, 4));
        assert_eq!(r(big, big), Ratio::int(1));
    }
}
