//! The national army tables ([16]): every kind of unit the text names ([2.4]), its combat
//! strength per base unit ordered and disordered, its movement in hexes and its morale (the
//! number a disrupted unit needs to rally, [6.1]). The text names the tables but does not print
//! them: ours are data (`[army.<nation>]`), reconstructed in `docs/hex-miniatures.md`.

use crate::prob::Prob;
use std::fmt;

/// The three fighting arms and the command units ([2.4.1]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arm {
    /// Battalions ([2.4.3]).
    Infantry,
    /// Regiments of squadrons ([2.4.4]).
    Cavalry,
    /// Batteries ([2.4.5]).
    Artillery,
    /// Generals and messengers ([2.4.6]): no fighting value.
    Command,
}

/// A kind of fighting unit, by its arm and quality ([2.4.3.2], [2.4.4.2]-[2.4.4.5],
/// [2.4.5.2]). Command units are [`Arm::Command`] and live in `[command]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Guard infantry (elite).
    Guard,
    /// Grenadiers (the British Highlanders in their place, [2.4.3.2]).
    Grenadier,
    /// Line infantry.
    Line,
    /// Light infantry (with the line, the majority of trained infantry).
    Light,
    /// Landwehr, Opolchenie and militia.
    Militia,
    /// Heavy cavalry: Guards, Carabiniers, Cuirassiers ([2.4.4.3]).
    HeavyCavalry,
    /// Medium cavalry: Dragoons ([2.4.4.4]).
    MediumCavalry,
    /// Light cavalry: Chasseurs, Hussars, Cossacks ([2.4.4.5]).
    LightCavalry,
    /// Uhlans and lancers: light cavalry with medium shock in their first move of contact
    /// ([2.4.4.5]).
    Lancers,
    /// A foot battery ([2.4.5.2]).
    FootBattery,
    /// A horse battery ([2.4.5.2]).
    HorseBattery,
}

impl Kind {
    /// Every kind, in the table's order.
    pub const ALL: [Kind; 11] = [
        Kind::Guard,
        Kind::Grenadier,
        Kind::Line,
        Kind::Light,
        Kind::Militia,
        Kind::HeavyCavalry,
        Kind::MediumCavalry,
        Kind::LightCavalry,
        Kind::Lancers,
        Kind::FootBattery,
        Kind::HorseBattery,
    ];

