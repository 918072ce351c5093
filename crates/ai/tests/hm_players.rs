//! The computer players of the hex-miniatures rules (`ai::hm`) on Möckern 1813: every action
//! the heuristic chooses is legal, the same seed gives the same game, the heuristic does
//! better than random play, the attacker's skills on built positions, and the search's
//! choices are legal.

use ai::hm::{HmHeuristic, HmKnowledge, HmSearch, Style};
use ai::montecarlo::Knowledge;
use engine::Side;
use engine::{draw_chance, Dice, Rules, ToAct};
use hex_miniatures::army::Order;
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::Scenario;
use hex_miniatures::Game;
use hex_miniatures::{Action, Formation, Stage, UnitId};
use hexmap::Hex;

fn moeckern() -> Game {
    Game::new(&Scenario::moeckern(), &Tables::shipped()).expect("Möckern sets up")
}

/// A seat: the heuristic, the search or uniformly random legal actions.
enum Seat {
    Heuristic(HmHeuristic),
    Search(HmSearch),
    Random(Dice),
}

/// Plays Möckern to its end or `max` actions of the players; every chosen action must be
/// legal. Returns the game and the actions' texts.
fn play(seats: &mut [Seat; 2], seed: u64, max: usize) -> (Game, Vec<String>) {
    let mut g = moeckern();
    let mut dice = Dice::new(seed);
    let mut texts = Vec::new();
    let mut acted = 0;
    let mut legal = Vec::new();
    while acted < max {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
            }
            ToAct::Side(s) => {
                let a = match &mut seats[usize::from(s.0)] {
                    Seat::Heuristic(p) => p.choose(&g).expect("the heuristic chooses"),
                    Seat::Search(p) => p.choose(&g).expect("the search chooses"),
                    Seat::Random(d) => {
                        legal.clear();
                        g.legal_actions(&mut legal);
                        legal[d.draw(&vec![1; legal.len()]).unwrap_or(0)]
                    }
                };
                if let Err(r) = g.check(a) {
                    panic!("an illegal '{}': {r:?}", g.action_text(a));
                }
                texts.push(g.action_text(a));
                g.apply_unchecked(a);
                acted += 1;
            }
        }
    }
    (g, texts)
}

fn heuristics(seed: u64) -> [Seat; 2] {
    [
        Seat::Heuristic(HmHeuristic::new(seed)),
        Seat::Heuristic(HmHeuristic::new(seed + 1)),
    ]
}

/// A side's margin: objectives held minus the enemy's, then the enemy's losses in percent less
/// its own.
fn margin(g: &Game, side: u8) -> f64 {
    let held = g.objective_holders();
    let ours = held.iter().filter(|&&(_, s)| s == side).count() as f64;
    let theirs = held.len() as f64 - ours;
    let cas = g.casualties();
    let pct = |s: usize| f64::from(cas[s].0) * 100.0 / f64::from(cas[s].1.max(1));
    let (me, them) = (usize::from(side), usize::from(1 - side));
    (ours - theirs) * 10.0 + pct(them) - pct(me)
}

