//! Leipzig 1813's computer players: their choices are legal in every scenario, they are
//! deterministic by seed, the heuristic plays a whole scenario to its end and does better than
//! random play; its skills on built positions (odds with leaders and terrain as the rules
//! compute them, build-up, break-down, retreat before combat, the armistice, the ESM exit);
//! the explanations; the fast search (`plans`).

use ai::l1813::heuristic::{attack_odds, Style};
use ai::l1813::{L1813Heuristic, L1813Plans, L1813Search};
use engine::{Dice, Rules, Side, ToAct};
use hexmap::Hex;
use leipzig_1813::data::Tables;
use leipzig_1813::game::Step;
use leipzig_1813::scenario::Scenario;
use leipzig_1813::{Action, Event, Game};

fn new_game(n: u8) -> Game {
    let sc = Scenario::leipzig(n).expect("a scenario");
    Game::new(&sc, &Tables::leipzig()).expect("a game")
}

/// Who plays a seat.
enum Seat {
    Heuristic(L1813Heuristic),
    Plans(L1813Plans),
    Random(Dice),
}

impl Seat {
    fn choose(&mut self, g: &Game) -> Action {
        match self {
            Seat::Heuristic(h) => h.choose(g),
            Seat::Plans(p) => p.choose(g),
            Seat::Random(d) => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                let i = d.draw(&vec![1; v.len()]).unwrap_or(0);
                v.get(i).copied().unwrap_or(Action::End)
            }
        }
    }
}

/// Plays `g` for at most `turns` game-turns (or to its end), every choice checked; returns the
/// actions taken and the game.
fn play(mut g: Game, seats: &mut [Seat; 2], seed: u64, turns: u32) -> (Vec<Action>, Game) {
    let mut dice = Dice::new(seed);
    let mut log = Vec::new();
    let last = g.turn() + turns;
    for _ in 0..200_000 {
        if g.turn() >= last {
            break;
        }
        match g.to_act() {
            ToAct::Side(Side(s)) => {
                let a = seats[usize::from(s % 2)].choose(&g);
                g.check(a)
                    .unwrap_or_else(|e| panic!("{} illegal: {e:?}", g.action_text(a)));
                g.apply_unchecked(a);
                log.push(a);
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
                log.push(a);
            }
            ToAct::Over(_) => break,
        }
    }
    (log, g)
}

fn heuristic(seed: u64) -> Seat {
    Seat::Heuristic(L1813Heuristic::new(seed))
}

#[test]
fn the_heuristic_plays_a_whole_scenario_to_its_end_with_legal_choices() {
    let (_, g) = play(new_game(5), &mut [heuristic(1), heuristic(2)], 7, 100);
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "the game ended (turn {})",
        g.turn()
    );
}

#[test]
fn the_heuristic_is_deterministic_by_seed() {
    let a = play(new_game(5), &mut [heuristic(3), heuristic(4)], 11, 3).0;
    let b = play(new_game(5), &mut [heuristic(3), heuristic(4)], 11, 3).0;
    assert_eq!(a, b);
}

#[test]
fn the_heuristic_does_better_than_random_play() {
    // a few short games, the heuristic on each seat in turn: its victory point margin summed
    let mut margin = 0i64;
    for seed in 0..4u64 {
        for h in 0..2usize {
            let mut seats = if h == 0 {
                [heuristic(seed), Seat::Random(Dice::new(seed + 100))]
            } else {
                [Seat::Random(Dice::new(seed + 100)), heuristic(seed)]
            };
            let (_, g) = play(new_game(5), &mut seats, seed, 3);
            let vp = g.victory_points();
            margin += i64::from(vp[h]) - i64::from(vp[1 - h]);
        }
    }
    eprintln!("heuristic margin over random: {margin}");
    assert!(margin > 0, "heuristic margin over random: {margin}");
}

#[test]
fn the_search_over_the_heuristic_chooses_legal_actions() {
    // the set-up by the heuristic (its rollouts would run through the whole set-up)
    let mut g = new_game(5);
    let mut dice = Dice::new(2);
    let mut seats = [heuristic(8), heuristic(9)];
    while g.step() == leipzig_1813::game::Step::Setup {
        let a = match g.to_act() {
            ToAct::Side(Side(s)) => seats[usize::from(s % 2)].choose(&g),
            _ => engine::draw_chance(&g, &mut dice).expect("an outcome"),
        };
        g.apply_unchecked(a);
    }
    let mut p = L1813Search::new(2, 5);
    for _ in 0..15 {
        match g.to_act() {
            ToAct::Side(_) => {
                let a = p.choose(&g);
                g.check(a).expect("a legal action");
                g.apply_unchecked(a);
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
            }
            ToAct::Over(_) => break,
        }
    }
}

#[test]
fn every_choice_of_the_heuristic_is_legal_in_all_eight_scenarios() {
    for n in 1..=8u8 {
        let g = new_game(n);
        let first = g.turn();
        let (log, g) = play(g, &mut [heuristic(n.into()), heuristic(9)], 3, 2);
        assert!(!log.is_empty(), "scenario {n}");
        assert!(
            g.turn() > first || matches!(g.to_act(), ToAct::Over(_)),
            "scenario {n}"
        );
    }
}

