//! Persistence: games and their actions in SQLite (the default, a file in the user's data
//! directory) or PostgreSQL, through the same portable SQL.
//!
//! Two tables: `games` (one row a game: scenario, seed, mode, seat token hashes, computer) and
//! `actions` (one row an action: `(game_id, idx)` is the key). A game is rebuilt by replaying
//! its actions. Every change is one transaction, committed before the request is answered.

use crate::error::ServerError;
use engine::Recorded;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::path::PathBuf;
use std::time::Duration;

/// A game's row: everything but its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its id (`g_...`).
    pub id: String,
    /// The shipped scenario id.
    pub scenario: String,
    /// The scenario's digest when the game was made (16 hex digits).
    pub scenario_digest: String,
    /// The rules module and version (`naw/1`).
    pub rules: String,
    /// The seed of the record's dice.
    pub seed: u64,
    /// `hotseat`, `computer` or `online`.
    pub mode: String,
    /// Seconds since 1970.
    pub created_at: i64,
    /// Hash of the first side's seat token.
    pub token_first: Option<String>,
    /// Hash of the second side's seat token.
    pub token_second: Option<String>,
    /// Hash of the hot-seat token (both sides).
    pub token_both: Option<String>,
    /// The computer player's spec (`random`).
    pub computer: Option<String>,
    /// The side the computer plays (0 or 1).
    pub computer_side: Option<u8>,
    /// The game this one was branched from.
    pub branched_from: Option<String>,
    /// The secret salt of a sealed game (online games, and games against the computer whose
    /// seed the server drew): while the game goes on, the seed and the salt stay on the server
    /// and only their commitment (`engine::commitment`) is published; `None` for an open
    /// game, whose seed anyone may read.
    pub salt: Option<String>,
}

/// What [`Store::load`] finds of a game: its row, its actions, the computer's notes.
pub type Loaded = (GameRow, Vec<Recorded>, Vec<Note>);

/// The database: SQLite or PostgreSQL behind one interface.
#[derive(Clone, Debug)]
pub enum Store {
    /// A SQLite file.
    Sqlite(SqlitePool),
    /// A PostgreSQL database.
    Postgres(PgPool),
}

/// Runs the same code against whichever pool the store holds (the SQL is portable: `$N`
/// parameters work in both).
macro_rules! with_pool {
    ($store:expr, $p:ident => $body:expr) => {
        match $store {
            Store::Sqlite($p) => $body,
            Store::Postgres($p) => $body,
        }
    };
}

/// The insert of a game's row inside the transaction `$tx`.
macro_rules! game_in {
    ($tx:ident, $row:expr) => {{
        sqlx::query(
            "INSERT INTO games (id, scenario, scenario_digest, rules, seed, mode, created_at,
                    token_first, token_second, token_both, computer, computer_side, branched_from)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&$row.id)
        .bind(&$row.scenario)
        .bind(&$row.scenario_digest)
        .bind(&$row.rules)
        .bind($row.seed.to_string())
        .bind(&$row.mode)
        .bind($row.created_at)
        .bind(&$row.token_first)
        .bind(&$row.token_second)
        .bind(&$row.token_both)
        .bind(&$row.computer)
        .bind($row.computer_side.map(i32::from))
        .bind(&$row.branched_from)
        .execute(&mut *$tx)
        .await?;
        if let Some(salt) = &$row.salt {
            sqlx::query("INSERT INTO seals (game_id, salt) VALUES ($1, $2)")
                .bind(&$row.id)
                .bind(salt)
                .execute(&mut *$tx)
                .await?;
        }
    }};
}

