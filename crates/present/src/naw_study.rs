//! The study tools of a Napoleon at War game (`grognard hexsides`, `retreats`, `reach` and
//! `show --map HEX --radius N`): what a player studying a position asks, as JSON views and
//! their text. Every rules fact comes from `naw`'s public queries (movement costs, zones of
//! control, the retreat's own options, the declaration's reach); this module only arranges
//! them.
//!
//! The queries ([`query`], hosted by [`crate::NawPresenter`]) take their argument as words;
//! `--text` asks for the text form (a JSON string) instead of the JSON view:
//!
//! - `hexsides`: `HEX [RADIUS]`: [`hexsides_view`];
//! - `retreats`: `UNIT`: [`retreats_view`];
//! - `reach`: `[SIDE]`: [`reach_view`];
//! - `map_around`: `HEX [RADIUS] [LAST]`: [`map_around_view`], `LAST` a number of actions or
//!   `turn` (the default: this player-turn and the one before).

use crate::naw_views::{map_hex, side_name, unit_named};
use engine::dynamic::QueryError;
use engine::{Rules, Session, Side, ToAct};
use hexmap::{Dir, Hex, Map};
use naw::{fmt_half, Game, Loc, Opponent, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The largest radius the study tools draw or list around a hex.
pub const MAX_RADIUS: u32 = 12;

/// A hexside feature: its legend id and the name the map's legend gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureName {
    /// The legend id (`river`).
    pub id: String,
    /// The legend's name (`River`).
    pub name: String,
}

/// What crossing a hexside one way costs by terrain (5.2, 9.0), units and zones of control
/// aside: the rules' step cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    /// Movement points (`1.5`), or `None` when the step is prohibited.
    pub mp: Option<f64>,
    /// The cost as printed (`1½`), or `prohibited`.
    pub text: String,
    /// The case that prohibits it (`5.24`), when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
}

/// One hexside of the area.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyHexside {
    /// The hex of the area it is listed from.
    pub hex: String,
    /// The direction from `hex` to `to`: `E`, `NE`, `NW`, `W`, `SW` or `SE`.
    pub dir: String,
    /// The hex across it (perhaps off the map).
    pub to: String,
    /// Its features, by the map's legend (empty for a plain hexside).
    pub features: Vec<FeatureName>,
    /// Crossing from `hex` into `to`.
    pub out: Crossing,
    /// Crossing from `to` into `hex` (`None` when `to` is off the map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<Crossing>,
}

/// One hex of the area.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyHex {
    /// The hex (`XXYY`).
    pub hex: String,
    /// Its terrain's legend id.
    pub terrain: String,
    /// Its terrain's name in the legend.
    pub terrain_name: String,
    /// A slope hex (5.26).
    pub slope_hex: bool,
    /// The place named there, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// The unit standing there, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// The hexsides around a hex (`grognard hexsides`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HexsidesView {
    /// The centre hex.
    pub centre: String,
    /// Hexes within this distance are listed.
    pub radius: u32,
    /// The hexes of the area, nearest first.
    pub hexes: Vec<StudyHex>,
    /// Every hexside of the centre hex (features or not), then each hexside of the other
    /// hexes of the area that has a feature, once.
    pub hexsides: Vec<StudyHexside>,
}

fn feature_names(map: &Map, f: hexmap::Hexside) -> Vec<FeatureName> {
    let legend = map.legend();
    legend
        .feature_ids(f)
        .map(|id| FeatureName {
            id: id.to_string(),
            name: legend
                .features
                .iter()
                .find(|k| k.id == id)
                .map_or_else(|| id.to_string(), |k| k.name.clone()),
        })
        .collect()
}

fn crossing(g: &Game, from: Hex, d: Dir) -> Crossing {
    match g.terrain_step_cost(from, d) {
        Ok(c) => Crossing {
            mp: Some(c as f64 / 2.0),
            text: fmt_half(c),
            case: None,
        },
        Err(case) => Crossing {
            mp: None,
            text: "prohibited".into(),
            case: Some(case.to_string()),
        },
    }
}