// ---- built positions ------------------------------------------------------------------------

/// A game of scenario `n` emptied for a built position at the start of `player`'s movement
/// phase on `turn`.
fn staged(n: u8, turn: u32, player: u8) -> Game {
    let mut g = new_game(n);
    g.stage_empty(turn, player);
    g
}

fn neighbour(g: &Game, h: Hex, d: usize) -> Hex {
    g.board()
        .neighbours(h)
        .find(|&(x, _)| x == d)
        .map(|(_, n)| n)
        .expect("on the map")
}

/// A clear hex whose hexes within `r` are clear, with plain hexsides, far from every city.
fn open_ground(g: &Game, r: u32) -> Hex {
    let b = g.board();
    let plain = |h: Hex| {
        let i = b.hex(h);
        b.contains(h)
            && i.kind == 0
            && !i.austria
            && i.city.is_none()
            && b.neighbours(h).count() == 6
            && (0..6).all(|d| {
                let s = b.side(h, d);
                !s.river && s.cost == 1 && s.zoc && s.retreat && s.defence == 1
            })
    };
    (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| {
            b.cities.iter().flatten().all(|&c| b.distance(c, h) > r + 2)
                && (0..b.len())
                    .map(|i| b.hex_at(i))
                    .filter(|&c| b.distance(h, c) <= r)
                    .all(plain)
        })
        .expect("some open ground")
}

/// Plays the heuristic for both sides from `g` while the game stays in `step`.
fn play_step(g: &mut Game, step: Step) {
    let mut seats = [heuristic(1), heuristic(2)];
    for _ in 0..500 {
        if g.step() != step {
            return;
        }
        let ToAct::Side(Side(s)) = g.to_act() else {
            return;
        };
        let a = seats[usize::from(s % 2)].choose(g);
        g.apply(a)
            .unwrap_or_else(|r| panic!("{}: {r}", g.action_text(a)));
    }
}

/// A French corps next to an Allied corps on open ground, each with a supply unit beside it;
/// Napoleon with the French when `napoleon`. Returns the game at the French attack step, the
/// French hex and the Allied hex.
fn corps_against_corps(napoleon: bool) -> (Game, Hex, Hex) {
    let mut g = staged(5, 25, 0);
    let h = open_ground(&g, 4);
    let n = neighbour(&g, h, 0);
    g.stage_unit(0, "infantry-corps", h).unwrap();
    g.stage_unit(0, "supply", neighbour(&g, h, 3)).unwrap();
    g.stage_unit(1, "infantry-corps", n).unwrap();
    g.stage_unit(1, "supply", neighbour(&g, n, 0)).unwrap();
    if napoleon {
        g.stage_leader(0, 1, h);
    }
    play_step(&mut g, Step::Movement);
    assert_eq!(g.step(), Step::Attack);
    (g, h, n)
}

#[test]
fn the_heuristic_counts_leader_bonuses_in_its_odds_as_the_rules_do() {
    // 5 against 5 is 100%: no attack.
    let (g, h, n) = corps_against_corps(false);
    let o = attack_odds(&g, 0, h, &[n]).expect("odds");
    assert_eq!((o.attack, o.defence, o.percent), (5, 5, 100));
    assert_eq!(L1813Heuristic::new(1).choose(&g), Action::End);
    // Napoleon adds his bonus up to the corps' 5 (Leaders (B)): 10 against 5, 200%.
    let (mut g, h, n) = corps_against_corps(true);
    let o = attack_odds(&g, 0, h, &[n]).expect("odds");
    assert_eq!((o.attack, o.defence, o.percent), (10, 5, 200));
    assert_eq!(o.attack_leaders, 5);
    assert_eq!(o.column_name, "200%");
    assert_eq!(
        L1813Heuristic::new(1).choose(&g),
        Action::Attack { from: h, to: n }
    );
    // the rules resolve it at the same numbers (both sides allocate their supply; the
    // defender stands, though the heuristic would retreat from 5/6 of destruction)
    play_step(&mut g, Step::Attack);
    assert_eq!(g.step(), Step::Retreat);
    g.apply(Action::End).unwrap();
    play_step(&mut g, Step::DefenceSupply);
    assert_eq!(g.to_act(), ToAct::Chance, "{:?}", g.step());
    g.apply(Action::Roll(3)).unwrap();
    let got = g.events().iter().find_map(|e| match e {
        Event::CombatResolved {
            attack,
            defence,
            percent,
            ..
        } => Some((*attack, *defence, *percent)),
        _ => None,
    });
    assert_eq!(got, Some((10, 5, 200)));
}

