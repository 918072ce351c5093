//! The learned evaluation (`features.rs`, `learn.rs`): features on hand-built positions (a
//! trapped unit, an idle force, a blocked entry hex), the weights as data (they load and
//! round-trip), the tuner deterministic for a seed, and the level `search2` playing a legal
//! whole game.

use ai::features::{NawFeatures, NAMES, NAW_WEIGHTS};
use ai::learn::{
    fit_signed, self_play, Features, Linear, Sample, ScenarioWeights, SideWeights, Weights,
    WeightsFile,
};
use ai::{play_game, player, HeuristicPlayer};
use engine::Side;
use hexmap::{Dir, Edge, Hex, Hexside, Map};
use naw::scenario::{Arrival, HooksFile, NationFile, ScenarioFile, UnitFile, UnitType};
use naw::Game;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A unit of `nation` (`B` the first side, `R` the second), on a hex or arriving.
fn unit(id: &str, strength: u16, hex: Option<Hex>, arrive: Option<Arrival>) -> UnitFile {
    UnitFile {
        id: id.into(),
        nation: id[..1].into(),
        designation: id[2..].into(),
        kind: UnitType::Infantry,
        strength,
        movement: 4,
        army: String::new(),
        corps: String::new(),
        hex,
        arrive,
        destroyed: false,
    }
}

/// A game on a clear map of 20 by 10 hexes with these units (no demoralization levels, so
/// strengths are fractions of each side's whole strength).
fn game(units: Vec<UnitFile>) -> Game {
    let nation = |id: &str, side: &str| NationFile {
        id: id.into(),
        name: side.into(),
        side: side.into(),
        army: None,
    };
    let file = ScenarioFile {
        format: "grognard-scenario/1".into(),
        id: "test".into(),
        title: "Test".into(),
        system: "naw".into(),
        map: "test".into(),
        first_turn: 1,
        last_turn: 5,
        night_turns: Vec::new(),
        sides: vec!["Blue".into(), "Red".into()],
        description: String::new(),
        hooks: HooksFile {
            friendly_occupied_entry_ok: true,
            ..HooksFile::default()
        },
        nations: vec![nation("B", "Blue"), nation("R", "Red")],
        demoralization: Vec::new(),
        line_of_communications: None,
        units,
    };
    // a road leaves the entry hex 0105 of the north edge (15.0)
    let mut map = Map::new("test", 20, 10);
    let d = h("0105").direction_to(h("0205")).unwrap();
    map.add_hexside(h("0105"), d, Hexside::ROAD);
    // the players cache a scenario's data by its digest: one per position
    static DIGEST: AtomicU64 = AtomicU64::new(1_000);
    let sc = file
        .validate("test.toml", map, DIGEST.fetch_add(1, Ordering::Relaxed))
        .expect("valid test scenario");
    Game::new(sc)
}

fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

/// The named feature of `g` for `me`.
fn feature(g: &Game, me: Side, name: &str) -> f64 {
    let mut x = Vec::new();
    NawFeatures.features(g, me, &mut x);
    assert_eq!(x.len(), NAMES.len());
    let i = NAMES.iter().position(|n| *n == name).expect("a feature");
    x[i]
}

#[test]
fn a_trapped_unit_counts() {
    // two Red units on opposite sides of B.1: every neighbour is in a Red zone
    let c = h("1005");
    let trapped = game(vec![
        unit("B.1", 6, Some(c), None),
        unit("B.2", 6, Some(h("0102")), None),
        unit("R.1", 4, Some(c.neighbour(Dir::ALL[0])), None),
        unit("R.2", 4, Some(c.neighbour(Dir::ALL[3])), None),
    ]);
    // half of Blue's strength is trapped: seen by Blue as its own, by Red as the enemy's
    assert_eq!(feature(&trapped, Side(0), "trapped_own"), 0.5);
    assert_eq!(feature(&trapped, Side(1), "trapped_enemy"), 0.5);
    assert_eq!(feature(&trapped, Side(0), "threatened_own"), 0.5);
    // no open neighbour at all: wholly encircled
    assert_eq!(feature(&trapped, Side(0), "encircled_own"), 0.5);
    // one Red unit alone leaves it room to retreat
    let free = game(vec![
        unit("B.1", 6, Some(c), None),
        unit("B.2", 6, Some(h("0102")), None),
        unit("R.1", 4, Some(c.neighbour(Dir::ALL[0])), None),
        unit("R.2", 4, Some(h("2009")), None),
    ]);
    assert_eq!(feature(&free, Side(0), "trapped_own"), 0.0);
    assert_eq!(feature(&free, Side(0), "threatened_own"), 0.5);
    assert_eq!(feature(&free, Side(0), "encircled_own"), 0.0);
}