/// The hexes within `radius` of `centre` on the map, nearest first, then by number.
fn area(map: &Map, centre: Hex, radius: u32) -> Vec<Hex> {
    let mut v: Vec<Hex> = map
        .hexes()
        .filter(|&h| map.distance(centre, h) <= radius)
        .collect();
    v.sort_by_key(|&h| (map.distance(centre, h), h));
    v
}

fn check_radius(radius: u32) -> Result<u32, String> {
    if radius > MAX_RADIUS {
        return Err(format!(
            "the radius is at most {MAX_RADIUS} hexes, not {radius}"
        ));
    }
    Ok(radius)
}

/// The hexes within `radius` of `centre` and their hexsides: each feature named by the
/// map's legend, and what crossing it costs each way by the rules' movement costs.
pub fn hexsides_view(g: &Game, centre: Hex, radius: u32) -> Result<HexsidesView, String> {
    let map = &g.scenario().map;
    if !map.contains(centre) {
        return Err(format!("{centre} is not on the map"));
    }
    let radius = check_radius(radius)?;
    let hexes = area(map, centre, radius);
    let mut sides = Vec::new();
    let mut seen = BTreeSet::new();
    for &h in &hexes {
        for d in Dir::ALL {
            let to = map.neighbour(h, d);
            let f = map.hexside(h, d);
            let key = if h < to { (h, to) } else { (to, h) };
            // each once, from the nearer hex (the area is nearest first)
            if (h != centre && f == hexmap::Hexside::NONE) || !seen.insert(key) {
                continue;
            }
            sides.push(StudyHexside {
                hex: h.to_string(),
                dir: d.name().to_string(),
                to: to.to_string(),
                features: feature_names(map, f),
                out: crossing(g, h, d),
                back: map.contains(to).then(|| crossing(g, to, d.opposite())),
            });
        }
    }
    Ok(HexsidesView {
        centre: centre.to_string(),
        radius,
        hexes: hexes
            .iter()
            .map(|&h| {
                let t = map.terrain_kind(h);
                StudyHex {
                    hex: h.to_string(),
                    terrain: t.id.clone(),
                    terrain_name: t.name.clone(),
                    slope_hex: map.is_slope_hex(h),
                    place: map.place_at(h).map(String::from),
                    unit: g.unit_at(h).map(|u| g.id(u).to_string()),
                }
            })
            .collect(),
        hexsides: sides,
    })
}

/// [`hexsides_view`] as text.
pub fn hexsides_text(v: &HexsidesView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Hexsides around {} (radius {}): features from the map's legend; MP is the cost of crossing \
         by terrain and hexside (5.2, 9.0), units and zones of control aside.",
        v.centre, v.radius
    );
    for h in &v.hexes {
        let mut line = format!("{} {}", h.hex, h.terrain_name);
        if h.slope_hex {
            line.push_str(", slope hex");
        }
        if let Some(p) = &h.place {
            let _ = write!(line, ", {p}");
        }
        if let Some(u) = &h.unit {
            let _ = write!(line, "; {u}");
        }
        let _ = writeln!(out, "{line}");
        for s in v.hexsides.iter().filter(|s| s.hex == h.hex) {
            let names: Vec<&str> = s.features.iter().map(|f| f.name.as_str()).collect();
            let features = if names.is_empty() {
                "-".to_string()
            } else {
                names.join(", ")
            };
            let cost = |c: &Crossing| match &c.case {
                Some(case) => format!("prohibited ({case})"),
                None => format!("{} MP", c.text),
            };
            let back = match &s.back {
                Some(b) => format!(", back {}", cost(b)),
                None => ", the map's edge".into(),
            };
            let _ = writeln!(
                out,
                "  {:<2} {}  {:<22} cross {}{}",
                s.dir,
                s.to,
                features,
                cost(&s.out),
                back
            );
        }
    }
    out
}

/// A friend a retreat would displace (7.81).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Displacement {
    /// The friend's hex.
    pub hex: String,
    /// The friend.
    pub unit: String,
}

/// A unit's retreat options (`grognard retreats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetreatsView {
    /// The unit.
    pub unit: String,
    /// Where it stands (or was displaced from).
    pub hex: String,
    /// It is retreating now; otherwise the view is a what-if: as if it had to retreat from
    /// where it stands.
    pub retreating: bool,
    /// Vacant hexes open to its retreat (7.72).
    pub vacant: Vec<String>,
    /// When no vacant hex is open: the friends it would displace (7.81, 7.82).
    pub displace: Vec<Displacement>,
    /// With neither: the unit would be eliminated, and the case (`7.72`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eliminated: Option<String>,
}

