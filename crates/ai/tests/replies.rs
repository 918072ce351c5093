//! The reply search (`ai::montecarlo::Options::replies`, the level `search3`): a search that
//! expects a real opponent. A candidate that the plain search prefers, because the modelled
//! opponent (its rollout policy) lets it through, is dropped once a reply that punishes it is
//! searched — on the toy *Scouts* and on a Napoleon at War position, with stub plug-ins whose
//! values say exactly which reply punishes which plan; the reply search is reproducible for a
//! seed with a simulation budget; a stop flag still stops it; nothing changes for a plug-in
//! that offers no replies; an easy decision ends early and a close one may spend more; and
//! `search3` plays a legal whole game.

use ai::montecarlo::{self, Knowledge, Limits, Options, Rollout};
use ai::{player, Budget, HeuristicPlayer, Player, SearchPlayer};
use engine::dynamic::{ScenarioSource, System};
use engine::{Dice, Refusal, Rules, Side, ToAct};
use naw::{Game, Step};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Whether an action of a game is a plan's move (not a pass, not a die): what the stub values
/// look at.
trait Moves: Rules {
    /// True when `a`, about to be applied in `self`, is a move of the side to act.
    fn is_move(&self, a: Self::Action) -> bool;
}

impl Moves for toy::Game {
    fn is_move(&self, a: toy::Action) -> bool {
        matches!(a, toy::Action::Scout(_))
    }
}

impl Moves for Game {
    fn is_move(&self, a: naw::Action) -> bool {
        self.step() == Step::Movement
            && matches!(self.to_act(), ToAct::Side(_))
            && a != naw::Action::End
    }
}

/// A game that remembers the moves played in it (side, action) and the dice: the stubs'
/// values read them.
#[derive(Clone, Debug)]
struct Traced<R: Rules> {
    g: R,
    moves: Vec<(Side, R::Action)>,
    /// The sum of the chance outcomes' positions in their lists: a die's noise in the value.
    dice: u32,
    /// How many times the side to act has changed (chance events aside).
    switches: u32,
    last: Option<Side>,
}

impl<R: Moves> Traced<R> {
    fn new(g: R) -> Self {
        Traced {
            g,
            moves: Vec::new(),
            dice: 0,
            switches: 0,
            last: None,
        }
    }
}

impl<R: Moves> Rules for Traced<R> {
    type Action = R::Action;
    type Event = R::Event;
    fn rules_version(&self) -> &'static str {
        self.g.rules_version()
    }
    fn seats(&self) -> usize {
        self.g.seats()
    }
    fn seat_name(&self, seat: Side) -> &str {
        self.g.seat_name(seat)
    }
    fn to_act(&self) -> ToAct {
        self.g.to_act()
    }
    fn legal_actions(&self, out: &mut Vec<R::Action>) {
        self.g.legal_actions(out)
    }
    fn check(&self, a: R::Action) -> Result<(), Refusal> {
        self.g.check(a)
    }
    fn apply_unchecked(&mut self, a: R::Action) {
        match self.g.to_act() {
            ToAct::Side(s) if self.g.is_move(a) => self.moves.push((s, a)),
            ToAct::Chance => {
                let outs = self.g.chance_outcomes();
                self.dice += outs.iter().position(|o| o.0 == a).unwrap_or(0) as u32;
            }
            _ => {}
        }
        self.g.apply_unchecked(a);
        if let ToAct::Side(s) = self.g.to_act() {
            if self.last.is_some_and(|l| l != s) {
                self.switches += 1;
            }
            self.last = Some(s);
        }
    }
    fn events(&self) -> &[R::Event] {
        self.g.events()
    }
    fn chance_outcomes(&self) -> Vec<(R::Action, u32)> {
        self.g.chance_outcomes()
    }
    fn action_text(&self, a: R::Action) -> String {
        self.g.action_text(a)
    }
    fn parse_action(&self, text: &str) -> Result<R::Action, Refusal> {
        self.g.parse_action(text)
    }
    fn state_hash(&self) -> u64 {
        self.g.state_hash()
    }
    fn undoable(&self) -> usize {
        self.g.undoable()
    }
    fn undo_refusal(&self) -> Refusal {
        self.g.undo_refusal()
    }
}

