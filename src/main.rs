//! The `yeoul` binary: command line, logging, then the chosen job.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use yeoul::bench::{PlayoutKind, StartPosition, format_table, measure};
use yeoul::engine::{
    Engine, EngineConfig, Level, LevelChanges, NetworkSizes, TimeControl, check_memory,
};
use yeoul::knowledge::Model;
use yeoul::match_runner::{EnginePlayer, GtpPlayer, MatchConfig, Player, run_match};
use yeoul::network::Network;
use yeoul::rules::{BoardSize, Ruleset};
use yeoul::train::positions::{PositionsConfig, export as export_positions};
use yeoul::train::{TrainConfig, evaluate, records, train};

#[derive(Parser)]
#[command(name = "yeoul", version, about = "A Go engine that speaks GTP")]
struct Cli {
    #[command(flatten)]
    engine: EngineOptions,
    /// More log output on stderr (-v info, -vv debug); RUST_LOG works too.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Command>,
}

/// How the engine plays (for the GTP engine, and for yeoul's side of a match).
#[derive(Args, Clone)]
struct EngineOptions {
    // The help is the list of valid values; max is full strength (the policy network,
    // every core, the time the level, --time or the clock gives).
    #[arg(long, default_value = "normal", global = true, value_name = "LEVEL",
          help = format!("Difficulty: {}", Level::valid_values()))]
    level: Level,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// A fixed playout budget per move (overrides the level's time and cap).
    #[arg(long, global = true)]
    playouts: Option<u64>,
    /// Seconds per move (overrides the level's time).
    #[arg(long, global = true)]
    time: Option<f64>,
    /// Random seed.
    #[arg(long, default_value_t = 1, global = true)]
    seed: u64,
    /// With --playouts: the same seed gives the same moves at any thread count.
    #[arg(long, global = true)]
    deterministic: bool,
    /// Rule set: chinese, aga, new_zealand, tromp-taylor, japanese, korean.
    #[arg(long, default_value = "chinese", global = true)]
    rules: Ruleset,
    /// Komi (default: the rule set's).
    #[arg(long, global = true, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// Memory the whole process may hold, in MiB (the search tree gets what the rest leaves)
    #[arg(long, default_value_t = 1024, global = true)]
    max_memory: usize,
    /// Seconds kept back from the clock for the controller's and the network's delay (a
    /// server's lag).
    #[arg(long, default_value_t = 0.2, global = true)]
    lag: f64,
    /// Think on the opponent's time (GTP engine).
    #[arg(long, global = true)]
    ponder: bool,
    /// Never resign: play every game out to two passes (matches that check the count).
    #[arg(long, global = true)]
    no_resign: bool,
    /// A model file from `yeoul train` instead of the built-in one.
    #[arg(long, global = true)]
    model: Option<PathBuf>,
    /// A policy network file (from training/train.py) instead of the built-in one.
    #[arg(long, global = true, conflicts_with = "no_net")]
    net: Option<PathBuf>,
    /// No policy network: every level plays with the learned model's priors alone.
    #[arg(long, global = true)]
    no_net: bool,
    /// The board sizes the network is used on, where it plays them (a network file of
    /// version 2 plays every size; default: 9, 13 and 19, where it is measured to help).
    #[arg(long, global = true, value_delimiter = ',')]
    net_sizes: Vec<usize>,
    /// The network alone: its most probable legal move at once, no search (never filling
    /// an own true eye; a pass when nothing else is left; never resigns). On the sizes
    /// the network is used on; other sizes search as usual.
    #[arg(long, global = true, conflicts_with = "no_net")]
    net_only: bool,
    /// Visits a node needs before the network rates its children (the root at once).
    #[arg(long, default_value_t = yeoul::engine::NETWORK_THRESHOLD, global = true)]
    net_threshold: u32,
    /// The visits a value network's judgement of a node counts for beside its playouts
    /// (0: unused; with a network of version 3, on 19x19: its ownership head's count,
    /// or its value head without handicap at a komi worth 6.5 under territory counting).
    #[arg(
        long,
        default_value_t = yeoul::engine::VALUE_VISITS,
        global = true,
        help_heading = "Experiments"
    )]
    value_visits: u32,
    /// The network rates a node in the search thread that asks for it, instead of a
    /// thread of its own (an experiment).
    #[arg(long, global = true, help_heading = "Experiments")]
    net_inline: bool,
    /// The hand-written priors instead of the learned model (for comparisons).
    #[arg(long, global = true, help_heading = "Experiments")]
    hand_priors: bool,
    /// Playouts draw their 3x3 pattern move by the learned γ (an experiment: off by
    /// default, see BENCHMARKS.md).
    #[arg(long, global = true, help_heading = "Experiments")]
    learned_playouts: bool,
    /// Playouts also atari, save and counter-atari chains left with two liberties next to
    /// the last move (an experiment: off by default, see BENCHMARKS.md).
    #[arg(long, global = true, help_heading = "Experiments")]
    two_liberty_playouts: bool,
    /// AMAF weighs moves played sooner up to N times more (0: all alike; Pachi uses 3; an
    /// experiment).
    #[arg(long, default_value_t = 0, global = true, help_heading = "Experiments")]
    amaf_distance: u32,
    /// Changes a rank's row of the level table, for the matches that calibrate it:
    /// share-of-kyu, reads, notices, playouts, network-priors, impression-within,
    /// impression-share (`--level-set reads=16 --level-set notices=0`; ARCHITECTURE.md
    /// "Levels").
    #[arg(
        long,
        global = true,
        value_name = "KEY=VALUE",
        help_heading = "Calibrating the levels",
        allow_hyphen_values = true
    )]
    level_set: Vec<String>,
}

