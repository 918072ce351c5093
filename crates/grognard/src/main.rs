//! `grognard`: plays SPI's Napoleon at War / The Battle of Nations from the command line.
//!
//! Every command is documented in `docs/cli.md`; the action grammar in `docs/actions.md`.
//! Exit codes: 0 success, 1 refused or failed (a message on stderr), 2 bad usage.

mod cmds;
mod serve;
mod show;
mod sim;
mod suite;
mod tune;

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use grognard::{core, play, util};
use std::path::PathBuf;
use std::process::ExitCode;

/// Plays SPI's Napoleon at War and The Battle of Nations (1975) with every rule enforced.
#[derive(Parser, Debug)]
#[command(name = "grognard", version)]
#[command(
    after_help = "Play in a browser:  grognard play   (in the terminal: grognard play --text)\n\
Action grammar: docs/actions.md; every command: docs/cli.md.\n\
Exit codes: 0 success, 1 refused or failed, 2 bad usage."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Whether the defender's terrain doubles him (9.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TerrainArg {
    /// The defence strength is doubled (rough, marsh, town, stream, bridge or slope).
    Doubled,
    /// No terrain effect.
    None,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the shipped scenarios: id, title, game-turns and sides.
    Scenarios {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Start a new game: writes an empty game record (JSON).
    New {
        /// A shipped scenario id (see `grognard scenarios`) or a scenario file.
        scenario: String,
        /// Seed of the record's dice (default: from the clock, printed on stderr).
        #[arg(long)]
        seed: Option<u64>,
        /// Play the scenario under another registered rules system that declares its
        /// components (default: the system the scenario file names).
        #[arg(long, value_name = "ID")]
        rules: Option<String>,
        /// Write the record to this file (atomically) instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace FILE if it exists (a game there is lost).
        #[arg(long, requires = "output")]
        force: bool,
    },
    /// Show a game: turn, phase, losses, every unit, combats, the legal actions.
    Show {
        /// The game record.
        record: PathBuf,
        /// Print JSON (the legal actions in full).
        #[arg(long)]
        json: bool,
        /// Also draw a compact ASCII map around this hex (XXYY).
        #[arg(long, value_name = "XXYY")]
        map: Option<String>,
        /// With --map: draw only the hexes within N of it, each with its number, and mark the
        /// last moves (this player-turn's and the one before, or --last N actions').
        #[arg(long, value_name = "N", requires = "map")]
        radius: Option<u32>,
        /// With --map: mark the moves of the last N actions.
        #[arg(long, value_name = "N", requires = "map")]
        last: Option<usize>,
        /// List every legal action (by default the text sums them up: which units may move,
        /// `grognard moves` for a unit's destinations; --json always lists them all).
        #[arg(long)]
        legal: bool,
    },
    /// The hexsides around a hex: each one's features (river, stream, bridge, road, slope...)
    /// by the map's legend and what crossing it costs each way.
    #[command(after_help = "Example:  grognard hexsides game.json 2316 --radius 1")]
    Hexsides {
        /// The game record.
        record: PathBuf,
        /// The hex (XXYY).
        hex: String,
        /// Also list the hexes within N of it (their hexsides with features).
        #[arg(long, value_name = "N", default_value_t = 0)]
        radius: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Where a unit could retreat (7.7): vacant hexes, or the friends it would displace (7.8),
    /// or that it would be eliminated. A what-if for a unit that is not retreating.
    #[command(after_help = "Example:  grognard retreats game.json PR.9")]
    Retreats {
        /// The game record.
        record: PathBuf,
        /// The unit: its id (FR.4) or the hex it stands in (2315).
        unit: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The enemy's reach: where each unit of a side could move in its next movement phase, as
    /// the board stands, and which units it could then attack.
    #[command(after_help = "Example:  grognard reach game.json --side French")]
    Reach {
        /// The game record.
        record: PathBuf,
        /// The side studied (default: the opponent of the side to act).
        #[arg(long, value_name = "SIDE")]
        side: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A unit's legal destinations with their cost and cheapest path.
    Moves {
        /// The game record.
        record: PathBuf,
        /// The unit: its id (FR.4) or the hex it stands in (2315).
        unit: String,
        /// Print JSON (costs as numbers: 1.5).
        #[arg(long)]
        json: bool,
    },
    /// Take actions: each argument is one action ("move FR.4 2316", end, ...), or let the
    /// computer decide for the side to act (--computer). Dice are rolled automatically from the
    /// record's seed, unless --die gives a physical die's face.
    #[command(
        after_help = "Examples:\n  grognard act game.json end\n  grognard act game.json \"attack FR.4 AU.2/I\" end\n  grognard act game.json \"resolve AU.2/I\" --die 4\n  grognard act game.json --computer search@3s\n\n\
If any action is refused nothing is written: the record stays as it was."
    )]
    Act {
        /// The game record (rewritten atomically).
        record: PathBuf,
        /// Actions, one per argument, in the grammar of docs/actions.md.
        actions: Vec<String>,
        /// The computer decides for the side to act (random, heuristic, search, search@3s,
        /// search@5000n): every decision of that side until another side is to act or the
        /// game ends; what it says of each is printed and kept in the record.
        #[arg(long, value_name = "PLAYER", conflicts_with = "actions")]
        computer: Option<String>,
        /// With --computer: one action only.
        #[arg(long, requires = "computer")]
        once: bool,
        /// The face of a physical die for the next roll (recorded as manual); repeat for
        /// several rolls.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=6))]
        die: Vec<u8>,
    },
    /// Take back the last action where the rules allow (5.14: not once a die has been rolled).
    Undo {
        /// The game record (rewritten atomically).
        record: PathBuf,
    },
    /// The odds column of a combat and the probability of every result (7.0, 7.6).
    Odds {
        /// Total attack strength.
        attack: u32,
        /// Total defence strength (before terrain).
        defence: u32,
        /// `doubled` doubles the defence (9.0).
        #[arg(long, value_enum, default_value = "none")]
        terrain: TerrainArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Replay a record action by action with its events, or verify it.
    Replay {
        /// The game record.
        record: PathBuf,
        /// Only check it: print OK, or name the first bad action and exit 1.
        #[arg(long)]
        verify: bool,
        /// Stop after N actions and show the state.
        #[arg(long, value_name = "N")]
        to: Option<usize>,
        /// Print JSON: every action with its side, events and the computer's note.
        #[arg(long, conflicts_with = "verify")]
        json: bool,
    },
    /// Play many games between computer players and report the results.
    Sim {
        /// A shipped scenario id or a scenario file.
        scenario: String,
        /// Play the games under another registered rules system that declares the
        /// scenario's components (default: the system the scenario file names).
        #[arg(long, value_name = "ID")]
        rules: Option<String>,
        /// How many games.
        #[arg(long, value_name = "N")]
        games: usize,
        /// The players, first side first (`random:random`).
        #[arg(long, value_name = "A:B", default_value = "random:random")]
        players: String,
        /// Games played at once (default: every core; one at a time when a player thinks by the clock).
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// Base seed: game i uses a seed derived from it (default: from the clock).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Play the run's games from this index on (`--games N --first-game K`: games K to
        /// K+N-1 of the seed), so that a long run can be played in parts and the parts' games
        /// are the whole run's, row for row.
        #[arg(long, value_name = "K", default_value_t = 0)]
        first_game: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also draw an SVG chart of the outcomes and demoralization turns.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// A weights file (as `grognard tune --out` writes) that the learned levels (search2,
        /// search3, search4) read in place of the shipped one, to measure weights before they
        /// ship.
        #[arg(long, value_name = "FILE")]
        weights: Option<PathBuf>,
    },
    /// Fit the learned evaluation (the level search2) to the outcomes of self-play games and
    /// write its weights (docs/ai.md).
    Tune {
        /// How: `outcomes` (logistic regression of each position's final score on its features).
        #[arg(long, default_value = "outcomes")]
        method: String,
        /// The player of both sides of the self-play games: `heuristic` or a search with a
        /// simulation budget (`search4@300n`), so that a seed gives the same weights.
        #[arg(long, value_name = "SPEC", default_value = "heuristic")]
        players: String,
        /// Self-play games per scenario (a fifth of them held out to measure the fit).
        #[arg(long, value_name = "N")]
        games: usize,
        /// Base seed: game i of each scenario uses a seed derived from it.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// The scenarios played, comma-separated.
        #[arg(
            long,
            value_name = "IDS",
            default_value = "bon-first-day,bon-third-day,bon-grand-battle"
        )]
        scenarios: String,
        /// Strength of the pull toward today's evaluation (L2, per position).
        #[arg(long, value_name = "X", default_value_t = 0.001)]
        l2: f64,
        /// Games played at once (default: every core).
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// The version written in the file.
        #[arg(long, value_name = "V", default_value_t = 1)]
        version: u32,
        /// Write the weights to this file (e.g. crates/ai/weights/naw.toml).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// A weights file that the learned levels playing the games read in place of the
        /// shipped one (so that a fit can be repeated whatever weights the build ships).
        #[arg(long, value_name = "FILE")]
        weights: Option<PathBuf>,
        /// The sides (by number, 0 the scenario's first, comma-separated) that also get
        /// weights of their own, fitted to their positions and pulled toward the common ones
        /// (written under `[sides.N]`; the learned levels evaluate such a side's positions by
        /// them).
        #[arg(long, value_name = "SIDES", value_delimiter = ',')]
        own_sides: Vec<u8>,
        /// Fit each of --scenarios its own weights, to its games alone (with --own-sides, its
        /// sides' own too), and write them under `[scenarios.ID]` into a copy of the weights
        /// the games were played with (--weights, or the shipped ones), the rest of which is
        /// kept as it is.
        #[arg(long)]
        own_scenarios: bool,
    },
    /// Rate computer players against each other: every two levels on every scenario as both
    /// sides, Elo with 95% intervals (docs/ai.md, the ladder).
    Ladder {
        /// The levels, comma-separated player specs.
        #[arg(
            long,
            value_name = "A,B,...",
            default_value = "random,heuristic,search1@500n,search1@2000n"
        )]
        players: String,
        /// The scenarios, comma-separated (shipped ids or files).
        #[arg(
            long,
            value_name = "S,...",
            default_value = "bon-first-day,bon-third-day,bon-grand-battle"
        )]
        scenarios: String,
        /// Games per pairing, scenario and side.
        #[arg(long, value_name = "N")]
        games: usize,
        /// Games played at once between simulation-budget players (default: every core);
        /// games with a player that thinks by the clock are played one at a time.
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// Base seed (default: from the clock).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// The level whose rating is fixed, SPEC=ELO (default heuristic=1000 when it plays,
        /// else the first level at 0).
        #[arg(long, value_name = "SPEC=ELO")]
        anchor: Option<String>,
        /// Virtual draws added between every two levels (keeps a sweep finite).
        #[arg(long, value_name = "K", default_value_t = 1.0)]
        prior: f64,
        /// Print JSON (with every game's seed and score).
        #[arg(long)]
        json: bool,
    },
    /// The tactical test suite: every level plays each position (a blunder to avoid, a chance
    /// to take) and is judged on what it did (docs/ai.md, the tactical suite).
    Suite {
        /// The levels, comma-separated player specs.
        #[arg(
            long,
            value_name = "A,B,...",
            default_value = "random,heuristic,search@2000n"
        )]
        players: String,
        /// The first seed: players (and any die) are made from it, and from the next ones.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// How many seeds each level plays each position with (S, S+1, ...): a position
        /// passes when it passes with every one.
        #[arg(long, value_name = "N", default_value_t = 1)]
        seeds: u64,
        /// Print JSON: per position and level, pass or fail, why, and the actions taken.
        #[arg(long)]
        json: bool,
    },
    /// Draw the map of a scenario, or of a game with its units where they stand now.
    #[command(group(clap::ArgGroup::new("out").required(true).multiple(true).args(["svg", "png"])))]
    Map {
        /// A shipped scenario id, a scenario file or a game record.
        source: String,
        /// Write SVG to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Write PNG to this file.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Print the XXYY number in every hex.
        #[arg(long)]
        numbers: bool,
        /// Width of the PNG in pixels.
        #[arg(long, value_name = "PX", default_value_t = 2000)]
        width: u32,
    },
    /// Check scenario files (a file, or every *.toml in a directory); reports every problem.
    Validate {
        /// A scenario (or map) file, or a directory of them.
        path: PathBuf,
    },
    /// Play: starts the game server on 127.0.0.1 and prints the address of the board to open
    /// in a browser (`grognard serve --listen 0.0.0.0` serves it to your network). `--text`
    /// plays in the terminal instead: hot-seat, or against a computer player, reading
    /// commands and actions from standard input (type `help`).
    Play(play::PlayArgs),
    /// Run the game server (the API of docs/api.md and the board): on 127.0.0.1 by default,
    /// on the network with --listen, behind a reverse proxy with --trust-proxy and
    /// --public-url (docs/deploy.md).
    Serve(serve::ServeArgs),
}