/// The statements of a [`Store::replace_tail`] inside the transaction `$tx`.
macro_rules! tail_in {
    ($tx:ident, $game:expr, $keep:expr, $new:expr, $notes:expr) => {{
        let (game, keep, new, notes): (&str, usize, &[Recorded], &[Note]) =
            ($game, $keep, $new, $notes);
        sqlx::query("DELETE FROM notes WHERE game_id = $1 AND idx >= $2")
            .bind(game)
            .bind(keep as i64)
            .execute(&mut *$tx)
            .await?;
        sqlx::query("DELETE FROM actions WHERE game_id = $1 AND idx >= $2")
            .bind(game)
            .bind(keep as i64)
            .execute(&mut *$tx)
            .await?;
        for (i, a) in new.iter().enumerate() {
            sqlx::query(
                "INSERT INTO actions (game_id, idx, text, manual, hash) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game)
            .bind((keep + i) as i64)
            .bind(&a.text)
            .bind(i32::from(a.manual))
            .bind(&a.hash)
            .execute(&mut *$tx)
            .await?;
        }
        for (idx, text) in notes {
            sqlx::query("INSERT INTO notes (game_id, idx, text) VALUES ($1, $2, $3)")
                .bind(game)
                .bind(*idx as i64)
                .bind(text)
                .execute(&mut *$tx)
                .await?;
        }
    }};
}

const SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        scenario TEXT NOT NULL,
        scenario_digest TEXT NOT NULL,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        mode TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        token_first TEXT,
        token_second TEXT,
        token_both TEXT,
        computer TEXT,
        computer_side INTEGER,
        branched_from TEXT
    )",
    "CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL REFERENCES games (id),
        idx BIGINT NOT NULL,
        text TEXT NOT NULL,
        manual INTEGER NOT NULL,
        hash TEXT,
        PRIMARY KEY (game_id, idx)
    )",
    // the secret salt of a sealed game (a table of its own, so that older databases gain it
    // with CREATE TABLE IF NOT EXISTS)
    "CREATE TABLE IF NOT EXISTS seals (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        salt TEXT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS notes (
        game_id TEXT NOT NULL REFERENCES games (id),
        idx BIGINT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, idx)
    )",
];

/// A computer player's explanation of the action at `idx` (0-based) of a game's record.
pub type Note = (usize, String);

/// One change for [`Committer`]: a new game (`row`), or an append or take-back (the arguments
/// of [`Store::replace_tail`]).
struct Job {
    row: Option<GameRow>,
    game: String,
    keep: usize,
    new: Vec<Recorded>,
    notes: Vec<Note>,
    done: tokio::sync::oneshot::Sender<Result<(), ServerError>>,
}

/// Commits the changes of many games together (group commit): a change waits for the
/// transaction that holds it to be committed, so every accepted action is still durable
/// before its reply, but the games share the cost of a commit (one fsync for SQLite).
#[derive(Clone, Debug)]
pub struct Committer {
    tx: tokio::sync::mpsc::UnboundedSender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Job({} from {})", self.game, self.keep)
    }
}

/// The most changes one group commit holds.
const GROUP_LIMIT: usize = 256;

impl Committer {
    /// Starts the committing task over `store` (needs a Tokio runtime).
    pub fn start(store: Store) -> Committer {
        if let Store::Sqlite(pool) = &store {
            // copy the write-ahead log into the database now and then, off the path of the
            // requests (PASSIVE: never waits for or blocks a writer)
            let pool = pool.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs(1));
                loop {
                    tick.tick().await;
                    if pool.is_closed() {
                        break;
                    }
                    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                        .execute(&pool)
                        .await
                    {
                        tracing::warn!("checkpoint: {e}");
                    }
                }
            });
        }
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Job>();
        tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut jobs = vec![first];
                while jobs.len() < GROUP_LIMIT {
                    match rx.try_recv() {
                        Ok(j) => jobs.push(j),
                        Err(_) => break,
                    }
                }
                if jobs.len() > 1 && store.replace_tails(&jobs).await.is_ok() {
                    for j in jobs {
                        let _ = j.done.send(Ok(()));
                    }
                    continue;
                }
                // one change, or a group that failed: each on its own, so that one bad change
                // fails only its own request
                for j in jobs {
                    let r = match &j.row {
                        Some(row) => store.create_game(row, &j.new, &j.notes).await,
                        None => store.replace_tail(&j.game, j.keep, &j.new, &j.notes).await,
                    };
                    let _ = j.done.send(r);
                }
            }
        });
        Committer { tx }
    }

    /// Does [`Store::replace_tail`] in the next group commit and returns once it is
    /// committed.
    pub async fn replace_tail(
        &self,
        game: &str,
        keep: usize,
        new: &[Recorded],
        notes: &[Note],
    ) -> Result<(), ServerError> {
        self.submit(None, game, keep, new, notes).await
    }

    /// Does [`Store::create_game`] in the next group commit and returns once it is committed.
    pub async fn create_game(
        &self,
        row: &GameRow,
        actions: &[Recorded],
        notes: &[Note],
    ) -> Result<(), ServerError> {
        self.submit(Some(row.clone()), &row.id, 0, actions, notes)
            .await
    }

    async fn submit(
        &self,
        row: Option<GameRow>,
        game: &str,
        keep: usize,
        new: &[Recorded],
        notes: &[Note],
    ) -> Result<(), ServerError> {
        let (done, wait) = tokio::sync::oneshot::channel();
        let job = Job {
            row,
            game: game.to_string(),
            keep,
            new: new.to_vec(),
            notes: notes.to_vec(),
            done,
        };
        self.tx
            .send(job)
            .map_err(|_| ServerError::Data("the committing task has stopped".into()))?;
        wait.await
            .map_err(|_| ServerError::Data("the committing task has stopped".into()))?
    }
}