#[test]
fn the_heuristic_plays_only_legal_actions_and_moves_its_army() {
    let (g, texts) = play(&mut heuristics(1), 7, 600);
    assert!(texts.len() >= 100, "{} actions", texts.len());
    assert!(g.turn() > 1, "turn {}", g.turn());
    assert!(texts.iter().any(|t| t.starts_with("move ")), "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("order ")), "{texts:?}");
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let (a, ta) = play(&mut heuristics(3), 11, 300);
    let (b, tb) = play(&mut heuristics(3), 11, 300);
    assert_eq!(ta, tb);
    assert_eq!(a.state_hash(), b.state_hash());
}

fn heuristic_vs_random(games: u64, max: usize) -> (u32, f64) {
    let mut better = 0;
    let mut total = 0.0;
    for i in 0..games {
        // the heuristic takes each side in turn
        let h = (i % 2) as u8;
        let mut seats = if h == 0 {
            [
                Seat::Heuristic(HmHeuristic::new(i)),
                Seat::Random(Dice::new(i + 100)),
            ]
        } else {
            [
                Seat::Random(Dice::new(i + 100)),
                Seat::Heuristic(HmHeuristic::new(i)),
            ]
        };
        let (g, _) = play(&mut seats, 1000 + i, max);
        let m = margin(&g, h);
        eprintln!(
            "game {i}: heuristic side {h}, turn {}, casualties {:?}, margin {m}",
            g.turn(),
            g.casualties()
        );
        total += m;
        if m > 0.0 {
            better += 1;
        }
    }
    (better, total / games as f64)
}

#[test]
fn the_heuristic_does_better_than_random_play() {
    let (better, mean) = heuristic_vs_random(2, usize::MAX);
    assert!(
        better >= 1 && mean > 0.0,
        "{better} of 2, mean margin {mean}"
    );
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn the_heuristic_beats_random_over_whole_games() {
    let (better, mean) = heuristic_vs_random(10, usize::MAX);
    assert!(better >= 8, "{better} of 10, mean margin {mean}");
}

/// Where each side's base units are lost (by cause) and at what columns the Prussians attack,
/// over whole heuristic games: the measure behind the attacker's rules of thumb.
#[test]
#[ignore = "long: run with --release -- --ignored --nocapture"]
fn where_the_losses_come_from() {
    use hex_miniatures::event::{Cause, Event};
    use std::collections::BTreeMap;
    let games: u64 = std::env::var("HM_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let mut lost: BTreeMap<(u8, String), u32> = BTreeMap::new();
    let mut columns: BTreeMap<(u8, String), u32> = BTreeMap::new();
    let mut by_turn = [[0u32; 40]; 2];
    let mut wins = [0u32; 2];
    let mut pct = [0f64; 2];
    for i in 0..games {
        let mut seats = heuristics(i * 2);
        let mut g = moeckern();
        let mut dice = Dice::new(500 + i);
        loop {
            let a = match g.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => draw_chance(&g, &mut dice).expect("a chance outcome"),
                ToAct::Side(s) => match &mut seats[usize::from(s.0)] {
                    Seat::Heuristic(p) => p.choose(&g).expect("a choice"),
                    _ => unreachable!(),
                },
            };
            g.apply_unchecked(a);
            for e in g.events() {
                match e {
                    Event::BaseLost { unit, cause, .. } => {
                        let s = g.side_of(*unit);
                        *lost.entry((s, format!("{cause:?}"))).or_default() += 1;
                        by_turn[usize::from(s)][usize::from(g.turn()).min(39)] += 1;
                    }
                    Event::Combat {
                        attackers, column, ..
                    } => {
                        let s = g.side_of(attackers[0]);
                        let moved = attackers.iter().any(|&u| g.unit(u).moved);
                        let stage = if moved { "moved in" } else { "stood" };
                        *columns.entry((s, format!("{column} {stage}"))).or_default() += 1;
                    }
                    _ => {}
                }
            }
        }
        let c = g.casualties();
        let w = match g.to_act() {
            ToAct::Over(o) => o.winner.map(|s| s.0),
            _ => None,
        };
        if let Some(w) = w {
            wins[usize::from(w)] += 1;
        }
        for s in 0..2 {
            pct[s] += f64::from(c[s].0) * 100.0 / f64::from(c[s].1.max(1)) / games as f64;
        }
        let held = g.objective_holders().iter().filter(|h| h.1 == 0).count();
        println!(
            "game {i}: turn {} casualties {c:?}, Prussians hold {held}, winner {w:?}",
            g.turn()
        );
    }
    println!("wins {wins:?} of {games}; casualties % {pct:?}");
    println!("losses by cause (side, cause): {lost:?}");
    println!("attacks by column (side, column): {columns:?}");
    println!("Prussian losses by turn: {:?}", by_turn[0]);
    println!("French losses by turn: {:?}", by_turn[1]);
    let _ = Cause::Combat;
}

/// The enemy units next to `h` in `g`.
fn enemies_next_to(g: &Game, h: Hex, side: u8) -> Vec<UnitId> {
    g.setup()
        .map
        .neighbours(h)
        .iter()
        .flat_map(|&n| g.units_at(n).iter().copied())
        .filter(|&u| g.side_of(u) != side)
        .collect()
}

#[test]
fn the_attacker_keeps_its_batteries_out_of_contact_and_closes_only_in_order() {
    // Whole player-turns of heuristic play: a battery never moves next to an enemy, a unit
    // moves into contact only in order, and the Prussian batteries unlimber and fire.
    let mut seats = heuristics(5);
    let mut g = moeckern();
    let mut dice = Dice::new(21);
    let (mut contacts, mut fired, mut unlimbered) = (0, 0, 0);
    for _ in 0..1400 {
        let a = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
                continue;
            }
            ToAct::Side(s) => match &mut seats[usize::from(s.0)] {
                Seat::Heuristic(p) => p.choose(&g).expect("a choice"),
                _ => unreachable!(),
            },
        };
        g.check(a).expect("a legal action");
        match a {
            Action::Move { unit, to } if g.hex_of(unit).is_some() => {
                let side = g.side_of(unit);
                if !enemies_next_to(&g, to, side).is_empty() {
                    let arm = g.kind_of(unit).arm();
                    assert_ne!(
                        arm,
                        hex_miniatures::army::Arm::Artillery,
                        "'{}' takes a battery into contact",
                        g.action_text(a)
                    );
                    assert_eq!(
                        g.unit(unit).order,
                        Order::Ordered,
                        "'{}' goes into contact out of order",
                        g.action_text(a)
                    );
                    contacts += 1;
                }
            }
            Action::Fire { battery, .. } if g.side_of(battery) == 0 => fired += 1,
            Action::Form {
                unit,
                formation: Formation::Unlimbered,
            } if g.side_of(unit) == 0 => unlimbered += 1,
            _ => {}
        }
        g.apply_unchecked(a);
    }
    assert!(contacts > 0, "no unit ever closed");
    assert!(
        fired > 0 && unlimbered > 0,
        "{unlimbered} unlimbered, {fired} fired"
    );
}

