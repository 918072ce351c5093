//! Persistence: games and their actions in SQLite (the default, a file in the user's data
//! directory) or PostgreSQL, through the same portable SQL.
//!
//! Tables: `games` (one row a game: scenario, seed, mode, seat token hashes, computer),
//! `actions` (one row an action: `(game_id, idx)` is the key), `notes` (the computer's
//! explanations), `seals` (a sealed game's salt) and `heads` (one row a game: the number of
//! its actions and its *version*). A game is rebuilt by replaying its actions. Every change is
//! one transaction, committed before the request is answered.
//!
//! **Several servers on one database.** Every change to a game's actions names the version it
//! stands on and bumps it in the same transaction (`UPDATE heads ... WHERE version = $v`): a
//! change made from an older version (another server changed the game first) writes nothing
//! and fails with [`WriteError::Conflict`]. On PostgreSQL each change also notifies
//! `grognard` (`'<game id> <version>'`, delivered at commit) and [`Store::news`] hears every
//! server's changes, so that each server can bring its copy of a game up to date.

use crate::error::ServerError;
use engine::Recorded;
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
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

/// What [`Store::stored`] finds of a game.
#[derive(Clone, Debug)]
pub struct Stored {
    /// Its row.
    pub row: GameRow,
    /// Its actions, in order.
    pub actions: Vec<Recorded>,
    /// The computer's explanations of its actions.
    pub notes: Vec<Note>,
    /// The version these actions are (see [`Version`]).
    pub version: Version,
}

/// A game's version in the store: bumped by every change to its actions (an append or a
/// take-back), so that a change made from an older version is refused. A new game, and a game
/// of a database older than versions, starts at 0.
pub type Version = u64;

/// Why a change to a game was not committed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The game is no longer at the version the change stands on: another server (or process)
    /// on the same database changed it first. Nothing was written.
    #[error("game {0}: another server changed this game first")]
    Conflict(String),
    /// The database failed (nothing was written, or the outcome is unknown: reload).
    #[error(transparent)]
    Store(#[from] ServerError),
}

impl From<sqlx::Error> for WriteError {
    fn from(e: sqlx::Error) -> WriteError {
        WriteError::Store(ServerError::Database(e))
    }
}

/// What [`Store::news`] hears on PostgreSQL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// A server committed version `.1` of game `.0` (this server's own commits included).
    Changed(String, Version),
    /// The listener (re)connected: notifications may have been missed, so every game held in
    /// memory should be compared with the store.
    Missed,
}

