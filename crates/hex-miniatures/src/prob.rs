//! Probabilities in thousandths, the random number, and banded tables.
//!
//! The rulebook draws a random number between 0 and 1 from a calculator ([2.3]) and states its
//! thresholds to three decimals (0.800 to rally, [6.2]; 0.150 for an order, [7.1.2.1]; +0.100
//! for a general, [9.2]). We draw it as an integer: a [`Draw`] is one of the thousand numbers
//! 0.000..=0.999, each with weight 1 (an explicit chance event of the engine: [`D1000_WEIGHTS`]
//! through `engine::Dice::draw`), so every result is exact, deterministic and portable.
//! A [`Bands`] table maps the (modified) number to a result: each result holds from its lower
//! bound to the next one's.

use std::fmt;

/// The number of equally likely random numbers: 0.000 to 0.999.
pub const D1000: u16 = 1000;

/// The weights of the random number's thousand outcomes (one each), for the engine's
/// `chance_outcomes` and `Dice::draw`: the index drawn is the [`Draw`].
pub const D1000_WEIGHTS: [u32; 1000] = [1; 1000];

/// A probability or threshold in thousandths (0.150 is 150), 0..=1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Prob(pub u16);

/// A modifier to the random number in thousandths (+0.100 is 100, -0.100 is -100).
pub type Modifier = i32;

/// One random number, 0.000..=0.999, in thousandths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Draw(u16);

impl Draw {
    /// The draw of this many thousandths; `None` at 1000 or above.
    pub fn new(thousandths: u16) -> Option<Draw> {
        (thousandths < D1000).then_some(Draw(thousandths))
    }

    /// Its value in thousandths.
    pub fn value(self) -> u16 {
        self.0
    }

    /// The number after a modifier, kept a probability: below 0.000 it reads 0.000, above
    /// 0.999 it reads 0.999 (ruling HM3).
    pub fn modified(self, m: Modifier) -> u16 {
        (i32::from(self.0) + m).clamp(0, i32::from(D1000) - 1) as u16
    }

    /// Whether the number, modified, reaches a threshold ("matches or exceeds", [6.1]).
    pub fn reaches(self, m: Modifier, threshold: Prob) -> bool {
        self.modified(m) >= threshold.0
    }
}

impl fmt::Display for Prob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:03}", self.0 / 1000, self.0 % 1000)
    }
}

impl fmt::Display for Draw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Prob(self.0).fmt(f)
    }
}

/// Parses a probability written as the rulebook writes it, `0.150` (one to three decimals;
/// `1.000` allowed).
pub fn parse_prob(s: &str) -> Result<Prob, String> {
    let s = s.trim();
    let bad = || format!("'{s}': a probability is written 0.000 to 1.000 (three decimals at most)");
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let w: u16 = match whole {
        "0" => 0,
        "1" => 1,
        _ => return Err(bad()),
    };
    let mut f: u16 = 0;
    for i in 0..3 {
        f = f * 10 + frac.as_bytes().get(i).map_or(0, |b| u16::from(b - b'0'));
    }
    let v = w * 1000 + f;
    if v > 1000 {
        return Err(bad());
    }
    Ok(Prob(v))
}

/// Parses a signed modifier, `+0.100`, `-0.100` or `0.100`.
pub fn parse_modifier(s: &str) -> Result<Modifier, String> {
    let s = s.trim();
    let (sign, rest) = match s.as_bytes().first() {
        Some(b'-') => (-1, &s[1..]),
        Some(b'+') => (1, &s[1..]),
        _ => (1, s),
    };
    Ok(sign * i32::from(parse_prob(rest)?.0))
}

/// A table read by the random number: results each holding from a lower bound (thousandths)
/// to the next one's; the first from 0.000.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bands<R> {
    from: Vec<u16>,
    results: Vec<R>,
}

impl<R: Copy + PartialEq> Bands<R> {
    /// Reads bands written as `"0.000 Ar"`, `"0.050 Aw"`, ...: lower bounds strictly
    /// increasing from 0.000, below 1.000; each result read by `parse`.
    pub fn parse(
        cells: &[String],
        parse: impl Fn(&str) -> Result<R, String>,
    ) -> Result<Bands<R>, String> {
        let mut from = Vec::new();
        let mut results = Vec::new();
        for cell in cells {
            let (p, r) = cell.trim().split_once(char::is_whitespace).ok_or_else(|| {
                format!("'{cell}': expected a lower bound then a result, '0.050 Aw'")
            })?;
            let p = parse_prob(p)?;
            if p.0 >= D1000 {
                return Err(format!("'{cell}': a band must start below 1.000"));
            }
            if let Some(&last) = from.last() {
                if p.0 <= last {
                    return Err(format!(
                        "'{cell}': lower bounds must increase ({} then {p})",
                        Prob(last)
                    ));
                }
            } else if p.0 != 0 {
                return Err(format!("'{cell}': the first band starts at 0.000"));
            }
            from.push(p.0);
            results.push(parse(r.trim())?);
        }
        if from.is_empty() {
            return Err("no bands".into());
        }
        Ok(Bands { from, results })
    }

    /// The result of a number (thousandths, 0..=999).
    pub fn at(&self, number: u16) -> R {
        let i = self.from.iter().rposition(|&f| f <= number).unwrap_or(0);
        self.results[i]
    }

    /// The result of a draw with a modifier.
    pub fn result(&self, draw: Draw, m: Modifier) -> R {
        self.at(draw.modified(m))
    }

    /// The results in order, each with its lower bound.
    pub fn bands(&self) -> impl Iterator<Item = (Prob, R)> + '_ {
        self.from
            .iter()
            .map(|&f| Prob(f))
            .zip(self.results.iter().copied())
    }

    /// The results in order.
    pub fn results(&self) -> &[R] {
        &self.results
    }

    /// The lower bound of a result's band, if it is in the table.
    pub fn from_of(&self, r: R) -> Option<Prob> {
        self.results
            .iter()
            .position(|x| *x == r)
            .map(|i| Prob(self.from[i]))
    }

    /// How many of the thousand draws give each result with a modifier, in the table's order
    /// (results no draw reaches are left out): the weights of the engine's chance event, and
    /// the chance of each result in thousandths. They add up to 1000.
    pub fn weights(&self, m: Modifier) -> Vec<(R, u32)> {
        let mut w: Vec<(R, u32)> = Vec::new();
        for d in 0..D1000 {
            let r = self.at(Draw(d).modified(m));
            match w.iter_mut().find(|(x, _)| *x == r) {
                Some(e) => e.1 += 1,
                None => w.push((r, 1)),
            }
        }
        w
    }

    /// The chance (thousandths) of a result satisfying `pred`, with a modifier.
    pub fn chance(&self, m: Modifier, pred: impl Fn(R) -> bool) -> u32 {
        self.weights(m)
            .iter()
            .filter(|(r, _)| pred(*r))
            .map(|(_, w)| w)
            .sum()
    }
}

/// The chance (thousandths) that a draw with a modifier reaches a threshold.
pub fn chance_to_reach(threshold: Prob, m: Modifier) -> u32 {
    (0..D1000)
        .filter(|&d| Draw(d).reaches(m, threshold))
        .count() as u32
}
