//! Watches one arena game as `grognard sim` plays it: `watch SCENARIO A:B SEED I [SIDE]` plays
//! game `I` of `grognard sim SCENARIO --players A:B --seed SEED` (the same seeds, so the same
//! game) and prints, for every player-turn, the plan sentences of the players (the side `SIDE`
//! only, when given: 0 French, 1 Allied), the strength each side lost in it and its units in
//! contact at its end. For finding a level's recurring mistakes (`docs/ai.md`).
//!
//! With a list of games (`I` as `3,5,8`) it prints only each game's closing lines: the
//! combats, advances and eliminations of the game's last two game-turns, the result, the
//! strength the line of communications cut off at the end (17.5), the player-turn in which
//! each side lost most, what each side lost attacking (its own player-turns) and defending, on
//! a scenario longer than five game-turns the losses game-turn by game-turn, and a class of the
//! game's end (`line cut`, `demoralized in combat on turn T`, `last-turn losses`, `tie-break`),
//! for sorting a run's losses.
// the seeds of `grognard sim` (engine::mix), so the games are its games
use engine::mix;
use engine::{Outcome, Rules, Session, Side, ToAct};
use naw::Game;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: watch SCENARIO A:B SEED I[,I...] [SIDE]");
        std::process::exit(2);
    }
    let sc = Arc::new(scenarios::load(&args[0]).expect("a shipped scenario"));
    let (pa, pb) = args[1].split_once(':').expect("A:B");
    let seed: u64 = args[2].parse().expect("a seed");
    let games: Vec<u64> = args[3]
        .split(',')
        .map(|s| s.parse().expect("a game number"))
        .collect();
    let only: Option<u8> = args.get(4).and_then(|s| s.parse().ok());
    let verbose = games.len() == 1;
    for i in games {
        if !verbose {
            print!("game {i}: ");
        }
        watch(&sc, pa, pb, seed, i, only, verbose);
    }
}