/// Prints what a command of the core answered. A reader that has gone (`grognard show
/// --json | head`) ends the command quietly, as Unix tools do.
fn print(out: Result<String>) -> Result<()> {
    use std::io::Write;
    let text = out?;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("cannot write to standard output"))
        }
        _ => Ok(()),
    }
}

/// A command whose standard output is a pipe closed early (`grognard show --json | head`)
/// ends quietly, as Unix tools do: the default action of SIGPIPE is restored (a Rust program
/// ignores it, and `print!` then panics on the broken pipe). Not for the game server, whose
/// connections must never end it.
#[cfg(unix)]
fn end_quietly_on_a_closed_pipe() {
    // SAFETY: restoring a signal's default disposition, before any other thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_on_a_closed_pipe() {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let serves = match &cli.command {
        Command::Serve(_) => true,
        Command::Play(args) => !args.is_text(),
        _ => false,
    };
    if !serves {
        end_quietly_on_a_closed_pipe();
    }
    let lib = systems::Library::standard();
    let result = match cli.command {
        Command::Scenarios { json } => print(core::scenarios_with(&lib, json)),
        Command::New {
            scenario,
            seed,
            rules,
            output,
            force,
        } => print(core::new_with(
            &lib,
            &scenario,
            seed,
            rules.as_deref(),
            output.as_deref(),
            force,
        )),
        Command::Show {
            record,
            json,
            map,
            radius,
            last,
            legal,
        } => match (map, radius, last) {
            (map, None, None) if legal && !json => {
                print(cmds::show_legal(&lib, &record, map.as_deref()))
            }
            (Some(hex), r, l) if r.is_some() || l.is_some() => {
                print(show::show_around(&lib, &record, json, &hex, r, l))
            }
            (map, ..) => print(core::show_with(&lib, &record, json, map.as_deref())),
        },
        Command::Hexsides {
            record,
            hex,
            radius,
            json,
        } => print(show::study(
            &lib,
            &record,
            "hexsides",
            &format!("{hex} {radius}"),
            json,
        )),
        Command::Retreats { record, unit, json } => {
            print(show::study(&lib, &record, "retreats", &unit, json))
        }
        Command::Reach { record, side, json } => print(show::study(
            &lib,
            &record,
            "reach",
            side.as_deref().unwrap_or(""),
            json,
        )),
        Command::Moves { record, unit, json } => {
            print(core::moves_with(&lib, &record, &unit, json))
        }
        Command::Act {
            record,
            computer: Some(spec),
            once,
            die,
            ..
        } => print(core::act_computer_with(&lib, &record, &spec, once, &die)),
        Command::Act {
            record,
            actions,
            computer: None,
            die,
            ..
        } => print(core::act_with(&lib, &record, &actions, &die)),
        Command::Undo { record } => print(core::undo_with(&lib, &record)),
        Command::Odds {
            attack,
            defence,
            terrain,
            json,
        } => cmds::odds(&lib, attack, defence, terrain, json),
        Command::Replay {
            record,
            verify,
            to,
            json,
        } => print(if json {
            core::replay_json_with(&lib, &record, to)
        } else {
            core::replay_with(&lib, &record, verify, to)
        }),
        Command::Sim {
            scenario,
            rules,
            games,
            players,
            jobs,
            seed,
            first_game,
            json,
            plot,
            weights,
        } => sim::sim(
            &lib,
            sim::SimArgs {
                scenario,
                rules,
                games,
                players,
                jobs,
                seed,
                first_game,
                json,
                plot,
                weights,
            },
        ),
        Command::Tune {
            method,
            players,
            games,
            seed,
            scenarios,
            l2,
            jobs,
            version,
            out,
            weights,
            own_sides,
            own_scenarios,
        } => print(tune::tune(tune::TuneArgs {
            method,
            players,
            games,
            seed,
            scenarios,
            l2,
            jobs,
            version,
            out,
            weights,
            own_sides,
            own_scenarios,
        })),
        Command::Ladder {
            players,
            scenarios,
            games,
            jobs,
            seed,
            anchor,
            prior,
            json,
        } => sim::ladder(
            &lib,
            sim::LadderArgs {
                players,
                scenarios,
                games,
                jobs,
                seed,
                anchor,
                prior,
                json,
            },
        ),
        Command::Suite {
            players,
            seed,
            seeds,
            json,
        } => print(suite::suite(&players, seed, seeds, json)),
        Command::Map {
            source,
            svg,
            png,
            numbers,
            width,
        } => cmds::map(
            &lib,
            &source,
            svg.as_deref(),
            png.as_deref(),
            numbers,
            width,
        ),
        Command::Validate { path } => cmds::validate(&lib, &path),
        Command::Play(args) => {
            if args.is_text() {
                play::play_text(&lib, args)
            } else {
                serve::serve(serve::Options {
                    listen: None,
                    port: args.port,
                    fallback_port: true,
                    database: args.database,
                    public_url: None,
                    trust_proxy: false,
                    limits: server::Limits::default(),
                    quiet: true,
                })
            }
        }
        Command::Serve(args) => args.options().and_then(serve::serve),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(r) = e.downcast_ref::<util::Refused>() {
                eprintln!("{r}");
            } else if e.downcast_ref::<cmds::Reported>().is_some() {
                // the problems were printed already; the summary is the message
                eprintln!("grognard: {e}");
            } else {
                eprintln!("grognard: error: {e:#}");
            }
            ExitCode::FAILURE
        }
    }
}