#[test]
fn an_idle_force_counts() {
    // B.1 is seven hexes and more from every Red unit, B.2 next to one
    let g = game(vec![
        unit("B.1", 9, Some(h("0105")), None),
        unit("B.2", 3, Some(h("1405")), None),
        unit("R.1", 4, Some(h("1505")), None),
    ]);
    assert_eq!(feature(&g, Side(0), "idle_own"), 0.75);
    assert_eq!(feature(&g, Side(1), "idle_enemy"), 0.75);
    assert_eq!(feature(&g, Side(1), "idle_own"), 0.0);
}

#[test]
fn a_blocked_entry_hex_counts() {
    let entry = h("0105");
    let reinforcement = Arrival {
        turn: 2,
        hex: entry,
        edge: Edge::North,
    };
    // B.1 stands on the hex where B.2 enters next game-turn
    let blocked = game(vec![
        unit("B.1", 6, Some(entry), None),
        unit("B.2", 6, None, Some(reinforcement)),
        unit("R.1", 4, Some(h("2009")), None),
    ]);
    assert_eq!(feature(&blocked, Side(0), "entry_blocked_own"), 0.5);
    assert_eq!(feature(&blocked, Side(1), "entry_blocked_enemy"), 0.5);
    // one hex aside, the way is clear
    let clear = game(vec![
        unit("B.1", 6, Some(h("0205")), None),
        unit("B.2", 6, None, Some(reinforcement)),
        unit("R.1", 4, Some(h("2009")), None),
    ]);
    assert_eq!(feature(&clear, Side(0), "entry_blocked_own"), 0.0);
}

#[test]
fn the_weights_load_and_round_trip() {
    let file = WeightsFile::parse(NAW_WEIGHTS).expect("the shipped weights parse");
    assert_eq!(file.system, "naw");
    let w = Linear::from_file(&file, NAMES).expect("every weight names a feature");
    assert_eq!(w.w.len(), NAMES.len());
    let again = WeightsFile::parse(&file.to_toml()).expect("written weights parse");
    assert_eq!(again, file);
    assert_eq!(Linear::from_file(&again, NAMES).unwrap(), w);
    // the weights of another version of the features are refused, not misread
    let mut other = file.clone();
    other.weights.insert("morale".into(), 1.0);
    assert!(Linear::from_file(&other, NAMES).is_err());
    let mut bad = file;
    bad.format = "grognard-weights/9".into();
    assert!(WeightsFile::parse(&bad.to_toml()).is_err());
    // every feature has a meaningful sign or none, and a weight obeys it, a side's or a
    // scenario's own too
    let signs = NawFeatures.signs();
    assert_eq!(signs.len(), NAMES.len());
    let sided = Weights::from_file(&again, NAMES).expect("the sides' weights name features");
    let levels = std::iter::once(&sided).chain(sided.scenarios.values());
    let mut all = vec![("common", &w)];
    for l in levels {
        all.push(("a scenario's common", &l.common));
        all.extend(l.sides.iter().flatten().map(|o| ("a side's own", o)));
    }
    for (k, own) in all {
        for (i, s) in signs.iter().enumerate() {
            assert!(
                own.w[i] * (*s as f64) >= 0.0,
                "{}: {} has the wrong sign",
                k,
                NAMES[i]
            );
        }
    }
    // the weights before them, kept as data so that their commands can be rerun
    for (version, text) in [
        (2, include_str!("../weights/history/naw-v2.toml")),
        (3, include_str!("../weights/history/naw-v3.toml")),
    ] {
        let file = WeightsFile::parse(text).expect("an earlier version parses");
        assert_eq!(file.version, version);
        Weights::from_file(&file, NAMES).expect("an earlier version fits NAMES");
    }
}