/// Where a unit could retreat: the rules' own retreat options ([`Game::retreat_choices`]).
pub fn retreats_view(g: &Game, u: UnitId) -> Result<RetreatsView, String> {
    let hex = match g.loc(u) {
        Loc::Map(h) | Loc::Lifted(h) => h,
        Loc::Waiting => return Err(format!("{} has not entered the map", g.id(u))),
        Loc::Eliminated => return Err(format!("{} has been eliminated", g.id(u))),
    };
    let c = g
        .retreat_choices(u)
        .ok_or_else(|| format!("{} is not on the map", g.id(u)))?;
    let none = c.vacant.is_empty() && c.displace.is_empty();
    Ok(RetreatsView {
        unit: g.id(u).to_string(),
        hex: hex.to_string(),
        retreating: c.retreating,
        vacant: c.vacant.iter().map(|h| h.to_string()).collect(),
        displace: c
            .displace
            .iter()
            .map(|&(h, w)| Displacement {
                hex: h.to_string(),
                unit: g.id(w).to_string(),
            })
            .collect(),
        eliminated: none.then(|| "7.72".to_string()),
    })
}

/// [`retreats_view`] as text.
pub fn retreats_text(v: &RetreatsView) -> String {
    let mut out = String::new();
    if v.retreating {
        let _ = writeln!(out, "{} in {} is retreating (7.7).", v.unit, v.hex);
    } else {
        let _ = writeln!(
            out,
            "{} in {} is not retreating; if it had to retreat now (a what-if):",
            v.unit, v.hex
        );
    }
    if !v.vacant.is_empty() {
        let _ = writeln!(out, "  it may retreat into: {} (7.72)", v.vacant.join(", "));
    } else if !v.displace.is_empty() {
        let _ = writeln!(
            out,
            "  no vacant hex is open (7.72); it would displace a friend (7.81, 7.82):"
        );
        for d in &v.displace {
            let _ = writeln!(out, "    into {}, displacing {}", d.hex, d.unit);
        }
    } else {
        let _ = writeln!(
            out,
            "  no hex is open to its retreat and no friend can make way: it would be eliminated (7.72)"
        );
    }
    out
}

/// A hex a unit could reach and its cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReachHex {
    /// The hex.
    pub hex: String,
    /// Movement points spent to get there.
    pub mp: f64,
}

/// One unit's reach.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitReach {
    /// The unit.
    pub unit: String,
    /// Where it starts: its hex, or its entry hex for a reinforcement due by then.
    pub from: String,
    /// A reinforcement entering (15.3).
    pub entering: bool,
    /// Its movement allowance.
    pub movement: u8,
    /// The hexes it could end its move in, nearest first.
    pub reach: Vec<ReachHex>,
    /// Why it could not move at all, when it could not (`5.13: ...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<String>,
    /// The enemy units it could then attack (from where it stands or from a hex it reaches).
    pub could_attack: Vec<String>,
}

/// A unit of the other side that the side studied could attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Threat {
    /// The threatened unit.
    pub unit: String,
    /// Its hex.
    pub hex: String,
    /// The units that could attack it.
    pub by: Vec<String>,
}

/// A side's reach in its next movement phase (`grognard reach`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReachView {
    /// The side studied.
    pub side: String,
    /// The game-turn of its next movement phase, `None` when it has none (the game ends).
    pub turn: Option<u8>,
    /// That game-turn is a night turn: no combat phase (10.1).
    pub night: bool,
    /// Each unit of the side on the map or due by then, with its reach.
    pub units: Vec<UnitReach>,
    /// The other side's units it could attack, and by whom.
    pub threatened: Vec<Threat>,
}

/// A side named by its name (any case) or its number (1, 2).
pub fn side_named(g: &Game, word: &str) -> Result<Side, String> {
    let sides = &g.scenario().sides;
    if let Some(i) = sides.iter().position(|s| s.eq_ignore_ascii_case(word)) {
        return Ok(Side(i as u8));
    }
    match word.parse::<usize>() {
        Ok(n) if (1..=sides.len()).contains(&n) => Ok(Side(n as u8 - 1)),
        _ => Err(format!(
            "'{word}' is not a side of this game ({})",
            sides.join(", ")
        )),
    }
}

