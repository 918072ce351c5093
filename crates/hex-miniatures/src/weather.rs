//! Weather and light ([11], [24], printed): the drifting weather counters for fog and snow
//! (a thunderstorm drifts as snow does), the time-of-day modifier to the fog's die, and the
//! visible range before nightfall and after dawn.

/// A weather track ([24]): positions from the worst (1) up, each a visible range in hexes or
/// clear; the counter moves down a position on a low die, up on a high one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    /// The visible range at each position, position 1 first; `None` is clear.
    pub positions: Vec<Option<u8>>,
    /// The position the counter starts at (1-based).
    pub start: u8,
    /// The counter moves down one position on this modified die or less ([24]: 1, 2).
    pub down_to: i32,
    /// It moves up one position on this modified die or more ([24]: 5, 6).
    pub up_from: i32,
}

impl Track {
    /// The visible range at a position (`None`: clear, or a position off the track).
    pub fn visibility(&self, position: u8) -> Option<u8> {
        let i = usize::from(position).checked_sub(1)?;
        self.positions.get(i).copied().flatten()
    }

    /// The counter's next position after a die (1..=6) with a modifier, held on the track.
    pub fn next(&self, position: u8, die: u8, modifier: i32) -> u8 {
        let r = i32::from(die) + modifier;
        let top = self.positions.len() as u8;
        if r <= self.down_to {
            position.saturating_sub(1).max(1)
        } else if r >= self.up_from {
            (position + 1).min(top)
        } else {
            position
        }
    }

    /// The chance of each next position, in sixths: (position, sixths).
    pub fn chances(&self, position: u8, modifier: i32) -> Vec<(u8, u32)> {
        let mut w: Vec<(u8, u32)> = Vec::new();
        for die in 1..=6 {
            let p = self.next(position, die, modifier);
            match w.iter_mut().find(|(x, _)| *x == p) {
                Some(e) => e.1 += 1,
                None => w.push((p, 1)),
            }
        }
        w
    }
}

/// The weather and light of `[weather]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weather {
    /// The fog track.
    pub fog: Track,
    /// The snow track (thunderstorms use it too, [24]).
    pub snow: Track,
    /// The fog die's modifier by time of day: (from minute of the day, modifier), in order.
    pub fog_by_time: Vec<(u32, i32)>,
    /// The visible range in the turns before night, the furthest first ([24]: 6 hexes 60
    /// minutes before, ... 1 hex 10 minutes before); 0 at night; dawn reverses it.
    pub dusk: Vec<u8>,
}

impl Weather {
    /// The fog die's modifier at a minute of the day (before the first entry: 0).
    pub fn fog_modifier(&self, minute: u32) -> i32 {
        self.fog_by_time
            .iter()
            .rev()
            .find(|(m, _)| *m <= minute)
            .map_or(0, |(_, v)| *v)
    }

    /// The visible range by the light `minutes` before nightfall (`None`: unlimited, more
    /// than the table's reach before night). A time between two lines reads the earlier
    /// turn's line (its start).
    pub fn before_night(&self, minutes: u32) -> Option<u8> {
        if minutes == 0 {
            return Some(0);
        }
        let turn = minutes.div_ceil(10) as usize;
        if turn > self.dusk.len() {
            return None;
        }
        Some(self.dusk[self.dusk.len() - turn])
    }

    /// The visible range `minutes` after dawn: the dusk table reversed ([24]).
    pub fn after_dawn(&self, minutes: u32) -> Option<u8> {
        if minutes == 0 {
            return Some(0);
        }
        let turn = (minutes / 10) as usize;
        if turn > self.dusk.len() {
            return None;
        }
        if turn == 0 {
            return Some(0);
        }
        Some(self.dusk[self.dusk.len() - turn])
    }
}

impl Weather {
    /// The light at a minute of the day ([24]; HM53): 0 at night, that is from `night` on
    /// and, when the battle starts before light, before `dawn`; the dusk table over the hour
    /// before night, the same reversed over the hour after dawn (the shorter when the two
    /// overlap); `None` (unlimited, subject to terrain) in full day.
    pub fn light_at(&self, minute: u32, dawn: Option<u32>, night: u32) -> Option<u8> {
        if minute >= night || dawn.is_some_and(|d| minute < d) {
            return Some(0);
        }
        let dusk = self.before_night(night - minute);
        let morning = dawn.and_then(|d| self.after_dawn(minute - d));
        visibility(dusk, morning)
    }
}

/// The visible range of a turn: the shorter of the weather's and the light's (`None`:
/// unlimited, subject to terrain).
pub fn visibility(weather: Option<u8>, light: Option<u8>) -> Option<u8> {
    match (weather, light) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Whether the visibility is restricted (for messengers, [24]).
pub fn restricted(visibility: Option<u8>) -> bool {
    visibility.is_some()
}
