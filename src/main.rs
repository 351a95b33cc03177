//! The `yeoul` binary: command line, logging, then the chosen job.

use clap::{Parser, Subcommand, ValueEnum};
use std::time::Duration;
use yeoul::bench::{PlayoutKind, StartPosition, format_table, measure};
use yeoul::rules::BoardSize;

#[derive(Parser)]
#[command(name = "yeoul", version, about = "A Go engine that speaks GTP")]
struct Cli {
    /// More log output on stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Playout speed on 9x9 and 19x19, one thread and all threads.
    Bench {
        /// Board sizes to measure.
        #[arg(long, value_delimiter = ',', default_values_t = vec![9usize, 19])]
        sizes: Vec<usize>,
        /// Seconds per measurement.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Threads for the parallel rows (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Playout policies to measure.
        #[arg(long, value_delimiter = ',', default_values_t = vec![Policy::Light, Policy::Heavy])]
        policies: Vec<Policy>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Policy {
    Light,
    Heavy,
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Policy::Light => "light",
            Policy::Heavy => "heavy",
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
    match cli.command {
        Some(Command::Bench {
            sizes,
            seconds,
            threads,
            policies,
        }) => bench(&sizes, seconds, threads, &policies),
        None => {
            eprintln!("the GTP engine is not built yet: try `yeoul bench`");
            std::process::exit(2);
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2)
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
