//! `grognard play`: a game in the terminal, hot-seat or against a computer player, for any
//! rules system of a [`Library`]. Reads lines from any reader (standard input: a terminal or a
//! pipe), so it can be scripted and tested.
//!
//! Names no rules crate: the game is a [`DynGame`], the computer a [`DynPlayer`] of the game's
//! [`System`](engine::dynamic::System), and a system's own words (the state, the headline, a
//! unit's moves, a map, the declared combats, its actions' help) come from its `text` query;
//! a system without one is shown as its JSON state view and its legal actions' texts.

use crate::core::{events_lines, headline, open_with, roll_pending};
use crate::util::{save_record, time_seed, Refused};
use anyhow::{anyhow, bail, Context, Result};
use engine::dynamic::{redact, Acted, DynGame, DynPlayer, QueryError};
use engine::{Side, ToAct, Viewer};
use serde_json::Value;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use systems::Library;

/// The options only the terminal game has (each implies `--text`).
const TEXT_OPTIONS: [&str; 7] = ["text", "scenario", "seed", "vs", "side", "save", "resume"];

/// The options of `grognard play`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Without --text (or any of the terminal game's options) this starts the \
game server on 127.0.0.1 and prints the address of the board: open it in a browser.\n\n\
In the terminal (--text), at the prompt type an action (move FR.4 2316, end, attack FR.4 AU.2/I, \
resolve AU.2/I, ...) or a command: help, show, moves UNIT, map HEX, odds [A D], undo, save FILE, \
quit. Dice are rolled automatically. The record is saved after every action."
)]
pub struct PlayArgs {
    /// Play in the terminal instead of the browser (implied by any of the options below).
    #[arg(long)]
    pub text: bool,
    /// The board's port (default 8813, or any free port when it is taken; 0 = any free port).
    #[arg(long, value_name = "PORT", conflicts_with_all = TEXT_OPTIONS)]
    pub port: Option<u16>,
    /// The server's database: sqlite:PATH or postgres://... (default: games.sqlite in the
    /// user's data directory).
    #[arg(long, value_name = "URL", conflicts_with_all = TEXT_OPTIONS)]
    pub database: Option<String>,
    /// Terminal game: a shipped scenario id or a scenario file (default bon-first-day).
    #[arg(long)]
    pub scenario: Option<String>,
    /// Terminal game: seed of the record's dice (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Terminal game: a computer opponent (`random`, `heuristic`, `search`, `search@3s`), or
    /// `none` for two players at one keyboard (the default).
    #[arg(long, value_name = "PLAYER")]
    pub vs: Option<String>,
    /// Terminal game: the side you play against the computer (default: the first side).
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,
    /// Terminal game: save the record here after every action (default: the user's data
    /// directory, grognard/last-game.json).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Terminal game: continue a saved game instead of starting a new one.
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["scenario", "seed"])]
    pub resume: Option<PathBuf>,
}

impl PlayArgs {
    /// True when the game is to be played in the terminal: `--text`, or any option that only
    /// the terminal game has.
    pub fn is_text(&self) -> bool {
        self.text
            || self.scenario.is_some()
            || self.seed.is_some()
            || self.vs.is_some()
            || self.side.is_some()
            || self.save.is_some()
            || self.resume.is_some()
    }
}

/// The default place of the saved game: `$XDG_DATA_HOME/grognard/last-game.json`, or
/// `~/.local/share/grognard/last-game.json` (`%APPDATA%\grognard` on Windows).
pub fn default_save_path() -> Result<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })
        .or_else(|| std::env::var_os("APPDATA").map(PathBuf::from))
        .ok_or_else(|| anyhow!("no data directory (set HOME or XDG_DATA_HOME, or use --save)"))?;
    Ok(base.join("grognard").join("last-game.json"))
}

/// The terminal game's own commands; a rules system's actions come before them, from its
/// `text help` query.
const COMMANDS: &str = "\
Commands:
  help                   this text
  show                   the whole state: units, combats, legal actions
  actions                the legal actions only
  moves UNIT             a unit's destinations with cost and path
  map HEX                a small map around a hex
  odds                   the odds of the declared combats
  odds A D               the odds of A strength points against D
  undo                   take back the last action, where the rules allow
  save FILE              save the record to FILE as well
  quit                   stop (the game stays saved)