/// The side a player at the table weighs the reach of: the opponent of the side to act.
pub fn default_reach_side(g: &Game) -> Side {
    match g.to_act() {
        ToAct::Side(s) => s.other(),
        _ => g.phasing().other(),
    }
}

/// Where each unit of `side` could move in its next movement phase as the board stands
/// ([`Game::reach`]: movement allowance, terrain, enemy units and zones of control as the
/// rules search them) and which enemy units it could then attack ([`Game::reach_targets`]).
pub fn reach_view(g: &Game, side: Side) -> ReachView {
    let turn = g.next_movement_turn(side);
    let night = turn.is_some_and(|t| g.scenario().is_night(t));
    let mut units = Vec::new();
    let mut threats: BTreeMap<UnitId, Vec<String>> = BTreeMap::new();
    for u in g.unit_ids().filter(|&u| g.side_of(u) == side) {
        let (from, entering) = match (g.loc(u), g.arrival(u)) {
            (Loc::Map(h), _) => (h, false),
            (Loc::Waiting, Some((due, entry))) if turn.is_some_and(|t| due <= t) => (entry, true),
            _ => continue,
        };
        let reach = turn.map(|t| g.reach(u, t)).unwrap_or_default();
        let mut targets: BTreeSet<UnitId> = BTreeSet::new();
        if !night && turn.is_some() {
            let starts = (!entering).then_some(from);
            for h in starts.into_iter().chain(reach.iter().map(|d| d.hex)) {
                targets.extend(g.reach_targets(u, h));
            }
        }
        for &t in &targets {
            threats.entry(t).or_default().push(g.id(u).to_string());
        }
        let held = (reach.is_empty() && turn.is_some()).then(|| {
            if !entering && g.in_enemy_zoc(u) {
                "5.13: in an enemy zone of control, it may not leave it".to_string()
            } else {
                "no hex is open to it".to_string()
            }
        });
        let mut hexes: Vec<ReachHex> = reach
            .iter()
            .map(|d| ReachHex {
                hex: d.hex.to_string(),
                mp: d.cost_half as f64 / 2.0,
            })
            .collect();
        hexes.sort_by(|a, b| a.mp.total_cmp(&b.mp).then(a.hex.cmp(&b.hex)));
        units.push(UnitReach {
            unit: g.id(u).to_string(),
            from: from.to_string(),
            entering,
            movement: g.scenario().unit(u).movement,
            reach: hexes,
            held,
            could_attack: targets.iter().map(|&t| g.id(t).to_string()).collect(),
        });
    }
    ReachView {
        side: side_name(g, side).to_string(),
        turn,
        night,
        units,
        threatened: threats
            .into_iter()
            .map(|(t, by)| Threat {
                unit: g.id(t).to_string(),
                hex: g.hex_of(t).map(|h| h.to_string()).unwrap_or_default(),
                by,
            })
            .collect(),
    }
}

/// How many of a unit's farthest hexes the text of `reach` names (`--json` lists them all).
const FARTHEST_SHOWN: usize = 6;

