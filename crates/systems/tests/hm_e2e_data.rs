//! The records of actions the hex-miniatures browser tests replay (`e2e/tests/data/hm-*.json`),
//! found in games of two heuristic computer players from `moeckern-1813` and written again after
//! a rules change by one command (from the workspace's root):
//!
//! ```text
//! HM_E2E_DATA=e2e/tests/data cargo test -p systems --test hm_e2e_data -- --ignored
//! ```
//!
//! (without `HM_E2E_DATA` the records are printed). Each record holds the scenario, the seed and
//! the actions of the seats only: the server rolls the random numbers from the seed, as here
//! (`DynGame::roll` after every action), so the same actions reach the same position.
//!
//! - `hm-square.json`: the actions up to a movement stage where an infantry battalion with enemy
//!   cavalry near may form square ([8.1.1]); the formation change (`form U square`, which the
//!   browser test makes by a click); then the actions up to the one after which that cavalry
//!   charges the square ([9.3], a `charge` event): the last is made on the board.
//! - `hm-rout.json`: the actions up to the one after which a unit is routed (by a combat result
//!   or a crisis of morale, [9.8], [13]) and falls back ([8.8.3]): that last one is made on the
//!   board.
//! - `hm-dusk.json`: the actions up to a Prussian movement stage at dusk, when the light
//!   limits sight to a few hexes ([24]): two heuristic players bring their troops on and fight
//!   for the first turns, then each stage is ended whenever `end` is legal (the heuristic acts
//!   where it is not), so that the record stays short enough to replay through the API. The
//!   browser test checks the greyed hexes against the rules' sight there.
//!
//! `the_records_replay` (not ignored) checks that the committed records still replay under the
//! rules as they are: when it fails, make them again with the command above.

use engine::dynamic::{DynGame, Hosted};
use engine::ToAct;
use hex_miniatures::army::{Arm, Order};
use hex_miniatures::game::Loc;
use hex_miniatures::{Game, UnitId};
use serde_json::{json, Value};
use systems::Library;

const SCENARIO: &str = "moeckern-1813";
const SYSTEM: &str = "hex-miniatures";
/// The seeds tried, in order.
const SEEDS: std::ops::Range<u64> = 1..13;
/// No game of the search goes beyond this many actions.
const MAX_ACTIONS: usize = 60_000;

type HmHosted = Hosted<Game, present::HmPresenter>;

/// The typed game behind a hosted one.
fn typed(g: &dyn DynGame) -> &Game {
    &g.as_any()
        .downcast_ref::<HmHosted>()
        .expect("a hex-miniatures game")
        .session
        .game
}

/// A game from the scenario with the seed, its chances rolled (as the server does).
struct Play {
    g: Box<dyn DynGame>,
    players: Vec<Box<dyn engine::dynamic::DynPlayer>>,
    /// The seats' actions so far.
    actions: Vec<String>,
}

impl Play {
    fn new(lib: &Library, seed: u64) -> Play {
        let sys = lib.system(SYSTEM).unwrap();
        let mut p = Play {
            g: lib.new_game(SCENARIO, None, seed).unwrap(),
            players: vec![
                sys.player("heuristic", seed).unwrap(),
                sys.player("heuristic", seed + 1).unwrap(),
            ],
            actions: Vec::new(),
        };
        p.roll();
        p
    }

    /// Rolls every pending chance; returns the events.
    fn roll(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        while self.g.to_act() == ToAct::Chance {
            let Some(a) = self.g.roll() else { break };
            out.extend(a.events);
        }
        out
    }

    /// Makes a seat's action and rolls what follows; the events of both.
    fn act(&mut self, text: &str) -> Vec<Value> {
        let a = self
            .g
            .act(text)
            .unwrap_or_else(|r| panic!("'{text}' refused: {r:?}"));
        self.actions.push(text.to_string());
        let mut ev = a.events;
        ev.extend(self.roll());
        ev
    }