impl EngineOptions {
    /// The engine's configuration from the options, before the model and the network are
    /// loaded; an option out of range is refused in the library's words
    /// ([`EngineConfig::check`]).
    fn unloaded_config(&self) -> Result<EngineConfig, String> {
        let seconds = |value: f64, error: &str| {
            Duration::try_from_secs_f64(value).map_err(|_| error.to_string())
        };
        if self.net_sizes.iter().any(|n| !(2..=19).contains(n)) {
            return Err("--net-sizes takes board sizes from 2 to 19".into());
        }
        let mut config = EngineConfig {
            knowledge: None,
            network: None,
            network_only: self.net_only,
            network_sizes: if self.net_sizes.is_empty() {
                yeoul::engine::NETWORK_SIZES
            } else {
                NetworkSizes::mask(&self.net_sizes)
            },
            network_threshold: self.net_threshold.max(1),
            value_visits: self.value_visits,
            network_inline: self.net_inline,
            hand_priors: self.hand_priors,
            learned_playouts: self.learned_playouts,
            two_liberty_playouts: self.two_liberty_playouts,
            amaf_distance: self.amaf_distance,
            level_changes: self
                .level_changes()
                .map_err(|e| format!("--level-set: {e}"))?,
            level: self.level,
            playouts: self.playouts,
            seed: self.seed,
            deterministic: self.deterministic,
            max_memory_mb: self.max_memory,
            ponder: self.ponder,
            resign: !self.no_resign,
            lag: seconds(self.lag, "--lag must be 0 to 60 seconds")?,
            ..EngineConfig::default()
        };
        if let Some(t) = self.threads {
            config.threads = t;
        }
        if let Some(t) = self.time {
            config.time = Some(seconds(t, "--time must be a number of seconds above 0")?);
        }
        config.check()?;
        Ok(config)
    }

    /// The engine's configuration with the model and the network loaded (a bad file ends
    /// the run), the memory they leave checked.
    fn config(&self) -> EngineConfig {
        let mut config = self.unloaded_config().unwrap_or_else(|e| fail(&e));
        config.knowledge = Some(load_model(self.model.as_deref()));
        config.network = (!self.no_net).then(|| load_network(self.net.as_deref()));
        // After the model and the network are loaded: with the tree, what the process holds.
        if let Err(e) = check_memory(&config) {
            fail(&e);
        }
        yeoul::engine::prepare_in_background(&config);
        config
    }