/// [`reach_view`] as text: a summary per unit (how many hexes, the farthest) and the units
/// threatened.
pub fn reach_text(v: &ReachView) -> String {
    let mut out = String::new();
    let Some(turn) = v.turn else {
        let _ = writeln!(
            out,
            "The {} have no movement phase to come: the game ends first.",
            v.side
        );
        return out;
    };
    let _ = writeln!(
        out,
        "The {} in their next movement phase (game-turn {turn}), the board as it stands: movement \
         allowance, terrain, enemy units and zones of control (5.0, 6.0).",
        v.side
    );
    if v.night {
        let _ = writeln!(
            out,
            "Game-turn {turn} is a night turn: no combat phase follows (10.1)."
        );
    }
    for u in &v.units {
        let entering = if u.entering { " (entering, 15.3)" } else { "" };
        let _ = write!(
            out,
            "  {} from {}{entering}, MA {}: ",
            u.unit, u.from, u.movement
        );
        match &u.held {
            Some(why) => {
                let _ = write!(out, "cannot move ({why})");
            }
            None => {
                // the whole list is in --json: the text names how many and the farthest
                let _ = write!(out, "{} hexes", u.reach.len());
                let far = u.reach.iter().map(|r| r.mp).fold(0.0_f64, f64::max);
                if far > 0.0 {
                    let at: Vec<&str> = u
                        .reach
                        .iter()
                        .filter(|r| r.mp >= far)
                        .map(|r| r.hex.as_str())
                        .collect();
                    let shown = at.len().min(FARTHEST_SHOWN);
                    let more = if at.len() > shown {
                        format!(" and {} more", at.len() - shown)
                    } else {
                        String::new()
                    };
                    let _ = write!(
                        out,
                        ", the farthest at {far} MP: {}{more}",
                        at[..shown].join(" ")
                    );
                }
            }
        }
        if !u.could_attack.is_empty() {
            let _ = write!(out, "; could attack {}", u.could_attack.join(", "));
        }
        out.push('\n');
    }
    if v.threatened.is_empty() {
        if !v.night {
            let _ = writeln!(out, "No unit of the other side is within their reach.");
        }
    } else {
        let _ = writeln!(out, "Within their reach (unit, hex: by whom):");
        for t in &v.threatened {
            let _ = writeln!(out, "  {} in {}: {}", t.unit, t.hex, t.by.join(", "));
        }
    }
    out
}

/// A unit's move in the record: from where to where, by which action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentMove {
    /// The action's number in the record (1-based).
    pub n: usize,
    /// The action's text.
    pub action: String,
    /// The unit that moved.
    pub unit: String,
    /// Where it was (`None` for a reinforcement entering).
    pub from: Option<String>,
    /// Where it went.
    pub to: String,
}

/// The moves of the record's last actions: every unit whose hex an action changed (moves,
/// entries, retreats, displacements, advances), by replaying the record from the start.
/// `last`: that many actions, or (`None`) those of this player-turn and the one before.
pub fn recent_moves(s: &Session<Game>, last: Option<usize>) -> Vec<RecentMove> {
    let mut g = s.start().clone();
    let actions = &s.record.actions;
    // (player-turn index, moves) per action
    let mut per_action: Vec<(usize, Vec<RecentMove>)> = Vec::new();
    let mut pt = 0usize;
    let mut at = (g.turn(), g.phasing());
    let place = |g: &Game, u: UnitId| match g.loc(u) {
        Loc::Map(h) | Loc::Lifted(h) => Some(h),
        _ => None,
    };
    for (i, r) in actions.iter().enumerate() {
        if (g.turn(), g.phasing()) != at {
            at = (g.turn(), g.phasing());
            pt += 1;
        }
        let before: Vec<Option<Hex>> = g.unit_ids().map(|u| place(&g, u)).collect();
        let Ok(a) = g.parse_action(&r.text) else {
            break;
        };
        if g.apply(a).is_err() {
            break;
        }
        let mut moves = Vec::new();
        for u in g.unit_ids() {
            let (b, now) = (before[u.0 as usize], g.hex_of(u));
            if let Some(to) = now {
                if b != Some(to) {
                    moves.push(RecentMove {
                        n: i + 1,
                        action: r.text.clone(),
                        unit: g.id(u).to_string(),
                        from: b.map(|h| h.to_string()),
                        to: to.to_string(),
                    });
                }
            }
        }
        per_action.push((pt, moves));
    }
    if (g.turn(), g.phasing()) != at {
        pt += 1;
    }
    let n = per_action.len();
    let keep = |i: usize, p: usize| match last {
        Some(k) => i + k >= n,
        None => p + 1 >= pt,
    };
    per_action
        .into_iter()
        .enumerate()
        .filter(|(i, (p, _))| keep(*i, *p))
        .flat_map(|(_, (_, m))| m)
        .collect()
}

/// A map cropped around a hex (`grognard show --map HEX --radius N`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapAroundView {
    /// The centre hex.
    pub centre: String,
    /// Hexes within this distance are drawn.
    pub radius: u32,
    /// Which actions' moves are marked: `this player-turn and the one before`, or `the last N
    /// actions`.
    pub marked: String,
    /// The moves marked.
    pub moves: Vec<RecentMove>,
    /// The map as text.
    pub text: String,
}