#[test]
fn a_disordered_unit_or_a_bad_column_does_not_go_into_contact() {
    // Play to the first Prussian movement stage in which some unit can move next to a French
    // one; there every contact move the heuristic would make reads the steady style's column
    // (1:1) or better with the friends near, and once the unit is disordered none scores above
    // `end`.
    let mut seats = heuristics(9);
    let mut g = moeckern();
    let mut dice = Dice::new(3);
    let mut legal = Vec::new();
    for _ in 0..4000 {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
                continue;
            }
            ToAct::Side(s) => {
                legal.clear();
                g.legal_actions(&mut legal);
                let contact: Vec<(UnitId, Hex)> = legal
                    .iter()
                    .filter_map(|&a| match a {
                        Action::Move { unit, to }
                            if s.0 == 0
                                && g.hex_of(unit).is_some()
                                && g.kind_of(unit).arm() == hex_miniatures::army::Arm::Infantry
                                && !enemies_next_to(&g, to, 0).is_empty() =>
                        {
                            Some((unit, to))
                        }
                        _ => None,
                    })
                    .collect();
                if let Some(&(unit, _)) = contact.first() {
                    let mut h = HmHeuristic::new(1);
                    for (score, a) in h.scored(&g) {
                        if let Action::Move { unit: u, to } = a {
                            if score > 0 && contact.contains(&(u, to)) {
                                let e = enemies_next_to(&g, to, 0);
                                let best = e
                                    .iter()
                                    .filter_map(|&x| {
                                        let mut att = vec![u];
                                        att.extend(
                                            (0..g.unit_count()).map(|i| UnitId(i as u8)).filter(
                                                |&f| {
                                                    f != u
                                                        && g.side_of(f) == 0
                                                        && g.hex_of(f).zip(g.hex_of(x)).is_some_and(
                                                            |(a, b)| {
                                                                g.setup().map.distance(a, b) <= 2
                                                            },
                                                        )
                                                },
                                            ),
                                        );
                                        g.preview(g.hex_of(x)?, &att)
                                    })
                                    .map(|p| ai::hm::column10(&p))
                                    .max()
                                    .unwrap_or(0);
                                assert!(
                                    best >= Style::STEADY.contact,
                                    "'{}' at {best}",
                                    g.action_text(a)
                                );
                            }
                        }
                    }
                    let v = g.unit(unit);
                    let facing = hexmap::Dir::ALL[0];
                    g.set_unit_for_test(unit, Order::Disordered, v.bases, v.formation, facing);
                    let mut h = HmHeuristic::new(1);
                    for (score, a) in h.scored(&g) {
                        if let Action::Move { unit: u, to } = a {
                            if u == unit && !enemies_next_to(&g, to, 0).is_empty() {
                                assert!(score < 0, "'{}' scores {score}", g.action_text(a));
                            }
                        }
                    }
                    return;
                }
                let a = match &mut seats[usize::from(s.0)] {
                    Seat::Heuristic(p) => p.choose(&g).expect("a choice"),
                    _ => unreachable!(),
                };
                g.apply_unchecked(a);
            }
        }
    }
    panic!("no Prussian unit could move into contact");
}

