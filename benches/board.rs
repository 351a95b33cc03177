//! Board operations: replaying a recorded game with `play_unchecked`, and a full legality
//! scan of every empty point.

use criterion::{BatchSize, Criterion, Throughput, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_pcg::Pcg32;
use yeoul::rules::{Board, BoardSize, Color, Point, Suicide};
use yeoul::search::playout::random_light_move;

/// A fixed random game (light policy, seed 1) as a list of moves.
fn recorded_game(size: BoardSize) -> Vec<(Point, Color)> {
    let mut board = Board::new(size);
    let mut rng = Pcg32::seed_from_u64(1);
    let mut color = Color::Black;
    let mut moves = Vec::new();
    let mut passes = 0;
    while passes < 2 && moves.len() < 3 * size.points() {
        match random_light_move(&mut board, color, Suicide::Forbidden, &mut rng) {
            Some(p) => {
                board.play_unchecked(p, color);
                moves.push((p, color));
                passes = 0;
            }
            None => {
                board.clear_ko();
                passes += 1;
            }
        }
        color = color.opponent();
    }
    moves
}

fn bench_play(c: &mut Criterion) {
    for size in [BoardSize::NINE, BoardSize::NINETEEN] {
        let game = recorded_game(size);
        let mut group = c.benchmark_group(format!("play/{size}x{size}"));
        group.throughput(Throughput::Elements(game.len() as u64));
        group.bench_function("replay recorded game", |b| {
            b.iter(|| {
                let mut board = Board::new(size);
                for &(p, color) in &game {
                    board.play_unchecked(p, color);
                }
                black_box(board.hash())
            })
        });
        group.finish();
    }
}

fn bench_legality_scan(c: &mut Criterion) {
    for size in [BoardSize::NINE, BoardSize::NINETEEN] {
        let game = recorded_game(size);
        let mut board = Board::new(size);
        for &(p, color) in &game[..game.len() / 2] {
            board.play_unchecked(p, color);
        }
        let mut group = c.benchmark_group(format!("legality scan/{size}x{size}"));
        group.throughput(Throughput::Elements(board.empty_count() as u64));
        group.bench_function("every empty point", |b| {
            b.iter_batched_ref(
                || board,
                |board| {
                    let mut legal = 0;
                    for i in 0..board.empty_count() {
                        legal += board.is_legal(board.empty_at(i), Color::Black, Suicide::Forbidden)
                            as u32;
                    }
                    black_box(legal)
                },
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, bench_play, bench_legality_scan);
criterion_main!(benches);