Dice are rolled automatically from the record's seed.
";

/// The actions' help of a system without a `text help` query.
const ACTIONS: &str = "Actions: type one of the legal actions (the command actions lists them).\n";

/// JSON as pretty text, ending in a newline.
fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// Names as people list them: `A`, `A and B`, `A, B and C`.
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// True when a computer player's explanation says something new: it is not the last one
/// shown, nor that one again around the action (a player that repeats its plan with every
/// move of it is shown it once).
fn is_news(why: &str, last: Option<&str>) -> bool {
    match last {
        Some(l) => !why.contains(l),
        None => true,
    }
}

/// The odds answer of a rules system (JSON) as one line: the column and each result's
/// probability, whatever the system calls its results.
fn odds_line(attack: &str, defence: &str, v: &Value) -> String {
    let numbers = |x: &Value| {
        x.as_object()
            .filter(|m| !m.is_empty() && m.values().all(Value::is_number))
            .cloned()
    };
    let results = v
        .get("probabilities")
        .and_then(numbers)
        .or_else(|| v.as_object()?.values().find_map(numbers));
    let column = v
        .get("column")
        .or_else(|| v.get("odds"))
        .and_then(Value::as_str);
    let (Some(column), Some(results)) = (column, results) else {
        return format!("{attack} against {defence}:\n{}", pretty(v));
    };
    let parts: Vec<String> = results
        .iter()
        .filter_map(|(k, p)| Some(format!("{k} {:.0}%", p.as_f64()? * 100.0)))
        .collect();
    format!(
        "{attack} against {defence}: {column}: {}\n",
        parts.join(", ")
    )
}

struct Play<'a> {
    lib: &'a Library,
    g: Box<dyn DynGame>,
    save: PathBuf,
    /// The seats the computer plays, each with its player.
    computer: Vec<(Side, Box<dyn DynPlayer>)>,
    /// Who sits at the keyboard: one seat against the computer, every seat hot-seat.
    viewer: Viewer,
    /// The computer's last explanation shown since the person last acted.
    last_why: Option<String>,
    out: &'a mut dyn Write,
}

