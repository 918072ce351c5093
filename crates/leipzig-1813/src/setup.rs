//! Building a game from a scenario (How to Use the Scenarios): every force of the set-up
//! created as divisions, supply units, depots and leaders; those "directly on" a place put
//! there at once, the others waiting for their owner to place them (the Allies first); the
//! reinforcement chart and the special rules' forces resolved to sets of hexes.

use crate::board::Board;
use crate::data::Tables;
use crate::europe::{Area, Europe};
use crate::game::{Arrival, Chance, Ctx, Game, GameError, Losses, Status, Step, DATA_SIDES};
use crate::scenario::{Location, Scenario};
use crate::units::{Arm, Units};
use hexmap::Hex;
use std::sync::Arc;

/// The hex sets of the special rules' forces, in `Ctx::hexsets` after the placements'.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SpecialSets {
    pub bavaria: u16,
    pub north_allied: u16,
    pub north_french: u16,
    pub intervention: u16,
    /// Austria's hexes on the map's edges (the armistice's Allied exits and returns, L41).
    pub austria_edge: u16,
}

fn side_index(name: &str) -> Option<u8> {
    DATA_SIDES.iter().position(|s| *s == name).map(|i| i as u8)
}

fn nationality_index(units: &Units, side: u8, name: Option<&str>) -> u8 {
    name.and_then(|n| {
        units
            .side(DATA_SIDES[usize::from(side)])?
            .nationalities
            .iter()
            .position(|x| x == n)
    })
    .unwrap_or(0) as u8
}

pub(crate) fn build(
    scenario: &Scenario,
    tables: &Tables,
    units: &Units,
    europe: &Europe,
) -> Result<Game, GameError> {
    let err = |m: String| GameError::Scenario(scenario.id.clone(), m);
    let board = Board::new(europe, tables);
    let smallest_of = |arm: Arm| -> Result<u8, GameError> {
        units
            .kinds
            .iter()
            .position(|k| k.arm == arm && k.worth == 1)
            .map(|i| i as u8)
            .ok_or_else(|| err(format!("the counters have no smallest {arm:?} kind")))
    };
    let depot = units
        .kinds
        .iter()
        .position(|k| k.arm == Arm::Depot)
        .map(|i| i as u8)
        .ok_or_else(|| err("the counters have no depot".into()))?;
    let smallest = [
        smallest_of(Arm::Infantry)?,
        smallest_of(Arm::Cavalry)?,
        smallest_of(Arm::Supply)?,
        depot,
        smallest_of(Arm::Leader)?,
    ];
    let mut hexsets: Vec<Vec<Hex>> = Vec::new();
    let mut set_of = |hexes: &[Hex]| -> u16 {
        if let Some(i) = hexsets.iter().position(|s| s == hexes) {
            return i as u16;
        }
        hexsets.push(hexes.to_vec());
        (hexsets.len() - 1) as u16
    };
    let mut setup = Vec::new();
    for p in &scenario.setup {
        let side = side_index(&p.side).ok_or_else(|| err(format!("side {}", p.side)))?;
        let set = set_of(&p.hexes);
        setup.push((side, set, p));
    }
    let city = |l: &Location| -> Option<u8> {
        match l {
            Location::Place { name, .. } => crate::victory::CITIES
                .iter()
                .position(|c| c == name)
                .map(|i| i as u8),
            Location::Area(_) => None,
        }
    };
    let mut arrivals = Vec::new();
    for p in &scenario.reinforcements {
        let side = side_index(&p.side).ok_or_else(|| err(format!("side {}", p.side)))?;
        arrivals.push(Arrival {
            side,
            turn: p.turn.unwrap_or(0),
            hexset: set_of(&p.hexes),
            force: p.force.clone(),
            nationality: nationality_index(units, side, p.nationality.as_deref()),
            city: if side == 1 { city(&p.location) } else { None },
            needs_austria: p.needs_austria,
        });
    }
    let east_edge = set_of(europe.area(Area::EastEdge));
    let austria_edge: Vec<Hex> = (0..board.len())
        .map(|i| board.hex_at(i))
        .filter(|&h| board.hex(h).austria && board.neighbours(h).count() < 6)
        .collect();
    let austria_edge = set_of(&austria_edge);
    let r = &scenario.rules;
    let specials = SpecialSets {
        bavaria: r
            .bavarian_defection
            .as_ref()
            .map_or(u16::MAX, |b| set_of(europe.area(b.area))),
        north_allied: r
            .northern_option
            .as_ref()
            .map_or(u16::MAX, |n| set_of(europe.area(n.allied_area))),
        north_french: r
            .northern_option
            .as_ref()
            .map_or(u16::MAX, |n| set_of(europe.area(n.french_area))),
        intervention: scenario
            .intervention
            .as_ref()
            .map_or(u16::MAX, |p| set_of(&p.hexes)),
        austria_edge,
    };
    let digest = engine::hash_bytes(
        format!(
            "leipzig-1813 {:016x} {:016x} {:016x} {}",
            scenario.digest, tables.digest, units.digest, europe.map.id
        )
        .as_bytes(),
    );
    let ctx = Ctx {
        scenario: scenario.clone(),
        tables: tables.clone(),
        units: units.clone(),
        board,
        hexsets,
        arrivals,
        east_edge,
        specials,
        smallest,
        digest,
    };
    let mut g = Game {
        ctx: Arc::new(ctx),
        units: Vec::new(),
        turn: scenario.first_turn,
        player: 0,
        step: Step::Setup,
        setup_side: 1,
        chance: Chance::None,
        combats: Vec::new(),
        next_combat: 0,
        overrun: Vec::new(),
        city_owner: [2; 5],
        losses: [Losses::default(); 2],
        next_serial: [0; 2],
        austria_intervened: None,
        bavaria_defected: None,
        berlin_taken: None,
        rebellion_from: None,
        removals_due: 0,
        advance: None,
        exited: [0; 3],
        armistice_from: None,
        away: Vec::new(),
        due: Vec::new(),
        retreat_choice: None,
        events: Vec::new(),
        since_chance: 0,
        outcome: None,
    };
    let gotha = r.gotha_march.as_ref().map(|m| m.at.clone());
    let saxon = r.saxon_garrison.as_ref().map(|m| m.at.clone());
    // How to Use the Scenarios: the Allies deploy first.
    setup.sort_by_key(|(side, _, _)| std::cmp::Reverse(*side));
    for (side, set, p) in setup {
        let nat = nationality_index(units, side, p.nationality.as_deref());
        let made = g.create_force(side, &p.force, nat, set);
        let at = match &p.location {
            Location::Place { name, .. } => Some(name.clone()),
            Location::Area(_) => None,
        };
        for &i in &made {
            if at.is_some() && at == gotha && side == 0 {
                g.units[i].gotha = true;
            }
            if at.is_some() && at == saxon && p.nationality.as_deref() == Some("Saxon") {
                g.units[i].saxon = true;
            }
        }
    }
    // Units "directly on" a place go there at once.
    for i in 0..g.units.len() {
        let set = usize::from(g.units[i].hexset);
        if g.ctx.hexsets.get(set).is_some_and(|s| s.len() == 1) {
            let h = g.ctx.hexsets[set][0];
            let u = &mut g.units[i];
            u.status = Status::OnMap;
            u.hex = h;
            u.hexset = u16::MAX;
        }
    }
    // The French always have a set-up step (to combine what stands directly on its place).
    if !g
        .units
        .iter()
        .any(|u| u.side == 1 && u.status == Status::Pending)
    {
        g.setup_side = 0;
    }
    Ok(g)
}