/// The default database: `sqlite:` a file `games.sqlite` in `$XDG_DATA_HOME/grognard/` (or
/// `~/.local/share/grognard/`, or `%APPDATA%\grognard\`).
pub fn default_database() -> Result<String, ServerError> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })
        .or_else(|| std::env::var_os("APPDATA").map(PathBuf::from))
        .ok_or(ServerError::NoDataDir)?;
    let path = base.join("grognard").join("games.sqlite");
    Ok(format!("sqlite:{}", path.display()))
}

impl Store {
    /// Opens (creating where needed) the database named by `url` — `sqlite:PATH` or
    /// `postgres://...` — and creates its tables if they are missing.
    pub async fn open(url: &str) -> Result<Store, ServerError> {
        let store = if let Some(path) = url.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            let path = path.split('?').next().unwrap_or(path);
            if path.is_empty() || path == ":memory:" {
                return Err(ServerError::DatabaseUrl(url.into()));
            }
            if let Some(dir) = std::path::Path::new(path).parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir).map_err(|source| ServerError::Io {
                        what: format!("cannot create {}", dir.display()),
                        source,
                    })?;
                }
            }
            let opts = SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                // checkpoints run in the background (see `Committer::start`), not inside the
                // commit of whichever request crosses the threshold
                .pragma("wal_autocheckpoint", "0")
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10));
            let pool = SqlitePoolOptions::new()
                .max_connections(4)
                .connect_with(opts)
                .await?;
            Store::Sqlite(pool)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await?;
            Store::Postgres(pool)
        } else {
            return Err(ServerError::DatabaseUrl(url.into()));
        };
        store.migrate().await?;
        Ok(store)
    }

    /// `sqlite` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    async fn migrate(&self) -> Result<(), ServerError> {
        match self {
            Store::Sqlite(p) => {
                for s in SCHEMA {
                    sqlx::query(s).execute(p).await?;
                }
            }
            Store::Postgres(p) => {
                // concurrent CREATE TABLE IF NOT EXISTS can collide in PostgreSQL: serialize
                // the servers starting at once on one database
                let mut tx = p.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock(4771823)")
                    .execute(&mut *tx)
                    .await?;
                for s in SCHEMA {
                    sqlx::query(s).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            }
        }
        Ok(())
    }

    /// Inserts a new game with its first actions (and the computer's notes on them), in one
    /// transaction.
    pub async fn create_game(
        &self,
        row: &GameRow,
        actions: &[Recorded],
        notes: &[Note],
    ) -> Result<(), ServerError> {
        with_pool!(self, p => {
            let mut tx = p.begin().await?;
            game_in!(tx, row);
            tail_in!(tx, &row.id, 0, actions, notes);
            tx.commit().await?;
            Ok(())
        })
    }

    /// Makes the game's actions from position `keep` on (0-based) equal `new` (with the
    /// computer's `notes` on them): deletes every action and note at `keep` or later, then
    /// inserts the new ones, in one transaction. Appending is `keep` = the old length; taking
    /// back is `new` empty.
    pub async fn replace_tail(
        &self,
        game: &str,
        keep: usize,
        new: &[Recorded],
        notes: &[Note],
    ) -> Result<(), ServerError> {
        with_pool!(self, p => {
            let mut tx = p.begin().await?;
            tail_in!(tx, game, keep, new, notes);
            tx.commit().await?;
            Ok(())
        })
    }

    /// Several [`Store::replace_tail`]s in one transaction.
    async fn replace_tails(&self, jobs: &[Job]) -> Result<(), ServerError> {
        with_pool!(self, p => {
            let mut tx = p.begin().await?;
            for j in jobs {
                if let Some(row) = &j.row {
                    game_in!(tx, row);
                }
                tail_in!(tx, &j.game, j.keep, &j.new, &j.notes);
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// A game's row, its actions in order and the computer's notes on them, or `None` when
    /// there is no such game.
    pub async fn load(&self, id: &str) -> Result<Option<Loaded>, ServerError> {
        type Row = (
            String,
            String,
            String,
            String,
            String,
            String,
            i64,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<i32>,
            Option<String>,
        );
        type ActionRow = (i64, String, i32, Option<String>);
        type NoteRow = (i64, String);
        let (row, actions, notes, salt): (
            Option<Row>,
            Vec<ActionRow>,
            Vec<NoteRow>,
            Option<(String,)>,
        ) = with_pool!(self, p => {
            let row: Option<Row> = sqlx::query_as(
                "SELECT id, scenario, scenario_digest, rules, seed, mode, created_at, token_first,
                    token_second, token_both, computer, computer_side, branched_from
                 FROM games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(p)
            .await?;
            let salt: Option<(String,)> = if row.is_some() {
                sqlx::query_as("SELECT salt FROM seals WHERE game_id = $1")
                    .bind(id)
                    .fetch_optional(p)
                    .await?
            } else {
                None
            };
            let actions: Vec<ActionRow> = if row.is_some() {
                sqlx::query_as(
                    "SELECT idx, text, manual, hash FROM actions WHERE game_id = $1 ORDER BY idx",
                )
                .bind(id)
                .fetch_all(p)
                .await?
            } else {
                Vec::new()
            };
            let notes: Vec<NoteRow> = if row.is_some() {
                sqlx::query_as("SELECT idx, text FROM notes WHERE game_id = $1 ORDER BY idx")
                    .bind(id)
                    .fetch_all(p)
                    .await?
            } else {
                Vec::new()
            };
            (row, actions, notes, salt)
        });
        let Some(r) = row else { return Ok(None) };
        let corrupt = |why: String| ServerError::Corrupt {
            id: id.to_string(),
            why,
        };
        let seed =
            r.4.parse::<u64>()
                .map_err(|_| corrupt(format!("the seed '{}' is not a number", r.4)))?;
        let computer_side = match r.11 {
            None => None,
            Some(s @ 0..=1) => Some(s as u8),
            Some(s) => return Err(corrupt(format!("computer side {s}"))),
        };
        let mut recorded = Vec::with_capacity(actions.len());
        for (i, (idx, text, manual, hash)) in actions.into_iter().enumerate() {
            if idx != i as i64 {
                return Err(corrupt(format!(
                    "the actions skip from {} to {idx}",
                    i as i64 - 1
                )));
            }
            recorded.push(Recorded {
                text,
                manual: manual != 0,
                hash,
            });
        }
        let notes = notes
            .into_iter()
            .filter_map(|(i, t)| usize::try_from(i).ok().map(|i| (i, t)))
            .collect();
        Ok(Some((
            GameRow {
                id: r.0,
                scenario: r.1,
                scenario_digest: r.2,
                rules: r.3,
                seed,
                mode: r.5,
                created_at: r.6,
                token_first: r.7,
                token_second: r.8,
                token_both: r.9,
                computer: r.10,
                computer_side,
                branched_from: r.12,
                salt: salt.map(|s| s.0),
            },
            recorded,
            notes,
        )))
    }

    /// How many games the database holds.
    pub async fn count_games(&self) -> Result<i64, ServerError> {
        with_pool!(self, p => {
            let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM games").fetch_one(p).await?;
            Ok(n)
        })
    }

    /// Closes the pool.
    pub async fn close(&self) {
        with_pool!(self, p => p.close().await)
    }
}