#[test]
fn the_search_plays_legal_actions_and_says_its_plans() {
    let search = HmSearch::from_spec("search@2n", 4).expect("a spec");
    let mut seats = [Seat::Search(search), Seat::Heuristic(HmHeuristic::new(8))];
    let (g, texts) = play(&mut seats, 13, 160);
    assert!(texts.len() >= 100, "{} actions", texts.len());
    assert!(g.turn() >= 2, "turn {}", g.turn());
    let Seat::Search(s) = &seats[0] else {
        unreachable!()
    };
    assert!(s.simulations() > 0, "it searched");
    assert!(HmSearch::from_spec("search@50n", 1).is_ok());
    assert!(HmSearch::from_spec("expert", 1).is_err());
}

#[test]
fn the_search_weighs_three_styles_and_its_evaluation_is_symmetric() {
    let g = moeckern();
    let k = HmKnowledge;
    let e = k.evaluate(&g, Side(0));
    assert!((0.0..=1.0).contains(&e));
    assert!((k.evaluate(&g, Side(1)) + e - 1.0).abs() < 1e-9);
    assert_eq!(HmKnowledge::STYLES[0], Style::STEADY);
}

#[test]
fn the_heuristic_says_its_plan_once_a_stage_with_its_numbers() {
    let mut p = HmHeuristic::new(2);
    let mut g = moeckern();
    let mut dice = Dice::new(5);
    let mut said = Vec::new();
    for _ in 0..400 {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
            }
            ToAct::Side(_) => {
                let a = p.choose(&g).expect("a choice");
                if let Some(s) = p.explain() {
                    said.push((g.turn(), g.stage(), s));
                }
                g.apply_unchecked(a);
            }
        }
    }
    let movement: Vec<&String> = said
        .iter()
        .filter(|(_, st, _)| *st == hex_miniatures::Stage::Movement)
        .map(|(_, _, s)| s)
        .collect();
    assert!(!movement.is_empty(), "{said:?}");
    assert!(
        movement
            .iter()
            .any(|s| s.contains("2:1") || s.contains("60%")),
        "{movement:?}"
    );
    // once a stage: no two movement sentences in the same turn for the same side
    let mut seen = std::collections::HashSet::new();
    for (t, st, s) in &said {
        if *st == hex_miniatures::Stage::Movement {
            assert!(
                seen.insert((*t, s.contains("hold"))),
                "twice in turn {t}: {s}"
            );
        }
    }
}

