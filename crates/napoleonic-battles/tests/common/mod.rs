//! Helpers shared by the rules tests.
#![allow(dead_code)]

use engine::{Dice, Rules, ToAct};
use napoleonic_battles::{Action, Game, Supplement};

/// A new game of a shipped Battle of Nations scenario.
pub fn game(id: &str) -> Game {
    let sc = scenarios::load(id).expect("shipped scenario");
    let sup = Supplement::bon();
    sup.check(&sc).expect("the supplement fits the scenario");
    Game::new(sc, sup)
}

/// The legal actions now.
pub fn legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// Parses and applies an action, panicking with the refusal.
pub fn act(g: &mut Game, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("'{text}' does not parse: {e}"));
    g.apply(a)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
}

/// The refusal of an action text.
pub fn refusal(g: &Game, text: &str) -> engine::Refusal {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("'{text}' does not parse: {e}"));
    g.check(a).expect_err(text)
}

/// Plays random legal actions (chance drawn by its weights from the seeded dice). The player
/// picks a kind of action first (pass, activation, movement, ...), then one of that kind, so
/// that many-valued kinds (orders, leader moves) do not swamp the game. `each` sees the game
/// after every action.
pub fn play_random(
    g: &mut Game,
    seed: u64,
    limit: usize,
    mut each: impl FnMut(&Game, Action),
) -> Vec<Action> {
    let mut dice = Dice::new(seed);
    let mut pick = Dice::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut buf = Vec::new();
    let mut taken = Vec::new();
    for _ in 0..limit {
        let a = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => engine::draw_chance(g, &mut dice).expect("a chance event"),
            ToAct::Side(_) => {
                buf.clear();
                g.legal_actions(&mut buf);
                assert!(!buf.is_empty(), "no legal action at {:?}", g.step());
                let kinds: Vec<u8> = {
                    let mut k: Vec<u8> = buf.iter().map(kind).collect();
                    k.sort();
                    k.dedup();
                    k
                };
                let k = kinds[(pick.next_u64() % kinds.len() as u64) as usize];
                let of: Vec<Action> = buf.iter().copied().filter(|a| kind(a) == k).collect();
                of[(pick.next_u64() % of.len() as u64) as usize]
            }
        };
        g.apply(a)
            .unwrap_or_else(|e| panic!("generated action {} refused: {e}", g.action_text(a)));
        taken.push(a);
        each(g, a);
    }
    taken
}

fn kind(a: &Action) -> u8 {
    match a {
        Action::Pass => 0,
        Action::Command { .. } => 1,
        Action::Initiative { .. } => 2,
        Action::Unit { .. } => 3,
        Action::March { .. } => 4,
        Action::SetAside { .. } | Action::Lend { .. } => 5,
        Action::Order { .. } => 6,
        Action::NoOrder => 7,
        Action::Include { .. } => 8,
        Action::Exclude { .. } => 9,
        Action::Go => 10,
        Action::Move { .. } => 11,
        Action::Face { .. } => 12,
        Action::Lead { .. } => 13,
        Action::End => 14,
        Action::Melee { .. } => 15,
        _ => 16,
    }
}

/// A unit of a test scenario: id, type, SP, MA, corps, hex (or `arrive@TURN` at the hex).
pub struct U<'a>(
    pub &'a str,
    pub &'a str,
    pub u16,
    pub u8,
    pub &'a str,
    pub &'a str,
);

/// French II Corps (Victor: initiative 3, range 5, under Murat).
pub const VICTOR: &str = "II Corps (Victor)";
/// French V Corps (Lauriston).
pub const LAURISTON: &str = "V Corps (Lauriston)";
/// French cavalry: I Cavalry Corps (Latour-Maubourg).
pub const LATOUR: &str = "I Cavalry Corps (Latour-Maubourg)";
/// Russian II Corps (Eugen: initiative 5, range 5, under Wittgenstein).
pub const EUGEN: &str = "II Russian Corps (Eugen)";
/// Russian cavalry (Pahlen).
pub const PAHLEN: &str = "Cavalry Corps";