impl Play<'_> {
    fn say(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }

    fn save(&mut self) -> Result<()> {
        save_record(&self.save, self.g.record())
    }

    /// The system's `text` query as the person at the keyboard may see it: `Ok(None)` when the
    /// system has none.
    fn text(&self, what: &str) -> Result<Option<String>, QueryError> {
        match self.g.query("text", what, self.viewer) {
            Ok(Value::String(s)) => Ok(Some(s)),
            Ok(v) => Ok(Some(pretty(&v))),
            Err(QueryError::Unknown(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A `text` query's answer, its error, or `none` when the system has no such text.
    fn text_or(&mut self, what: &str, none: &str) {
        let t = match self.text(what) {
            Ok(Some(t)) => t,
            Ok(None) => format!("this rules system has no {none}\n"),
            Err(e) => format!("{e}\n"),
        };
        self.say(&t);
    }

    fn headline(&self) -> String {
        match self.text("headline") {
            Ok(Some(h)) => h,
            _ => headline(self.g.as_ref()),
        }
    }

    /// Where the game stands without who is to act (the system's `text stage`), else the
    /// seat to act: the headline is printed again when it changes.
    fn stage(&self) -> String {
        if let Ok(Some(s)) = self.text("stage") {
            return s;
        }
        match self.g.to_act() {
            ToAct::Side(s) => self.seat_name(s),
            ToAct::Chance => "chance".into(),
            ToAct::Over(o) => format!("over: {}", o.why),
        }
    }

    fn seat_name(&self, s: Side) -> String {
        self.g
            .seats()
            .get(s.0 as usize)
            .cloned()
            .unwrap_or_else(|| format!("seat {}", s.0))
    }

    /// What the last action (or, before the first, the scenario's set-up) caused.
    fn last_events(&self) -> String {
        if let Ok(Some(t)) = self.text("events") {
            return t;
        }
        if self.g.record().actions.is_empty() {
            let view = self.g.view(self.viewer);
            return view["setup_events"]
                .as_array()
                .map(events_lines)
                .unwrap_or_default();
        }
        self.g
            .log()
            .last()
            .map(|a| events_lines(&a.events))
            .unwrap_or_default()
    }

    /// Rolls pending dice and lets the computer act until a person is to act or the game ends.
    fn advance(&mut self) -> Result<()> {
        loop {
            match self.g.to_act() {
                ToAct::Chance => {
                    let before = self.g.record().actions.len();
                    let mut log = String::new();
                    roll_pending(self.g.as_mut(), &mut VecDeque::new(), &mut log)?;
                    self.say(&log);
                    self.save()?;
                    if self.g.record().actions.len() == before {
                        bail!("a chance event is pending but the rules system drew no outcome");
                    }
                }
                ToAct::Side(side) if self.computer.iter().any(|c| c.0 == side) => {
                    self.computer_acts(side)?;
                }
                _ => return Ok(()),
            }
        }
    }

    /// The computer's action for `side`, with its reason when that is news.
    fn computer_acts(&mut self, side: Side) -> Result<()> {
        let i = self
            .computer
            .iter()
            .position(|c| c.0 == side)
            .expect("a computer seat");
        let (text, name) = {
            let p = &mut self.computer[i].1;
            (p.choose(self.g.as_ref()), p.name())
        };
        let acted = match self.g.act(&text) {
            Ok(a) => a,
            Err(r) => bail!("the computer player chose a refused action '{text}': {r}"),
        };
        // what it said is kept in the record, for `grognard replay`
        let said = self.computer[i].1.explain();
        self.g.set_note(acted.n.saturating_sub(1), said);
        // the computer says why (its plan, each attack's odds and reason), unless that
        // repeats what it said last or is hidden from the person at the keyboard
        let why = self.computer[i]
            .1
            .explain()
            .filter(|_| self.g.visible(side, self.viewer))
            .filter(|w| is_news(w, self.last_why.as_deref()));
        if let Some(w) = &why {
            self.last_why = Some(w.clone());
        }
        let shown: Acted = redact(self.g.as_ref(), &acted, self.viewer);
        let line = format!(
            "{} ({name}): {}\n{}{}",
            self.seat_name(side),
            shown.text,
            why.map(|w| format!("  [computer] {w}\n"))
                .unwrap_or_default(),
            events_lines(&shown.events)
        );
        self.say(&line);
        self.save()
    }

    fn odds(&mut self, words: &[&str]) {
        if words.len() == 3 {
            if words[1].parse::<u32>().is_err() || words[2].parse::<u32>().is_err() {
                self.say("usage: odds ATTACK DEFENCE (numbers), or odds alone\n");
                return;
            }
            let arg = format!("{},{}", words[1], words[2]);
            let answer = match self.g.query("odds", &arg, self.viewer) {
                Err(QueryError::Unknown(_)) => match self.lib.system(self.g.system()) {
                    Ok(s) => s.query("odds", &arg),
                    Err(_) => Err(QueryError::Unknown("odds".into())),
                },
                other => other,
            };
            let t = match answer {
                Ok(v) => odds_line(words[1], words[2], &v),
                Err(QueryError::Unknown(_)) => "this rules system has no odds\n".into(),
                Err(e) => format!("{e}\n"),
            };
            self.say(&t);
            return;
        }
        match self.text("combats") {
            Ok(Some(t)) if t.is_empty() => self.say("No combats are declared.\n"),
            Ok(Some(t)) => self.say(&t),
            Ok(None) => self.say("this rules system has no combats\n"),
            Err(e) => self.say(&format!("{e}\n")),
        }
    }

    fn legal(&mut self) {
        if let Ok(Some(t)) = self.text("legal") {
            self.say(&t);
            return;
        }
        let legal = self.g.legal();
        let mut t = format!("Legal actions ({}):\n", legal.len());
        for a in &legal {
            let _ = writeln!(t, "  {}", a.text);
        }
        self.say(&t);
    }

    fn moves(&mut self, unit: &str) {
        let t = match self.text(&format!("moves {unit}")) {
            Ok(Some(t)) => t,
            Ok(None) => match self.g.query("moves", unit, self.viewer) {
                Ok(v) => pretty(&v),
                Err(QueryError::Unknown(_)) => "this rules system has no moves\n".into(),
                Err(e) => format!("{e}\n"),
            },
            Err(e) => format!("{e}\n"),
        };
        self.say(&t);
    }

    fn undo(&mut self) -> Result<()> {
        let n = self.g.record().actions.len();
        if n == 0 || self.g.undoable() == 0 {
            let mut r = self.g.undo_refusal();
            if n == 0 {
                r.why = "there is nothing to take back".into();
            }
            self.say(&format!("refused: {}: {}\n", r.case, r.why));
            return Ok(());
        }
        let last = self.g.record().actions[n - 1].text.clone();
        self.g.truncate(n - 1);
        self.save()?;
        let t = format!("took back: {last}\n{}\n", self.headline());
        self.say(&t);
        Ok(())
    }

    /// Handles one line; returns false to stop.
    fn line(&mut self, line: &str) -> Result<bool> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(true);
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0].to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                self.save()?;
                let t = format!("Saved in {}. Goodbye.\n", self.save.display());
                self.say(&t);
                return Ok(false);
            }
            "help" | "?" => {
                let actions = match self.text("help") {
                    Ok(Some(t)) => t,
                    _ => ACTIONS.into(),
                };
                self.say(&format!("{actions}{COMMANDS}"));
            }
            "show" => {
                let t = match self.text("show") {
                    Ok(Some(t)) => t,
                    Ok(None) => pretty(&self.g.view(self.viewer)),
                    Err(e) => format!("{e}\n"),
                };
                self.say(&t);
            }
            "actions" | "legal" => self.legal(),
            "moves" => match words.get(1) {
                Some(w) => self.moves(w),
                None => self.say("usage: moves UNIT\n"),
            },
            "map" => match words.get(1) {
                Some(w) => self.text_or(&format!("map {w}"), "map"),
                None => self.say("usage: map HEX (such as map 1418)\n"),
            },
            "odds" => self.odds(&words),
            "undo" => self.undo()?,
            "save" => match words.get(1) {
                Some(f) => match save_record(Path::new(f), self.g.record()) {
                    Ok(()) => self.say(&format!("saved to {f}\n")),
                    Err(e) => self.say(&format!("{e:#}\n")),
                },
                None => self.say("usage: save FILE\n"),
            },
            _ => {
                let before = self.stage();
                match self.g.act(line) {
                    Ok(acted) => {
                        self.last_why = None;
                        let t = format!("{}\n{}", acted.text, events_lines(&acted.events));
                        self.say(&t);
                        self.save()?;
                        self.advance()?;
                        if self.stage() != before {
                            let t = format!("{}\n", self.headline());
                            self.say(&t);
                        }
                    }
                    Err(refusal) => {
                        let r = Refused {
                            text: line.to_string(),
                            refusal,
                        };
                        self.say(&format!("{r}\n"));
                    }
                }
            }
        }
        Ok(true)
    }

    fn prompt(&mut self) {
        let p = match self.g.to_act() {
            ToAct::Side(s) => format!("{}> ", self.seat_name(s)),
            _ => "> ".into(),
        };
        self.say(&p);
    }
}