/// The search's computer player-turns timed (median and longest), against the heuristic.
#[test]
#[ignore = "long: run with --release -- --ignored --nocapture"]
fn the_search_player_turn_times() {
    let spec = std::env::var("HM_SEARCH").unwrap_or_else(|_| "search".into());
    let mut p = HmSearch::from_spec(&spec, 1).expect("a spec");
    let mut h = HmHeuristic::new(2);
    let mut g = moeckern();
    let mut dice = Dice::new(3);
    let mut times: Vec<f64> = Vec::new();
    let mut cur = 0.0;
    let mut key = (0, 9);
    loop {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
            }
            ToAct::Side(s) if s.0 == 0 => {
                if key != (g.turn(), g.phasing().0) {
                    if cur > 0.0 {
                        times.push(cur);
                    }
                    cur = 0.0;
                    key = (g.turn(), g.phasing().0);
                }
                let t = std::time::Instant::now();
                let a = p.choose(&g).expect("a choice");
                cur += t.elapsed().as_secs_f64();
                g.apply_unchecked(a);
            }
            ToAct::Side(_) => {
                let a = h.choose(&g).expect("a choice");
                g.apply_unchecked(a);
            }
        }
    }
    times.push(cur);
    times.sort_by(|a, b| a.total_cmp(b));
    let c = g.casualties();
    println!(
        "{spec}: {} player-turns, median {:.2} s, longest {:.2} s, {} rollouts; casualties {c:?}",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1],
        p.simulations()
    );
}

/// A small battle on the skirmish table (10 x 10 hexes, clear but for a wood at 0503 and a
/// village at 0607): these units (id, side, kind, hex), each side's one formation free to act,
/// a general each far behind, no objectives; played on to side 0's `stage`.
fn built(units: &[(&str, u8, hex_miniatures::army::Kind, &str)], stage: Stage) -> Game {
    use hex_miniatures::army::Arm;
    use hex_miniatures::setup::{FormationSetup, GeneralSetup, Setup, Standing, Start, UnitSetup};
    let mut s = Setup::skirmish();
    s.units = units
        .iter()
        .map(|&(id, side, kind, at)| UnitSetup {
            id: id.into(),
            side,
            nation: if side == 0 { "Prussian" } else { "French" }.into(),
            kind,
            base_units: kind.full_base_units(),
            command: Some(usize::from(side)),
            formation: if kind.arm() == Arm::Artillery {
                Formation::Unlimbered
            } else {
                Formation::Line
            },
            start: Start::Hex(at.parse().expect("a hex")),
        })
        .collect();
    s.generals = [("PG", 0u8, "0101"), ("FG", 1u8, "1010")]
        .iter()
        .map(|&(id, side, at)| GeneralSetup {
            id: id.into(),
            side,
            senior: false,
            start: Start::Hex(at.parse().expect("a hex")),
        })
        .collect();
    s.formations = (0..2u8)
        .map(|side| FormationSetup {
            id: if side == 0 { "PB" } else { "FB" }.into(),
            side,
            commander: Some(usize::from(side)),
            parent: None,
            order: Standing::Free,
        })
        .collect();
    s.start_minute = 12 * 60;
    s.end_minute = 12 * 60 + 10 * 6;
    s.night_minute = 18 * 60;
    s.weather = hex_miniatures::setup::WeatherKind::Clear;
    s.weather_start = None;
    s.objectives = Vec::new();
    let mut g = Game::from_setup(s, &Tables::shipped()).expect("the battle sets up");
    for _ in 0..1000 {
        if g.stage() == stage && g.phasing().0 == 0 && matches!(g.to_act(), ToAct::Side(_)) {
            return g;
        }
        let a = match g.to_act() {
            ToAct::Chance => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                v[v.len() / 2]
            }
            _ => Action::End,
        };
        g.apply(a).expect("the stage ends");
    }
    panic!("never reached {stage:?}");
}