    /// Its data name (`line`, `heavy-cavalry`, `foot-battery`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Kind::Guard => "guard",
            Kind::Grenadier => "grenadier",
            Kind::Line => "line",
            Kind::Light => "light",
            Kind::Militia => "militia",
            Kind::HeavyCavalry => "heavy-cavalry",
            Kind::MediumCavalry => "medium-cavalry",
            Kind::LightCavalry => "light-cavalry",
            Kind::Lancers => "lancers",
            Kind::FootBattery => "foot-battery",
            Kind::HorseBattery => "horse-battery",
        }
    }

    /// The kind of a data name.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The kind of a unit described by its arm and class as a scenario writes them
    /// (`infantry` `guard` | `grenadier` | `highlander` | `line` | `light` | `militia` |
    /// `landwehr` | `opolchenie`; `cavalry` `heavy` | `medium` | `light` | `lancers` | `uhlan`;
    /// `artillery` `foot` | `horse`), the names the text uses ([2.4.3.2], [2.4.4.2]-[2.4.4.5],
    /// [2.4.5.2]); `None` for any other pair.
    pub fn classify(arm: &str, class: &str) -> Option<Kind> {
        Some(match (arm, class) {
            ("infantry", "guard") => Kind::Guard,
            ("infantry", "grenadier" | "highlander") => Kind::Grenadier,
            ("infantry", "line") => Kind::Line,
            ("infantry", "light") => Kind::Light,
            ("infantry", "militia" | "landwehr" | "opolchenie") => Kind::Militia,
            ("cavalry", "heavy") => Kind::HeavyCavalry,
            ("cavalry", "medium") => Kind::MediumCavalry,
            ("cavalry", "light") => Kind::LightCavalry,
            ("cavalry", "lancers" | "lancer" | "uhlan" | "uhlans") => Kind::Lancers,
            ("artillery", "foot") => Kind::FootBattery,
            ("artillery", "horse") => Kind::HorseBattery,
            _ => return None,
        })
    }

    /// Its arm.
    pub fn arm(self) -> Arm {
        match self {
            Kind::Guard | Kind::Grenadier | Kind::Line | Kind::Light | Kind::Militia => {
                Arm::Infantry
            }
            Kind::HeavyCavalry | Kind::MediumCavalry | Kind::LightCavalry | Kind::Lancers => {
                Arm::Cavalry
            }
            Kind::FootBattery | Kind::HorseBattery => Arm::Artillery,
        }
    }

    /// The base units a full unit of the kind starts with ([2.4.3.1]: a battalion of 5;
    /// [2.4.4]: a regiment of 3 or 4 squadrons, 4 unless the scenario says 3; [2.4.5.3]: a
    /// battery counts as one).
    pub fn full_base_units(self) -> u8 {
        match self.arm() {
            Arm::Infantry => 5,
            Arm::Cavalry => 4,
            _ => 1,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A unit's state of order ([2.4.1.1]-[2.4.1.5]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Ordered: full combat value.
    Ordered,
    /// Disordered (disrupted): its disordered value ([2.4.1.2]).
    Disordered,
    /// Retiring: withdraws in the state it was in, disrupted by the result that made it
    /// retire ([9.8.2], [9.8.6]): its disordered value.
    Retiring,
    /// Routed: cannot attack; attacked, the whole unit defends as 1 ([8.8.3]).
    Routed,
}

/// One line of a national army table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmyLine {
    /// Combat strength of one base unit, ordered.
    pub strength: u32,
    /// Combat strength of one base unit, disordered (also retiring, and in square [9.4.1]).
    pub disordered: u32,
    /// Lancers only: the strength of one base unit in their first move of contact ([2.4.4.5]).
    pub first_contact: Option<u32>,
    /// Movement allowance in hexes ([2.4.3.3], [2.4.4.3]-[2.4.4.5], [2.4.5.2]).
    pub movement: u8,
    /// The number a disrupted unit needs to rally ([6.1]).
    pub rally: Prob,
}

/// A national army table: a nation and the line of each kind it fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NationalArmy {
    /// The nation (`French`, `Prussian`, ...).
    pub nation: String,
    /// Its kinds, in [`Kind::ALL`]'s order.
    pub lines: Vec<(Kind, ArmyLine)>,
}

impl NationalArmy {
    /// The line of a kind, if the nation fields it.
    pub fn line(&self, kind: Kind) -> Option<&ArmyLine> {
        self.lines.iter().find(|(k, _)| *k == kind).map(|(_, l)| l)
    }
}

/// A unit's movement allowance in hexes this turn: its table's, one hex more on the first
/// move of a rout ([2.4.1.5], [2.4.3.3], [2.4.4.3]-[2.4.4.5]); a routed unit keeps its normal
/// speed after that ([9.8.1]).
pub fn allowance(line: &ArmyLine, order: Order, first_rout_move: bool) -> u8 {
    if order == Order::Routed && first_rout_move {
        line.movement.saturating_add(1)
    } else {
        line.movement
    }
}

/// What a unit is doing when its strength is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Circumstance {
    /// Infantry in square: its disordered value whatever its order ([9.4.1]).
    pub in_square: bool,
    /// Lancers in their first move of contact ([2.4.4.5]).
    pub first_contact: bool,
    /// Artillery in a combat exchange with infantry ([9.1.6]): 1, attacking or defending.
    pub artillery_in_exchange: bool,
}

/// A unit's combat strength ([9.4.1], [16]): base units times the value of its state; a
/// routed unit defends as 1 whatever its size ([8.8.3]); artillery in an exchange is 1
/// ([9.1.6]); a unit with no base units has none.
pub fn strength(line: &ArmyLine, base_units: u8, order: Order, c: Circumstance) -> u32 {
    if base_units == 0 {
        return 0;
    }
    if order == Order::Routed || c.artillery_in_exchange {
        return 1;
    }
    let per = match order {
        Order::Ordered if !c.in_square => match (c.first_contact, line.first_contact) {
            (true, Some(v)) => v,
            _ => line.strength,
        },
        _ => line.disordered,
    };
    per * u32::from(base_units)
}