    /// The heuristic's next action (`None` when the game is over); with its events.
    fn step(&mut self) -> Option<(String, Vec<Value>)> {
        match self.g.to_act() {
            ToAct::Side(s) => {
                let text = self.players[usize::from(s.0)].choose(self.g.as_ref());
                let text = if text.is_empty() {
                    self.g.legal().first()?.text.clone()
                } else {
                    text
                };
                let ev = self.act(&text);
                Some((text, ev))
            }
            _ => None,
        }
    }

    fn fork(&self, lib: &Library, seed: u64) -> Play {
        // the players keep no state that matters between turns: fresh ones
        let sys = lib.system(SYSTEM).unwrap();
        Play {
            g: self.g.clone_box(),
            players: vec![
                sys.player("heuristic", seed + 100).unwrap(),
                sys.player("heuristic", seed + 101).unwrap(),
            ],
            actions: self.actions.clone(),
        }
    }
}

/// Where a unit stands, as text (`None` off the table).
fn hex_of(g: &Game, u: UnitId) -> Option<String> {
    match g.unit(u).loc {
        Loc::Map(h) => Some(h.to_string()),
        _ => None,
    }
}

/// Whether two units stand on the table within `d` hexes of each other.
fn near(g: &Game, a: UnitId, b: UnitId, d: u32) -> bool {
    match (g.unit(a).loc, g.unit(b).loc) {
        (Loc::Map(x), Loc::Map(y)) => g.setup().map.distance(x, y) <= d,
        _ => false,
    }
}

/// An infantry unit of the side to act that may form square now, with an enemy cavalry
/// regiment in good order within two hexes: (the unit's id, the cavalry's ids).
fn square_candidates(p: &Play) -> Vec<(String, Vec<String>)> {
    let g = typed(p.g.as_ref());
    let legal = p.g.legal();
    let mut out = Vec::new();
    for a in legal
        .iter()
        .filter(|a| a.kind == "form" && a.text.ends_with(" square"))
    {
        let Some(id) = a.unit.as_deref() else {
            continue;
        };
        let Some(u) = g.unit_by_id(id) else { continue };
        let side = g.side_of(u);
        let cavalry: Vec<String> = (0..g.unit_count())
            .map(|i| UnitId(i as u8))
            .filter(|&c| g.side_of(c) != side && g.kind_of(c).arm() == Arm::Cavalry)
            .filter(|&c| g.unit(c).order == Order::Ordered)
            .filter(|&c| near(g, u, c, 2))
            .map(|c| g.unit_name(c).to_string())
            .collect();
        if !cavalry.is_empty() {
            out.push((id.to_string(), cavalry));
        }
    }
    out
}

/// The first `charge` event against the square of `unit` in `events`.
fn charge_on<'a>(events: &'a [Value], unit: &str) -> Option<&'a Value> {
    events
        .iter()
        .find(|e| e["kind"] == "charge" && e["square"] == unit)
}

/// Whether `form U square` then the heuristics lead to a charge on the square before the end of
/// the next turn: the actions after the formation change, the last one the charge's.
fn try_square(lib: &Library, p: &Play, unit: &str, seed: u64) -> Option<(Vec<String>, Value)> {
    let mut q = p.fork(lib, seed);
    let turn = typed(q.g.as_ref()).turn();
    let u = typed(q.g.as_ref()).unit_by_id(unit)?;
    let hex = hex_of(typed(q.g.as_ref()), u);
    q.act(&format!("form {unit} square"));
    let start = q.actions.len();
    while typed(q.g.as_ref()).turn() <= turn + 1 {
        let (_, ev) = q.step()?;
        if let Some(c) = charge_on(&ev, unit) {
            if c["target"].as_str() != hex.as_deref() {
                return None;
            }
            return Some((q.actions[start..].to_vec(), c.clone()));
        }
        // the square stays where it formed, in square, until the charge
        let g = typed(q.g.as_ref());
        if g.unit(u).formation.name() != "square" || hex_of(g, u) != hex {
            return None;
        }
    }
    None
}