/// The PostgreSQL notification channel of committed changes.
pub const CHANNEL: &str = "grognard";

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
        if new.is_empty() {
            // a take-back (an append has nothing after `keep`: the version check saw to it)
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
        } else {
            // one statement for the change's actions, however many the dice and the
            // computer added
            let mut q =
                sqlx::QueryBuilder::new("INSERT INTO actions (game_id, idx, text, manual, hash) ");
            q.push_values(new.iter().enumerate(), |mut b, (i, a)| {
                b.push_bind(game)
                    .push_bind((keep + i) as i64)
                    .push_bind(a.text.as_str())
                    .push_bind(i32::from(a.manual))
                    .push_bind(a.hash.as_deref());
            });
            q.build().execute(&mut *$tx).await?;
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
    // one row a game: how many actions it has and its version, bumped by every change (a
    // table of its own, so that older databases gain it; a game without a row gets one when
    // it is loaded)
    "CREATE TABLE IF NOT EXISTS heads (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        length BIGINT NOT NULL,
        version BIGINT NOT NULL
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

/// One change to the store: a new game (`row`, with its first actions), or an append or a
/// take-back of a game at `version`: its actions from position `keep` on (0-based) become
/// `new` (with the computer's `notes` on them).
#[derive(Clone, Debug)]
pub struct Change {
    /// The new game's row; `None` for a change to a game already stored.
    pub row: Option<GameRow>,
    /// The game.
    pub game: String,
    /// The version the change stands on (ignored for a new game).
    pub version: Version,
    /// How many actions stay: appending is `keep` = the old length, taking back is `new` empty.
    pub keep: usize,
    /// The actions after them.
    pub new: Vec<Recorded>,
    /// The computer's explanations of actions in `new`, by record position.
    pub notes: Vec<Note>,
}

impl Change {
    /// A new game with its first actions.
    pub fn new_game(row: &GameRow, actions: &[Recorded], notes: &[Note]) -> Change {
        Change {
            row: Some(row.clone()),
            game: row.id.clone(),
            version: 0,
            keep: 0,
            new: actions.to_vec(),
            notes: notes.to_vec(),
        }
    }

    /// The actions of a stored game at `version` from `keep` on made `new`.
    pub fn tail(
        game: &str,
        version: Version,
        keep: usize,
        new: &[Recorded],
        notes: &[Note],
    ) -> Change {
        Change {
            row: None,
            game: game.to_string(),
            version,
            keep,
            new: new.to_vec(),
            notes: notes.to_vec(),
        }
    }
}

/// The statements of one [`Change`] inside the transaction `$tx` (`$pg`: on PostgreSQL, which
/// is notified): `Some(new version)`, or `None` when the game is not at the change's version
/// (nothing is written). A failing statement returns its error from the enclosing function.
macro_rules! change_in {
    ($tx:ident, $change:expr, $pg:expr) => {{
        let c: &Change = $change;
        let length = (c.keep + c.new.len()) as i64;
        let version = match &c.row {
            Some(row) => {
                game_in!($tx, row);
                sqlx::query("INSERT INTO heads (game_id, length, version) VALUES ($1, $2, 0)")
                    .bind(&c.game)
                    .bind(length)
                    .execute(&mut *$tx)
                    .await?;
                Some(0)
            }
            None => {
                // the version check: zero rows when someone else wrote first (in PostgreSQL
                // a concurrent writer of the row waits for this one and then finds no row)
                // an append must also stand on the stored length (it deletes nothing)
                let done = sqlx::query(
                    "UPDATE heads SET length = $2, version = version + 1
                     WHERE game_id = $1 AND version = $3 AND ($4 < 0 OR length = $4)",
                )
                .bind(&c.game)
                .bind(length)
                .bind(c.version as i64)
                .bind(if c.new.is_empty() { -1 } else { c.keep as i64 })
                .execute(&mut *$tx)
                .await?;
                (done.rows_affected() == 1).then_some(c.version + 1)
            }
        };
        if let Some(v) = version {
            tail_in!($tx, &c.game, c.keep, &c.new, &c.notes);
            if $pg {
                // delivered to every listener when (and only if) the transaction commits
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(CHANNEL)
                    .bind(format!("{} {v}", c.game))
                    .execute(&mut *$tx)
                    .await?;
            }
        }
        version
    }};
}

/// One change for [`Committer`] and the request waiting for it.
struct Job {
    change: Change,
    done: tokio::sync::oneshot::Sender<Result<Version, WriteError>>,
}

/// Commits the changes of many games together (group commit): a change waits for the
/// transaction that holds it to be committed, so every accepted action is still durable
/// before its reply, but the games share the cost of a commit (one fsync for SQLite). A
/// change that conflicts (another server changed its game first) fails alone: the others of
/// its group are committed.
#[derive(Clone, Debug)]
pub struct Committer {
    tx: tokio::sync::mpsc::UnboundedSender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Job({} at version {} from {})",
            self.change.game, self.change.version, self.change.keep
        )
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
                if jobs.len() > 1 {
                    let changes: Vec<Change> = jobs.iter().map(|j| j.change.clone()).collect();
                    if let Ok(outcomes) = store.commit(&changes).await {
                        for (j, r) in jobs.into_iter().zip(outcomes) {
                            let _ = j.done.send(r);
                        }
                        continue;
                    }
                }
                // one change, or a group whose transaction failed: each on its own, so that
                // one bad change fails only its own request
                for j in jobs {
                    let r = match store.commit(std::slice::from_ref(&j.change)).await {
                        Ok(mut outcomes) => outcomes.pop().unwrap_or_else(|| {
                            Err(ServerError::Data("the change was not committed".into()).into())
                        }),
                        Err(e) => Err(e.into()),
                    };
                    let _ = j.done.send(r);
                }
            }
        });
        Committer { tx }
    }

    /// Does [`Store::replace_tail`] in the next group commit and returns once it is
    /// committed: the game's new version.
    pub async fn replace_tail(
        &self,
        game: &str,
        version: Version,
        keep: usize,
        new: &[Recorded],
        notes: &[Note],
    ) -> Result<Version, WriteError> {
        self.submit(Change::tail(game, version, keep, new, notes))
            .await
    }

    /// Does [`Store::create_game`] in the next group commit and returns once it is committed:
    /// the new game's version.
    pub async fn create_game(
        &self,
        row: &GameRow,
        actions: &[Recorded],
        notes: &[Note],
    ) -> Result<Version, WriteError> {
        self.submit(Change::new_game(row, actions, notes)).await
    }

    /// Queues a change for the next group commit and waits for its outcome.
    pub async fn submit(&self, change: Change) -> Result<Version, WriteError> {
        let stopped =
            || WriteError::Store(ServerError::Data("the committing task has stopped".into()));
        let (done, wait) = tokio::sync::oneshot::channel();
        self.tx.send(Job { change, done }).map_err(|_| stopped())?;
        wait.await.map_err(|_| stopped())?
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

/// What one read of a game found.
enum Read {
    /// No such game.
    Absent,
    /// A game without a version (stored before the database had versions).
    Unversioned,
    /// The game, and the number of actions its version counts.
    Game(Box<Stored>, i64),
}

/// Creates the file at `path` readable and writable by its owner only (0600) when it does not
/// exist (Unix; elsewhere SQLite creates it): true when it was created here.
fn create_private(path: &std::path::Path) -> Result<bool, ServerError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(source) => Err(ServerError::Io {
                what: format!("cannot create {}", path.display()),
                source,
            }),
        }
    }
    #[cfg(not(unix))]
    {
        Ok(!path.exists())
    }
}