/// Plays game `i` of the run and prints it (every player-turn when `verbose`, else only its
/// closing lines).
fn watch(
    sc: &Arc<naw::Scenario>,
    pa: &str,
    pb: &str,
    seed: u64,
    i: u64,
    only: Option<u8>,
    verbose: bool,
) {
    let gs = mix(seed, i);
    let mut p0 = ai::player(pa, mix(gs, 1)).expect("a level");
    let mut p1 = ai::player(pb, mix(gs, 2)).expect("a level");
    let mut s = Session::new(Game::from_arc(sc.clone()), &sc.id, sc.digest, gs);
    let mut key: Option<(u8, Side)> = None;
    let mut before = ai::side_losses(&s.game);
    // per player-turn (game-turn, phasing side), what each side lost in it
    let mut turns: Vec<(u8, Side, [u32; 2])> = Vec::new();
    // the line of communications at the start of its side's last player-turn
    let mut at_last: Option<String> = None;
    // the combats, advances and eliminations, by game-turn (those of the game's last two
    // game-turns are printed at its end: a demoralization or a cut of the line)
    let mut events: Vec<(u8, String)> = Vec::new();
    let mut tally = std::collections::BTreeMap::new();
    let over = loop {
        match s.game.to_act() {
            ToAct::Over(o) => break o,
            ToAct::Chance => {
                s.roll();
                last_turn_events(&s.game, &mut events, &mut tally);
            }
            ToAct::Side(side) => {
                let k = Some((s.game.turn(), s.game.phasing()));
                if key != k {
                    if let Some((t, ph)) = key {
                        turns.push((t, ph, report(&s.game, t, ph, &mut before, verbose)));
                    }
                    key = k;
                    if let (Some(l), Some((t, ph))) = (&sc.loc, k) {
                        if t == sc.last_turn && ph == l.side {
                            at_last = Some(line_now(&s.game));
                        }
                    }
                }
                let p = if side.0 == 0 { &mut p0 } else { &mut p1 };
                let a = p.choose(&s.game);
                if verbose && only.is_none_or(|o| o == side.0) {
                    if let Some(e) = p.explain() {
                        println!("  [{}] {e}", sc.sides[side.0 as usize]);
                    }
                }
                s.act(a).expect("a legal action");
                last_turn_events(&s.game, &mut events, &mut tally);
            }
        }
    };
    if let Some((t, ph)) = key {
        turns.push((t, ph, report(&s.game, t, ph, &mut before, verbose)));
    }
    let end = s.game.turn();
    for (t, e) in &events {
        if t + 1 >= end {
            println!("    {e}");
        }
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
    if let Some(l) = at_last {
        println!("  at the start of the last player-turn of the side with the line: {l}");
    }
    println!("  {}", classify(&s.game, &over, &turns));
    let t: Vec<String> = tally
        .iter()
        .map(|((side, k), v)| format!("{} {k} {v}", sc.sides[*side as usize]))
        .collect();
    println!("  eliminated (SP): {}", t.join("; "));
}

/// The combats, advances and eliminations of the last action, kept with their game-turn (those
/// of the game's last two game-turns are printed: a cut of the line of communications on the
/// last stands, 17.5; a demoralization, 17.2): `combat FR.3,FR.4 -> AU.2 at 1-2 (die 5): Ar`,
/// `advance AU.2 to 2131`, `eliminated FR.9 (7.72)`.
/// Each elimination is also tallied in `tally`: per side of the eliminated unit, its strength
/// by whose player-turn it fell in (`attacking`: its own side's) and why (`Ae`, `Ex`, `no hex
/// is open to its retreat`, ...).
fn last_turn_events(
    g: &Game,
    out: &mut Vec<(u8, String)>,
    tally: &mut std::collections::BTreeMap<(u8, String), u32>,
) {
    use naw::Event;
    let when = format!(
        "t{} {}",
        g.turn(),
        g.scenario().sides[g.phasing().0 as usize]
    );
    let names = |s: &naw::UnitSet| s.iter().map(|u| g.id(u)).collect::<Vec<_>>().join(",");
    for e in g.events() {
        match e {
            Event::Combat {
                attackers,
                defenders,
                column,
                die,
                result,
                ..
            } => out.push((
                g.turn(),
                format!(
                    "{when}: combat {} -> {} at {} (die {die}): {result:?}",
                    names(attackers),
                    names(defenders),
                    naw::tables::COLUMN_NAMES[column.0 as usize]
                ),
            )),
            Event::Advanced { unit, to } => {
                out.push((g.turn(), format!("{when}: advance {} to {to}", g.id(*unit))))
            }
            Event::Eliminated { unit, why } => {
                let side = g.side_of(*unit);
                let whose = if side == g.phasing() {
                    "attacking"
                } else {
                    "defending"
                };
                *tally
                    .entry((side.0, format!("{whose}, {}", why.why())))
                    .or_insert(0) += g.scenario().units[unit.0 as usize].strength as u32;
                out.push((
                    g.turn(),
                    format!("{when}: eliminated {} ({})", g.id(*unit), why.case()),
                ))
            }
            _ => {}
        }
    }
}

/// The line of communications as the board stands (17.5): who holds its end hex and the
/// strength it would cut off now.
fn line_now(g: &Game) -> String {
    let Some(c) = g.line_of_communications() else {
        return String::new();
    };
    let sc = g.scenario();
    let cut: u32 = c
        .cut_off
        .iter()
        .map(|u| sc.units[u.0 as usize].strength as u32)
        .sum();
    let holder = g.unit_at(c.hex).map_or("nobody", |u| g.id(u));
    format!("{} holds {}, {cut} SP cut off now", holder, c.hex)
}

/// What a game's end came from, in a line: the strength the line of communications cut off at
/// the end (17.5), each side's worst player-turn, and a class of the result.
fn classify(g: &Game, over: &Outcome, turns: &[(u8, Side, [u32; 2])]) -> String {
    let sc = g.scenario();
    let cut: u32 = g
        .line_of_communications_at_end()
        .map(|c| {
            c.cut_off
                .iter()
                .map(|u| sc.units[u.0 as usize].strength as u32)
                .sum()
        })
        .unwrap_or(0);
    let mut out = format!("cut off at the end: {cut} SP");
    for side in 0..2 {
        if let Some((t, ph, lost)) = turns.iter().max_by_key(|(_, _, lost)| lost[side]) {
            out.push_str(&format!(
                "; {} lost most ({}) in turn {t} {}",
                sc.sides[side], lost[side], sc.sides[ph.0 as usize]
            ));
        }
    }
    // what each side lost attacking (in its own player-turns: exchanges, attacker's
    // eliminations and retreats, 7.6) and defending (in the enemy's)
    for side in 0..2 {
        let (att, def) = turns.iter().fold((0, 0), |(a, d), (_, ph, lost)| {
            if ph.0 as usize == side {
                (a + lost[side], d)
            } else {
                (a, d + lost[side])
            }
        });
        out.push_str(&format!(
            "; {} lost {att} attacking, {def} defending",
            sc.sides[side]
        ));
    }
    // the losses game-turn by game-turn (French/Allied, cumulative), for a long scenario
    if sc.last_turn > 5 {
        let mut sum = [0u32; 2];
        let mut by_turn = Vec::new();
        for (t, ph, lost) in turns {
            sum[0] += lost[0];
            sum[1] += lost[1];
            if ph.0 == 1 || turns.last().map(|l| (l.0, l.1)) == Some((*t, *ph)) {
                by_turn.push(format!("{t}:{}/{}", sum[0], sum[1]));
            }
        }
        out.push_str(&format!("; by game-turn {}", by_turn.join(" ")));
    }
    let demoralized = over.case.starts_with("17.2") || over.case.starts_with("17.3");
    let last = sc.last_turn;
    let class = if cut >= 25 && demoralized {
        "line cut".to_string()
    } else if demoralized && g.turn() < last {
        format!("demoralized in combat on turn {}", g.turn())
    } else if demoralized {
        "demoralized in combat on the last turn".to_string()
    } else if let Some((_, _, lost)) = turns.last() {
        if lost[0].max(lost[1]) >= 20 {
            "last-turn losses, tie-break".to_string()
        } else {
            "tie-break".to_string()
        }
    } else {
        "tie-break".to_string()
    };
    out.push_str(&format!("; class: {class}"));
    out
}

/// The end of a player-turn: what each side lost in it (returned, and printed when `verbose`).
fn report(g: &Game, turn: u8, phasing: Side, before: &mut [u32; 2], verbose: bool) -> [u32; 2] {
    let now = ai::side_losses(g);
    let sides = &g.scenario().sides;
    let lost = [now[0] - before[0], now[1] - before[1]];
    if verbose {
        println!(
            "turn {turn} {}: lost {} {} (total {}), {} {} (total {})",
            sides[phasing.0 as usize], sides[0], lost[0], now[0], sides[1], lost[1], now[1]
        );
    }
    *before = now;
    lost
}
