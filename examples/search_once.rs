//! Runs one search on an empty board and prints what it found (a development aid).
//! Arguments: size, playouts, threads, then `learned` (the built-in model's priors, the
//! default) or `hand` (the hand-written priors).
use std::sync::atomic::AtomicBool;
use yeoul::rules::{BoardSize, Color, Game, Ruleset};
use yeoul::search::policy::PlayoutPolicy;
use yeoul::search::{Search, SearchParams};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(9);
    let playouts: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let threads: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let size = BoardSize::new(n).expect("size");
    let game = Game::new(size, Ruleset::Chinese);
    let knowledge = match args.get(4).map(String::as_str) {
        Some("hand") => None,
        _ => Some(yeoul::knowledge::Model::builtin().expect("the built-in model")),
    };
    let mut search = Search::new(PlayoutPolicy::heavy()).with_knowledge(knowledge);
    let mut params = SearchParams::for_size(size, playouts);
    params.threads = threads;
    params.early_stop = false;
    let r = search
        .run(&game, Color::Black, &params, &AtomicBool::new(false))
        .expect("search threads");
    eprintln!(
        "best {:?} winrate {:.3} playouts {} in {:?} = {:.0}/s, nodes {}, score {:.1}",
        r.best.clone(),
        r.win_rate,
        r.stats.playouts,
        r.stats.elapsed,
        r.stats.playouts_per_second(),
        r.stats.nodes,
        r.score_lead
    );
    for c in r.candidates.iter().take(5) {
        let name = match c.mv {
            yeoul::rules::Move::Play(p) => size.name(p),
            yeoul::rules::Move::Pass => "pass".into(),
        };
        eprintln!(
            "  {name}: visits {} wr {:.3} prior {:.2}",
            c.visits, c.win_rate, c.prior
        );
    }
}