fn about(what: &str, seed: u64) -> String {
    format!(
        "{SCENARIO} under {SYSTEM} (rules version {}), seed {seed}: {what} Seats' actions only: \
         the server rolls the random numbers from the seed. Written by \
         `HM_E2E_DATA=e2e/tests/data cargo test -p systems --test hm_e2e_data -- --ignored`.",
        hex_miniatures::RULES_VERSION
    )
}

/// The square record: a battalion forms square with enemy cavalry near, and is charged.
fn square_record(lib: &Library) -> Value {
    for seed in SEEDS {
        let mut p = Play::new(lib, seed);
        let mut tried = 0;
        while p.actions.len() < MAX_ACTIONS {
            if typed(p.g.as_ref()).stage() == hex_miniatures::Stage::Movement && tried < 400 {
                for (unit, cavalry) in square_candidates(&p) {
                    tried += 1;
                    if let Some((then, charge)) = try_square(lib, &p, &unit, seed) {
                        let g = typed(p.g.as_ref());
                        let u = g.unit_by_id(&unit).unwrap();
                        return json!({
                            "about": about(&format!(
                                "the actions of two heuristic players up to turn {}'s movement \
                                 stage, where {unit} may form square with enemy cavalry near \
                                 ({}); `form` is that formation change ([8.1.1]); `then` the \
                                 actions after it, the last one followed by the cavalry's charge \
                                 on the square ([9.3]).",
                                g.turn(),
                                cavalry.join(", ")
                            ), seed),
                            "scenario": SCENARIO,
                            "rules": SYSTEM,
                            "seed": seed,
                            "actions": p.actions,
                            "unit": unit,
                            "hex": hex_of(g, u),
                            "cavalry": cavalry,
                            "form": format!("form {unit} square"),
                            "then": then,
                            "charge": charge,
                        });
                    }
                }
            }
            if p.step().is_none() {
                break;
            }
        }
    }
    panic!("no square charged by cavalry in the seeds tried");
}

/// The rout record: the action after which a unit is routed and falls back.
fn rout_record(lib: &Library) -> Value {
    for seed in SEEDS {
        let mut p = Play::new(lib, seed);
        while p.actions.len() < MAX_ACTIONS {
            let before = p.g.clone_box();
            let Some((text, ev)) = p.step() else { break };
            let routed = ev
                .iter()
                .filter(|e| e["kind"] == "state_changed" && e["order"] == "routed");
            for r in routed {
                let unit = r["unit"].as_str().unwrap_or_default().to_string();
                let fell_back = ev.iter().find(|e| {
                    e["kind"] == "withdrew" && e["unit"] == unit.as_str() && e["to"].is_string()
                });
                let g = typed(p.g.as_ref());
                let Some(u) = g.unit_by_id(&unit) else {
                    continue;
                };
                // still on the table, routed, after the action
                if fell_back.is_none() || g.unit(u).order != Order::Routed || hex_of(g, u).is_none()
                {
                    continue;
                }
                let fell_back = fell_back.unwrap();
                let from = typed(before.as_ref())
                    .unit_by_id(&unit)
                    .and_then(|b| hex_of(typed(before.as_ref()), b));
                let mut actions = p.actions.clone();
                actions.pop();
                return json!({
                    "about": about(&format!(
                        "the actions of two heuristic players up to turn {}; after the last, \
                         `act`, {unit} is routed ({}) and falls back from {} to {} ([8.8.3]).",
                        g.turn(),
                        r["case"].as_str().unwrap_or(""),
                        fell_back["from"].as_str().unwrap_or(""),
                        fell_back["to"].as_str().unwrap_or("")
                    ), seed),
                    "scenario": SCENARIO,
                    "rules": SYSTEM,
                    "seed": seed,
                    "actions": actions,
                    "act": text,
                    "unit": unit,
                    "from": from,
                    "fell_back": fell_back,
                    "routed": r,
                    "hex": hex_of(g, u),
                });
            }
        }
    }
    panic!("no rout in the seeds tried");
}