/// The text game on the terminal: standard input and output.
pub fn play_text(lib: &Library, args: PlayArgs) -> Result<()> {
    let stdin = std::io::stdin();
    play_lines(lib, args, stdin.lock(), std::io::stdout())
}

/// The text game of any rules system in `lib`: shows the state, then reads actions and
/// commands line by line from `input` and writes what happens to `out`, saving the record
/// after every action. Ends at `quit`, at the end of the game or of the input.
pub fn play_lines(
    lib: &Library,
    args: PlayArgs,
    input: impl BufRead,
    mut out: impl Write,
) -> Result<()> {
    let save = match &args.save {
        Some(p) => p.clone(),
        None => default_save_path()?,
    };
    if let Some(dir) = save.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
    let mut g = match &args.resume {
        Some(p) => open_with(lib, p)?,
        None => {
            let scenario = args.scenario.as_deref().unwrap_or("bon-first-day");
            let scenario = crate::core::recorded_scenario(lib, scenario)?;
            let seed = args.seed.unwrap_or_else(time_seed);
            lib.new_game(&scenario, None, seed)?
        }
    };
    let seats = g.seats();
    let side_of = |name: &str| {
        seats
            .iter()
            .position(|x| x.eq_ignore_ascii_case(name))
            .ok_or_else(|| anyhow!("--side {name}: the sides are {}", listed(&seats)))
    };
    // who plays which seat: the flags, else (resuming) the record's players, else hot-seat
    let stored = g.record().players.clone();
    let specs: Vec<Option<String>> = match (args.vs.as_deref(), &args.side) {
        (Some(vs), _) if vs.eq_ignore_ascii_case("none") => {
            if args.side.is_some() {
                bail!("--side chooses your side against a computer player: give --vs too");
            }
            vec![None; seats.len()]
        }
        (Some(vs), side) => {
            let human = side.as_deref().map_or(Ok(0), side_of)?;
            (0..seats.len())
                .map(|i| (i != human).then(|| vs.to_string()))
                .collect()
        }
        (None, Some(side)) if !stored.is_empty() => {
            // another seat at the keyboard, against the record's computer player
            let human = side_of(side)?;
            let spec = stored.values().next().cloned().unwrap_or_default();
            (0..seats.len())
                .map(|i| (i != human).then(|| spec.clone()))
                .collect()
        }
        (None, Some(_)) => {
            bail!("--side chooses your side against a computer player: give --vs too")
        }
        (None, None) => seats.iter().map(|s| stored.get(s).cloned()).collect(),
    };
    if let Some(unknown) = stored.keys().find(|k| !seats.contains(k)) {
        if args.vs.is_none() && args.side.is_none() {
            bail!(
                "the record's players name a seat '{unknown}' this game does not have (its seats \
                 are {}): give --vs and --side",
                listed(&seats)
            );
        }
    }
    let system = lib.system(g.system())?;
    let mut computer = Vec::new();
    for (k, (seat, spec)) in specs
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().map(|s| (i, s)))
        .enumerate()
    {
        let seed = (g.record().seed ^ 0x5eed).wrapping_add(k as u64);
        let p = system.player(spec, seed).map_err(|e| {
            if args.vs.is_some() {
                anyhow!("--vs: {e}")
            } else {
                anyhow!("the record's player of {}: {e}", seats[seat])
            }
        })?;
        computer.push((Side(seat as u8), p));
    }
    let humans: Vec<usize> = (0..seats.len()).filter(|&i| specs[i].is_none()).collect();
    let viewer = match (humans.as_slice(), computer.is_empty()) {
        (_, true) => Viewer::Referee,
        ([one], false) => Viewer::Seat(Side(*one as u8)),
        _ => Viewer::Referee,
    };
    // the record says who the computer plays, so that a game resumed later goes on against it
    let players = seats
        .iter()
        .zip(&specs)
        .filter_map(|(seat, spec)| spec.as_ref().map(|s| (seat.clone(), s.clone())))
        .collect();
    g.set_players(players);
    let resumed = args.resume.is_some();
    let mut play = Play {
        lib,
        g,
        save,
        computer,
        viewer,
        last_why: None,
        out: &mut out,
    };
    play.save()?;
    let view = play.g.view(play.viewer);
    let title = view["title"]
        .as_str()
        .unwrap_or(&play.g.record().scenario)
        .to_string();
    let intro = format!(
        "Grognard: {title} (seed {}). Type help for the commands; the game is saved in {}.\n",
        play.g.record().seed,
        play.save.display()
    );
    play.say(&intro);
    if let Some((_, p)) = play.computer.first() {
        let name = p.name();
        let sides: Vec<String> = play.computer.iter().map(|c| play.seat_name(c.0)).collect();
        let you = match play.viewer {
            Viewer::Seat(s) if resumed => format!(" You play {}.", play.seat_name(s)),
            _ => String::new(),
        };
        let t = format!("The computer ({name}) plays {}.{you}\n", listed(&sides));
        play.say(&t);
    } else if resumed {
        play.say("Hot-seat: every side is played at this keyboard.\n");
    }
    let ev = play.last_events();
    play.say(&ev);
    play.advance()?;
    let t = format!("{}\n", play.headline());
    play.say(&t);
    let mut lines = input.lines();
    loop {
        if let ToAct::Over(o) = play.g.to_act() {
            let t = format!(
                "Game over: {} ({}). The record is in {}.\n",
                o.why,
                o.case,
                play.save.display()
            );
            play.say(&t);
            play.save()?;
            return Ok(());
        }
        play.prompt();
        let Some(line) = lines.next() else {
            let t = format!(
                "\nEnd of input. The game is saved in {}.\n",
                play.save.display()
            );
            play.say(&t);
            return Ok(());
        };
        let line = line.context("cannot read the input")?;
        if !play.line(&line)? {
            return Ok(());
        }
    }
}
