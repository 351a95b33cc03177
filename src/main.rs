//! The `yeoul` binary: command line, logging, then the chosen job.

use clap::{Parser, Subcommand};
use std::time::Duration;
use yeoul::bench::{StartPosition, format_table, measure};
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
    /// Light-playout speed on 9x9 and 19x19, one thread and all threads.
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
    },
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
        }) => {
            let all = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            if !(seconds.is_finite() && seconds > 0.0 && seconds < 3600.0) || all == 0 {
                eprintln!("error: --seconds must be in (0, 3600) and --threads at least 1");
                std::process::exit(2);
            }
            let mut rows = Vec::new();
            for n in sizes {
                let Ok(size) = BoardSize::new(n) else {
                    eprintln!("error: board size {n} is outside 2..=19");
                    std::process::exit(2);
                };
                for start in [StartPosition::Empty, StartPosition::MidGame] {
                    let mut counts = vec![1];
                    if all > 1 {
                        counts.push(all);
                    }
                    for t in counts {
                        let row = measure(size, start, t, Duration::from_secs_f64(seconds));
                        log::info!("{row:?}");
                        rows.push(row);
                    }
                }
            }
            print!("{}", format_table(&rows));
        }
        None => {
            eprintln!("the GTP engine is not built yet: try `yeoul bench`");
            std::process::exit(2);
        }
    }
}