    /// The changes `--level-set` makes to the level's row.
    fn level_changes(&self) -> Result<LevelChanges, String> {
        let mut changes = LevelChanges::default();
        for setting in &self.level_set {
            changes.set(setting)?;
        }
        Ok(changes)
    }

    /// Every engine option in range, before any subcommand runs.
    fn check(&self) {
        if let Err(e) = self.unloaded_config() {
            fail(&e);
        }
        if self
            .komi
            .is_some_and(|k| !k.is_finite() || k.abs() > 1000.0)
        {
            fail("--komi must be a number between -1000 and 1000");
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Playout speed on 9x9 and 19x19, one thread and all threads (--threads N).
    Bench {
        /// Board sizes to measure.
        #[arg(long, value_delimiter = ',', default_values_t = vec![9usize, 19])]
        sizes: Vec<usize>,
        /// Seconds per measurement.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Playout policies to measure.
        #[arg(long, value_delimiter = ',', default_values_t = vec![Policy::Light, Policy::Heavy])]
        policies: Vec<Policy>,
    },
    /// Learns move knowledge from SGF games (files, collections or folders) and writes a
    /// model file (see `--model`); prints how well it predicts held-out games.
    Train {
        /// SGF files or folders of them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Where the model goes.
        #[arg(long, short)]
        out: PathBuf,
        /// Games dated on or after this day (YYYY-MM-DD) are held out for validation
        /// ("none": the last twentieth of the games).
        #[arg(long, default_value = "2011-07-01")]
        validation_from: String,
        /// Train on at most this many games (drawn with the seed).
        #[arg(long)]
        games: Option<usize>,
        /// Positions the strengths are fitted on (about 4 KB of memory each).
        #[arg(long, default_value_t = 1_000_000)]
        positions: usize,
        /// Shapes played fewer times than this in the training games are left out.
        #[arg(long, default_value_t = 20)]
        min_shape_count: u32,
        /// Most minorization-maximization cycles.
        #[arg(long, default_value_t = 30)]
        cycles: usize,
        /// Validation positions to measure.
        #[arg(long, default_value_t = 200_000)]
        validation_positions: usize,
    },
    /// Writes training positions for the policy network and its value head (input planes,
    /// the move played and the game's result) from SGF games (files, collections or
    /// folders) and the Tygem games: one file for training, one for the held-out games
    /// (`training/` reads them).
    Positions {
        /// SGF files or folders of them.
        #[arg(required_unless_present = "tygem")]
        inputs: Vec<PathBuf>,
        /// A folder of the Tygem games, unzipped (`scripts/tygem.sh`): month files
        /// `YYYY-MM` and index files `*.index`, joined by id (repeatable).
        #[arg(long)]
        tygem: Vec<PathBuf>,
        /// Positions a game, one from each of as many equal stretches of it (value
        /// positions: few a game, far apart); 0: every stone at one rate, up to
        /// --positions.
        #[arg(long, default_value_t = 0)]
        per_game: usize,
        /// Where the training positions go.
        #[arg(long, short)]
        out: PathBuf,
        /// Where the validation positions go.
        #[arg(long)]
        validation_out: PathBuf,
        /// Games dated on or after this day (YYYY-MM-DD) are held out for validation
        /// ("none": the last twentieth of the games).
        #[arg(long, default_value = "2011-07-01")]
        validation_from: String,
        /// Training positions to draw (about 1 KB each).
        #[arg(long, default_value_t = 1_000_000)]
        positions: usize,
        /// Validation positions to draw.
        #[arg(long, default_value_t = 100_000)]
        validation_positions: usize,
        /// Judge each counted game's final board with the arbiter (territory, komi 6.5:
        /// Tygem's count) and write who owns each point (about 60 ms a game on two cores).
        #[arg(long)]
        ownership: bool,
    },
    /// Measures how often a model (the built-in one, or --model) predicts the moves of
    /// SGF games.
    Predict {
        /// SGF files or folders of them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Only games dated on or after this day (YYYY-MM-DD).
        #[arg(long)]
        from: Option<String>,
        /// Positions to measure (drawn with the seed).
        #[arg(long, default_value_t = 200_000)]
        positions: usize,
    },
    /// Plays yeoul (with the engine options) against another engine and prints a summary.
    Match {
        /// The opponent: a GTP engine's command line, e.g. "gnugo --mode gtp --level 10".
        #[arg(long, conflicts_with = "opponent_level")]
        opponent: Option<String>,
        /// Or yeoul itself at another level.
        #[arg(long)]
        opponent_level: Option<Level>,
        /// Board size.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Number of games.
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Keep yeoul on Black in every game (colours alternate by default).
        #[arg(long)]
        no_alternate: bool,
        /// yeoul gives the opponent this many stones: the opponent is Black in every game,
        /// with GTP's fixed handicap (placed by `fixed_handicap`) from 2 stones on, and the
        /// komi is 0.5 unless --komi says otherwise.
        #[arg(long, default_value_t = 0)]
        handicap: u32,
        /// A GTP engine that scores finished games, e.g. "gnugo --mode gtp --chinese-rules".
        #[arg(long)]
        referee: Option<String>,
        /// Folder for an SGF file of every game.
        #[arg(long)]
        sgf_dir: Option<PathBuf>,
        /// Seconds an external engine may take for one move.
        #[arg(long, default_value_t = 60.0)]
        move_timeout: f64,
        /// A game clock for both players, in seconds: none, absolute:MAIN,
        /// byoyomi:MAIN:PERIOD:PERIODS or canadian:MAIN:PERIOD:STONES. A move slower than
        /// the clock allows loses the game on time.
        #[arg(long, default_value = "none", value_parser = <TimeControl as std::str::FromStr>::from_str)]
        clock: TimeControl,
        /// Seconds added to every move's time on the clock, as a server's round trip adds
        /// them (to check --lag)
        #[arg(long, default_value_t = 0.0)]
        network_delay: f64,
        /// Stop a game after this many moves and count it as it stands (by the referee:
        /// an opponent that never resigns plays a lost game on to its last stone).
        /// Default: the rules' limit, three moves a point.
        #[arg(long)]
        max_moves: Option<usize>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Policy {
    Light,
    Heavy,
    Learned,
    TwoLiberties,
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Policy::Light => "light",
            Policy::Heavy => "heavy",
            Policy::Learned => "learned",
            Policy::TwoLiberties => "two-liberties",
        })
    }
}

fn main() {
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level)).init();
    cli.engine.check();
    match cli.command {
        Some(Command::Bench {
            sizes,
            seconds,
            policies,
        }) => bench(&sizes, seconds, cli.engine.threads, &policies),
        Some(Command::Train {
            inputs,
            out,
            validation_from,
            games,
            positions,
            min_shape_count,
            cycles,
            validation_positions,
        }) => {
            let validation_from =
                (validation_from != "none").then(|| date_argument(&validation_from));
            let config = TrainConfig {
                inputs,
                validation_from,
                max_games: games,
                max_positions: positions,
                min_shape_count: min_shape_count.max(1),
                cycles,
                max_validation_positions: validation_positions,
                seed: cli.engine.seed,
            };
            with_threads(cli.engine.threads, || train_model(&config, &out));
        }
        Some(Command::Positions {
            inputs,
            tygem,
            per_game,
            out,
            validation_out,
            validation_from,
            positions,
            validation_positions,
            ownership,
        }) => {
            let config = PositionsConfig {
                inputs,
                tygem,
                per_game: (per_game > 0).then_some(per_game),
                validation_from: (validation_from != "none")
                    .then(|| date_argument(&validation_from)),
                max_positions: positions,
                max_validation_positions: validation_positions,
                seed: cli.engine.seed,
                ownership,
            };
            match with_threads(cli.engine.threads, || {
                export_positions(&config, &out, &validation_out)
            }) {
                Ok(report) => print!("{report}"),
                Err(e) => fail(&e.to_string()),
            }
        }
        Some(Command::Predict {
            inputs,
            from,
            positions,
        }) => {
            let model = load_model(cli.engine.model.as_deref());
            with_threads(cli.engine.threads, || {
                let from = from.as_deref().map(date_argument);
                predict(&model, &inputs, from.as_deref(), positions, cli.engine.seed)
            });
        }
        Some(Command::Match {
            opponent,
            opponent_level,
            size,
            games,
            no_alternate,
            handicap,
            referee,
            sgf_dir,
            move_timeout,
            clock,
            network_delay,
            max_moves,
        }) => {
            let Ok(size) = BoardSize::new(size) else {
                fail("--size must be 2 to 19")
            };
            let seconds = |value: f64, option: &str| {
                Duration::try_from_secs_f64(value)
                    .unwrap_or_else(|_| fail(&format!("{option} must be a number of seconds")))
            };
            let config = MatchConfig {
                size,
                komi: (cli.engine.komi)
                    .unwrap_or_else(|| MatchConfig::default_komi(cli.engine.rules, handicap)),
                ruleset: cli.engine.rules,
                games,
                alternate: !no_alternate,
                sgf_dir,
                move_timeout: seconds(move_timeout, "--move-timeout"),
                clock,
                network_delay: seconds(network_delay, "--network-delay"),
                handicap,
                max_moves,
            };
            if let Err(e) = config.check() {
                fail(&e);
            }
            play_match(&cli.engine, opponent, opponent_level, referee, &config);
        }
        None => {
            let mut engine =
                Engine::new(BoardSize::NINETEEN, cli.engine.rules, cli.engine.config());
            if let Some(komi) = cli.engine.komi {
                engine.game_mut().set_komi(komi);
            }
            let stdout = std::io::stdout();
            yeoul::gtp::run(
                engine,
                std::io::BufReader::new(std::io::stdin()),
                stdout.lock(),
            );
        }
    }
}