/// A passive policy: passes (`end`) whenever it may, else the first legal action.
struct Passive;

impl<R: Rules> Rollout<R> for Passive {
    fn act(&mut self, g: &R) -> R::Action {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let pass = g.parse_action("end").ok().filter(|a| g.check(*a).is_ok());
        pass.or(legal.first().copied()).expect("a legal action")
    }
}

/// A stub plug-in with two plans for `me` — `safe`, worth 0.6 whatever the reply, and `bold`,
/// worth 0.9 unless the opponent answers with the punishing move, then 0.1 — and, when
/// `replies` holds, the opponent's two replies at its next decision: a pass (what the passive
/// rollout policy plays) and the punishing move. The dice add a little noise.
struct Punish<R: Rules> {
    safe: Vec<R::Action>,
    bold: Vec<R::Action>,
    /// Offer the opponent's replies (the pass and the punishing move: its first legal move).
    replies: bool,
}

impl<R: Moves + Send + Sync + 'static> Punish<R>
where
    R::Action: Send + Sync,
{
    /// The opponent's punishing move at `now`: its first legal move.
    fn punisher(now: &R) -> Option<R::Action> {
        let mut legal = Vec::new();
        now.legal_actions(&mut legal);
        legal.into_iter().find(|a| now.is_move(*a))
    }

    fn new(
        g: &R,
        safe: Vec<R::Action>,
        bold: Vec<R::Action>,
        replies: bool,
    ) -> (Traced<R>, Arc<Self>) {
        let mut t = Traced::new(g.clone());
        if let ToAct::Side(s) = g.to_act() {
            t.last = Some(s);
        }
        (
            t,
            Arc::new(Punish {
                safe,
                bold,
                replies,
            }),
        )
    }

    /// The value of a finished rollout: read from the moves played after `me`'s plan.
    fn value(&self, g: &Traced<R>, me: Side) -> f64 {
        let bold = self
            .bold
            .iter()
            .any(|b| g.moves.iter().any(|(s, a)| *s == me && a == b));
        let punished = g.moves.iter().any(|(s, _)| *s != me);
        let base = match (bold, punished) {
            (false, _) => 0.6,
            (true, false) => 0.9,
            (true, true) => 0.1,
        };
        base + 0.01 * (g.dice % 5) as f64
    }
}

impl<R: Moves + Send + Sync + 'static> Knowledge<Traced<R>> for Punish<R>
where
    R::Action: Send + Sync,
{
    type Policy = Passive;

    fn candidates(&self, _g: &Traced<R>, _me: Side, seed: u64) -> Vec<Vec<R::Action>> {
        // `seed` is the number of candidates asked for: the safe plan, then bold ones
        let mut out = vec![self.safe.clone()];
        out.extend(std::iter::repeat_n(
            self.bold.clone(),
            (seed as usize).max(2) - 1,
        ));
        out
    }
    fn policy(&self, _seat: Side, _seed: u64) -> Passive {
        Passive
    }
    fn evaluate(&self, g: &Traced<R>, me: Side) -> f64 {
        self.value(g, me)
    }
    /// The start of `me`'s next turn: the side to act has changed twice since `start`.
    fn horizon_reached(&self, start: &Traced<R>, now: &Traced<R>, me: Side) -> bool {
        now.switches >= start.switches + 2 && now.to_act() == ToAct::Side(me)
    }
    fn replies(
        &self,
        _start: &Traced<R>,
        now: &Traced<R>,
        me: Side,
        _seed: u64,
    ) -> Option<Vec<Vec<R::Action>>> {
        if !self.replies || !matches!(now.to_act(), ToAct::Side(s) if s != me) {
            return None;
        }
        let pass = now.parse_action("end").ok()?;
        let hit = Self::punisher(&now.g)?;
        Some(vec![vec![pass], vec![hit, pass]])
    }
}

