//! Melee strengths, columns, shifts and the melee table: pure arithmetic, no game state.
//!
//! The rulebook describes its melee table (columns as percentages of the defender's strength,
//! results in losses, retreats, morale checks and leader losses) but does not print it: ours is
//! data in `data/bon.toml` (`[melee]`), replaceable by a player, and designed in
//! `docs/napoleonic-battles.md`. Strengths are kept in half points (infantry beyond the first
//! six strength points counts one half each), so 5.5 is 11.
//!
//! ```
//! use napoleonic_battles::data::Supplement;
//! use napoleonic_battles::melee::{assess, Column, HexForce, MeleeSituation, Through};
//!
//! let data = Supplement::bon();
//! // 5 SP of infantry against 3, through the defender's flank.
//! let s = MeleeSituation {
//!     attacker: HexForce { infantry: 5, ..HexForce::default() },
//!     defender: HexForce { infantry: 3, ..HexForce::default() },
//!     attacker_morale: 3,
//!     defender_morale: 3,
//!     through: Through::Flank,
//!     ..MeleeSituation::default()
//! };
//! let odds = assess(&data.melee, &s, &data.stacking);
//! assert_eq!(odds.percent, Some(166)); // read on 150%, rounded for the defender
//! assert_eq!(odds.shifts.len(), 1); // the flank: one column right, to 200%
//! let Column::Table(c) = odds.column else { panic!() };
//! assert_eq!(data.melee.column_name(c), "200%");
//! let result = data.melee.result(c, 6);
//! assert!(result.defender_retreat > 0 && result.defender_leader_loss);
//! ```

use crate::data::{StackLimits, TerrainClass};
use serde::Deserialize;
use std::fmt;

/// The strength points of one side's units in the melee hex, by type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HexForce {
    /// Infantry strength points.
    pub infantry: u16,
    /// Cavalry strength points.
    pub cavalry: u16,
    /// Artillery strength points (they defend; artillery never attacks).
    pub artillery: u16,
}

impl HexForce {
    /// True when the force has no strength points at all.
    pub fn is_empty(&self) -> bool {
        self.infantry == 0 && self.cavalry == 0 && self.artillery == 0
    }
}

/// A force's melee strength in half points (NB SP limits for various purposes).
///
/// - Artillery: its first 6 SP count 1 each, on defence only (NB: artillery never attacks; an
///   attacker's artillery is ignored by [`assess`], which passes a force without it).
/// - Infantry: the first 6 SP of infantry and artillery together count 1 each, every further
///   infantry SP up to the hex's limit one half.
/// - Cavalry: 2 each in open terrain, 1 each in obstructed terrain.
/// - `obstructed`: the obstructed limits (half the open ones, NB Stacking and SP limits) apply
///   and SP above them are ignored. In open terrain nothing is cut: a force can exceed an
///   open limit only as a single unit stronger than the limit, which fights with its full
///   strength (NB Napoleon At Leipzig: cavalry above 6; extended to infantry by the lead's
///   decision, ruling NB5).
pub fn melee_strength_halves(f: &HexForce, obstructed: bool, limits: &StackLimits) -> u32 {
    let (inf, cav, art) = (
        u32::from(f.infantry),
        u32::from(f.cavalry),
        u32::from(f.artillery),
    );
    // NB SP limits: artillery beyond its first 6 SP adds nothing to melee defence.
    let art = art.min(6);
    let (foot_cap, cav_cap) = if obstructed {
        (
            u32::from(limits.infantry.max(limits.artillery)) / 2,
            u32::from(limits.cavalry) / 2,
        )
    } else {
        (u32::MAX, u32::MAX)
    };
    // Infantry and artillery share the foot limit (brigade scale); excess is ignored.
    let foot = (inf + art).min(foot_cap);
    let whole = foot.min(6);
    let half = foot - whole;
    let cav = cav.min(cav_cap);
    let cav_halves = if obstructed { cav * 2 } else { cav * 4 };
    whole * 2 + half + cav_halves
}

/// Through which of the defender's hexsides a melee is delivered (NB Movement procedures,
/// facing: 3 front, 2 flank, 1 rear).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Through {
    /// One of the defender's 3 front hexsides.
    #[default]
    Front,
    /// One of its 2 flank hexsides.
    Flank,
    /// Its rear hexside.
    Rear,
}

/// The kind of the attacking hex's fighting units (artillery never attacks, and brigade-scale
/// stacking never mixes infantry with cavalry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AttackerArm {
    /// Infantry (with any artillery stacked with it, which does not fight).
    #[default]
    Infantry,
    /// Cavalry (with any horse artillery, which does not fight).
    Cavalry,
}