#[test]
fn the_heuristic_counts_a_fortress_in_its_odds() {
    let mut g = staged(5, 25, 0);
    let b = g.board();
    let f = (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| b.hex(h).fortress && !b.hex(h).austria && b.neighbours(h).count() == 6)
        .expect("a fortress");
    let (d, beside) = b
        .neighbours(f)
        .find(|&(d, _)| !b.side(f, d).river)
        .expect("a side without a river");
    let back = b.between(beside, f).expect("adjacent");
    g.stage_unit(1, "infantry-division", f).unwrap();
    g.stage_unit(0, "infantry-army", beside).unwrap();
    let o = attack_odds(&g, 0, beside, &[f]).expect("odds");
    assert_eq!(o.multiplier, u32::from(back.defence));
    assert!(o.multiplier >= 3, "a fortress triples (TEC): {o:?}");
    // an army out of supply (9) against a division in a fortress (2, tripled: 6)
    assert_eq!((o.attack, o.defence), (9, 6), "{o:?}");
    let _ = d;
}

#[test]
fn the_heuristic_retreats_before_combat_from_bad_odds_and_stands_against_poor_ones() {
    // a French corps (5, supplied) on an Allied division (2, unsupplied: 1) is 500%; the bar
    // on retreat (Combat (J) II) counts the printed 2, 250%, so it may go, and does.
    let mut g = staged(5, 25, 0);
    let h = open_ground(&g, 4);
    let n = neighbour(&g, h, 0);
    g.stage_unit(0, "infantry-corps", h).unwrap();
    let s = g.stage_unit(0, "supply", neighbour(&g, h, 3)).unwrap();
    let d = g.stage_unit(1, "infantry-division", n).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::Attack { from: h, to: n }).unwrap();
    g.apply(Action::Supply { unit: s as u16 }).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!(g.step(), Step::Retreat);
    let mut allies = L1813Heuristic::new(4);
    let a = allies.choose(&g);
    assert!(
        matches!(a, Action::Retreat { unit, .. } if usize::from(unit) == d),
        "{}",
        g.action_text(a)
    );
    let why = allies.explain().expect("the retreat explained");
    assert!(why.contains("at 500% (6/6 to be destroyed"), "{why}");
    // a corps attacked by a corps at 100% stands
    let mut g = staged(5, 25, 0);
    g.stage_unit(0, "infantry-corps", h).unwrap();
    let s = g.stage_unit(0, "supply", neighbour(&g, h, 3)).unwrap();
    g.stage_unit(1, "infantry-corps", n).unwrap();
    g.stage_unit(1, "supply", neighbour(&g, n, 0)).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::Attack { from: h, to: n }).unwrap();
    g.apply(Action::Supply { unit: s as u16 }).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(L1813Heuristic::new(4).choose(&g), Action::End);
}

#[test]
fn the_heuristic_builds_up_a_stack_next_to_the_enemy() {
    let mut g = staged(5, 25, 0);
    let h = open_ground(&g, 4);
    g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit(0, "infantry-division", h).unwrap();
    // next to the enemy: built up, it attacks as one unit and needs no supply to stand
    g.stage_unit(1, "cavalry-division", neighbour(&g, h, 0))
        .unwrap();
    let a = L1813Heuristic::new(1).choose(&g);
    assert!(
        matches!(a, Action::Combine { hex, .. } if hex == h),
        "{}",
        g.action_text(a)
    );
    g.apply(a).unwrap();
    let french: Vec<_> = g
        .units()
        .iter()
        .filter(|u| u.on_map() && u.side == 0 && g.arm(u).is_combat())
        .collect();
    assert_eq!(french.len(), 1, "one corps");
}

#[test]
fn the_heuristic_breaks_a_corps_down_to_spread_over_open_objectives() {
    let mut g = staged(5, 25, 0);
    let leipzig = g.board().cities[3].expect("Leipzig on the map");
    let start = g
        .board()
        .neighbours(leipzig)
        .map(|(_, n)| n)
        .find(|&n| g.board().hex(n).kind == 0)
        .expect("clear ground by Leipzig");
    g.stage_unit(0, "infantry-corps", start).unwrap();
    let a = L1813Heuristic::new(1).choose(&g);
    assert!(matches!(a, Action::Split { .. }), "{}", g.action_text(a));
    play_step(&mut g, Step::Movement);
    let mut hexes: Vec<Hex> = g
        .units()
        .iter()
        .filter(|u| u.on_map() && u.side == 0)
        .map(|u| u.hex)
        .collect();
    assert_eq!(hexes.len(), 2, "two divisions");
    hexes.dedup();
    assert_eq!(hexes.len(), 2, "spread over two hexes");
    assert!(g.units().iter().all(|u| !g.is_dispersed(u)));
    assert!(hexes.contains(&leipzig), "one takes Leipzig");
    // the cautious style keeps it whole
    let mut g = staged(5, 25, 0);
    g.stage_unit(0, "infantry-corps", start).unwrap();
    let a = L1813Heuristic::styled(Style::CAUTIOUS, 1).choose(&g);
    assert!(!matches!(a, Action::Split { .. }));
}

#[test]
fn the_french_call_the_armistice_in_time_to_avert_the_german_rebellion() {
    let rebellion = Scenario::leipzig(8)
        .and_then(|s| s.rules.german_rebellion.map(|r| r.turn))
        .expect("the campaign's rebellion");
    let h = |g: &Game| open_ground(g, 2);
    let mut g = staged(8, rebellion - 1, 0);
    let at = h(&g);
    g.stage_unit(0, "infantry-corps", at).unwrap();
    let mut p = L1813Heuristic::new(1);
    assert_eq!(p.choose(&g), Action::Armistice);
    assert!(p.explain().expect("said").contains("armistice"));
    let mut g = staged(8, 6, 0);
    g.stage_unit(0, "infantry-corps", at).unwrap();
    assert!(g.check(Action::Armistice).is_ok());
    assert_ne!(L1813Heuristic::new(1).choose(&g), Action::Armistice);
}