fn id(g: &Game, s: &str) -> UnitId {
    g.unit_by_id(s).expect("a unit")
}

/// The score of `a` by the heuristic that goes into contact at 2:1.
fn score_of(g: &Game, a: Action) -> i64 {
    let two = Style {
        contact: 20,
        hold: 20,
        ..Style::STEADY
    };
    HmHeuristic::with_style(1, two)
        .scored(g)
        .into_iter()
        .find(|p| p.1 == a)
        .map(|p| p.0)
        .unwrap_or_else(|| panic!("'{}' is not legal", g.action_text(a)))
}

#[test]
fn a_unit_goes_into_contact_only_when_the_friends_counted_can_arrive() {
    use hex_miniatures::army::Kind;
    // The French battalion FA at 0505; PA and PB two hexes from it, PB on the far side. PB
    // can come up beside FA this stage: together they make 2:1, so PA goes in. With a second
    // French battalion FZ beside PB, PB may not leave its zone of control ([8.3.3]): PA alone
    // would attack at 1:1, so it stays out.
    let free = built(
        &[
            ("PA", 0, Kind::Line, "0503"),
            ("PB", 0, Kind::Line, "0507"),
            ("FA", 1, Kind::Line, "0505"),
        ],
        Stage::Movement,
    );
    let (pa, pb, fa) = (id(&free, "PA"), id(&free, "PB"), id(&free, "FA"));
    let fa_hex = free.hex_of(fa).expect("on the table");
    let map = &free.setup().map;
    let to = free
        .destinations(pa)
        .into_iter()
        .find(|&h| map.distance(h, fa_hex) == 1)
        .expect("PA can reach FA");
    let p = |att: &[UnitId]| ai::hm::column10(&free.preview(fa_hex, att).expect("odds"));
    assert!(p(&[pa]) < 20, "alone PA reads {}", p(&[pa]));
    assert!(p(&[pa, pb]) >= 20, "together they read {}", p(&[pa, pb]));
    let go = Action::Move { unit: pa, to };
    assert!(score_of(&free, go) > 0, "with PB able to come, PA goes in");

    let pinned = built(
        &[
            ("PA", 0, Kind::Line, "0503"),
            ("PB", 0, Kind::Line, "0507"),
            ("FA", 1, Kind::Line, "0505"),
            ("FZ", 1, Kind::Line, "0508"),
        ],
        Stage::Movement,
    );
    let pb = id(&pinned, "PB");
    let pb_hex = pinned.hex_of(pb).expect("on the table");
    let fz_hex = pinned.hex_of(id(&pinned, "FZ")).expect("on the table");
    assert_eq!(pinned.setup().map.distance(pb_hex, fz_hex), 1, "FZ pins PB");
    assert!(
        pinned.destinations(pb).is_empty(),
        "PB may not leave ([8.3.3])"
    );
    let go = Action::Move {
        unit: id(&pinned, "PA"),
        to,
    };
    assert!(
        score_of(&pinned, go) < 0,
        "PA does not go in counting on PB, who cannot come"
    );
}

