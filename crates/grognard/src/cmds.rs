//! The commands other than `sim` and `play`.

use crate::show;
use crate::util::{
    events_text, find_unit, load_scenario, open_record, parse_map_hex, read_record, record_start,
    save_record, side_name, time_seed, write_atomically, Refused,
};
use crate::TerrainArg;
use anyhow::{anyhow, bail, Context, Result};
use engine::{hash_text, ReplayError, Rules, Session, ToAct};
use naw::{Action, Column, Game, Loc, Scenario, UnitType};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::Path;

/// A failure whose details were already printed (validate): only the summary goes to stderr.
#[derive(Debug)]
pub struct Reported(pub String);

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Reported {}

/// `grognard scenarios`.
pub fn scenarios(json: bool) -> Result<()> {
    let lib = systems::Library::standard();
    let mut list = Vec::new();
    for s in lib.scenarios() {
        list.push(s.map_err(|(id, e)| anyhow::anyhow!("shipped scenario {id}: {e}"))?);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    for j in &list {
        println!(
            "{:<18} {:<5} turns {}-{:<3} {}  {}",
            j.id,
            j.system,
            j.first_turn,
            j.last_turn,
            j.sides.join(" vs "),
            j.title
        );
    }
    Ok(())
}

/// `grognard new`.
pub fn new(
    spec: &str,
    seed: Option<u64>,
    rules: Option<&str>,
    output: Option<&Path>,
    force: bool,
) -> Result<()> {
    if let Some(p) = output {
        if p.exists() && !force {
            bail!(
                "{} already exists: pass --force to replace it (the game in it would be lost)",
                p.display()
            );
        }
    }
    let seed = seed.unwrap_or_else(time_seed);
    // the registry picks the rules system: the scenario's own, or `--rules` where that system
    // declares the scenario's components
    let lib = systems::Library::standard();
    let game = lib.new_game(spec, rules, seed)?;
    if game.system() != "naw" {
        match output {
            Some(path) => {
                save_record(path, game.record())?;
                println!("New game written to {} (seed {seed}).", path.display());
            }
            None => println!("{}", game.record().to_json()),
        }
        return Ok(());
    }
    let sc = load_scenario(spec)?;
    let digest = sc.digest;
    let title = sc.title.clone();
    let s = Session::new(Game::new(sc), spec, digest, seed);
    match output {
        Some(path) => {
            save_record(path, &s.record)?;
            println!(
                "New game of {title} written to {} (seed {seed}).",
                path.display()
            );
            print!("{}", events_text(&s.game));
            println!("{}", show::headline(&s.game));
        }
        None => {
            eprintln!("seed {seed}");
            println!("{}", s.record.to_json());
        }
    }
    Ok(())
}

/// `grognard show`.
pub fn show(path: &Path, json: bool, map: Option<&str>) -> Result<()> {
    let s = open_record(path)?;
    let centre = map.map(|m| parse_map_hex(&s.game, m)).transpose()?;
    if json {
        println!("{}", show::state_json(&s)?);
    } else {
        print!("{}", show::state_text(&s));
    }
    if let Some(c) = centre {
        if !json {
            println!();
        }
        print!("{}", show::ascii_map(&s.game, c, 9, 13)?);
    }
    Ok(())
}

/// `grognard moves`.
pub fn moves(path: &Path, unit: &str, json: bool) -> Result<()> {
    let s = open_record(path)?;
    let u = find_unit(&s.game, unit)?;
    if json {
        println!("{}", show::moves_json(&s.game, u)?);
    } else {
        print!("{}", show::moves_text(&s.game, u));
    }
    Ok(())
}

/// Rolls while the game is at a chance event: a physical die from `manual` first, else the
/// record's seeded dice. Appends what happened to `log`.
pub fn roll_pending(s: &mut Session<Game>, manual: &mut VecDeque<u8>, log: &mut String) {
    while matches!(s.game.to_act(), ToAct::Chance) {
        let (face, how) = match manual.pop_front() {
            Some(f) => {
                if s.act(Action::Roll(f)).is_err() {
                    // a face out of 1..6 is refused by the argument parser already
                    break;
                }
                (f, "entered by hand")
            }
            None => match s.roll() {
                Some(Action::Roll(f)) => (f, "seeded dice"),
                Some(_) => (0, "seeded dice"),
                None => break,
            },
        };
        let _ = writeln!(log, "roll {face} ({how})");
        log.push_str(&events_text(&s.game));
    }
}

/// `grognard act`: all the actions or none.
pub fn act(path: &Path, actions: &[String], dice: &[u8]) -> Result<()> {
    let mut s = open_record(path)?;
    let mut manual: VecDeque<u8> = dice.iter().copied().collect();
    let mut log = String::new();
    if actions.is_empty() && !matches!(s.game.to_act(), ToAct::Chance) {
        bail!("no action given (try `grognard show {}`)", path.display());
    }
    roll_pending(&mut s, &mut manual, &mut log);
    for text in actions {
        let a = s.act_text(text).map_err(|refusal| Refused {
            text: text.clone(),
            refusal,
        })?;
        let _ = writeln!(log, "{}", s.game.action_text(a));
        log.push_str(&events_text(&s.game));
        roll_pending(&mut s, &mut manual, &mut log);
    }
    if !manual.is_empty() {
        let left: Vec<String> = manual.iter().map(|f| f.to_string()).collect();
        bail!(
            "no die was rolled for --die {}: nothing was written",
            left.join(" --die ")
        );
    }
    save_record(path, &s.record)?;
    print!("{log}");
    println!("{}", show::headline(&s.game));
    Ok(())
}

/// `grognard undo`.
pub fn undo(path: &Path) -> Result<()> {
    let mut s = open_record(path)?;
    let text = s.undo().map_err(|refusal| Refused {
        text: String::new(),
        refusal,
    })?;
    save_record(path, &s.record)?;
    println!("took back: {text}");
    println!("{}", show::headline(&s.game));
    Ok(())
}

/// `grognard odds`.
pub fn odds(attack: u32, defence: u32, terrain: TerrainArg, json: bool) -> Result<()> {
    let eff = match terrain {
        TerrainArg::Doubled => defence
            .checked_mul(2)
            .ok_or_else(|| anyhow!("defence {defence} is too large"))?,
        TerrainArg::None => defence,
    };
    let column = Column::of(attack, eff);
    let p = naw::tables::probabilities(column);
    if json {
        let j = present::odds_view(attack, defence, terrain == TerrainArg::Doubled)
            .ok_or_else(|| anyhow!("defence {defence} is too large"))?;
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    let doubled = if terrain == TerrainArg::Doubled {
        format!(" ({defence} doubled by terrain, 9.0)")
    } else {
        String::new()
    };
    println!("{attack} against {eff}{doubled}: {}", column.name());
    let row: Vec<String> = (1..=6)
        .map(|d| format!("{d}:{}", naw::tables::crt(column, d).name()))
        .collect();
    println!("die   {}", row.join("  "));
    for (r, x) in naw::CombatResult::ALL.iter().zip(p) {
        let sixths = (x * 6.0).round() as u32;
        println!(
            "{}  {:>5.1}%  ({sixths} in 6)  {}",
            r.name(),
            x * 100.0,
            r.explain()
        );
    }
    Ok(())
}

/// `grognard replay`.
pub fn replay(path: &Path, verify: bool, to: Option<usize>) -> Result<()> {
    let record = read_record(path)?;
    let (start, digest) = record_start(path, &record)?;
    let bad = |e: ReplayError| anyhow!("{}: {e}", path.display());
    let n = to.unwrap_or(record.actions.len()).min(record.actions.len());
    if verify {
        let (g, _) = engine::replay(start.clone(), &record, digest, Some(n)).map_err(bad)?;
        println!(
            "OK: {n} of {} actions replay exactly (dice and state hashes agree); state {}",
            record.actions.len(),
            hash_text(g.state_hash())
        );
        if to.is_some() {
            let s = session_at(start, &record, digest, n)?;
            println!();
            print!("{}", show::state_text(&s));
        }
        return Ok(());
    }
    println!(
        "{} [{}], seed {}",
        start.scenario().title,
        record.scenario,
        record.seed
    );
    print!("{}", events_text(&start));
    let (g, _) = engine::replay_with(
        start.clone(),
        &record,
        digest,
        Some(n),
        |index, r, before, g| {
            let who = match before {
                ToAct::Side(x) => side_name(g, *x).to_string(),
                ToAct::Chance => "die".into(),
                ToAct::Over(_) => "-".into(),
            };
            let manual = if r.manual { " (by hand)" } else { "" };
            println!("{index:>4}. {who}: {}{manual}", r.text);
            print!("{}", events_text(g));
        },
    )
    .map_err(bad)?;
    if to.is_some() {
        let s = session_at(start, &record, digest, n)?;
        println!();
        print!("{}", show::state_text(&s));
    } else {
        println!("{}", show::headline(&g));
    }
    Ok(())
}

fn session_at(
    start: Game,
    record: &engine::Record,
    digest: u64,
    n: usize,
) -> Result<Session<Game>> {
    let mut r = record.clone();
    r.actions.truncate(n);
    Session::resume(start, r, digest).map_err(|e| anyhow!("{e}"))
}

/// The counters of the units on the map.
fn counters(sc: &Scenario, at: impl Fn(usize) -> Option<hexmap::Hex>) -> Vec<render::Counter> {
    sc.units
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            let hex = at(i)?;
            let nation = &sc.nations[d.nation as usize].id;
            let (fill, text) = render::nation_colours(nation);
            Some(render::Counter {
                hex,
                id: d.id.clone(),
                designation: d.designation.clone(),
                kind: match d.kind {
                    UnitType::Infantry => render::UnitKind::Infantry,
                    UnitType::Cavalry => render::UnitKind::Cavalry,
                    UnitType::Artillery => render::UnitKind::Artillery,
                },
                strength: d.strength,
                movement: d.movement as u16,
                fill,
                text,
            })
        })
        .collect()
}