#[test]
fn the_french_exit_by_the_east_edge_only_with_a_complete_group() {
    let mut g = staged(1, 6, 0);
    let army = g.stage_unit(0, "infantry-army", Hex::new(0, 0)).unwrap();
    let b = g.board().clone();
    let edge = (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| {
            g.stage_unit_mut(army).hex = h;
            b.hex(h).supply && g.may_exit(army)
        })
        .expect("an east edge hex");
    g.stage_leader(0, 3, edge);
    let mut without = g.clone();
    g.stage_unit(0, "supply", edge).unwrap();
    let a = L1813Heuristic::new(1).choose(&g);
    assert!(matches!(a, Action::Exit { .. }), "{}", g.action_text(a));
    // no supply unit: no complete group, no exit
    without.stage_unit(0, "infantry-division", neighbour(&without, edge, 3));
    let a = L1813Heuristic::new(1).choose(&without);
    assert!(
        !matches!(a, Action::Exit { .. }),
        "{}",
        without.action_text(a)
    );
}

// ---- explanations -----------------------------------------------------------------------------

#[test]
fn the_heuristic_says_each_step_plan_once_with_the_rules_numbers() {
    let (g, _, _) = corps_against_corps(true);
    let mut p = L1813Heuristic::new(1);
    p.choose(&g);
    let why = p.explain().expect("the attack step explained");
    assert!(why.starts_with("Attacks (steady style):"), "{why}");
    assert!(
        why.contains("10 against 5 (200%, the 200% column; attacking leaders +5)"),
        "{why}"
    );
    assert!(why.contains("5/6 to destroy the defender"), "{why}");
    // the next action carries the plan out without a word
    let mut g = g;
    let a = p.choose(&g);
    g.apply(a).unwrap();
    p.choose(&g);
    assert_eq!(p.explain(), None);
    // a movement phase of scenario 5 says its moves once
    let mut g = new_game(5);
    let mut dice = Dice::new(1);
    let mut seats = [heuristic(1), heuristic(2)];
    while g.step() == Step::Setup {
        let a = match g.to_act() {
            ToAct::Side(Side(s)) => seats[usize::from(s % 2)].choose(&g),
            _ => engine::draw_chance(&g, &mut dice).expect("an outcome"),
        };
        g.apply_unchecked(a);
    }
    let mut p = L1813Heuristic::new(3);
    let a = p.choose(&g);
    let why = p.explain().expect("the movement explained");
    assert!(why.starts_with("Movement (steady style):"), "{why}");
    g.apply(a).unwrap();
    if g.step() == Step::Movement && matches!(g.to_act(), ToAct::Side(_)) {
        p.choose(&g);
        assert_eq!(p.explain(), None);
    }
}

// ---- the fast search ------------------------------------------------------------------------

#[test]
fn the_plans_search_chooses_legal_actions_and_is_deterministic_by_seed() {
    let run = || {
        let mut seats = [Seat::Plans(L1813Plans::new(1, 5)), heuristic(6)];
        play(new_game(5), &mut seats, 4, 1).0
    };
    let a = run();
    assert!(a.len() > 20);
    assert_eq!(a, run());
    // the Allied seat too, and in a spring scenario with hidden units
    let mut seats = [heuristic(7), Seat::Plans(L1813Plans::new(1, 8))];
    play(new_game(1), &mut seats, 5, 1);
    assert!(L1813Plans::from_spec("plans@3n", 1).is_ok());
    assert!(L1813Plans::from_spec("plans@0n", 1).is_err());
}

#[test]
fn the_plans_search_explains_the_plan_it_chose() {
    let (g, h, n) = corps_against_corps(true);
    let mut p = L1813Plans::new(1, 2);
    let a = p.choose(&g);
    assert_eq!(a, Action::Attack { from: h, to: n });
    let why = p.explain().expect("explained");
    assert!(why.contains("200%"), "{why}");
}

/// Measures `plans` (run in release: `cargo test --release -p ai --test l1813_players --
/// --ignored --nocapture`): its player-turn times and the styles it chose over a whole
/// scenario 5 as the French against the heuristic.
#[test]
#[ignore]
fn plans_player_turn_times_and_styles() {
    let mut g = new_game(5);
    let mut plans = L1813Plans::new(L1813Plans::DEFAULT_SIMS, 1);
    let mut allies = L1813Heuristic::new(2);
    let mut dice = Dice::new(3);
    let mut styles = std::collections::BTreeMap::new();
    for _ in 0..100_000 {
        match g.to_act() {
            ToAct::Side(Side(0)) => {
                let a = plans.choose(&g);
                if plans.explain().is_some() {
                    *styles.entry(plans.style().name).or_insert(0u32) += 1;
                }
                g.apply(a).expect("legal");
            }
            ToAct::Side(_) => {
                let a = allies.choose(&g);
                g.apply(a).expect("legal");
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
            }
            ToAct::Over(_) => break,
        }
    }
    let mut t: Vec<f64> = plans
        .turn_times()
        .iter()
        .map(|(_, d)| d.as_secs_f64())
        .collect();
    t.sort_by(|a, b| a.total_cmp(b));
    eprintln!(
        "plans: {} player-turns, median {:.3} s, longest {:.3} s; styles chosen {styles:?}",
        t.len(),
        t.get(t.len() / 2).copied().unwrap_or(0.0),
        t.last().copied().unwrap_or(0.0)
    );
}