/// The model a run uses: `--model PATH`, else the built-in one; a bad file ends the run.
fn load_model(path: Option<&Path>) -> Arc<Model> {
    load_or_fail("model", path, Model::load, Model::builtin)
}

/// The network a run uses: `--net PATH`, else the built-in one; a bad file ends the run.
fn load_network(path: Option<&Path>) -> Arc<Network> {
    load_or_fail("network", path, Network::load, Network::builtin)
}

/// A file given on the command line, else the built-in one; a bad file ends the run with
/// its reason.
fn load_or_fail<T, E: std::fmt::Display>(
    what: &str,
    path: Option<&Path>,
    load: impl Fn(&Path) -> Result<T, E>,
    builtin: impl Fn() -> Result<Arc<T>, E>,
) -> Arc<T> {
    let loaded = match path {
        Some(p) => load(p).map(Arc::new),
        None => builtin(),
    };
    loaded.unwrap_or_else(|e| match path {
        Some(p) => fail(&format!("{}: {e}", p.display())),
        None => fail(&format!("the built-in {what}: {e}")),
    })
}

/// Runs `job` on a rayon pool of `threads` (default: all cores).
fn with_threads<T: Send>(threads: Option<usize>, job: impl FnOnce() -> T + Send) -> T {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t);
    }
    match builder.build() {
        Ok(pool) => pool.install(job),
        Err(e) => fail(&format!("cannot start threads: {e}")),
    }
}