/// Makes an existing file readable and writable by its owner only (Unix; nothing elsewhere).
fn private(path: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if path.exists() {
            if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
                tracing::warn!("cannot make {} private: {e}", path.display());
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
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
            let created = create_private(std::path::Path::new(path))?;
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
            if created {
                // SQLite makes its write-ahead log and shared memory with the database file's
                // permissions; make sure of it
                for suffix in ["-wal", "-shm"] {
                    private(std::path::Path::new(&format!("{path}{suffix}")));
                }
            }
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
    /// transaction: its version (0).
    pub async fn create_game(
        &self,
        row: &GameRow,
        actions: &[Recorded],
        notes: &[Note],
    ) -> Result<Version, WriteError> {
        self.commit_one(Change::new_game(row, actions, notes)).await
    }

    /// Makes the actions of the game at `version` from position `keep` on (0-based) equal
    /// `new` (with the computer's `notes` on them): deletes every action and note at `keep` or
    /// later, then inserts the new ones, and bumps the version, in one transaction; the new
    /// version. Appending is `keep` = the old length; taking back is `new` empty (a change
    /// does one or the other: an append whose `keep` is not the stored length is refused as
    /// a conflict, so that it never deletes). When the game is no longer at `version`
    /// nothing is written: [`WriteError::Conflict`].
    pub async fn replace_tail(
        &self,
        game: &str,
        version: Version,
        keep: usize,
        new: &[Recorded],
        notes: &[Note],
    ) -> Result<Version, WriteError> {
        self.commit_one(Change::tail(game, version, keep, new, notes))
            .await
    }

    async fn commit_one(&self, change: Change) -> Result<Version, WriteError> {
        let mut outcomes = self.commit(std::slice::from_ref(&change)).await?;
        outcomes
            .pop()
            .unwrap_or_else(|| Err(ServerError::Data("the change was not committed".into()).into()))
    }

    /// Several changes (of different games) in one transaction: each change's outcome, in
    /// order (its game's new version, or [`WriteError::Conflict`] for a change whose game is
    /// no longer at its version: that change alone is left out). `Err` when the transaction
    /// fails: then nothing was written.
    pub async fn commit(
        &self,
        changes: &[Change],
    ) -> Result<Vec<Result<Version, WriteError>>, ServerError> {
        // the games' rows are locked in one order (by id), so that two servers' groups never
        // wait for each other in a circle
        let mut order: Vec<usize> = (0..changes.len()).collect();
        order.sort_by(|a, b| changes[*a].game.cmp(&changes[*b].game));
        let pg = matches!(self, Store::Postgres(_));
        let versions: Vec<Option<Version>> = with_pool!(self, p => {
            let mut tx = p.begin().await?;
            let mut versions = vec![None; changes.len()];
            for i in order {
                versions[i] = change_in!(tx, &changes[i], pg);
            }
            tx.commit().await?;
            versions
        });
        Ok(changes
            .iter()
            .zip(versions)
            .map(|(c, v)| v.ok_or_else(|| WriteError::Conflict(c.game.clone())))
            .collect())
    }

    /// The version of a game as stored now (`None`: no such game, or one never loaded since
    /// the database gained versions).
    pub async fn version(&self, id: &str) -> Result<Option<Version>, ServerError> {
        with_pool!(self, p => {
            let v: Option<(i64,)> = sqlx::query_as("SELECT version FROM heads WHERE game_id = $1")
                .bind(id)
                .fetch_optional(p)
                .await?;
            Ok(v.map(|(v,)| v as Version))
        })
    }

    /// A game's row, its actions in order and the computer's notes on them, or `None` when
    /// there is no such game ([`Store::stored`] without the version).
    pub async fn load(&self, id: &str) -> Result<Option<Loaded>, ServerError> {
        Ok(self.stored(id).await?.map(|s| (s.row, s.actions, s.notes)))
    }

    /// A game's row, its actions in order, the computer's notes on them and its version, read
    /// together (one snapshot of the database), or `None` when there is no such game. A game
    /// stored before the database had versions is given one (0); a game whose actions do not
    /// number what its version says (changed by a server that knows no versions) is given a
    /// new version for the actions it has.
    pub async fn stored(&self, id: &str) -> Result<Option<Stored>, ServerError> {
        for _ in 0..4 {
            match self.read(id).await? {
                Read::Absent => return Ok(None),
                Read::Unversioned => {
                    // two servers may do this at once: the first one's row stands
                    with_pool!(self, p => {
                        sqlx::query(
                            "INSERT INTO heads (game_id, length, version)
                             SELECT $1, COUNT(*), 0 FROM actions WHERE game_id = $1
                             ON CONFLICT (game_id) DO NOTHING",
                        )
                        .bind(id)
                        .execute(p)
                        .await?;
                    });
                }
                Read::Game(stored, length) if length == stored.actions.len() as i64 => {
                    return Ok(Some(*stored))
                }
                Read::Game(stored, length) => {
                    tracing::warn!(
                        "game {id}: {} actions stored but {length} counted at version {}: \
                         a new version for the actions as they are",
                        stored.actions.len(),
                        stored.version
                    );
                    with_pool!(self, p => {
                        sqlx::query(
                            "UPDATE heads SET length = $2, version = version + 1
                             WHERE game_id = $1 AND version = $3",
                        )
                        .bind(id)
                        .bind(stored.actions.len() as i64)
                        .bind(stored.version as i64)
                        .execute(p)
                        .await?;
                    });
                }
            }
        }
        Err(ServerError::Corrupt {
            id: id.to_string(),
            why: "its actions kept changing while it was read".into(),
        })
    }

    /// One consistent read of a game (see [`Store::stored`]).
    async fn read(&self, id: &str) -> Result<Read, ServerError> {
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
        let pg = matches!(self, Store::Postgres(_));
        #[allow(clippy::type_complexity)]
        let (row, head, actions, notes, salt): (
            Option<Row>,
            Option<(i64, i64)>,
            Vec<ActionRow>,
            Vec<NoteRow>,
            Option<(String,)>,
        ) = with_pool!(self, p => {
            // one snapshot: SQLite's read transaction is one; PostgreSQL's is with REPEATABLE
            // READ (its default, READ COMMITTED, reads each statement afresh)
            let mut tx = p.begin().await?;
            if pg {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    .execute(&mut *tx)
                    .await?;
            }
            let row: Option<Row> = sqlx::query_as(
                "SELECT id, scenario, scenario_digest, rules, seed, mode, created_at, token_first,
                    token_second, token_both, computer, computer_side, branched_from
                 FROM games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let head: Option<(i64, i64)> = if row.is_some() {
                sqlx::query_as("SELECT length, version FROM heads WHERE game_id = $1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
            } else {
                None
            };
            let salt: Option<(String,)> = if row.is_some() {
                sqlx::query_as("SELECT salt FROM seals WHERE game_id = $1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
            } else {
                None
            };
            let actions: Vec<ActionRow> = if row.is_some() {
                sqlx::query_as(
                    "SELECT idx, text, manual, hash FROM actions WHERE game_id = $1 ORDER BY idx",
                )
                .bind(id)
                .fetch_all(&mut *tx)
                .await?
            } else {
                Vec::new()
            };
            let notes: Vec<NoteRow> = if row.is_some() {
                sqlx::query_as("SELECT idx, text FROM notes WHERE game_id = $1 ORDER BY idx")
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?
            } else {
                Vec::new()
            };
            tx.commit().await?;
            (row, head, actions, notes, salt)
        });
        let Some(r) = row else {
            return Ok(Read::Absent);
        };
        let Some((length, version)) = head else {
            return Ok(Read::Unversioned);
        };
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
                note: None,
            });
        }
        let notes = notes
            .into_iter()
            .filter_map(|(i, t)| usize::try_from(i).ok().map(|i| (i, t)))
            .collect();
        let stored = Stored {
            row: GameRow {
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
            actions: recorded,
            notes,
            version: version.max(0) as Version,
        };
        Ok(Read::Game(Box::new(stored), length))
    }

    /// On PostgreSQL, the changes every server commits, as they are heard ([`News`]): a task
    /// listens to [`CHANNEL`] on a connection of its own, sends [`News::Missed`] once it
    /// listens and again after every reconnection (notifications sent meanwhile are lost),
    /// reconnects after an error, and stops when the receiver is dropped or the store is
    /// closed. `None` on SQLite, which has no notifications (needs a Tokio runtime).
    pub fn news(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<News>> {
        let Store::Postgres(pool) = self else {
            return None;
        };
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(listen(pool.clone(), tx));
        Some(rx)
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

/// A notification's payload, `'<game id> <version>'`, as news.
fn news_of(payload: &str) -> Option<News> {
    let (id, v) = payload.split_once(' ')?;
    Some(News::Changed(id.to_string(), v.parse().ok()?))
}

/// The listening task of [`Store::news`].
async fn listen(pool: PgPool, tx: tokio::sync::mpsc::UnboundedSender<News>) {
    let mut pause = Duration::from_millis(250);
    loop {
        if pool.is_closed() || tx.is_closed() {
            return;
        }
        // a connection of its own, outside the pool: closing the pool never waits for it
        let opts = (*pool.connect_options()).clone();
        let connected = async {
            let own = PgPoolOptions::new()
                .max_connections(1)
                .max_lifetime(None)
                .idle_timeout(None)
                .connect_with(opts)
                .await?;
            let mut listener = PgListener::connect_with(&own).await?;
            listener.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        let mut listener = tokio::select! {
            l = connected => match l {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!("listening for other servers' changes: {e}; trying again");
                    tokio::select! {
                        _ = tokio::time::sleep(pause) => {}
                        _ = tx.closed() => return,
                        _ = pool.close_event() => return,
                    }
                    pause = (pause * 2).min(Duration::from_secs(30));
                    continue;
                }
            },
            _ = tx.closed() => return,
            _ = pool.close_event() => return,
        };
        pause = Duration::from_millis(250);
        if tx.send(News::Missed).is_err() {
            return;
        }
        loop {
            let next = tokio::select! {
                n = listener.try_recv() => n,
                _ = tx.closed() => return,
                _ = pool.close_event() => return,
            };
            match next {
                Ok(Some(n)) => match news_of(n.payload()) {
                    Some(news) => {
                        if tx.send(news).is_err() {
                            return;
                        }
                    }
                    None => tracing::warn!("a notification not understood: '{}'", n.payload()),
                },
                // the connection was lost (and made again): what was sent meanwhile is lost
                Ok(None) => {
                    tracing::warn!("listening for other servers' changes: reconnected");
                    if tx.send(News::Missed).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    tracing::warn!("listening for other servers' changes: {e}; reconnecting");
                    break;
                }
            }
        }
    }
}