#[test]
fn the_allies_turn_revealed_units_face_down_again_before_they_move() {
    // Reconnaissance (L46): in the spring, heuristic against heuristic, every Allied movement
    // phase that may re-hide units starts by hiding them all
    let mut g = new_game(1);
    let mut seats = [heuristic(5), heuristic(6)];
    let mut dice = Dice::new(5);
    let mut checked = 0;
    for _ in 0..200_000 {
        if g.turn() >= 6 {
            break;
        }
        match g.to_act() {
            ToAct::Side(Side(s)) => {
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                let a = seats[usize::from(s % 2)].choose(&g);
                if legal.iter().any(|x| matches!(x, Action::Hide { .. })) {
                    assert!(matches!(a, Action::Hide { .. }), "{}", g.action_text(a));
                    checked += 1;
                }
                g.apply_unchecked(a);
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
            }
            ToAct::Over(_) => break,
        }
    }
    assert!(checked > 0, "no revealed unit to hide in five turns");
}

// ---- hidden information (Reconnaissance) ---------------------------------------------------

/// Scenario 1 played by the heuristic until the French are to act in their movement phase of
/// `turn` with Allied counters they may not examine.
fn spring_position(turn: u32) -> Game {
    let mut g = new_game(1);
    let mut seats = [heuristic(3), heuristic(4)];
    let mut dice = Dice::new(6);
    for _ in 0..200_000 {
        if g.turn() >= turn && g.step() == Step::Movement && g.to_act() == ToAct::Side(Side(0)) {
            break;
        }
        match g.to_act() {
            ToAct::Side(Side(s)) => {
                let a = seats[usize::from(s % 2)].choose(&g);
                g.apply(a).expect("legal");
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
            }
            ToAct::Over(_) => break,
        }
    }
    assert!(!g.unseen_by(0).is_empty(), "hidden Allied counters");
    g
}

/// The same game with what the French may not examine told differently: the identities of
/// each pair of hidden Allied counters of different kinds swapped (kind, leader, nationality,
/// name, movement points and markers), positions kept; only counters at least five hexes from
/// every French unit, so that the French cannot reveal them at once.
fn told_otherwise(g: &Game) -> Game {
    let french: Vec<Hex> = g
        .units()
        .iter()
        .filter(|u| u.side == 0 && u.on_map())
        .map(|u| u.hex)
        .collect();
    let hidden: Vec<usize> = g
        .unseen_by(0)
        .into_iter()
        .filter(|&u| {
            let h = g.units()[u].hex;
            french.iter().all(|&f| g.board().distance(f, h) >= 5)
        })
        .collect();
    let mut h = g.clone();
    let mut swaps = 0;
    let mut used = Vec::new();
    for &a in &hidden {
        if used.contains(&a) {
            continue;
        }
        let Some(&b) = hidden
            .iter()
            .find(|&&b| !used.contains(&b) && g.units()[b].kind != g.units()[a].kind)
        else {
            continue;
        };
        used.extend([a, b]);
        for (x, y) in [(a, b), (b, a)] {
            let src = g.units()[y].clone();
            let u = h.stage_unit_mut(x);
            u.kind = src.kind;
            u.leader = src.leader;
            u.nationality = src.nationality;
            u.serial = src.serial;
            u.mp = src.mp;
            u.moved = src.moved;
            u.march = src.march;
            u.dispersed_until = src.dispersed_until;
            u.disperse_at_end = src.disperse_at_end;
            u.gotha = src.gotha;
            u.saxon = src.saxon;
            u.supply_use = src.supply_use;
        }
        swaps += 1;
    }
    assert!(swaps > 0, "two hidden counters of different kinds");
    h
}

/// What the French may know of `g` (a determinization with a fixed seed: equal exactly when
/// the public positions are, for the same hidden identities).
fn public(g: &Game) -> u64 {
    g.as_seen_by(0, 1).state_hash()
}

