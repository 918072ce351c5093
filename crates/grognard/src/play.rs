//! `grognard play`: a game in the terminal, hot-seat or against a computer player. Reads lines
//! from standard input (a terminal or a pipe), so it can be scripted.

use crate::show::{
    self, events_text, find_unit, naw_session, open_record, parse_map_hex, side_name,
};
use anyhow::{anyhow, bail, Context, Result};
use engine::{Rules, Session, Side, ToAct};
use grognard::util::{save_record, time_seed, Refused};
use naw::{Action, Column, Game};
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

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

const HELP: &str = "\
Actions (docs/actions.md); units by id (FR.4) or by the hex they stand in (2315):
  move UNIT HEX          move a unit, or bring a reinforcement on (5.0, 15.0)
  end                    end the movement phase, or finish declaring attacks
  attack UNIT TARGET     declare an attack; more attackers or defenders join the same combat
  resolve TARGET [at ODDS]  resolve a declared combat, optionally at reduced odds (7.9)
  lose UNIT[,UNIT...]    the attacker's losses after an exchange (7.6)
  retreat UNIT HEX       retreat a unit one hex (7.7)
  stand UNIT             bombarding artillery declines to retreat (8.15)
  advance UNIT HEX       advance after combat (7.74)
  hold                   decline to advance
Commands:
  help                   this text
  show                   the whole state: units, combats, legal actions
  actions                the legal actions only
  moves UNIT             a unit's destinations with cost and path
  map HEX                a small map around a hex
  odds                   the odds of the declared combats
  odds A D               the odds of A strength points against D
  undo                   take back the last action (5.14: not after a die roll)
  save FILE              save the record to FILE as well
  quit                   stop (the game stays saved)
Dice are rolled automatically from the record's seed.
";

struct Play {
    s: Session<Game>,
    save: PathBuf,
    computer: Option<(Side, Box<dyn ai::Player>)>,
    out: Box<dyn Write>,
}

impl Play {
    fn say(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }

    fn save(&mut self) -> Result<()> {
        save_record(&self.save, &self.s.record)
    }

    /// Rolls pending dice and lets the computer act until a human is to act or the game ends.
    fn advance(&mut self) -> Result<()> {
        loop {
            match self.s.game.to_act() {
                ToAct::Chance => {
                    let mut log = String::new();
                    while let Some(Action::Roll(f)) = self.s.roll() {
                        let _ = writeln!(log, "roll {f} (seeded dice)");
                        log.push_str(&events_text(&self.s.game));
                    }
                    self.say(&log);
                    self.save()?;
                }
                ToAct::Side(side) if self.computer.as_ref().is_some_and(|c| c.0 == side) => {
                    let (_, p) = self.computer.as_mut().expect("checked");
                    let a = p.choose(&self.s.game);
                    let name = p.name();
                    let text = self.s.game.action_text(a);
                    if let Err(r) = self.s.act(a) {
                        bail!("the computer player chose a refused action '{text}': {r}");
                    }
                    // the computer says why (its plan, each attack's odds and reason)
                    // (a move's own note repeats the plan, given once with the turn's first move)
                    let why = p
                        .explain()
                        .filter(|w| !matches!(a, Action::Move { .. }) || w.starts_with("plan"))
                        .map(|w| format!("  [computer] {w}\n"));
                    let line = format!(
                        "{} ({name}): {}\n{}{}",
                        side_name(&self.s.game, side),
                        self.s.game.action_text(a),
                        why.unwrap_or_default(),
                        events_text(&self.s.game)
                    );
                    self.say(&line);
                    self.save()?;
                }
                _ => return Ok(()),
            }
        }
    }