/// The map within `radius` of `centre`: each hex's number above its terrain letter and
/// unit key, the moves of the last actions marked (`*` where a unit that moved stands now,
/// `o` a hex a move left or passed through), and a legend. `last` as in [`recent_moves`].
pub fn map_around_view(
    s: &Session<Game>,
    centre: Hex,
    radius: u32,
    last: Option<usize>,
) -> Result<MapAroundView, String> {
    let g = &s.game;
    let sc = g.scenario();
    let map = &sc.map;
    if !map.contains(centre) {
        return Err(format!("{centre} is not on the map"));
    }
    let radius = check_radius(radius)?;
    let moves = recent_moves(s, last);
    // `*` where a unit that moved stands now; `o` every other hex a move left
    let arrived: BTreeSet<String> = moves
        .iter()
        .filter(|m| {
            g.scenario()
                .unit_by_id(&m.unit)
                .and_then(|u| g.hex_of(u))
                .is_some_and(|h| h.to_string() == m.to)
        })
        .map(|m| m.to.clone())
        .collect();
    let left: BTreeSet<String> = moves
        .iter()
        .flat_map(|m| m.from.iter().chain([&m.to]))
        .filter(|h| !arrived.contains(*h))
        .cloned()
        .collect();
    let r = radius as i16;
    let xs = (centre.x - r).max(1)..=(centre.x + r).min(map.width());
    // columns west (left, higher YY) to east (right); a row's shift spends half a column
    let ys: Vec<i16> = ((centre.y - r - 1).max(1)..=(centre.y + r + 1).min(map.height()))
        .rev()
        .collect();
    let within = |h: Hex| map.contains(h) && map.distance(centre, h) <= radius;
    // unit keys as the compact map gives them: first side A, B, ...; second side a, b, ...
    let mut keys: BTreeMap<UnitId, String> = BTreeMap::new();
    let mut count = [0usize; 2];
    let mut units_legend = Vec::new();
    for x in xs.clone() {
        for &y in &ys {
            let h = Hex::new(x, y);
            let Some(u) = g.unit_at(h).filter(|_| within(h)) else {
                continue;
            };
            let side = (g.side_of(u).0 as usize).min(1);
            let n = count[side];
            count[side] += 1;
            let base = if side == 0 { b'A' } else { b'a' };
            let mut k = ((base + (n % 26) as u8) as char).to_string();
            if n >= 26 {
                k.push_str(&(n / 26).to_string());
            }
            let d = sc.unit(u);
            units_legend.push(format!(
                "  {k:<3} {:<10} {:<7} {:<9} {}-{} in {h}",
                d.id,
                side_name(g, g.side_of(u)),
                d.kind.name(),
                d.strength,
                d.movement
            ));
            keys.insert(u, k);
        }
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Map within {radius} hexes of {centre} (north at the top, west on the left; each hex: \
         its number, then terrain, unit and mark)"
    );
    for x in xs {
        let indent = if map.parity().shifts(x as i32) {
            ""
        } else {
            "   "
        };
        let mut top = String::from(indent);
        let mut bottom = String::from(indent);
        for &y in &ys {
            let h = Hex::new(x, y);
            if !within(h) {
                top.push_str("      ");
                bottom.push_str("      ");
                continue;
            }
            let hs = h.to_string();
            let (l, rr) = if h == centre { ('[', ']') } else { (' ', ' ') };
            let _ = write!(top, "{l}{hs}{rr}");
            let key = g
                .unit_at(h)
                .and_then(|u| keys.get(&u).cloned())
                .unwrap_or_default();
            let mark = if arrived.contains(&hs) {
                '*'
            } else if left.contains(&hs) {
                'o'
            } else {
                ' '
            };
            let _ = write!(bottom, "  {}{key:<2}{mark}", map.terrain_kind(h).code);
        }
        let _ = writeln!(text, "{}", top.trim_end());
        let _ = writeln!(text, "{}", bottom.trim_end());
    }
    // the terrain letters this area shows, by the map's legend
    let mut shown: Vec<(char, String)> = area(map, centre, radius)
        .iter()
        .map(|&h| {
            let t = map.terrain_kind(h);
            (t.code, t.name.clone())
        })
        .collect();
    shown.sort();
    shown.dedup();
    let terr: Vec<String> = shown.iter().map(|(c, n)| format!("{c} {n}")).collect();
    let _ = writeln!(text, "Terrain: {}", terr.join(", "));
    let _ = writeln!(
        text,
        "Marks: [XXYY] the centre; * a unit that moved stands there, o a move left it. Hexsides: `grognard hexsides`."
    );
    let marked = match last {
        Some(k) => format!("the last {k} actions"),
        None => "this player-turn and the one before".to_string(),
    };
    if moves.is_empty() {
        let _ = writeln!(text, "Moves of {marked}: none.");
    } else {
        let _ = writeln!(text, "Moves of {marked}:");
        for m in &moves {
            let from = m.from.as_deref().unwrap_or("off the map");
            let _ = writeln!(
                text,
                "  {:>4}. {:<10} {from} -> {}  ({})",
                m.n, m.unit, m.to, m.action
            );
        }
    }
    if units_legend.is_empty() {
        let _ = writeln!(text, "No units in this area.");
    } else {
        let _ = writeln!(
            text,
            "Units ({} upper case, {} lower case): key, id, side, type, strength-movement, hex",
            sc.sides[0],
            sc.sides.get(1).map_or("", |s| s.as_str())
        );
        for l in units_legend {
            let _ = writeln!(text, "{l}");
        }
    }
    Ok(MapAroundView {
        centre: centre.to_string(),
        radius,
        marked,
        moves,
        text,
    })
}