/// Everything the melee arithmetic needs to know of one melee: the game fills it in.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MeleeSituation {
    /// The attacking hex's SP (its artillery is ignored: artillery never attacks).
    pub attacker: HexForce,
    /// The defending hex's SP.
    pub defender: HexForce,
    /// The arm of the attacking units.
    pub attacker_arm: AttackerArm,
    /// The attackers' morale: the lowest in the attacking hex (NB Melee phase procedures),
    /// after demoralization.
    pub attacker_morale: i8,
    /// The defenders' morale: the highest in the defending hex, after demoralization.
    pub defender_morale: i8,
    /// The defender is disordered (ruling NB12: any defending unit disordered).
    pub defender_disordered: bool,
    /// Through which of the defender's hexsides the melee comes.
    pub through: Through,
    /// Every attacking unit is French Old Guard infantry (the "dot" shift).
    pub attacker_old_guard: bool,
    /// Some defending unit is Old Guard infantry (a "dot" unit: no dot shift against it).
    pub defender_old_guard: bool,
    /// Every attacking unit is heavy cavalry (speed 6 class, [`crate::data::CavalryClass`]).
    pub attacker_heavy_cavalry: bool,
    /// Every defending unit that fights is light cavalry.
    pub defender_light_cavalry: bool,
    /// The defender's hex terrain class (its hex, or its hexsides' bearing: see the fields).
    pub terrain: TerrainClass,
    /// The melee crosses a major-river bridge (NB Leipzig Terrain Effects).
    pub across_bridge: bool,
    /// The melee crosses a stream hexside, bridged or not.
    pub across_stream: bool,
    /// The melee goes up a slope hexside.
    pub up_slope: bool,
}

/// One column shift and why (positive to the right, in the attacker's favour).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shift {
    /// The rule that gives it (`"NB Melee phase procedures"`).
    pub rule: &'static str,
    /// Columns: +1 right (attacker), -1 left (defender).
    pub by: i8,
    /// Why, for a player.
    pub why: String,
}

/// The column a melee is resolved on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// A column of the table (index from the left).
    Table(usize),
    /// Below the leftmost column after every shift (or no attack strength at all): the melee
    /// may not be made (ruling NB7).
    Off,
}

/// The assessment of one melee: strengths, base column, every shift and the final column.
#[derive(Clone, Debug, PartialEq)]
pub struct MeleeOdds {
    /// The attacker's melee strength, half points.
    pub attack_halves: u32,
    /// The defender's melee strength, half points.
    pub defence_halves: u32,
    /// The attack as a percentage of the defence, rounded down (`None` when the defence is 0).
    pub percent: Option<u32>,
    /// The highest column the percentage reaches (`None`: below the leftmost).
    pub base: Option<usize>,
    /// Every shift that applies, in the order the rules give them.
    pub shifts: Vec<Shift>,
    /// The column after the shifts (shifts past the rightmost stop at it).
    pub column: Column,
}

impl MeleeOdds {
    /// The assessment in words for a player: both strengths, the percentage, the base column,
    /// every shift with its rule, and the column: `5 against 3 (166%): 150%; +1 through the
    /// defender's flank (NB Melee phase procedures): 200%`.
    pub fn explain(&self, t: &MeleeTable) -> String {
        let half = |h: u32| {
            if h.is_multiple_of(2) {
                format!("{}", h / 2)
            } else {
                format!("{}.5", h / 2)
            }
        };
        let mut s = format!(
            "{} against {}",
            half(self.attack_halves),
            half(self.defence_halves)
        );
        match self.percent {
            Some(p) => s.push_str(&format!(" ({p}%)")),
            None => s.push_str(" (no defence)"),
        }
        match self.base {
            Some(b) => s.push_str(&format!(": {}", t.column_name(b))),
            None => s.push_str(&format!(": below {}", t.column_name(0))),
        }
        for sh in &self.shifts {
            s.push_str(&format!("; {:+} {} ({})", sh.by, sh.why, sh.rule));
        }
        match self.column {
            Column::Table(c) if !self.shifts.is_empty() => {
                s.push_str(&format!(": {}", t.column_name(c)))
            }
            Column::Table(_) => {}
            Column::Off => s.push_str(": off the table, the melee may not be made (NB7)"),
        }
        s
    }
}