/// Plays the French with `french(seed)` on two games that differ only in what the French may
/// not examine, the same dice and the same Allied choices on both, while their public
/// positions agree; asserts the French choose the same on both. Returns the French decisions
/// compared.
fn same_french_choices(
    mut a: Game,
    mut b: Game,
    french: &dyn Fn() -> Seat,
    decisions: usize,
) -> usize {
    let (mut fa, mut fb) = (french(), french());
    let mut allies = heuristic(12);
    let mut dice = Dice::new(13);
    let mut compared = 0;
    while compared < decisions && public(&a) == public(&b) {
        match a.to_act() {
            ToAct::Side(Side(0)) => {
                let (x, y) = (fa.choose(&a), fb.choose(&b));
                assert_eq!(
                    a.action_text(x),
                    b.action_text(y),
                    "decision {compared}: the French chose differently on hidden identities"
                );
                a.check(x).expect("legal in the real game");
                b.check(y).expect("legal in the real game");
                a.apply_unchecked(x);
                b.apply_unchecked(y);
                compared += 1;
            }
            ToAct::Side(_) => {
                let x = allies.choose(&a);
                if b.check(x).is_err() {
                    break;
                }
                a.apply_unchecked(x);
                b.apply_unchecked(x);
            }
            ToAct::Chance => {
                let x = engine::draw_chance(&a, &mut dice).expect("an outcome");
                a.apply_unchecked(x);
                b.apply_unchecked(x);
            }
            ToAct::Over(_) => break,
        }
    }
    if std::env::var_os("L1813_DEBUG").is_some() {
        let ev: Vec<String> = a.events().iter().map(|e| format!("{e:?}")).collect();
        eprintln!("stopped after {compared}: {}", ev.join("; "));
    }
    compared
}

#[test]
fn the_french_heuristic_chooses_the_same_whatever_the_hidden_allies_are() {
    for turn in [1, 3] {
        let a = spring_position(turn);
        let b = told_otherwise(&a);
        assert_ne!(a.state_hash(), b.state_hash(), "the real games differ");
        assert_eq!(public(&a), public(&b), "the public positions agree");
        let n = same_french_choices(a, b, &|| heuristic(21), 400);
        assert!(n >= 10, "turn {turn}: only {n} French decisions compared");
    }
}

#[test]
fn the_french_plans_search_chooses_the_same_whatever_the_hidden_allies_are() {
    let mut n = 0;
    for turn in [1, 2, 3] {
        let a = spring_position(turn);
        let b = told_otherwise(&a);
        n += same_french_choices(a, b, &|| Seat::Plans(L1813Plans::new(1, 22)), 200);
    }
    assert!(n >= 10, "only {n} French decisions compared");
}

#[test]
fn the_old_search_chooses_from_the_french_view_too() {
    let a = spring_position(1);
    let b = told_otherwise(&a);
    let (mut sa, mut sb) = (L1813Search::new(2, 5), L1813Search::new(2, 5));
    let (x, y) = (sa.choose(&a), sb.choose(&b));
    assert_eq!(a.action_text(x), b.action_text(y));
    a.check(x).expect("legal");
}

#[test]
fn choices_stay_legal_over_whole_spring_games_from_the_french_view() {
    // `play` checks every choice against the real game
    for (n, seed) in [(1u8, 1u64), (3, 2)] {
        let (_, g) = play(new_game(n), &mut [heuristic(seed), heuristic(9)], seed, 100);
        assert!(matches!(g.to_act(), ToAct::Over(_)), "scenario {n}");
    }
    let (_, g) = play(
        new_game(1),
        &mut [Seat::Plans(L1813Plans::new(1, 3)), heuristic(4)],
        5,
        100,
    );
    assert!(matches!(g.to_act(), ToAct::Over(_)));
}

/// A study (run by hand: `cargo test -p ai --test l1813_players -- --ignored march_losses
/// --nocapture`): where scenario 8's forced march losses come from.
#[test]
#[ignore]
fn march_losses_study() {
    let mut g = new_game(8);
    let mut seats = [heuristic(1), heuristic(2)];
    let mut dice = Dice::new(3);
    for _ in 0..400_000 {
        match g.to_act() {
            ToAct::Side(Side(s)) => {
                let a = seats[usize::from(s % 2)].choose(&g);
                let before = g.clone();
                g.apply(a).expect("legal");
                for e in g.events() {
                    let t = format!("{e:?}");
                    if t.contains("March")
                        || (t.contains("Eliminated")
                            && matches!(a, Action::Roll(_) | Action::Press { .. }))
                    {
                        eprintln!(
                            "t{} p{} {}: {t}",
                            before.turn(),
                            before.player(),
                            g.action_text(a)
                        );
                    }
                }
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
                for e in g.events() {
                    let t = format!("{e:?}");
                    if t.contains("MarchRolled") || t.contains("Eliminated") {
                        eprintln!("t{} p{} roll: {t}", g.turn(), g.player());
                    }
                }
            }
            ToAct::Over(_) => break,
        }
    }
    eprintln!(
        "losses {:?} {:?} armistice {:?} austria {:?}",
        g.losses(0),
        g.losses(1),
        g.armistice_called(),
        g.austria_intervened()
    );
}

// ---- forced marches weighed -----------------------------------------------------------------

