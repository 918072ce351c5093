//! Player-turn thinking times of levels at their clock, measured at equal load: `turn_times
//! [GAMES] [SCENARIO] [LEVEL,LEVEL,...]` (3 games of `bon-first-day` as each side, levels
//! `search4,search3` by default) plays each level against `search1`, game after game with the
//! levels taking turns (game 1 of every level, then game 2, ...), so that a change of load on
//! a shared machine weighs on every level alike. A player-turn's time is the sum of its
//! player's thinking over all its choices (movement, declarations, every combat choice).
//! Prints each level's median, mean and longest player-turn and the levels' arena score
//! against `search1`.
use engine::{Dice, Rules, Side, ToAct};
use naw::Game;
use std::sync::Arc;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let id = args.next().unwrap_or_else(|| "bon-first-day".into());
    let levels: Vec<String> = args
        .next()
        .unwrap_or_else(|| "search4,search3".into())
        .split(',')
        .map(str::to_string)
        .collect();
    let sc = Arc::new(scenarios::load(&id).expect("a shipped scenario"));
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); levels.len()];
    let mut points = vec![0.0f64; levels.len()];
    for game in 0..games {
        for me in 0..2u8 {
            for (li, level) in levels.iter().enumerate() {
                let (t, score) = play(&sc, level, game, me);
                times[li].extend(t);
                points[li] += score;
            }
        }
    }
    for (li, level) in levels.iter().enumerate() {
        let t = &mut times[li];
        t.sort_by(|a, b| a.total_cmp(b));
        let median = t[t.len() / 2];
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        let longest = t.last().copied().unwrap_or(0.0);
        println!(
            "{level} on {id}: {} player-turns, median {median:.3} s, mean {mean:.3} s, longest \
             {longest:.3} s; {:.1} of {} points against search1",
            t.len(),
            points[li],
            2 * games
        );
    }
}

/// One game of `level` as side `me` against `search1`: the thinking time of each of its
/// player-turns, and its arena score.
fn play(sc: &Arc<naw::Scenario>, level: &str, game: u64, me: u8) -> (Vec<f64>, f64) {
    let mut g = Game::from_arc(sc.clone());
    let mut ours = ai::player(level, 100 + game).expect("a level");
    let mut theirs = ai::player("search1", 200 + game).expect("search1");
    let mut dice = Dice::new(300 + game);
    let mut turn: Option<(u8, Side)> = None;
    let mut spent = 0.0;
    let mut times = Vec::new();
    let over = loop {
        let a = match g.to_act() {
            ToAct::Over(o) => break o,
            ToAct::Chance => engine::draw_chance(&g, &mut dice).expect("a die"),
            ToAct::Side(s) if s.0 == me => {
                let t0 = std::time::Instant::now();
                let a = ours.choose(&g);
                let dt = t0.elapsed().as_secs_f64();
                if g.phasing() == s {
                    let key = Some((g.turn(), s));
                    if turn != key {
                        if turn.is_some() {
                            times.push(spent);
                        }
                        turn = key;
                        spent = 0.0;
                    }
                    spent += dt;
                }
                a
            }
            ToAct::Side(_) => theirs.choose(&g),
        };
        g.apply(a).expect("legal");
    };
    if turn.is_some() {
        times.push(spent);
    }
    let tiebreak = ai::TIEBREAK_SCENARIOS.contains(&sc.id.as_str());
    let score = ai::score(&over, ai::side_losses(&g), tiebreak)[me as usize];
    (times, score)
}