/// One result of the melee table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MeleeResult {
    /// SP the attacker loses.
    pub attacker_loss: u8,
    /// SP the defender loses.
    pub defender_loss: u8,
    /// Hexes the attacker retreats (0: none).
    pub attacker_retreat: u8,
    /// Hexes the defender retreats (0: none).
    pub defender_retreat: u8,
    /// The attacking units check morale with the morale die (failing: disordered).
    pub attacker_morale_check: bool,
    /// The defending units check morale with the morale die (failing: disordered).
    pub defender_morale_check: bool,
    /// The attacker's leader in the attacking hex may be lost.
    pub attacker_leader_loss: bool,
    /// The defender's leader in the defending hex may be lost.
    pub defender_leader_loss: bool,
}

impl fmt::Display for MeleeResult {
    /// The cell notation of `data/bon.toml`: `attacker/defender`, each side its loss, then
    /// `r` and hexes of retreat, `m` for a morale check, `L` for a leader loss (`1r1mL/0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn side(f: &mut fmt::Formatter<'_>, loss: u8, r: u8, m: bool, l: bool) -> fmt::Result {
            write!(f, "{loss}")?;
            if r > 0 {
                write!(f, "r{r}")?;
            }
            if m {
                write!(f, "m")?;
            }
            if l {
                write!(f, "L")?;
            }
            Ok(())
        }
        side(
            f,
            self.attacker_loss,
            self.attacker_retreat,
            self.attacker_morale_check,
            self.attacker_leader_loss,
        )?;
        write!(f, "/")?;
        side(
            f,
            self.defender_loss,
            self.defender_retreat,
            self.defender_morale_check,
            self.defender_leader_loss,
        )
    }
}

/// Why a melee table (the `[melee]` section) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("melee table: {0}")]
pub struct TableError(pub String);

/// The melee table as written in `[melee]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTableFile {
    /// How many d6 the roll is (1 or 2).
    pub dice: u8,
    /// Column percentages, strictly increasing (`[25, 50, 75, 100, ...]`).
    pub columns: Vec<u32>,
    /// One row per roll (lowest first), one cell per column, in the notation of
    /// [`MeleeResult`]'s `Display`.
    pub results: Vec<Vec<String>>,
}

/// The melee table: columns as percentages of the defender's strength, one result per column
/// and roll. Data, replaceable (`[melee]` of `data/bon.toml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeleeTable {
    dice: u8,
    columns: Vec<u32>,
    /// `results[column][roll - lowest]`.
    results: Vec<Vec<MeleeResult>>,
}

fn parse_side(s: &str) -> Result<(u8, u8, bool, bool), String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == 0 {
        return Err(format!("'{s}' does not start with a loss in SP"));
    }
    let loss: u8 = s[..i]
        .parse()
        .map_err(|_| format!("'{s}': loss too large"))?;
    let (mut r, mut m, mut l) = (0u8, false, false);
    let mut seen_r = false;
    while i < b.len() {
        match b[i] {
            b'r' if !seen_r => {
                seen_r = true;
                let st = i + 1;
                i = st;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if i == st {
                    return Err(format!("'{s}': r needs a number of hexes"));
                }
                r = s[st..i]
                    .parse()
                    .map_err(|_| format!("'{s}': retreat too long"))?;
                if r == 0 {
                    return Err(format!("'{s}': a retreat of 0 hexes"));
                }
                continue;
            }
            b'm' if !m => m = true,
            b'L' if !l => l = true,
            _ => {
                return Err(format!(
                    "'{s}': unexpected '{}' (expected r<hexes>, m, L once each)",
                    b[i] as char
                ))
            }
        }
        i += 1;
    }
    Ok((loss, r, m, l))
}

/// Parses one cell (`1r1mL/0`).
pub fn parse_result(cell: &str) -> Result<MeleeResult, String> {
    let (a, d) = cell
        .trim()
        .split_once('/')
        .ok_or_else(|| format!("'{cell}' has no '/' between attacker and defender"))?;
    let (al, ar, am, all) = parse_side(a.trim())?;
    let (dl, dr, dm, dll) = parse_side(d.trim())?;
    Ok(MeleeResult {
        attacker_loss: al,
        defender_loss: dl,
        attacker_retreat: ar,
        defender_retreat: dr,
        attacker_morale_check: am,
        defender_morale_check: dm,
        attacker_leader_loss: all,
        defender_leader_loss: dll,
    })
}