/// Scenario 5 on `turn`: a French infantry corps a double march from a victory city the
/// Allies hold (two hexes beyond its allowance, the city its objective), a supply unit beside
/// it that has moved this phase or not. Returns the game and the corps.
fn corps_to_march(turn: u32, supply_moved: bool) -> (Game, usize) {
    let mut g = staged(5, turn, 0);
    let b = g.board().clone();
    let probe = g
        .stage_unit(0, "infantry-corps", open_ground(&g, 1))
        .unwrap();
    let allowance = g.allowance(&g.units()[probe]);
    g.stage_unit_mut(probe).status = leipzig_1813::game::Status::Gone;
    let cities: Vec<Hex> = b.cities.iter().flatten().copied().collect();
    let all: Vec<Hex> = (0..b.len()).map(|i| b.hex_at(i)).collect();
    let mut pairs = Vec::new();
    for &c in &cities {
        for &h in &all {
            if b.distance(h, c) == allowance + 2 {
                pairs.push((h, c));
            }
        }
    }
    let (h, _) = pairs
        .into_iter()
        .find(|&(h, c)| {
            b.neighbours(h).count() == 6
                && cities
                    .iter()
                    .all(|&o| o == c || b.distance(h, o) > allowance + 4)
        })
        .expect("a hex a double march from one city only");
    let u = g.stage_unit(0, "infantry-corps", h).unwrap();
    let s = g.stage_unit(0, "supply", neighbour(&g, h, 3)).unwrap();
    g.stage_unit_mut(s).moved = supply_moved;
    (g, u)
}

/// The heuristic's score of unit `u`'s double march in `g`.
fn march_score(g: &Game, u: usize) -> i64 {
    ai::l1813::heuristic::scored(g)
        .iter()
        .find(|(_, a)| {
            *a == Action::March {
                unit: u as u16,
                triple: false,
            }
        })
        .map_or(-1, |&(s, _)| s)
}

#[test]
fn a_forced_march_is_weighed_with_the_rules_chances_of_loss() {
    use leipzig_1813::forced_march::OnLetter;
    let last = new_game(5).scenario().last_turn;
    for moved in [false, true] {
        // the chances are the rules': a supply unit that has moved supports no march
        // (Supply (C) III), and then 6/36 destroy the corps and 6/36 disperse it
        let (g, u) = corps_to_march(last - 4, moved);
        let ch = g.march_chances(u, false, OnLetter::Halt);
        assert_eq!(ch.completes == 36, !moved, "{ch:?}");
        // a city taken a turn sooner with no enemy near and turns to go: not worth the loss
        // (nor a supply unit spent)
        assert!(
            march_score(&g, u) < 0,
            "moved {moved}: marched for nothing urgent"
        );
        // on the last game-turn the city's points outweigh it
        let (g, u) = corps_to_march(last, moved);
        assert!(
            march_score(&g, u) > 0,
            "moved {moved}: no march for the last turn's city"
        );
    }
    // and played: on the last turn the corps marches; turns before it, it does not
    for (turn, marches) in [(last, true), (last - 4, false)] {
        let (mut g, u) = corps_to_march(turn, true);
        let mut p = L1813Heuristic::new(1);
        let mut marched = false;
        for _ in 0..60 {
            if g.step() != Step::Movement || g.to_act() != ToAct::Side(Side(0)) {
                break;
            }
            let a = p.choose(&g);
            marched |= a
                == Action::March {
                    unit: u as u16,
                    triple: false,
                };
            g.apply(a).expect("legal");
        }
        assert_eq!(marched, marches, "turn {turn}");
    }
}

#[test]
fn units_across_the_armistice_line_withdraw_rather_than_march() {
    // Armistice (L41): scenario 8, the French call it on turn 14; an Allied division stands
    // on the French side of the line, far from it, when the Allies move
    let mut g = staged(8, 14, 0);
    g.apply(Action::Armistice)
        .expect("the armistice is legal on turn 14");
    let b = g.board().clone();
    let h = (0..b.len())
        .map(|i| b.hex_at(i))
        .filter(|&h| b.hex(h).zone == 0 && !b.hex(h).fortress && b.neighbours(h).count() == 6)
        .max_by_key(|&h| {
            (0..b.len())
                .map(|i| b.hex_at(i))
                .filter(|&x| b.hex(x).zone != 0)
                .map(|x| b.distance(h, x))
                .min()
                .unwrap_or(0)
                .min(4)
        })
        .unwrap();
    let u = g.stage_unit(1, "infantry-corps", h).unwrap();
    let mut french = L1813Heuristic::new(2);
    for _ in 0..200 {
        if g.player() == 1 {
            break;
        }
        match g.to_act() {
            ToAct::Side(_) => {
                let a = french.choose(&g);
                g.apply(a).expect("legal");
            }
            _ => break,
        }
    }
    assert_eq!((g.player(), g.step()), (1, Step::Movement));
    let mut p = L1813Heuristic::new(3);
    let mut seen = false;
    for _ in 0..100 {
        if g.player() != 1 || g.step() != Step::Movement {
            break;
        }
        let ToAct::Side(_) = g.to_act() else { break };
        let must = g.must_withdraw(u) && !g.units()[u].moved;
        let a = p.choose(&g);
        assert!(!matches!(a, Action::March { .. }), "{}", g.action_text(a));
        if must {
            seen = true;
        }
        g.apply(a).expect("legal");
    }
    assert!(seen, "the corps had to withdraw");
    assert!(g.units()[u].moved, "it withdrew");
    assert_eq!(g.losses(1).march, 0);
}

