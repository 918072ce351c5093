//! Watches one arena game as `grognard sim` plays it: `watch SCENARIO A:B SEED I [SIDE]` plays
//! game `I` of `grognard sim SCENARIO --players A:B --seed SEED` (the same seeds, so the same
//! game) and prints, for every player-turn, the plan sentences of the players (the side `SIDE`
//! only, when given: 0 French, 1 Allied), the strength each side lost in it and its units in
//! contact at its end. For finding a level's recurring mistakes (`docs/ai.md`).
use ai::montecarlo::mix;
use engine::{Rules, Session, Side, ToAct};
use naw::Game;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: watch SCENARIO A:B SEED I [SIDE]");
        std::process::exit(2);
    }
    let sc = Arc::new(scenarios::load(&args[0]).expect("a shipped scenario"));
    let (pa, pb) = args[1].split_once(':').expect("A:B");
    let seed: u64 = args[2].parse().expect("a seed");
    let i: u64 = args[3].parse().expect("a game number");
    let only: Option<u8> = args.get(4).and_then(|s| s.parse().ok());
    let gs = mix(seed, i);
    let mut p0 = ai::player(pa, mix(gs, 1)).expect("a level");
    let mut p1 = ai::player(pb, mix(gs, 2)).expect("a level");
    let mut s = Session::new(Game::from_arc(sc.clone()), &sc.id, sc.digest, gs);
    let mut key: Option<(u8, Side)> = None;
    let mut before = ai::side_losses(&s.game);
    let over = loop {
        match s.game.to_act() {
            ToAct::Over(o) => break o,
            ToAct::Chance => {
                s.roll();
            }
            ToAct::Side(side) => {
                let k = Some((s.game.turn(), s.game.phasing()));
                if key != k {
                    if let Some((t, ph)) = key {
                        report(&s.game, t, ph, &mut before);
                    }
                    key = k;
                }
                let p = if side.0 == 0 { &mut p0 } else { &mut p1 };
                let a = p.choose(&s.game);
                if only.is_none_or(|o| o == side.0) {
                    if let Some(e) = p.explain() {
                        println!("  [{}] {e}", sc.sides[side.0 as usize]);
                    }
                }
                s.act(a).expect("a legal action");
            }
        }
    };
    if let Some((t, ph)) = key {
        report(&s.game, t, ph, &mut before);
    }
    let l = ai::side_losses(&s.game);
    println!(
        "over: {:?} ({}): {}; lost {} {} / {} {}",
        over.winner.map(|w| sc.sides[w.0 as usize].clone()),
        over.case,
        over.why,
        sc.sides[0],
        l[0],
        sc.sides[1],
        l[1]
    );
}

/// The end of a player-turn: what each side lost in it, and the units in contact.
fn report(g: &Game, turn: u8, phasing: Side, before: &mut [u32; 2]) {
    let now = ai::side_losses(g);
    let sides = &g.scenario().sides;
    println!(
        "turn {turn} {}: lost {} {} (total {}), {} {} (total {})",
        sides[phasing.0 as usize],
        sides[0],
        now[0] - before[0],
        now[0],
        sides[1],
        now[1] - before[1],
        now[1]
    );
    *before = now;
}