/// A side's own weights evaluate its positions; a side without them takes the common ones, and
/// a side that is not a number, or a weight naming no feature, is refused.
#[test]
fn a_side_reads_its_own_weights() {
    let mut file = WeightsFile::parse(NAW_WEIGHTS).expect("the shipped weights parse");
    let mut own = file.weights.clone();
    own.insert("loss_own".into(), -7.0);
    file.sides.insert(
        "1".into(),
        SideWeights {
            samples: 10,
            held_out_log_loss: vec![0.6, 0.5],
            bias: 0.25,
            weights: own,
        },
    );
    let again = WeightsFile::parse(&file.to_toml()).expect("written side weights parse");
    assert_eq!(again, file);
    let w = Weights::from_file(&again, NAMES).unwrap();
    let common = Linear::from_file(&file, NAMES).unwrap();
    assert_eq!(w.for_side(Side(0)), &common);
    let loss = NAMES.iter().position(|n| *n == "loss_own").unwrap();
    assert_eq!(w.for_side(Side(1)).w[loss], -7.0);
    assert_eq!(w.for_side(Side(1)).bias, 0.25);
    // a file without sides is the common weights for everyone
    let mut plain = file.clone();
    plain.sides.clear();
    let plain = Weights::from_file(&plain, NAMES).unwrap();
    assert_eq!(plain.for_side(Side(1)), &common);
    // the shipped file gives the Allies (side 1) their own weights, the French the common ones
    let shipped = Weights::from_file(&WeightsFile::parse(NAW_WEIGHTS).unwrap(), NAMES).unwrap();
    assert_eq!(shipped.for_side(Side(0)), &common);
    assert_ne!(shipped.for_side(Side(1)), &common);
    let mut bad = file.clone();
    let one = bad.sides.remove("1").unwrap();
    bad.sides.insert("Allied".into(), one.clone());
    let err = Weights::from_file(&bad, NAMES).unwrap_err();
    assert!(err.contains("'Allied'"), "{err}");
    let mut bad = file;
    let mut stray = one;
    stray.weights.insert("morale".into(), 1.0);
    bad.sides.insert("1".into(), stray);
    assert!(Weights::from_file(&bad, NAMES).is_err());
}

/// A scenario's own weights (and its sides' own) evaluate its positions; another scenario's
/// positions take the file's common or sides' weights; a bad side inside a scenario is
/// refused with the scenario named.
#[test]
fn a_scenario_reads_its_own_weights() {
    let mut file = WeightsFile::parse(NAW_WEIGHTS).expect("the shipped weights parse");
    let shipped = Weights::from_file(&file, NAMES).unwrap();
    let loss = NAMES.iter().position(|n| *n == "loss_own").unwrap();
    let mut own = file.weights.clone();
    own.insert("loss_own".into(), -3.0);
    let mut side0 = own.clone();
    side0.insert("loss_own".into(), -5.0);
    let mut sides = std::collections::BTreeMap::new();
    sides.insert(
        "0".into(),
        SideWeights {
            samples: 5,
            held_out_log_loss: vec![0.6, 0.55],
            bias: -0.5,
            weights: side0,
        },
    );
    file.scenarios.insert(
        "bon-grand-battle".into(),
        ScenarioWeights {
            games: 2,
            samples: 10,
            held_out_log_loss: vec![0.9, 0.6],
            bias: 0.75,
            weights: own,
            sides,
        },
    );
    let again = WeightsFile::parse(&file.to_toml()).expect("written scenario weights parse");
    assert_eq!(again, file);
    let w = Weights::from_file(&again, NAMES).unwrap();
    // the Grand Battle: the French by the scenario's side 0, the Allies by its common weights
    let gb = |s| w.for_position("bon-grand-battle", Side(s));
    assert_eq!((gb(0).bias, gb(0).w[loss]), (-0.5, -5.0));
    assert_eq!((gb(1).bias, gb(1).w[loss]), (0.75, -3.0));
    // another scenario: as the file without the scenario's own
    for s in [0, 1] {
        assert_eq!(
            w.for_position("bon-first-day", Side(s)),
            shipped.for_side(Side(s))
        );
        assert_eq!(w.for_side(Side(s)), shipped.for_side(Side(s)));
    }
    // the shipped weights (version 4) give the Grand Battle its own, the same for both sides;
    // the other scenarios read version 3's, kept whole
    let file4 = WeightsFile::parse(NAW_WEIGHTS).unwrap();
    assert_eq!(
        file4.scenarios.keys().collect::<Vec<_>>(),
        ["bon-grand-battle"]
    );
    let gb = |s| shipped.for_position("bon-grand-battle", Side(s));
    assert_eq!(gb(0), gb(1));
    for s in [0, 1] {
        assert_ne!(gb(s), shipped.for_side(Side(s)));
        for id in ["bon-first-day", "bon-third-day"] {
            assert_eq!(shipped.for_position(id, Side(s)), shipped.for_side(Side(s)));
        }
    }
    let v3 = WeightsFile::parse(include_str!("../weights/history/naw-v3.toml")).unwrap();
    assert_eq!(
        (v3.bias, &v3.weights, &v3.sides, v3.samples),
        (file4.bias, &file4.weights, &file4.sides, file4.samples)
    );
    let mut bad = file;
    let sc = bad.scenarios.get_mut("bon-grand-battle").unwrap();
    let one = sc.sides.remove("0").unwrap();
    sc.sides.insert("French".into(), one);
    let err = Weights::from_file(&bad, NAMES).unwrap_err();
    assert!(
        err.contains("'French'") && err.contains("'bon-grand-battle'"),
        "{err}"
    );
}