/// A date given on the command line, as the records' dates are compared (`YYYY-MM-DD`).
fn date_argument(text: &str) -> String {
    records::normalise_date(text)
        .unwrap_or_else(|| fail(&format!("{text}: not a date (YYYY-MM-DD)")))
}

fn train_model(config: &TrainConfig, out: &Path) {
    // Opened first: a path that cannot be written fails now, not after the training.
    let mut file = std::fs::File::create(out)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", out.display())));
    match train(config) {
        Ok((model, report)) => {
            let bytes = model.to_bytes();
            if let Err(e) = file.write_all(&bytes) {
                fail(&format!("cannot write {}: {e}", out.display()));
            }
            print!("{report}");
            println!("model: {} ({} bytes)", out.display(), bytes.len());
        }
        Err(e) => fail(&e.to_string()),
    }
}

fn predict(model: &Model, inputs: &[PathBuf], from: Option<&str>, positions: usize, seed: u64) {
    let files = records::sgf_files(inputs);
    let (games, report) = records::read_records(&files, |_| {});
    let games: Vec<_> = games
        .into_iter()
        .filter(|g| from.is_none_or(|f| g.date.as_deref().is_some_and(|d| d >= f)))
        .collect();
    eprintln!("{report}; {} games measured", games.len());
    if games.is_empty() {
        fail("no games to measure");
    }
    print!("{}", evaluate(model, &games, positions, seed));
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2)
}