/// Turns played by the heuristics before the dusk record's players only end their stages.
const DUSK_FIGHT_TURNS: u16 = 4;
/// The light (visible hexes) the dusk record reaches.
const DUSK_LIGHT: u8 = 3;

/// The dusk record: the actions up to a Prussian movement stage in which the light limits
/// sight to `DUSK_LIGHT` hexes or fewer ([24]).
fn dusk_record(lib: &Library) -> Value {
    for seed in SEEDS {
        let mut p = Play::new(lib, seed);
        while p.actions.len() < MAX_ACTIONS {
            let g = typed(p.g.as_ref());
            if matches!(g.light(), Some(l) if l > 0 && l <= DUSK_LIGHT)
                && g.stage() == hex_miniatures::Stage::Movement
                && g.phasing().0 == 0
                && p.g.to_act() == ToAct::Side(engine::Side(0))
                && g.setup().map.hexes().any(|h| g.sees(0, h))
            {
                let sight: Vec<String> = g
                    .setup()
                    .map
                    .hexes()
                    .filter(|&h| g.sees(0, h))
                    .map(|h| h.to_string())
                    .collect();
                return json!({
                    "about": about(&format!(
                        "the actions up to turn {} ({}), the Prussian movement stage at dusk: \
                         sight {} hexes ([24]). Heuristic players for the first {} turns, then \
                         `end` wherever it is legal.",
                        g.turn(),
                        hex_miniatures::scenario::format_clock(g.minute()),
                        g.visibility().map_or(-1, i32::from),
                        DUSK_FIGHT_TURNS
                    ), seed),
                    "scenario": SCENARIO,
                    "rules": SYSTEM,
                    "seed": seed,
                    "actions": p.actions,
                    "turn": g.turn(),
                    "clock": hex_miniatures::scenario::format_clock(g.minute()),
                    "light": g.light(),
                    "visibility": g.visibility(),
                    "sight": sight,
                });
            }
            if g.turn() > DUSK_FIGHT_TURNS {
                if let ToAct::Side(_) = p.g.to_act() {
                    if p.g.legal().iter().any(|a| a.text == "end") {
                        p.act("end");
                        continue;
                    }
                }
            }
            if p.step().is_none() {
                break;
            }
        }
    }
    panic!("no dusk reached in the seeds tried");
}

/// Replays a record's actions in a fresh game from its seed, as the server will: each must be
/// accepted. Returns the game.
fn replay(lib: &Library, seed: u64, actions: &[String]) -> Play {
    let mut p = Play::new(lib, seed);
    for (i, a) in actions.iter().enumerate() {
        if let Err(r) = p.g.act(a) {
            panic!("replaying seed {seed}: action {i} '{a}' refused: {r:?}");
        }
        p.actions.push(a.clone());
        p.roll();
    }
    p
}

/// The record as JSON, one action a line.
fn pretty(v: &Value) -> String {
    let mut out = String::from("{\n");
    let m = v.as_object().unwrap();
    let n = m.len();
    for (i, (k, x)) in m.iter().enumerate() {
        let comma = if i + 1 < n { "," } else { "" };
        match x {
            Value::Array(a) if a.iter().all(Value::is_string) => {
                let items: Vec<String> = a.iter().map(|s| s.to_string()).collect();
                out += &format!("\"{k}\": [\n{}\n]{comma}\n", items.join(",\n"));
            }
            _ => out += &format!("\"{k}\": {x}{comma}\n"),
        }
    }
    out + "}\n"
}