/// The tuner's samples: self-play games by the heuristic, in parallel or not.
fn samples(parallel: bool, seed: u64) -> Vec<Sample> {
    let sc = Arc::new(scenarios::load("bon-first-day").unwrap());
    let start = Game::from_arc(sc);
    let play = |i: &u64| {
        self_play(
            &start,
            seed ^ i,
            |_, s| HeuristicPlayer::new(s),
            &NawFeatures,
            1_000_000,
        )
    };
    let games: Vec<u64> = (0..3).collect();
    let per: Vec<Vec<Sample>> = if parallel {
        games.par_iter().map(play).collect()
    } else {
        games.iter().map(play).collect()
    };
    per.into_iter().flatten().collect()
}

#[test]
fn the_tuner_is_deterministic_for_a_seed() {
    let a = samples(true, 7);
    let b = samples(false, 7);
    // a First Day game samples both sides at the start of each of its ten movement phases
    assert!(a.len() >= 20, "{} samples", a.len());
    assert!(a.iter().all(|s| (0.0..=1.0).contains(&s.y)));
    // each position is sampled for both sides, each with its side's score
    for pair in a.chunks(2) {
        assert_eq!([pair[0].side, pair[1].side], [Side(0), Side(1)]);
        assert!((pair[0].y + pair[1].y - 1.0).abs() < 1e-9);
    }
    assert_eq!(a, b);
    let mut prior = Linear {
        bias: 0.0,
        w: vec![0.0; NAMES.len()],
    };
    prior.w[0] = 1.0;
    let signs = NawFeatures.signs();
    let fa = fit_signed(&prior, &a, 0.01, 20, &signs);
    let fb = fit_signed(&prior, &b, 0.01, 20, &signs);
    assert_eq!(fa, fb);
    assert_ne!(fa, prior, "the fit moved");
    assert_ne!(samples(false, 8), a, "another seed, other games");
}

#[test]
fn search2_plays_a_legal_whole_game() {
    let sc = Arc::new(scenarios::load("bon-first-day").unwrap());
    let mut s2 = player("search2@60n", 3).unwrap();
    assert_eq!(s2.name(), "search2@60n");
    let mut h = player("heuristic", 4).unwrap();
    // play_game asserts (in debug builds) that every choice is accepted by the rules
    let r = play_game(sc, 5, [s2.as_mut(), h.as_mut()]);
    assert_ne!(r.outcome.case, "4.0", "the game ended");
    assert!(s2.search_stats().unwrap().simulations > 0);
    assert!(ai::thinks_by_the_clock("search2"));
    assert!(!ai::thinks_by_the_clock("search2@60n"));
}