fn play_match(
    engine: &EngineOptions,
    opponent: Option<String>,
    opponent_level: Option<Level>,
    referee: Option<String>,
    config: &MatchConfig,
) {
    if let Some(dir) = &config.sgf_dir
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        fail(&format!("cannot create {}: {e}", dir.display()));
    }
    let mut ours = EnginePlayer::new(engine.config());
    let mut other: Box<dyn Player> = match (opponent, opponent_level) {
        (Some(command), _) => match GtpPlayer::start(&command, config.move_timeout) {
            Ok(p) => Box::new(p),
            Err(e) => fail(&format!("cannot start the opponent: {e}")),
        },
        (None, Some(level)) => {
            let mut c = engine.config();
            c.level = level;
            c.seed = c.seed.wrapping_add(1);
            Box::new(EnginePlayer::new(c))
        }
        (None, None) => fail("give --opponent CMD or --opponent-level LEVEL"),
    };
    let mut referee =
        referee.map(
            |command| match GtpPlayer::start(&command, Duration::from_secs(120)) {
                Ok(p) => p,
                Err(e) => fail(&format!("cannot start the referee: {e}")),
            },
        );
    let summary = run_match(
        config,
        &mut ours,
        other.as_mut(),
        referee.as_mut().map(|r| r as &mut dyn Player),
        &mut |record| eprintln!("{record}"),
    );
    print!("{summary}");
}

fn bench(sizes: &[usize], seconds: f64, threads: Option<usize>, policies: &[Policy]) {
    let all =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(seconds.is_finite() && seconds > 0.0 && seconds < 3600.0) {
        fail("--seconds must be more than 0 and less than 3600");
    }
    if all == 0 || all > 1024 {
        fail("--threads must be 1 to 1024");
    }
    let mut rows = Vec::new();
    for policy in policies {
        let kind = match policy {
            Policy::Light => PlayoutKind::Light,
            Policy::Heavy => PlayoutKind::Heavy,
            Policy::Learned => PlayoutKind::Learned,
            Policy::TwoLiberties => PlayoutKind::TwoLiberties,
        };
        for &n in sizes {
            let Ok(size) = BoardSize::new(n) else {
                fail(&format!("board size {n} is outside 2..=19"));
            };
            for start in [StartPosition::Empty, StartPosition::MidGame] {
                let mut counts = vec![1];
                if all > 1 {
                    counts.push(all);
                }
                for t in counts {
                    let row = measure(kind, size, start, t, Duration::from_secs_f64(seconds));
                    log::info!("{row:?}");
                    rows.push(row);
                }
            }
        }
    }
    print!("{}", format_table(&rows));
}