    fn odds(&mut self, words: &[&str]) {
        if words.len() == 3 {
            match (words[1].parse::<u32>(), words[2].parse::<u32>()) {
                (Ok(a), Ok(d)) => {
                    let c = Column::of(a, d);
                    let p = naw::tables::probabilities(c);
                    let parts: Vec<String> = naw::CombatResult::ALL
                        .iter()
                        .zip(p)
                        .map(|(r, x)| format!("{} {:.0}%", r.name(), x * 100.0))
                        .collect();
                    let t = format!("{a} against {d}: {}: {}\n", c.name(), parts.join(", "));
                    self.say(&t);
                }
                _ => self.say("usage: odds ATTACK DEFENCE (numbers), or odds alone\n"),
            }
            return;
        }
        let t = show::combats_text(&self.s.game);
        if t.is_empty() {
            self.say("No combats are declared.\n");
        } else {
            self.say(&t);
        }
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
            "help" | "?" => self.say(HELP),
            "show" => {
                let t = show::state_text(&self.s);
                self.say(&t);
            }
            "actions" | "legal" => {
                let t = show::legal_text(&self.s.game);
                self.say(&t);
            }
            "moves" => match words.get(1) {
                Some(w) => match find_unit(&self.s.game, w) {
                    Ok(u) => {
                        let t = show::moves_text(&self.s.game, u);
                        self.say(&t);
                    }
                    Err(e) => self.say(&format!("{e}\n")),
                },
                None => self.say("usage: moves UNIT\n"),
            },
            "map" => {
                let centre = match words.get(1) {
                    Some(w) => parse_map_hex(&self.s.game, w),
                    None => Err(anyhow!("usage: map HEX (such as map 1418)")),
                };
                match centre
                    .and_then(|c| show::ascii_map(&self.s.game, c, 9, 13).map_err(|e| anyhow!(e)))
                {
                    Ok(t) => self.say(&t),
                    Err(e) => self.say(&format!("{e}\n")),
                }
            }
            "odds" => self.odds(&words),
            "undo" => match self.s.undo() {
                Ok(text) => {
                    self.save()?;
                    let t = format!("took back: {text}\n{}\n", show::headline(&self.s.game));
                    self.say(&t);
                }
                Err(r) => self.say(&format!("refused: {}: {}\n", r.case, r.why)),
            },
            "save" => match words.get(1) {
                Some(f) => match save_record(Path::new(f), &self.s.record) {
                    Ok(()) => self.say(&format!("saved to {f}\n")),
                    Err(e) => self.say(&format!("{e:#}\n")),
                },
                None => self.say("usage: save FILE\n"),
            },
            _ => {
                let before = (
                    self.s.game.turn(),
                    self.s.game.phasing(),
                    self.s.game.step(),
                );
                match self.s.act_text(line) {
                    Ok(a) => {
                        let t = format!(
                            "{}\n{}",
                            self.s.game.action_text(a),
                            events_text(&self.s.game)
                        );
                        self.say(&t);
                        self.save()?;
                        self.advance()?;
                        let after = (
                            self.s.game.turn(),
                            self.s.game.phasing(),
                            self.s.game.step(),
                        );
                        if before != after {
                            let t = format!("{}\n", show::headline(&self.s.game));
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
        let p = match self.s.game.to_act() {
            ToAct::Side(s) => format!("{}> ", side_name(&self.s.game, s)),
            _ => "> ".into(),
        };
        self.say(&p);
    }
}

/// The text game: shows the state, reads actions and commands line by line.
pub fn play_text(lib: &systems::Library, args: PlayArgs) -> Result<()> {
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
    let s = match &args.resume {
        Some(p) => open_record(lib, p, "the terminal game")?,
        None => {
            let scenario = args.scenario.as_deref().unwrap_or("bon-first-day");
            let seed = args.seed.unwrap_or_else(time_seed);
            let g = lib.new_game(scenario, None, seed)?;
            naw_session(g.as_ref(), "the terminal game")?
        }
    };
    let vs = args.vs.as_deref().unwrap_or("none");
    let computer = if vs.eq_ignore_ascii_case("none") {
        if args.side.is_some() {
            bail!("--side chooses your side against a computer player: give --vs too");
        }
        None
    } else {
        let sides = &s.game.scenario().sides;
        let human = match &args.side {
            None => Side(0),
            Some(name) => Side(
                sides
                    .iter()
                    .position(|x| x.eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        anyhow!("--side {name}: the sides are {} and {}", sides[0], sides[1])
                    })? as u8,
            ),
        };
        let p = ai::player(vs, s.record.seed ^ 0x5eed).map_err(|e| anyhow!("--vs: {e}"))?;
        Some((Side(1 - human.0), p))
    };
    let mut play = Play {
        s,
        save,
        computer,
        out: Box::new(std::io::stdout()),
    };
    play.save()?;
    let intro = format!(
        "Grognard: {} (seed {}). Type help for the commands; the game is saved in {}.\n",
        play.s.game.scenario().title,
        play.s.record.seed,
        play.save.display()
    );
    play.say(&intro);
    if let Some((side, p)) = &play.computer {
        let t = format!(
            "The computer ({}) plays {}.\n",
            p.name(),
            side_name(&play.s.game, *side)
        );
        play.say(&t);
    }
    let ev = events_text(&play.s.game);
    play.say(&ev);
    play.advance()?;
    let t = format!("{}\n", show::headline(&play.s.game));
    play.say(&t);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if let ToAct::Over(o) = play.s.game.to_act() {
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
        let line = line.context("cannot read standard input")?;
        if !play.line(&line)? {
            return Ok(());
        }
    }
}