/// A test scenario on the Leipzig map's clear ground north-west of the town (0407-0716 is
/// clear, with no hexside feature), turns 1..=`last`, with the given night turns and units.
/// The nation is the id's prefix. Leaders start with their commands' first units (NB8).
pub fn custom(last: u8, nights: &[u8], units: &[U]) -> Game {
    custom_with(Supplement::bon(), last, nights, units)
}

/// [`custom`] with another supplement.
pub fn custom_with(sup: Supplement, last: u8, nights: &[u8], units: &[U]) -> Game {
    let mut t = format!(
        "format = \"grognard-scenario/1\"\nid = \"nb-test\"\ntitle = \"test\"\nsystem = \"naw\"\n\
         map = \"leipzig\"\nfirst_turn = 1\nlast_turn = {last}\nnight_turns = {nights:?}\n\
         sides = [\"French\", \"Allied\"]\n"
    );
    for (id, name, side) in [
        ("FR", "French", "French"),
        ("PR", "Prussian", "Allied"),
        ("AU", "Austrian", "Allied"),
        ("RU", "Russian", "Allied"),
        ("SW", "Swedish", "Allied"),
    ] {
        t += &format!(
            "[[nations]]\nid = \"{id}\"\nname = \"{name}\"\nside = \"{side}\"\narmy = \"{side}\"\n"
        );
    }
    for U(id, kind, sp, ma, corps, hex) in units {
        let nation = id.split('.').next().unwrap();
        let army = if nation == "FR" {
            "Grand Army"
        } else {
            "Army of Bohemia"
        };
        let place = match hex.split_once('@') {
            Some((h, turn)) => {
                format!("arrive = {{ turn = {turn}, hex = \"{h}\", edge = \"north\" }}")
            }
            None => format!("hex = \"{hex}\""),
        };
        t += &format!(
            "[[units]]\nid = \"{id}\"\nnation = \"{nation}\"\ndesignation = \"{id}\"\n\
             type = \"{kind}\"\nstrength = {sp}\nmovement = {ma}\narmy = \"{army}\"\n\
             corps = \"{corps}\"\n{place}\n"
        );
    }
    let sc = naw::Scenario::from_toml(&t, "nb-test.toml", &|m| {
        scenarios::map_text(m)
            .map(str::to_string)
            .ok_or_else(|| "no map".to_string())
    })
    .unwrap_or_else(|e| panic!("{e}\n{t}"));
    Game::new(sc, sup)
}

/// A hex by its number.
pub fn hex(s: &str) -> hexmap::Hex {
    s.parse().unwrap()
}

/// The neighbour of a hex in a direction on the game's map.
pub fn nb(g: &Game, h: &str, d: hexmap::Dir) -> hexmap::Hex {
    g.scenario().map.neighbour(hex(h), d)
}

/// Applies chance outcomes and actions given as text, in order.
pub fn play(g: &mut Game, texts: &[&str]) {
    for t in texts {
        act(g, t);
    }
}

/// A unit by id.
pub fn uid(g: &Game, id: &str) -> naw::UnitId {
    g.scenario().unit_by_id(id).unwrap()
}

/// Legal action texts.
pub trait Texts {
    /// The legal actions as text.
    fn legal_actions_text(&self) -> Vec<String>;
}

impl Texts for Game {
    fn legal_actions_text(&self) -> Vec<String> {
        legal(self).iter().map(|&a| self.action_text(a)).collect()
    }
}

/// Victor's FR.4 (infantry, 6 SP) in `fr` against Eugen's RU.3 (infantry, 6 SP) in `ru`, on a
/// three-turn day without night: the duel most rule tests stage.
pub fn duel(fr: &str, ru: &str) -> Game {
    custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, fr),
            U("RU.3", "infantry", 6, 4, EUGEN, ru),
        ],
    )
}

/// The Allies pass, the French take the turn's first impulse and Murat spends a command point
/// on Victor, whose activation goes: Victor's units are in their movement phase.
pub const FRENCH_GO: [&str; 4] = ["pass", "roll 1", "command FR.Murat FR.Victor", "go"];