/// Searches the stub's two plans for the side to act: (the plain search's choice, the reply
/// search's verdict).
fn both<R: Moves + Send + Sync + 'static>(
    g: &R,
    safe: Vec<R::Action>,
    bold: Vec<R::Action>,
    sims: u32,
) -> (montecarlo::Verdict, montecarlo::Verdict)
where
    R::Action: Send + Sync,
{
    let ToAct::Side(me) = g.to_act() else {
        panic!("no side to act")
    };
    let (t, plain) = Punish::new(g, safe.clone(), bold.clone(), false);
    let (_, replying) = Punish::new(g, safe, bold, true);
    let plans = plain.candidates(&t, me, 0);
    let a = montecarlo::search(&plain, &t, me, &plans, 7, Limits::sims(sims));
    let opts = Options {
        replies: 2,
        ..Options::default()
    };
    let b = montecarlo::search_with(&replying, &t, me, &plans, 7, Limits::sims(sims), &opts);
    (a, b)
}

fn toy_game() -> toy::Game {
    let src = ScenarioSource {
        name: "toy-skirmish",
        text: toy::SCENARIO,
        read: &|f| Err(format!("no file {f}")),
    };
    let g = toy::Toy
        .new_game(&src, 1)
        .expect("the shipped toy scenario");
    g.as_any()
        .downcast_ref::<toy::ToyGame>()
        .expect("a toy game")
        .session
        .game
        .clone()
}

#[test]
fn on_the_toy_a_punishing_reply_turns_the_search_from_the_bold_plan() {
    use toy::Action::{End, Scout};
    let g = toy_game();
    let (plain, replying) = both(&g, vec![Scout(0), End], vec![Scout(1), End], 64);
    println!("plain {plain:?}\nreplies {replying:?}");
    assert_eq!(plain.best, 1, "the plain search takes the bold plan");
    assert_eq!(replying.best, 0, "the reply search sees the punishment");
    assert!(replying.means[1] < 0.2 && replying.means[0] > 0.55);
    assert!(replying.simulations > 0 && replying.simulations <= 64);
}

/// The First Day at its first movement phase (the heuristic plays what comes before).
fn first_movement() -> Game {
    let mut g = Game::from_arc(Arc::new(
        scenarios::load("bon-first-day").expect("shipped scenario"),
    ));
    let mut h = HeuristicPlayer::new(1);
    let mut dice = Dice::new(1);
    while !(g.step() == Step::Movement && matches!(g.to_act(), ToAct::Side(_))) {
        let a = match g.to_act() {
            ToAct::Chance => engine::draw_chance(&g, &mut dice).expect("a chance event"),
            ToAct::Side(_) => h.choose(&g),
            ToAct::Over(o) => panic!("the game ended: {o:?}"),
        };
        g.apply(a).expect("legal");
    }
    g
}

#[test]
fn on_the_first_day_a_punishing_reply_turns_the_search_from_the_bold_plan() {
    let g = first_movement();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let step = *legal
        .iter()
        .find(|a| g.is_move(**a))
        .expect("a move at the first movement phase");
    let end = naw::Action::End;
    let (plain, replying) = both(&g, vec![end], vec![step, end], 48);
    println!("plain {plain:?}\nreplies {replying:?}");
    assert_eq!(plain.best, 1, "the plain search takes the bold plan");
    assert_eq!(replying.best, 0, "the reply search sees the punishment");
    assert!(replying.means[1] < 0.2 && replying.means[0] > 0.55);
}

#[test]
fn a_reply_search_with_a_simulation_budget_is_reproducible_whatever_the_workers() {
    use toy::Action::{End, Scout};
    let g = toy_game();
    let (t, k) = Punish::new(&g, vec![Scout(0), End], vec![Scout(1), End], true);
    let plans = k.candidates(&t, Side(0), 0);
    let opts = Options {
        replies: 2,
        ..Options::default()
    };
    let run = |workers: usize, seed: u64| {
        let limits = Limits {
            workers,
            ..Limits::sims(40)
        };
        montecarlo::search_with(&k, &t, Side(0), &plans, seed, limits, &opts)
    };
    let a = run(2, 3);
    assert_eq!(a, run(2, 3));
    assert_eq!(a, run(1, 3));
    assert_eq!(a.best, 0);
    // the real level: the French first player-turn of search3@120n, on one worker and on two
    let turn = |workers: usize| {
        let mut g = first_movement();
        let mut p = SearchPlayer::new(4, Budget::Sims(120))
            .with_replies()
            .with_workers(workers);
        let mut dice = Dice::new(5);
        let (t, side) = (g.turn(), g.phasing());
        let mut text = String::new();
        while (g.turn(), g.phasing()) == (t, side) {
            let a = match g.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => engine::draw_chance(&g, &mut dice).expect("a die"),
                ToAct::Side(_) => p.choose(&g),
            };
            text.push_str(&g.action_text(a));
            text.push('\n');
            g.apply(a).expect("legal");
        }
        assert!(p.stats().simulations > 0, "search3 searched");
        assert_eq!(p.name(), "search3@120n");
        text
    };
    assert_eq!(turn(1), turn(2));
}

