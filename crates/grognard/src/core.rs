//! The commands that work for every rules system, through [`systems::Library`] and
//! [`engine::dynamic::DynGame`]: each takes the library it plays from and returns what the
//! command prints on standard output (errors go to the caller: a [`Refused`] action prints as
//! `refused: CASE: WHY`). Names no rules crate.
//!
//! A system's own words come from its `text` query (`docs/cli.md`): the state as text, one
//! headline, a unit's moves, a compact map. A system without one is shown as its JSON state
//! view.

use crate::util::{read_record, save_record, time_seed, Refused};
use anyhow::{anyhow, bail, Context, Result};
use engine::dynamic::{Acted, DynGame, QueryError, SystemError};
use engine::{hash_text, Record, ReplayError, ToAct, Viewer};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use systems::Library;

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// The system's `text` query: `Some` text (a JSON answer printed pretty), `None` when the
/// system has no `text` query.
pub fn text_of(game: &dyn DynGame, what: &str) -> Result<Option<String>> {
    match game.query("text", what, Viewer::Referee) {
        Ok(Value::String(s)) => Ok(Some(s)),
        Ok(v) => Ok(Some(pretty(&v))),
        Err(QueryError::Unknown(_)) => Ok(None),
        Err(e) => Err(anyhow!("{e}")),
    }
}

/// One line saying where the game stands: the system's `headline`, else who is to act.
pub fn headline(game: &dyn DynGame) -> String {
    if let Ok(Some(h)) = text_of(game, "headline") {
        return h;
    }
    let seats = game.seats();
    let n = game.record().actions.len();
    match game.to_act() {
        ToAct::Side(s) => format!(
            "{} actions recorded; {} to act",
            n,
            seats.get(s.0 as usize).map_or("?", |x| x.as_str())
        ),
        ToAct::Chance => format!("{n} actions recorded; a chance event is to be resolved"),
        ToAct::Over(o) => format!("{n} actions recorded; game over: {} ({})", o.why, o.case),
    }
}

/// Events (JSON with `case` and `text`) as lines `  [case] text`.
pub fn events_lines<'a>(events: impl IntoIterator<Item = &'a Value>) -> String {
    let mut out = String::new();
    for e in events {
        let _ = writeln!(
            out,
            "  [{}] {}",
            e["case"].as_str().unwrap_or("?"),
            e["text"].as_str().unwrap_or("")
        );
    }
    out
}

/// What an applied action caused, one event a line.
pub fn events_text(acted: &Acted) -> String {
    events_lines(&acted.events)
}

/// What the scenario's set-up caused before the first action (the state view's
/// `setup_events`, where the system's view has them).
fn setup_text(game: &dyn DynGame) -> String {
    let view = game.view(Viewer::Referee);
    match view["setup_events"].as_array() {
        Some(v) => events_lines(v),
        None => String::new(),
    }
}

/// The state as text: the system's own, else its JSON state view.
pub fn state_text(game: &dyn DynGame) -> Result<String> {
    Ok(match text_of(game, "show")? {
        Some(t) => t,
        None => pretty(&game.view(Viewer::Referee)),
    })
}

/// Resumes a parsed record through the library (verifying every action), with the messages
/// this command line has always given.
fn resume(lib: &Library, path: &Path, record: Record) -> Result<Box<dyn DynGame>> {
    if lib.registry().for_record(&record).is_err() {
        let expected: Vec<&str> = lib
            .registry()
            .systems()
            .iter()
            .map(|s| s.rules_version())
            .collect();
        let e = ReplayError::Rules {
            expected: expected.join(", "),
            found: record.rules.clone(),
        };
        bail!("{}: {e}", path.display());
    }
    let mut record = record;
    if let Some(found) = locate_scenario(lib, path, &record.scenario)? {
        record.scenario = found;
    }
    match lib.resume(record) {
        Ok(g) => Ok(g),
        Err(SystemError::Replay(e)) => Err(anyhow!("{}: {e}", path.display())),
        Err(e) => Err(anyhow!("{}: the record's scenario: {e}", path.display())),
    }
}