#[test]
fn allied_units_leave_in_the_armistice_to_come_back_beyond_the_french() {
    // Armistice (L41): scenario 8, the French call it on turn 14; an Allied corps on the east
    // edge north-east of the line, far from every French-held city, leaves the map to return
    // in Austria (Dresden and Leipzig within reach of Bohemia) rather than wait out the
    // armistice behind the line
    let mut g = staged(8, 14, 0);
    g.apply(Action::Armistice)
        .expect("the armistice is legal on turn 14");
    let mut french = L1813Heuristic::new(2);
    for _ in 0..200 {
        if g.player() == 1 {
            break;
        }
        let ToAct::Side(_) = g.to_act() else { break };
        let a = french.choose(&g);
        g.apply(a).expect("legal");
    }
    assert_eq!((g.player(), g.step()), (1, Step::Movement));
    let b = g.board().clone();
    let u = g.stage_unit(1, "infantry-corps", Hex::new(0, 0)).unwrap();
    let edge = (0..b.len())
        .map(|i| b.hex_at(i))
        .filter(|&h| !b.hex(h).austria)
        .max_by_key(|&h| {
            g.stage_unit_mut(u).hex = h;
            (g.may_leave_in_armistice(u), h.y)
        })
        .unwrap();
    g.stage_unit_mut(u).hex = edge;
    assert!(
        g.may_leave_in_armistice(u),
        "an east edge hex north-east of the line"
    );
    let sc = ai::l1813::heuristic::scored(&g);
    let exit = Action::Exit { unit: u as u16 };
    let score = sc.iter().find(|(_, a)| *a == exit).map(|&(s, _)| s);
    assert!(score.is_some_and(|s| s > 0), "{score:?}");
    let mut p = L1813Heuristic::new(4);
    let mut left = false;
    for _ in 0..300 {
        if g.player() != 1 || g.step() != Step::Movement {
            break;
        }
        let ToAct::Side(_) = g.to_act() else { break };
        let a = p.choose(&g);
        left |= a == exit;
        g.apply(a).expect("legal");
    }
    assert!(left, "the corps left the map");
    assert!(g.away().iter().any(|&(x, _)| x == u));
}

/// A study (by hand: `cargo test -p ai --test l1813_players -- --ignored spring_study
/// --nocapture`): scenario 1 turn by turn, heuristic against heuristic: who holds the cities,
/// the French attacks declared, each side's divisions on the map.
#[test]
#[ignore]
fn spring_study() {
    let mut g = new_game(1);
    let mut seats = [heuristic(1), heuristic(2)];
    let mut dice = Dice::new(3);
    let mut attacks = 0;
    let mut turn = 0;
    for _ in 0..400_000 {
        if g.turn() != turn {
            let div = |s: u8| -> u32 {
                g.units()
                    .iter()
                    .filter(|u| u.side == s && u.on_map() && g.arm(u).is_combat())
                    .map(|u| g.kind(u).worth)
                    .sum()
            };
            let b = g.board();
            let near: Vec<u32> = b
                .cities
                .iter()
                .flatten()
                .map(|&c| {
                    g.units()
                        .iter()
                        .filter(|u| u.side == 0 && u.on_map() && g.arm(u).is_combat())
                        .map(|u| b.distance(u.hex, c))
                        .min()
                        .unwrap_or(99)
                })
                .collect();
            eprintln!(
                "turn {}: holders {:?}, French attacks so far {attacks}, divisions {} / {}, \
                 nearest French to each city {near:?}, vp {:?}",
                g.turn(),
                g.city_holders(),
                div(0),
                div(1),
                g.victory_points()
            );
            turn = g.turn();
        }
        match g.to_act() {
            ToAct::Side(Side(s)) => {
                let a = seats[usize::from(s % 2)].choose(&g);
                if s == 0 && matches!(a, Action::Attack { .. }) {
                    attacks += 1;
                }
                g.apply(a).expect("legal");
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
            }
            ToAct::Over(_) => break,
        }
    }
    eprintln!(
        "end: holders {:?} vp {:?}",
        g.city_holders(),
        g.victory_points()
    );
}

#[test]
fn reading_the_real_game_would_tell_the_hidden_allies_apart() {
    // the control of the tests above: a French heuristic that read the real game (as every
    // player did before determinizations) plays differently on the two tellings somewhere
    let mut differ = false;
    for turn in [1, 2, 3] {
        let a = spring_position(turn);
        let b = told_otherwise(&a);
        let (mut pa, mut pb) = (L1813Heuristic::new(21), L1813Heuristic::new(21));
        let (mut x, mut y) = (a.clone(), b.clone());
        for _ in 0..200 {
            if public(&x) != public(&y) || x.to_act() != ToAct::Side(Side(0)) {
                break;
            }
            let (p, q) = (pa.choose_in(&x), pb.choose_in(&y));
            if p != q {
                differ = true;
                break;
            }
            x.apply(p).expect("legal");
            y.apply(q).expect("legal");
        }
    }
    assert!(differ, "no position where the hidden identities mattered");
}