/// True when the file looks like a game record rather than a scenario.
fn is_record_file(p: &Path) -> bool {
    std::fs::read_to_string(p)
        .map(|t| t.trim_start().starts_with('{'))
        .unwrap_or(false)
}

/// `grognard map`.
pub fn map(
    source: &str,
    svg_out: Option<&Path>,
    png_out: Option<&Path>,
    numbers: bool,
    width: u32,
) -> Result<()> {
    let (sc, counters, title) =
        if scenarios::scenario_text(source).is_none() && is_record_file(Path::new(source)) {
            let s = open_record(Path::new(source))?;
            let g = &s.game;
            let title = format!(
                "{}: game-turn {}, {} player-turn",
                g.scenario().title,
                g.turn(),
                side_name(g, g.phasing())
            );
            let c = counters(g.scenario(), |i| match g.loc(naw::UnitId(i as u8)) {
                Loc::Map(h) => Some(h),
                _ => None,
            });
            (g.scenario_arc().as_ref().clone(), c, title)
        } else {
            let sc = load_scenario(source)?;
            let c = counters(&sc, |i| match sc.units[i].start {
                naw::scenario::Start::Hex(h) => Some(h),
                _ => None,
            });
            let title = format!("{}: set-up", sc.title);
            (sc, c, title)
        };
    let opts = render::Options {
        hex_numbers: numbers,
        title: Some(title),
        ..render::Options::default()
    };
    let svg = render::svg(&sc.map, &counters, &opts);
    if let Some(p) = svg_out {
        write_atomically(p, svg.as_bytes())?;
        println!("SVG map written to {}", p.display());
    }
    if let Some(p) = png_out {
        let png = render::png(&svg, width).map_err(|e| anyhow!("cannot draw the PNG: {e}"))?;
        write_atomically(p, &png)?;
        println!("PNG map written to {} ({width} px wide)", p.display());
    }
    Ok(())
}