/// Where the scenario file of the record at `path` is, when it is not where the record names
/// it: `Ok(None)` for a shipped id, and for a path that exists as it is written (absolute, or
/// relative to the working directory); else the path taken relative to the record's own
/// directory, then the file's name beside the record (a record moved with its scenario), made
/// absolute. Neither there: an error naming every place looked in.
fn locate_scenario(lib: &Library, path: &Path, spec: &str) -> Result<Option<String>> {
    let named = Path::new(spec);
    if lib.ships(spec) || named.exists() {
        return Ok(None);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tried = vec![named.to_path_buf()];
    if named.is_relative() {
        tried.push(dir.join(named));
    }
    if let Some(name) = named.file_name() {
        tried.push(dir.join(name));
    }
    tried.dedup();
    if let Some(found) = tried.iter().skip(1).find(|p| p.is_file()) {
        let full = found.canonicalize().unwrap_or_else(|_| found.clone());
        return Ok(Some(full.to_string_lossy().into_owned()));
    }
    let looked: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    bail!(
        "{}: the record's scenario file '{spec}' is not found (looked for {}); it is not a \
         shipped scenario either (see `grognard scenarios`): put the file back, or write where \
         it is now into the record's \"scenario\"",
        path.display(),
        looked.join(", ")
    )
}

/// Opens a record: parses it, finds its rules system and scenario in the library and replays
/// it (verifying every action).
pub fn open_with(lib: &Library, path: &Path) -> Result<Box<dyn DynGame>> {
    let record = read_record(path)?;
    resume(lib, path, record)
}

/// `grognard scenarios`.
pub fn scenarios_with(lib: &Library, json: bool) -> Result<String> {
    let mut list = Vec::new();
    for s in lib.scenarios() {
        list.push(s.map_err(|(id, e)| anyhow!("shipped scenario {id}: {e}"))?);
    }
    if json {
        // each entry with `rules`: the systems that can play it, its own first
        let mut entries = Vec::new();
        for j in &list {
            let mut v = serde_json::to_value(j)?;
            v["rules"] = serde_json::to_value(lib.rules_for(j))?;
            entries.push(v);
        }
        return Ok(pretty(&Value::Array(entries)));
    }
    let mut out = String::new();
    // columns as wide as their widest entry, so that every system's scenarios line up
    let id_w = list.iter().map(|j| j.id.len()).max().unwrap_or(0);
    let sys_w = list.iter().map(|j| j.system.len()).max().unwrap_or(0);
    let turns =
        |j: &engine::dynamic::ScenarioInfo| format!("turns {}-{}", j.first_turn, j.last_turn);
    let turns_w = list.iter().map(|j| turns(j).len()).max().unwrap_or(0);
    let sides_w = list
        .iter()
        .map(|j| j.sides.join(" vs ").chars().count())
        .max()
        .unwrap_or(0);
    for j in &list {
        let _ = writeln!(
            out,
            "{:<id_w$} {:<sys_w$} {:<turns_w$} {:<sides_w$}  {}",
            j.id,
            j.system,
            turns(j),
            j.sides.join(" vs "),
            j.title
        );
        let others: Vec<String> = lib
            .rules_for(j)
            .into_iter()
            .filter(|id| *id != j.system)
            .map(|id| match lib.system(id) {
                Ok(s) => format!("--rules {id} ({})", s.name()),
                Err(_) => format!("--rules {id}"),
            })
            .collect();
        if !others.is_empty() {
            let _ = writeln!(
                out,
                "{:<id_w$} also playable with {}",
                "",
                others.join(", ")
            );
        }
    }
    Ok(out)
}

/// How a new record names its scenario: a scenario file by its absolute path, so that the
/// record opens from any directory; a shipped id (or anything that is not a file, left for the
/// library to refuse) as it is.
pub fn recorded_scenario(lib: &Library, spec: &str) -> Result<String> {
    if lib.ships(spec) || !Path::new(spec).is_file() {
        return Ok(spec.to_string());
    }
    Ok(Path::new(spec)
        .canonicalize()
        .with_context(|| format!("cannot read the scenario file {spec}"))?
        .to_string_lossy()
        .into_owned())
}

/// `grognard new`: without `output` the record is the answer (and the seed goes to standard
/// error).
pub fn new_with(
    lib: &Library,
    spec: &str,
    seed: Option<u64>,
    rules: Option<&str>,
    output: Option<&Path>,
    force: bool,
) -> Result<String> {
    if let Some(p) = output {
        if p.exists() && !force {
            bail!(
                "{} already exists: pass --force to replace it (the game in it would be lost)",
                p.display()
            );
        }
    }
    let seed = seed.unwrap_or_else(time_seed);
    let spec = &recorded_scenario(lib, spec)?;
    // the registry picks the rules system: the scenario's own, or `--rules` where that system
    // declares the scenario's components
    let game = lib.new_game(spec, rules, seed)?;
    let Some(path) = output else {
        eprintln!("seed {seed}");
        return Ok(format!("{}\n", game.record().to_json()));
    };
    save_record(path, game.record())?;
    let view = game.view(Viewer::Referee);
    let title = view["title"].as_str().unwrap_or(spec);
    let mut out = format!(
        "New game of {title} written to {} (seed {seed}).\n",
        path.display()
    );
    out.push_str(&setup_text(game.as_ref()));
    let _ = writeln!(out, "{}", headline(game.as_ref()));
    Ok(out)
}

/// `grognard show`.
pub fn show_with(lib: &Library, path: &Path, json: bool, map: Option<&str>) -> Result<String> {
    let g = open_with(lib, path)?;
    let g = g.as_ref();
    let mut out = if json {
        match text_of(g, "show --json")? {
            Some(t) => t,
            None => pretty(&g.view(Viewer::Referee)),
        }
    } else {
        state_text(g)?
    };
    if let Some(hex) = map {
        let m = text_of(g, &format!("map {hex}"))?
            .ok_or_else(|| anyhow!("this rules system ({}) draws no text map", g.system()))?;
        if !json {
            out.push('\n');
        }
        out.push_str(&m);
    }
    Ok(out)
}

/// `grognard moves`: the system's text of a unit's moves, else its `moves` query as JSON.
pub fn moves_with(lib: &Library, path: &Path, unit: &str, json: bool) -> Result<String> {
    let g = open_with(lib, path)?;
    let what = if json {
        format!("moves {unit} --json")
    } else {
        format!("moves {unit}")
    };
    if let Some(t) = text_of(g.as_ref(), &what)? {
        return Ok(t);
    }
    let v = g
        .query("moves", unit, Viewer::Referee)
        .map_err(|e| anyhow!("{e}"))?;
    Ok(pretty(&v))
}

/// Resolves chance events while the game is at one: a physical die from `manual` first
/// (acted as the outcome text `roll N`, which a system that does not know it refuses), else
/// the record's seeded dice. Appends what happened to `log`.
pub fn roll_pending(
    game: &mut dyn DynGame,
    manual: &mut VecDeque<u8>,
    log: &mut String,
) -> Result<()> {
    while matches!(game.to_act(), ToAct::Chance) {
        let (acted, how) = match manual.pop_front() {
            Some(f) => {
                let text = format!("roll {f}");
                let a = game
                    .act(&text)
                    .map_err(|refusal| Refused { text, refusal })?;
                (a, "entered by hand")
            }
            None => match game.roll() {
                Some(a) => (a, "seeded dice"),
                None => break,
            },
        };
        let _ = writeln!(log, "{} ({how})", acted.text);
        log.push_str(&events_text(&acted));
    }
    Ok(())
}

/// `grognard act`: all the actions or none (nothing is written unless every action and every
/// `--die` was used).
pub fn act_with(lib: &Library, path: &Path, actions: &[String], dice: &[u8]) -> Result<String> {
    let mut g = open_with(lib, path)?;
    let mut manual: VecDeque<u8> = dice.iter().copied().collect();
    let mut log = String::new();
    if actions.is_empty() && !matches!(g.to_act(), ToAct::Chance) {
        bail!("no action given (try `grognard show {}`)", path.display());
    }
    roll_pending(g.as_mut(), &mut manual, &mut log)?;
    for text in actions {
        let a = g.act(text).map_err(|refusal| Refused {
            text: text.clone(),
            refusal,
        })?;
        let _ = writeln!(log, "{}", a.text);
        log.push_str(&events_text(&a));
        roll_pending(g.as_mut(), &mut manual, &mut log)?;
    }
    written(path, g.as_ref(), &manual, log)
}

/// `grognard act --computer SPEC`: the computer player `spec` of the game's system decides for
/// the seat to act (any decision: moves, declarations, losses, retreats, advances), action
/// after action until another seat is to act or the game ends (`once`: one action), the dice
/// rolled as [`act_with`] rolls them. Each action is printed with what the computer said of
/// it, which the record keeps (`note`). Refused when no seat is to act (the game is over).
pub fn act_computer_with(
    lib: &Library,
    path: &Path,
    spec: &str,
    once: bool,
    dice: &[u8],
) -> Result<String> {
    let mut g = open_with(lib, path)?;
    let mut manual: VecDeque<u8> = dice.iter().copied().collect();
    let mut log = String::new();
    roll_pending(g.as_mut(), &mut manual, &mut log)?;
    let side = match g.to_act() {
        ToAct::Side(s) => s,
        ToAct::Over(o) => {
            return Err(Refused {
                text: String::new(),
                refusal: engine::Refusal::new(
                    o.case,
                    format!(
                    "the game is over ({}): no one is to act, the computer has nothing to decide",
                    o.why
                ),
                ),
            }
            .into())
        }
        ToAct::Chance => bail!("a chance event is pending but the rules system drew no outcome"),
    };
    let system = lib.system(g.system())?;
    let seed = crate::util::mix(
        g.record().seed ^ 0x636f_6d70,
        g.record().actions.len() as u64,
    );
    let mut player = system.player(spec, seed).map_err(|e| {
        if e.contains("available") {
            anyhow!("--computer: {e}")
        } else {
            anyhow!(
                "--computer: {e} (available: {})",
                system.players().join(", ")
            )
        }
    })?;
    let seat = g
        .seats()
        .get(side.0 as usize)
        .cloned()
        .unwrap_or_else(|| format!("seat {}", side.0));
    let name = player.name();
    // a bound against a player that never lets the turn go
    for _ in 0..100_000 {
        let text = player.choose(g.as_ref());
        let acted = g.act(&text).map_err(|refusal| {
            anyhow!("the computer player {name} chose a refused action '{text}': {refusal}")
        })?;
        let said = player.explain();
        g.set_note(acted.n.saturating_sub(1), said.clone());
        let _ = writeln!(log, "{seat} ({name}): {}", acted.text);
        if let Some(w) = said {
            let _ = writeln!(log, "  [computer] {w}");
        }
        log.push_str(&events_text(&acted));
        roll_pending(g.as_mut(), &mut manual, &mut log)?;
        if once || !matches!(g.to_act(), ToAct::Side(s) if s == side) {
            break;
        }
    }
    written(path, g.as_ref(), &manual, log)
}

/// The end of an `act`: refused (nothing written) when a `--die` was given that no die used,
/// else the record written and the log closed by the game's headline.
fn written(path: &Path, g: &dyn DynGame, manual: &VecDeque<u8>, mut log: String) -> Result<String> {
    if !manual.is_empty() {
        let left: Vec<String> = manual.iter().map(|f| f.to_string()).collect();
        bail!(
            "no die was rolled for --die {}: nothing was written",
            left.join(" --die ")
        );
    }
    save_record(path, g.record())?;
    let _ = writeln!(log, "{}", headline(g));
    Ok(log)
}

/// `grognard undo`: takes back the last action where the rules allow.
pub fn undo_with(lib: &Library, path: &Path) -> Result<String> {
    let mut g = open_with(lib, path)?;
    let n = g.record().actions.len();
    if n == 0 || g.undoable() == 0 {
        let mut refusal = g.undo_refusal();
        if n == 0 {
            refusal.why = "there is nothing to take back".into();
        }
        return Err(Refused {
            text: String::new(),
            refusal,
        }
        .into());
    }
    let last = g.record().actions[n - 1].text.clone();
    g.truncate(n - 1);
    save_record(path, g.record())?;
    Ok(format!("took back: {last}\n{}\n", headline(g.as_ref())))
}

/// `grognard replay`: the record action by action with its events, or (`verify`) only the
/// check; `to` stops after that many actions and shows the state there.
pub fn replay_with(lib: &Library, path: &Path, verify: bool, to: Option<usize>) -> Result<String> {
    let record = read_record(path)?;
    // a sealed game's record: its revealed seed and salt must make the commitment published
    // when the game began
    let committed = record
        .verify_commitment()
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let total = record.actions.len();
    let n = to.unwrap_or(total).min(total);
    let mut cut = record.clone();
    cut.actions.truncate(n);
    let g = resume(lib, path, cut)?;
    let g = g.as_ref();
    let mut out = String::new();
    if verify {
        let _ = writeln!(
            out,
            "OK: {n} of {total} actions replay exactly (dice and state hashes agree); state {}",
            hash_text(g.state_hash())
        );
        if committed {
            let _ = writeln!(
                out,
                "OK: the seed and salt make the commitment published when the game began ({}): \
                 every seeded roll is the committed dice's",
                record.commitment.as_deref().unwrap_or_default()
            );
        }
    } else {
        let view = g.view(Viewer::Referee);
        let title = view["title"].as_str().unwrap_or(&record.scenario);
        let _ = writeln!(out, "{title} [{}], seed {}", record.scenario, record.seed);
        out.push_str(&setup_text(g));
        for e in present::log_of_game(g) {
            let who = if e.side == "chance" { "die" } else { &e.side };
            let by_hand = record
                .actions
                .get(e.n.wrapping_sub(1))
                .is_some_and(|r| r.manual);
            let manual = if by_hand { " (by hand)" } else { "" };
            let _ = writeln!(out, "{:>4}. {who}: {}{manual}", e.n, e.action);
            if let Some(note) = record
                .actions
                .get(e.n.wrapping_sub(1))
                .and_then(|r| r.note.as_deref())
            {
                let _ = writeln!(out, "  [computer] {note}");
            }
            out.push_str(&events_lines(&e.events));
        }
    }
    if to.is_some() {
        out.push('\n');
        out.push_str(&state_text(g)?);
    } else if !verify {
        let _ = writeln!(out, "{}", headline(g));
    }
    Ok(out)
}

/// `grognard replay --json`: the record action by action as JSON (`docs/cli.md`): the
/// scenario, seed and players, then each action with its side, whether a die was read by
/// hand, what the computer said of it (`note`) and its events; `to` stops after that many
/// actions and adds the state view there.
pub fn replay_json_with(lib: &Library, path: &Path, to: Option<usize>) -> Result<String> {
    let record = read_record(path)?;
    record
        .verify_commitment()
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let total = record.actions.len();
    let n = to.unwrap_or(total).min(total);
    let mut cut = record.clone();
    cut.actions.truncate(n);
    let g = resume(lib, path, cut)?;
    let g = g.as_ref();
    let view = g.view(Viewer::Referee);
    let actions: Vec<Value> = present::log_of_game(g)
        .into_iter()
        .map(|e| {
            let r = record.actions.get(e.n.wrapping_sub(1));
            let mut a = serde_json::json!({
                "n": e.n,
                "side": e.side,
                "action": e.action,
                "events": e.events,
            });
            if r.is_some_and(|r| r.manual) {
                a["manual"] = true.into();
            }
            if let Some(note) = r.and_then(|r| r.note.clone()) {
                a["note"] = note.into();
            }
            a
        })
        .collect();
    let mut out = serde_json::json!({
        "scenario": record.scenario,
        "title": view["title"].as_str().unwrap_or(&record.scenario),
        // a string: a 64-bit seed does not survive a JavaScript (or jq) number
        "seed": record.seed.to_string(),
        "players": record.players,
        "actions": actions,
        "total": total,
        "state_hash": hash_text(g.state_hash()),
        "headline": headline(g),
    });
    if to.is_some() {
        out["state"] = view;
    }
    Ok(pretty(&out))
}

/// A scenario file checked by its own system: one line, `ok` with its facts or `FAIL` with
/// the problem.
pub fn check_scenario(lib: &Library, name: &str) -> std::result::Result<String, String> {
    match lib.scenario(name) {
        Ok(i) => Ok(format!(
            "ok   {name}: {} ({} system, {} units, turns {}-{})",
            i.id, i.system, i.units, i.first_turn, i.last_turn
        )),
        Err(e) => Err(format!("FAIL {name}\n  {e}")),
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct Rate {
    /// How many.
    pub count: usize,
    /// The proportion.
    pub rate: f64,
    /// Its 95% Wilson score interval.
    pub ci95: [f64; 2],
}

/// A proportion as a percentage with one decimal (`52.5%`).
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

impl Rate {
    /// The report line of a rate: `  LABEL  COUNT  PCT  (95% CI LOW - HIGH)`.
    pub fn line(&self, label: &str) -> String {
        format!(
            "  {label:<16} {:>5}  {:>6}  (95% CI {} - {})\n",
            self.count,
            pct(self.rate),
            pct(self.ci95[0]),
            pct(self.ci95[1])
        )
    }
}

/// The Wilson score interval (z = 1.96) of `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> Rate {
    let (rate, ci95) = wilson_interval(k as f64, n);
    Rate {
        count: k,
        rate,
        ci95,
    }
}

/// The rate `k / n` and its Wilson score interval (z = 1.96); `k` may be fractional (an arena
/// score with draws counted ½).
pub fn wilson_interval(k: f64, n: usize) -> (f64, [f64; 2]) {
    if n == 0 {
        return (0.0, [0.0, 1.0]);
    }
    let z = 1.959_963_984_540_054_f64;
    let nf = n as f64;
    let p = k / nf;
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
    (p, [(centre - half).max(0.0), (centre + half).min(1.0)])
}

/// The median of values sorted in increasing order (the mean of the two middle ones for an
/// even count); 0 for none.
pub fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// What `grognard sim` reports for a system without arena statistics of its own.
#[derive(Serialize, Debug)]
pub struct AnySimReport {
    /// The scenario.
    pub scenario: String,
    /// Its rules system.
    pub system: String,
    /// How many games.
    pub games: usize,
    /// The seats' names, as the playing system names them.
    pub sides: Vec<String>,
    /// The players, seat by seat.
    pub players: Vec<String>,
    /// The base seed.
    pub seed: u64,
    /// Wins per seat name, `draw`, and `unfinished` (cut off at the action bound).
    pub results: BTreeMap<String, Rate>,
    /// Actions a player chose that the rules refused.
    pub refused: usize,
    /// Mean game length in actions.
    pub mean_actions: f64,
    /// Mean game length in game-turns (the last turn played), when the system says
    /// ([`engine::dynamic::DynGame::facts`]).
    pub mean_turns: Option<f64>,
    /// The shortest and longest game in game-turns, when the system says.
    pub turns_range: Option<[u32; 2]>,
    /// The means over the games of the figures the system gives (`"French SP lost"`), in its
    /// order.
    pub figures: Vec<(String, f64)>,
}

/// Games between computer players of any system ([`ai::play_any`]): `players` are the
/// system's player specs, seat by seat; game `i` uses a seed derived from `seed`.
pub fn sim_any(
    lib: &Library,
    spec: &str,
    games: usize,
    players: &[&str],
    seed: u64,
) -> Result<AnySimReport> {
    sim_any_rules(lib, spec, None, games, players, seed)
}

/// [`sim_any`] under `rules` (another registered system that declares the scenario's
/// components, as `new --rules` takes it), or the scenario's own system when `None`.
pub fn sim_any_rules(
    lib: &Library,
    spec: &str,
    rules: Option<&str>,
    games: usize,
    players: &[&str],
    seed: u64,
) -> Result<AnySimReport> {
    let info = lib.scenario(spec)?;
    let system = match rules {
        Some(id) => {
            let s = lib.system(id)?;
            if !lib.rules_for(&info).contains(&s.id()) {
                bail!(
                    "the rules system '{id}' cannot play scenario '{}' (its components are '{}'; \
                     it can be played with: {})",
                    info.id,
                    info.components,
                    lib.rules_for(&info).join(", ")
                );
            }
            s.clone()
        }
        None => lib.system(&info.system)?.clone(),
    };
    // the seats as the playing system names them
    let sides = lib.new_game(spec, Some(system.id()), seed)?.seats();
    if players.len() != sides.len() {
        bail!(
            "--players: give one player per seat ({}), such as {}",
            sides.join(", "),
            vec![system.players().first().cloned().unwrap_or_default(); sides.len()].join(":")
        );
    }
    for p in players {
        system.player(p, 0).map_err(|e| anyhow!("--players: {e}"))?;
    }
    let mut wins = vec![0usize; sides.len()];
    let (mut draws, mut unfinished, mut refused, mut actions) = (0, 0, 0, 0);
    let mut turns: Vec<u32> = Vec::new();
    let mut figures: Vec<(String, f64)> = Vec::new();
    for i in 0..games {
        let gs = crate::util::mix(seed, i as u64);
        let mut g = lib.new_game(spec, Some(system.id()), gs)?;
        let mut ps = Vec::new();
        for (k, p) in players.iter().enumerate() {
            ps.push(
                system
                    .player(p, crate::util::mix(gs, k as u64 + 1))
                    .map_err(|e| anyhow!("{e}"))?,
            );
        }
        let r = ai::play_any(g.as_mut(), &mut ps, 100_000);
        refused += r.refused;
        actions += r.record.actions.len();
        let facts = g.facts();
        turns.extend(facts.turn);
        for (name, x) in facts.figures {
            match figures.iter_mut().find(|f| f.0 == name) {
                Some(f) => f.1 += x,
                None => figures.push((name, x)),
            }
        }
        match r.outcome {
            Some(o) => match o.winner {
                Some(w) => wins[w.0 as usize] += 1,
                None => draws += 1,
            },
            None => unfinished += 1,
        }
    }
    let mut results = BTreeMap::new();
    for (side, k) in sides.iter().zip(&wins) {
        results.insert(side.clone(), wilson(*k, games));
    }
    results.insert("draw".into(), wilson(draws, games));
    results.insert("unfinished".into(), wilson(unfinished, games));
    Ok(AnySimReport {
        scenario: info.id,
        system: system.id().to_string(),
        games,
        sides,
        players: players.iter().map(|p| p.to_string()).collect(),
        seed,
        results,
        refused,
        mean_actions: actions as f64 / games.max(1) as f64,
        mean_turns: (!turns.is_empty())
            .then(|| turns.iter().map(|&t| f64::from(t)).sum::<f64>() / turns.len() as f64),
        turns_range: turns
            .iter()
            .min()
            .zip(turns.iter().max())
            .map(|(a, b)| [*a, *b]),
        figures: figures
            .into_iter()
            .map(|(name, x)| (name, x / games.max(1) as f64))
            .collect(),
    })
}

/// [`AnySimReport`] as text: one line per seat, draws and unfinished games, the game length
/// in actions and (when the system says) in game-turns, and the means of the system's
/// figures.
pub fn sim_any_text(r: &AnySimReport, sides: &[String]) -> String {
    let mut out = String::new();
    let vs: Vec<String> = sides
        .iter()
        .zip(&r.players)
        .map(|(s, p)| format!("{s} ({p})"))
        .collect();
    let _ = writeln!(
        out,
        "{} games of {} ({}): {}, seed {}",
        r.games,
        r.scenario,
        r.system,
        vs.join(" against "),
        r.seed
    );
    let keys = sides
        .iter()
        .map(|s| (s.clone(), format!("{s} wins")))
        .chain([
            ("draw".to_string(), "draws".to_string()),
            ("unfinished".to_string(), "unfinished".to_string()),
        ]);
    for (key, label) in keys {
        out.push_str(&r.results[&key].line(&label));
    }
    let _ = writeln!(
        out,
        "  game length: {:.1} actions on average",
        r.mean_actions
    );
    if let (Some(t), Some([lo, hi])) = (r.mean_turns, r.turns_range) {
        let _ = writeln!(
            out,
            "  game-turns: {t:.1} on average (shortest {lo}, longest {hi})"
        );
    }
    for (name, x) in &r.figures {
        let _ = writeln!(out, "  {name}: {x:.2} a game on average");
    }
    if r.refused > 0 {
        let _ = writeln!(out, "  refused choices: {}", r.refused);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{median, wilson};

    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(median(&[0.2, 0.5, 1.4]), 0.5);
        assert!((median(&[0.2, 0.4, 0.8, 1.4]) - 0.6).abs() < 1e-12);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn wilson_interval_of_a_known_case() {
        // 8 of 10: 0.49 - 0.94 (the textbook values)
        let r = wilson(8, 10);
        assert!((r.ci95[0] - 0.4902).abs() < 1e-3, "{:?}", r.ci95);
        assert!((r.ci95[1] - 0.9433).abs() < 1e-3, "{:?}", r.ci95);
        let z = wilson(0, 4);
        assert_eq!(z.ci95[0], 0.0);
        assert!(z.ci95[1] > 0.4 && z.ci95[1] < 0.5);
    }
}
