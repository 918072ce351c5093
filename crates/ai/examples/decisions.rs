//! Where a searching level's thinking goes, game-turn by game-turn: `decisions [GAMES] [SCENARIO]
//! [LEVEL] [OPPONENT] [SIDE]` (4 games of `bon-first-day`, `search4` against `search1` as the
//! French, side 0, by default) plays the games one after the other and prints, for each
//! game-turn and kind of decision (movement, declarations, own combat choices, the defender's
//! choices), the decisions searched and left to the heuristic, the simulations of a searched one,
//! the wall milliseconds of the choices that met them (drawing the candidates and playing the
//! chosen action included) divided by the searched ones, and the level's arena score. A thinking time and a simulation budget share
//! themselves out over the game's turns differently: this shows how.
use ai::{DecisionKind, SearchStats};
use engine::{Dice, Rules, ToAct};
use naw::Game;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A game-turn's thinking of one kind: searched, left to the heuristic, simulations, wall
/// milliseconds of the choices that met them.
type Tally = (u64, u64, u64, f64);

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let id = args.next().unwrap_or_else(|| "bon-first-day".into());
    let level = args.next().unwrap_or_else(|| "search4".into());
    let opponent = args.next().unwrap_or_else(|| "search1".into());
    let me: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let sc = Arc::new(scenarios::load(&id).expect("a shipped scenario"));
    // (turn, kind) -> its tally
    let mut by: BTreeMap<(u8, usize), Tally> = BTreeMap::new();
    let mut points = 0.0;
    for game in 0..games {
        let mut g = Game::from_arc(sc.clone());
        let mut ours = ai::player(&level, 100 + game).expect("a level");
        let mut theirs = ai::player(&opponent, 200 + game).expect("a level");
        let mut dice = Dice::new(300 + game);
        let over = loop {
            let a = match g.to_act() {
                ToAct::Over(o) => break o,
                ToAct::Chance => engine::draw_chance(&g, &mut dice).expect("a die"),
                ToAct::Side(s) if s.0 == me => {
                    let before = ours.search_stats().unwrap_or_default();
                    let t0 = std::time::Instant::now();
                    let a = ours.choose(&g);
                    let ms = t0.elapsed().as_secs_f64() * 1e3;
                    let after = ours.search_stats().unwrap_or_default();
                    record(&mut by, g.turn(), &before, &after, ms);
                    a
                }
                ToAct::Side(_) => theirs.choose(&g),
            };
            g.apply(a).expect("legal");
        };
        let tiebreak = ai::TIEBREAK_SCENARIOS.contains(&sc.id.as_str());
        points += ai::score(&over, ai::side_losses(&g), tiebreak)[me as usize];
    }
    println!("{level} against {opponent} as side {me}: {points:.1} of {games} points");
    println!("turn kind        searched unsearched sims/searched ms/searched");
    for ((turn, k), (s, u, sims, ms)) in by {
        let per = |v: f64| if s == 0 { 0.0 } else { v / s as f64 };
        println!(
            "{turn:>4} {:<11} {s:>8} {u:>10} {:>13.0} {:>11.1}",
            DecisionKind::ALL[k].name(),
            per(sims as f64),
            per(ms)
        );
    }
}

/// Adds one choice's thinking (the difference of the statistics around it) to its game-turn's.
fn record(
    by: &mut BTreeMap<(u8, usize), Tally>,
    turn: u8,
    before: &SearchStats,
    after: &SearchStats,
    ms: f64,
) {
    for k in 0..DecisionKind::ALL.len() {
        let (b, a) = (&before.kinds[k], &after.kinds[k]);
        if a.searched + a.unsearched == b.searched + b.unsearched {
            continue;
        }
        let e = by.entry((turn, k)).or_default();
        e.0 += a.searched - b.searched;
        e.1 += a.unsearched - b.unsearched;
        e.2 += a.simulations - b.simulations;
        e.3 += ms;
    }
}