/// `grognard validate`.
pub fn validate(path: &Path) -> Result<()> {
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        let mut v: Vec<_> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read the directory {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
            .collect();
        v.sort();
        if v.is_empty() {
            bail!("{} holds no *.toml files", path.display());
        }
        v
    } else if path.exists() {
        vec![path.to_path_buf()]
    } else {
        bail!("{} does not exist", path.display());
    };
    let mut problems = 0;
    let mut bad_files = 0;
    for f in &files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                println!("FAIL {name}\n  cannot read it: {e}");
                problems += 1;
                bad_files += 1;
                continue;
            }
        };
        if text
            .lines()
            .any(|l| l.trim_start().starts_with("format") && l.contains("grognard-map/"))
        {
            match hexmap::Map::from_toml(&text) {
                Ok(m) => println!(
                    "ok   {name}: map {} ({}x{} hexes)",
                    m.id,
                    m.width(),
                    m.height()
                ),
                Err(e) => {
                    println!("FAIL {name}\n  {name}: {e}");
                    problems += 1;
                    bad_files += 1;
                }
            }
            continue;
        }
        match scenarios::load(&name) {
            Ok(sc) => {
                let arriving = sc
                    .units
                    .iter()
                    .filter(|u| matches!(u.start, naw::scenario::Start::Arrives(_)))
                    .count();
                println!(
                    "ok   {name}: {} ({} units, {arriving} reinforcements, turns {}-{})",
                    sc.id,
                    sc.units.len(),
                    sc.first_turn,
                    sc.last_turn
                );
            }
            Err(scenarios::LoadError::Invalid(e)) => {
                println!("FAIL {name}: {} problem(s)", e.0.len());
                for p in &e.0 {
                    println!("  {p}");
                }
                problems += e.0.len();
                bad_files += 1;
            }
            Err(e) => {
                println!("FAIL {name}\n  {e}");
                problems += 1;
                bad_files += 1;
            }
        }
    }
    if problems > 0 {
        return Err(Reported(format!(
            "{problems} problem(s) in {bad_files} of {} file(s)",
            files.len()
        ))
        .into());
    }
    println!("{} file(s) checked: no problems", files.len());
    Ok(())
}