#[test]
fn the_attack_stage_puts_its_strength_where_it_can_win_and_one_unit_on_the_other_hex() {
    use hex_miniatures::army::Kind;
    // FA (0505) and FB, beside it, are both next to P1 and P2 (the two hexes beside both);
    // P3 touches FA only. Each hex must be attacked ([9.4.2.1]) and each unit attacks once
    // ([9.4.2.4]): the heuristic sends one unit against one hex and the other two together
    // against the other, rather than splitting into 1:1 attacks everywhere.
    let probe = built(&[("FA", 1, Kind::Line, "0505")], Stage::Movement);
    let map = &probe.setup().map;
    let fa: Hex = "0505".parse().expect("a hex");
    let fb = map.neighbours(fa)[0];
    let both: Vec<Hex> = map
        .neighbours(fa)
        .into_iter()
        .filter(|&h| map.contains(h) && map.distance(h, fb) == 1)
        .collect();
    assert_eq!(both.len(), 2);
    let p3 = map
        .neighbours(fa)
        .into_iter()
        .find(|&h| h != fb && map.contains(h) && map.distance(h, fb) > 1 && !both.contains(&h))
        .expect("a hex next to FA only");
    let name = |h: Hex| h.to_string();
    let (b0, b1, p3s, fbs) = (name(both[0]), name(both[1]), name(p3), name(fb));
    let mut g = built(
        &[
            ("P1", 0, Kind::Line, &b0),
            ("P2", 0, Kind::Line, &b1),
            ("P3", 0, Kind::Line, &p3s),
            ("FA", 1, Kind::Line, "0505"),
            ("FB", 1, Kind::Line, &fbs),
        ],
        Stage::Attacks,
    );
    let mut h = HmHeuristic::new(5);
    let mut on: std::collections::BTreeMap<Hex, u32> = Default::default();
    let mut said = Vec::new();
    while g.stage() == Stage::Attacks && matches!(g.to_act(), ToAct::Side(_)) {
        let a = h.choose(&g).expect("a choice");
        if let Some(s) = h.explain() {
            said.push(s);
        }
        if let Action::Attack { target, .. } = a {
            *on.entry(target).or_default() += 1;
        }
        g.apply(a).expect("legal");
    }
    let mut counts: Vec<u32> = on.values().copied().collect();
    counts.sort();
    assert_eq!(counts, vec![1, 2], "{on:?}");
    assert!(
        said.iter()
            .all(|s| s.contains(" at ") && s.contains("[9.4.2.2]")),
        "{said:?}"
    );
}

#[test]
fn the_search_weighs_plans_that_differ_the_village_first_or_the_ridge_first() {
    // At a Prussian movement stage of turn 8 (heuristic play), the styles give different
    // plans: the village-first plan brings its units nearer the village's hexes than the
    // ridge-first plan does, and the search has at least three different plans to weigh.
    let mut seats = heuristics(21);
    let mut g = moeckern();
    let mut dice = Dice::new(21);
    loop {
        match g.to_act() {
            ToAct::Over(_) => panic!("the battle ended before turn 8"),
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
            }
            ToAct::Side(s) => {
                if s.0 == 0 && g.turn() >= 8 && g.stage() == Stage::Movement {
                    break;
                }
                let Seat::Heuristic(p) = &mut seats[usize::from(s.0)] else {
                    unreachable!()
                };
                let a = p.choose(&g).expect("a choice");
                g.apply_unchecked(a);
            }
        }
    }
    let village: Vec<Hex> = g
        .objectives()
        .iter()
        .copied()
        .filter(|&h| matches!(g.hex_kind(h), "town" | "fortified" | "earthwork" | "forest"))
        .collect();
    assert!(!village.is_empty() && village.len() < g.objectives().len());
    let map = &g.setup().map;
    let gain = |plan: &[Action]| -> i64 {
        plan.iter()
            .filter_map(|&a| match a {
                Action::Move { unit, to } => {
                    let from = g.hex_of(unit)?;
                    let d = |h: Hex| village.iter().map(|&v| map.distance(h, v)).min();
                    Some(i64::from(d(from)?) - i64::from(d(to)?))
                }
                _ => None,
            })
            .sum()
    };
    let v = HmKnowledge::plan(&g, Style::VILLAGE, 3);
    let r = HmKnowledge::plan(&g, Style::RIDGE, 3);
    assert_ne!(v, r, "the two aims give the same plan");
    assert!(
        gain(&v) > gain(&r),
        "village {} ridge {}",
        gain(&v),
        gain(&r)
    );
    let plans = HmKnowledge.candidates(&g, Side(0), 3);
    assert!(plans.len() >= 3, "{} plans", plans.len());
}