fn number(word: &str, what: &str) -> Result<u32, QueryError> {
    word.parse()
        .map_err(|_| QueryError::Bad(format!("{what} is a whole number, not '{word}'")))
}

fn answer<T: Serialize>(
    v: Result<T, String>,
    text: bool,
    as_text: impl Fn(&T) -> String,
) -> Result<serde_json::Value, QueryError> {
    let v = v.map_err(QueryError::Bad)?;
    if text {
        Ok(serde_json::Value::String(as_text(&v)))
    } else {
        Ok(serde_json::to_value(&v).unwrap_or_default())
    }
}

/// The study queries (`hexsides`, `retreats`, `reach`, `map_around`): see the module's
/// documentation for their arguments.
pub fn query(s: &Session<Game>, name: &str, arg: &str) -> Result<serde_json::Value, QueryError> {
    let g = &s.game;
    let mut words: Vec<&str> = arg.split_whitespace().collect();
    let text = words.contains(&"--text");
    words.retain(|w| *w != "--text");
    match (name, words.as_slice()) {
        ("hexsides", [hex, rest @ ..]) if rest.len() <= 1 => {
            let h = map_hex(g, hex).map_err(QueryError::Bad)?;
            let radius = match rest {
                [r] => number(r, "the radius")?,
                _ => 0,
            };
            answer(hexsides_view(g, h, radius), text, hexsides_text)
        }
        ("retreats", [unit]) => {
            let u = unit_named(g, unit).map_err(QueryError::NotFound)?;
            answer(retreats_view(g, u), text, retreats_text)
        }
        ("reach", side) if side.len() <= 1 => {
            let side = match side {
                [w] => side_named(g, w).map_err(QueryError::NotFound)?,
                _ => default_reach_side(g),
            };
            answer(Ok(reach_view(g, side)), text, reach_text)
        }
        ("map_around", [hex, rest @ ..]) if rest.len() <= 2 => {
            let h = map_hex(g, hex).map_err(QueryError::Bad)?;
            let radius = match rest.first() {
                Some(r) => number(r, "the radius")?,
                None => 4,
            };
            let last = match rest.get(1) {
                None | Some(&"turn") => None,
                Some(k) => Some(number(k, "the number of actions")? as usize),
            };
            answer(map_around_view(s, h, radius, last), text, |v| {
                v.text.clone()
            })
        }
        ("hexsides", _) => Err(QueryError::Bad("hexsides takes HEX [RADIUS]".into())),
        ("retreats", _) => Err(QueryError::Bad("retreats takes one UNIT".into())),
        ("reach", _) => Err(QueryError::Bad("reach takes at most one SIDE".into())),
        ("map_around", _) => Err(QueryError::Bad(
            "map_around takes HEX [RADIUS] [LAST: a number of actions or 'turn']".into(),
        )),
        (other, _) => Err(QueryError::Unknown(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row of six hexes: R.1 in 0105 between B.1 (0106) and its friend R.2 (0104); B.2 in
    /// 0102 controls 0103, so R.2 could not make way.
    fn boxed_in() -> Session<Game> {
        let map = "format = \"grognard-map/1\"\nid = \"m\"\nwidth = 1\nheight = 6\nterrain = [\"......\"]\n";
        let mut sc = String::from(
            "format = \"grognard-scenario/1\"\nid = \"row\"\ntitle = \"Row\"\nsystem = \"naw\"\n\
             map = \"m\"\nfirst_turn = 1\nlast_turn = 2\nsides = [\"Blue\", \"Red\"]\n\
             [[nations]]\nid = \"B\"\nname = \"Blue\"\nside = \"Blue\"\n\
             [[nations]]\nid = \"R\"\nname = \"Red\"\nside = \"Red\"\n",
        );
        for (id, hex) in [
            ("B.1", "0106"),
            ("B.2", "0102"),
            ("R.1", "0105"),
            ("R.2", "0104"),
        ] {
            let nation = &id[..1];
            sc.push_str(&format!(
                "[[units]]\nid = \"{id}\"\nnation = \"{nation}\"\ndesignation = \"{}\"\n\
                 type = \"infantry\"\nstrength = 4\nmovement = 4\nhex = \"{hex}\"\n",
                &id[2..]
            ));
        }
        let s = naw::Scenario::from_toml(&sc, "row.toml", &|_| Ok(map.to_string())).unwrap();
        let digest = s.digest;
        Session::new(Game::new(s), "row", digest, 1)
    }

    #[test]
    fn a_unit_with_no_retreat_is_said_to_be_eliminated_with_the_case() {
        let s = boxed_in();
        let v = query(&s, "retreats", "R.1").unwrap();
        assert_eq!(v["eliminated"], "7.72");
        assert_eq!(v["retreating"], false);
        let t = query(&s, "retreats", "R.1 --text").unwrap();
        let t = t.as_str().unwrap();
        assert!(t.contains("is not retreating"), "{t}");
        assert!(t.contains("it would be eliminated (7.72)"), "{t}");
        // R.2 itself may retreat into 0103? No: B.2 controls it (7.72)
        let v = query(&s, "retreats", "R.2").unwrap();
        assert_eq!(v["eliminated"], "7.72");
    }

    #[test]
    fn bad_arguments_are_clear_errors() {
        let s = boxed_in();
        assert!(matches!(
            query(&s, "hexsides", "0107"),
            Err(QueryError::Bad(m)) if m.contains("not on the map")
        ));
        assert!(matches!(
            query(&s, "hexsides", "0103 x"),
            Err(QueryError::Bad(m)) if m.contains("whole number")
        ));
        assert!(matches!(query(&s, "retreats", ""), Err(QueryError::Bad(_))));
        assert!(matches!(
            query(&s, "reach", "Green"),
            Err(QueryError::NotFound(m)) if m.contains("Blue, Red")
        ));
        assert!(matches!(
            query(&s, "nothing", ""),
            Err(QueryError::Unknown(_))
        ));
        // the hexsides of a hex on the map's edge: four off the map
        let v = query(&s, "hexsides", "0101").unwrap();
        let off = v["hexsides"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h.get("back").is_none())
            .count();
        assert_eq!(off, 5);
    }

    #[test]
    fn the_reach_of_a_side_held_in_a_zone_of_control() {
        let s = boxed_in();
        // Blue is to act: Red's reach, later this game-turn; R.1 is held (5.13)
        let v = reach_view(&s.game, default_reach_side(&s.game));
        assert_eq!((v.side.as_str(), v.turn), ("Red", Some(1)));
        let r1 = v.units.iter().find(|u| u.unit == "R.1").unwrap();
        assert!(r1.held.as_deref().unwrap().starts_with("5.13"));
        assert_eq!(r1.could_attack, vec!["B.1".to_string()]);
        assert!(reach_text(&v).contains("R.1 from 0105, MA 4: cannot move (5.13"));
    }
}