impl MeleeTable {
    /// Validates a table as written: 1 or 2 dice, at least one column, percentages strictly
    /// increasing and above 0, one row per roll and one well-formed cell per column.
    pub fn from_file(f: &MeleeTableFile) -> Result<MeleeTable, TableError> {
        let err = |s: String| Err(TableError(s));
        if !(1..=2).contains(&f.dice) {
            return err(format!("dice = {}: the roll is 1 or 2 d6", f.dice));
        }
        if let Err(why) = engine::tables::check_percent_columns(&f.columns) {
            return err(why);
        }
        let rolls = 5 * usize::from(f.dice) + 1;
        if f.results.len() != rolls {
            return err(format!(
                "{} rows of results for {} d6: expected {rolls} (one per roll, lowest first)",
                f.results.len(),
                f.dice
            ));
        }
        let mut results = vec![Vec::with_capacity(rolls); f.columns.len()];
        for (r, row) in f.results.iter().enumerate() {
            let roll = r + usize::from(f.dice);
            if row.len() != f.columns.len() {
                return err(format!(
                    "the row of roll {roll} has {} cells for {} columns",
                    row.len(),
                    f.columns.len()
                ));
            }
            for (c, cell) in row.iter().enumerate() {
                let res = parse_result(cell).map_err(|e| {
                    TableError(format!("roll {roll}, column {}%: {e}", f.columns[c]))
                })?;
                results[c].push(res);
            }
        }
        Ok(MeleeTable {
            dice: f.dice,
            columns: f.columns.clone(),
            results,
        })
    }

    /// How many d6 the melee roll is.
    pub fn dice(&self) -> u8 {
        self.dice
    }

    /// The lowest roll (the number of dice).
    pub fn lowest_roll(&self) -> u8 {
        self.dice
    }

    /// The highest roll.
    pub fn highest_roll(&self) -> u8 {
        self.dice * 6
    }

    /// Every roll with its integer chance weight (out of 6 or 36), for the engine's chance
    /// events.
    pub fn roll_weights(&self) -> Vec<(u8, u32)> {
        if self.dice == 1 {
            (1..=6).map(|r| (r, 1)).collect()
        } else {
            (2..=12u8)
                .map(|r| (r, 6 - (i32::from(r) - 7).unsigned_abs()))
                .collect()
        }
    }

    /// The number of columns.
    pub fn columns(&self) -> usize {
        self.columns.len()
    }

    /// A column's percentage.
    pub fn percent(&self, column: usize) -> u32 {
        self.columns[column.min(self.columns.len() - 1)]
    }

    /// The result of a roll on a column (a column past the rightmost reads the rightmost; a
    /// roll outside the dice's range reads the nearest).
    pub fn result(&self, column: usize, roll: u8) -> &MeleeResult {
        let col = &self.results[column.min(self.results.len() - 1)];
        let r = roll.clamp(self.lowest_roll(), self.highest_roll()) - self.lowest_roll();
        &col[usize::from(r)]
    }

    /// A column's name, `150%`.
    pub fn column_name(&self, c: usize) -> String {
        format!("{}%", self.percent(c))
    }

    /// The highest column whose percentage the attack reaches (`None` below the leftmost):
    /// the percentage is rounded down, in favour of the defender (NB Combat results tables).
    pub fn base_column(&self, attack_halves: u32, defence_halves: u32) -> Option<usize> {
        if attack_halves == 0 {
            return None;
        }
        if defence_halves == 0 {
            return Some(self.columns.len() - 1);
        }
        let pct = (u64::from(attack_halves) * 100 / u64::from(defence_halves)) as u32;
        self.columns.iter().rposition(|&c| c <= pct)
    }

    /// The chance (0..=1) of the results on a column that satisfy `pred`.
    pub fn chance(&self, column: usize, pred: impl Fn(&MeleeResult) -> bool) -> f64 {
        let w = self.roll_weights();
        let total: u32 = w.iter().map(|x| x.1).sum();
        let hit: u32 = w
            .iter()
            .filter(|(r, _)| pred(self.result(column, *r)))
            .map(|x| x.1)
            .sum();
        f64::from(hit) / f64::from(total)
    }

    /// The expected SP losses (attacker, defender) on a column.
    pub fn expected_losses(&self, column: usize) -> (f64, f64) {
        let w = self.roll_weights();
        let total: u32 = w.iter().map(|x| x.1).sum();
        let (mut a, mut d) = (0u32, 0u32);
        for (r, wt) in w {
            let res = self.result(column, r);
            a += u32::from(res.attacker_loss) * wt;
            d += u32::from(res.defender_loss) * wt;
        }
        (
            f64::from(a) / f64::from(total),
            f64::from(d) / f64::from(total),
        )
    }
}

