//! Light playouts per second from the empty board and from a fixed mid-game position.

use criterion::{BatchSize, Criterion, Throughput, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_pcg::Pcg32;
use yeoul::bench::{StartPosition, start_position};
use yeoul::rules::BoardSize;
use yeoul::search::playout::{PlayoutLimits, light_playout};

fn bench_light_playouts(c: &mut Criterion) {
    for size in [BoardSize::NINE, BoardSize::NINETEEN] {
        let mut group = c.benchmark_group(format!("light playout/{size}x{size}"));
        group.throughput(Throughput::Elements(1));
        for start in [StartPosition::Empty, StartPosition::MidGame] {
            let (board, to_move, played) = start_position(size, start);
            let limits = PlayoutLimits::for_game_at(size, played);
            let mut rng = Pcg32::seed_from_u64(3);
            group.bench_function(start.name(), |b| {
                b.iter_batched_ref(
                    || board,
                    |scratch| black_box(light_playout(scratch, to_move, limits, &mut rng)),
                    BatchSize::SmallInput,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_light_playouts);
criterion_main!(benches);