#[test]
#[ignore = "writes e2e/tests/data/hm-*.json: run it after a rules change (see the header)"]
fn hm_e2e_records() {
    let lib = Library::standard();
    let records = [
        ("hm-square.json", square_record(&lib)),
        ("hm-rout.json", rout_record(&lib)),
        ("hm-dusk.json", dusk_record(&lib)),
    ];
    // the records replay from their seeds
    let sq = &records[0].1;
    let mut all: Vec<String> = Vec::new();
    for k in ["actions", "then"] {
        all.extend(
            sq[k]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string()),
        );
    }
    all.insert(
        sq["actions"].as_array().unwrap().len(),
        sq["form"].as_str().unwrap().to_string(),
    );
    replay(&lib, sq["seed"].as_u64().unwrap(), &all);
    let rt = &records[1].1;
    let mut all: Vec<String> = rt["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    all.push(rt["act"].as_str().unwrap().to_string());
    replay(&lib, rt["seed"].as_u64().unwrap(), &all);
    let dk = &records[2].1;
    replay(&lib, dk["seed"].as_u64().unwrap(), &strings(&dk["actions"]));
    for (name, v) in records {
        let text = pretty(&v);
        match std::env::var("HM_E2E_DATA") {
            Ok(dir) => {
                // a relative directory is the workspace root's (cargo runs tests in the crate's)
                let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
                let path = root.join(&dir).join(name);
                std::fs::write(&path, text)
                    .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
            }
            Err(_) => eprint!("{name}:\n{text}"),
        }
    }
}

/// A record's list of actions.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The committed records replay under the rules as they are, each reaching the position its
/// browser test expects (else: make them again with the command in the header).
#[test]
fn the_records_replay() {
    let lib = Library::standard();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../e2e/tests/data");
    let read = |name: &str| -> Value {
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("reading {name}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let stale = "is stale: make the records again (HM_E2E_DATA=e2e/tests/data cargo test -p systems --test hm_e2e_data -- --ignored)";
    // the square: formed, then charged by the last action
    let sq = read("hm-square.json");
    let mut p = replay(&lib, sq["seed"].as_u64().unwrap(), &strings(&sq["actions"]));
    let form = sq["form"].as_str().unwrap();
    assert!(
        p.g.legal().iter().any(|a| a.text == form),
        "hm-square.json {stale}"
    );
    p.act(form);
    let then = strings(&sq["then"]);
    let mut events = Vec::new();
    for a in &then {
        events = p.act(a);
    }
    let unit = sq["unit"].as_str().unwrap();
    assert!(charge_on(&events, unit).is_some(), "hm-square.json {stale}");
    // the rout: the last action routs the unit
    let rt = read("hm-rout.json");
    let mut p = replay(&lib, rt["seed"].as_u64().unwrap(), &strings(&rt["actions"]));
    let events = p.act(rt["act"].as_str().unwrap());
    assert!(
        events.iter().any(|e| e["kind"] == "state_changed"
            && e["unit"] == rt["unit"]
            && e["order"] == "routed"),
        "hm-rout.json {stale}"
    );
    // dusk: the Prussian movement stage with the sight recorded
    let dk = read("hm-dusk.json");
    let p = replay(&lib, dk["seed"].as_u64().unwrap(), &strings(&dk["actions"]));
    let g = typed(p.g.as_ref());
    assert_eq!(
        g.stage(),
        hex_miniatures::Stage::Movement,
        "hm-dusk.json {stale}"
    );
    let sight: Vec<String> = g
        .setup()
        .map
        .hexes()
        .filter(|&h| g.sees(0, h))
        .map(|h| h.to_string())
        .collect();
    assert_eq!(
        serde_json::json!(sight),
        dk["sight"],
        "hm-dusk.json {stale}"
    );
    assert_eq!(
        serde_json::json!(g.light()),
        dk["light"],
        "hm-dusk.json {stale}"
    );
}