/// The rule names shifts cite.
const PROCEDURES: &str = "NB Melee phase procedures";
const LEIPZIG: &str = "NB Napoleon At Leipzig";
const TERRAIN: &str = "NB Leipzig Terrain Effects";

/// Assesses a melee: both strengths (NB SP limits for various purposes, with the attacked
/// hex's limits applying to the attacker, NB Melee phase procedures), the base column, every
/// shift with its rule, and the final column.
pub fn assess(t: &MeleeTable, s: &MeleeSituation, limits: &StackLimits) -> MeleeOdds {
    // NB Melee phase procedures: the attacked hex's stacking limit binds the attacker too;
    // NB Leipzig Terrain Effects: across a major-river bridge the attackers use the
    // obstructed limits (the defenders do not).
    let attacker_obstructed = s.terrain.obstructed || s.across_bridge;
    // NB SP limits: artillery never participates in melee attacks.
    let attacker = HexForce {
        artillery: 0,
        ..s.attacker
    };
    let attack_halves = melee_strength_halves(&attacker, attacker_obstructed, limits);
    let defence_halves = melee_strength_halves(&s.defender, s.terrain.obstructed, limits);
    let percent = (defence_halves > 0)
        .then(|| (u64::from(attack_halves) * 100 / u64::from(defence_halves)) as u32);
    let base = t.base_column(attack_halves, defence_halves);
    let mut shifts = Vec::new();
    let mut add = |rule: &'static str, by: i8, why: &str| {
        shifts.push(Shift {
            rule,
            by,
            why: why.to_string(),
        })
    };
    // NB Melee phase procedures: flank or rear.
    match s.through {
        Through::Flank => add(PROCEDURES, 1, "through the defender's flank"),
        Through::Rear => add(PROCEDURES, 1, "through the defender's rear"),
        Through::Front => {}
    }
    // NB Melee phase procedures: disordered defenders.
    if s.defender_disordered {
        add(PROCEDURES, 1, "the defender is disordered");
    }
    // NB Melee phase procedures: morale 2 or more higher.
    let diff = i16::from(s.attacker_morale) - i16::from(s.defender_morale);
    if diff >= 2 {
        add(PROCEDURES, 1, "the attacker's morale is 2 or more higher");
    } else if diff <= -2 {
        add(PROCEDURES, -1, "the defender's morale is 2 or more higher");
    }
    // NB Napoleon At Leipzig: heavy cavalry against light cavalry, on the attack.
    if s.attacker_arm == AttackerArm::Cavalry
        && s.attacker_heavy_cavalry
        && s.defender_light_cavalry
    {
        add(LEIPZIG, 1, "heavy cavalry attacking light cavalry");
    }
    // NB Napoleon At Leipzig and NB Combat results tables: Old Guard infantry, a "dot" unit,
    // attacking a defender with no dot unit.
    if s.attacker_arm == AttackerArm::Infantry && s.attacker_old_guard && !s.defender_old_guard {
        add(LEIPZIG, 1, "Old Guard infantry attacking");
    }
    // NB Leipzig Terrain Effects: bridge, village/town against cavalry, fortified, stream,
    // up slope. Swamp and forest are obstructed only.
    if s.across_bridge {
        add(TERRAIN, -1, "attacking across a bridge");
    }
    if s.terrain.village && s.attacker_arm == AttackerArm::Cavalry {
        add(TERRAIN, -1, "cavalry attacking a village or town");
    }
    if s.terrain.fortified {
        add(TERRAIN, -1, "attacking a fortified hex");
    }
    if s.across_stream {
        add(TERRAIN, -1, "attacking across a stream");
    }
    if s.up_slope {
        add(TERRAIN, -1, "attacking up a slope");
    }
    let total: i32 = shifts.iter().map(|x| i32::from(x.by)).sum();
    let column = if attack_halves == 0 {
        Column::Off
    } else {
        // Ruling NB7: below the leftmost column is one virtual column left of it; shifts
        // move from there; past the rightmost stops at the rightmost.
        let from = base.map(|b| b as i32).unwrap_or(-1);
        let c = from + total;
        if c < 0 {
            Column::Off
        } else {
            Column::Table((c as usize).min(t.columns() - 1))
        }
    };
    MeleeOdds {
        attack_halves,
        defence_halves,
        percent,
        base,
        shifts,
        column,
    }
}

/// A morale check or rally roll passes when the die is at most the morale after modifiers
/// (NB Morale and disorder rules).
pub fn morale_passes(morale: i8, die: u8) -> bool {
    i16::from(die) <= i16::from(morale)
}