#[test]
fn nothing_changes_for_a_plug_in_without_replies() {
    use toy::Action::{End, Scout};
    let g = toy_game();
    // the same stub offering no replies: the reply search's rollouts are the plain ones
    let (t, k) = Punish::new(&g, vec![Scout(0), End], vec![Scout(1), End], false);
    let plans = k.candidates(&t, Side(0), 0);
    let plain = montecarlo::search(&k, &t, Side(0), &plans, 9, Limits::sims(30));
    let opts = Options {
        replies: 1,
        ..Options::default()
    };
    let same = montecarlo::search_with(&k, &t, Side(0), &plans, 9, Limits::sims(30), &opts);
    assert_eq!(plain, same);
    let default = Options::default();
    let same = montecarlo::search_with(&k, &t, Side(0), &plans, 9, Limits::sims(30), &default);
    assert_eq!(plain, same);
    assert_eq!(plain.best, 1, "without replies the bold plan");
}

#[test]
fn a_stop_flag_still_stops_the_reply_search() {
    use toy::Action::{End, Scout};
    let g = toy_game();
    let (t, k) = Punish::new(&g, vec![Scout(0), End], vec![Scout(1), End], true);
    let plans = k.candidates(&t, Side(0), 0);
    let opts = Options {
        replies: 2,
        ..Options::default()
    };
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::sims(1_000).stop_on(flag);
    let v = montecarlo::search_with(&k, &t, Side(0), &plans, 1, limits, &opts);
    assert!(v.stopped);
    assert_eq!((v.best, v.simulations), (0, 0));

    // search3 with an hour to think on the First Day's first movement, stopped from another
    // thread once under way: it returns a legal action (a liveness bound of two minutes)
    let g = first_movement();
    let flag = Arc::new(AtomicBool::new(false));
    let mut p = player("search3@3599s", 5).expect("a search3 player");
    p.stop_on(flag.clone());
    let setter = flag.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        setter.store(true, Ordering::Relaxed);
    });
    let (tx, rx) = mpsc::channel();
    let game = g.clone();
    std::thread::spawn(move || {
        let _ = tx.send(p.choose(&game));
    });
    let a = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("a stopped search3@3599s returned within two minutes");
    assert!(g.check(a).is_ok(), "a refused action: {}", g.action_text(a));
    assert!(flag.load(Ordering::Relaxed));
}

#[test]
fn an_easy_decision_ends_early_and_a_close_one_may_spend_more() {
    use toy::Action::{End, Scout};
    let g = toy_game();
    let (t, k) = Punish::new(&g, vec![Scout(0), End], vec![Scout(1), End], true);
    // four candidates (two halving phases): the safe plan far ahead of three bold ones
    let plans = k.candidates(&t, Side(0), 4);
    let go = |opts: Options| {
        montecarlo::search_with(&k, &t, Side(0), &plans, 2, Limits::sims(160), &opts)
    };
    let full = go(Options {
        replies: 2,
        ..Options::default()
    });
    let easy = go(Options {
        replies: 2,
        settle: Some(0.04),
        ..Options::default()
    });
    assert!(!full.settled && easy.settled);
    assert_eq!((full.best, easy.best), (0, 0));
    assert!(easy.simulations < full.simulations, "{easy:?} {full:?}");
    // a decision not settled after its first phase may spend its close budget
    let close = go(Options {
        replies: 2,
        close_sims: Some(320),
        ..Options::default()
    });
    assert!(close.simulations > full.simulations, "{close:?} {full:?}");
    assert_eq!(close.best, 0);
}

/// `Options::indifference` (the level `search4`): candidates that cannot be told apart end the
/// search after its first phase, where `settle` (a lead of 0.04 over every other) waits for
/// the whole budget; with no tolerance they cannot end it.
#[test]
fn indifferent_candidates_end_the_search_early() {
    use toy::Action::{End, Scout};
    let g = toy_game();
    // no replies: the three bold plans are the same plan (0.9 each, the same dice), the safe
    // one (0.6) far behind; a lead of 0.04 over a copy of itself is never reached
    let (t, k) = Punish::new(&g, vec![Scout(0), End], vec![Scout(1), End], false);
    let plans = k.candidates(&t, Side(0), 4);
    let go = |opts: Options| {
        montecarlo::search_with(&k, &t, Side(0), &plans, 2, Limits::sims(160), &opts)
    };
    let full = go(Options::default());
    let settle = go(Options {
        settle: Some(0.04),
        ..Options::default()
    });
    let exact = go(Options {
        indifference: Some(0.0),
        ..Options::default()
    });
    let near = go(Options {
        indifference: Some(0.02),
        ..Options::default()
    });
    assert!(!full.settled && !settle.settled && !exact.settled);
    assert_eq!(settle.simulations, full.simulations);
    assert_eq!(exact.simulations, full.simulations);
    assert!(near.settled, "{near:?}");
    assert!(
        near.simulations <= full.simulations / 2,
        "{near:?} {full:?}"
    );
    assert_ne!(near.best, 0, "a bold plan: {near:?}");
    assert_eq!(full.best, near.best);
    // with replies the punishing reply makes the safe plan the clear leader: settled as well
    let (t, k) = Punish::new(&g, vec![Scout(0), End], vec![Scout(1), End], true);
    let opts = Options {
        replies: 2,
        indifference: Some(0.02),
        ..Options::default()
    };
    let v = montecarlo::search_with(&k, &t, Side(0), &plans, 2, Limits::sims(160), &opts);
    assert!(v.settled && v.best == 0, "{v:?}");
}

#[test]
fn search3_plays_a_legal_whole_game() {
    let sc = Arc::new(scenarios::load("bon-first-day").expect("shipped scenario"));
    let mut s3 = player("search3@60n", 3).expect("search3");
    assert_eq!(s3.name(), "search3@60n");
    let mut h = player("heuristic", 4).expect("heuristic");
    // play_game asserts (in debug builds) that every choice is accepted by the rules
    let r = ai::play_game(sc, 5, [h.as_mut(), s3.as_mut()]);
    assert_ne!(r.outcome.case, "4.0", "the game ended");
    assert!(s3.search_stats().expect("a search").simulations > 0);
    assert!(ai::thinks_by_the_clock("search3"));
    assert!(!ai::thinks_by_the_clock("search3@60n"));
    assert!(ai::PLAYERS.contains(&"search3"));
}

/// The default clock's player-turn times of `search3`, and of `search1` beside it (a measure,
/// not a check: run it in release on an otherwise idle machine, `cargo test --release -p ai
/// --test replies -- --ignored --nocapture`): three First Day games against `search1` at the
/// default clock, as each side, every player-turn's thinking time (all its choices).
#[test]
#[ignore]
fn search3_player_turn_times_at_the_default_clock() {
    for level in ["search3", "search1"] {
        player_turn_times(level);
    }
}

/// The same measure for `search4` (`cargo test --release -p ai --test replies --
/// search4_player_turn -- --ignored --nocapture`).
#[test]
#[ignore]
fn search4_player_turn_times_at_the_default_clock() {
    player_turn_times("search4");
}

fn player_turn_times(level: &str) {
    let mut times: Vec<f64> = Vec::new();
    for game in 0..3u64 {
        for me in 0..2u8 {
            let mut g = Game::from_arc(Arc::new(
                scenarios::load("bon-first-day").expect("shipped scenario"),
            ));
            let mut ours = player(level, 100 + game).expect("a level");
            let mut theirs = player("search1", 200 + game).expect("search1");
            let mut dice = Dice::new(300 + game);
            let mut turn: Option<(u8, Side)> = None;
            let mut spent = 0.0;
            loop {
                let a = match g.to_act() {
                    ToAct::Over(_) => break,
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
            }
            if turn.is_some() {
                times.push(spent);
            }
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times[times.len() / 2];
    let longest = times.last().copied().unwrap_or(0.0);
    println!(
        "{level} at the default clock: {} player-turns, median {median:.3} s, longest {longest:.3} s",
        times.len()
    );
}
