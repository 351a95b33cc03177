//! The moves a player of a rank sees, the moves a level's search chooses among: a number
//! that grows with the rank, drawn at random among the legal moves (KaTrain's calibrated
//! rank rule, fitted to OGS players' choices), and the moves nobody misses (the policy's
//! overwhelming favourite, the capture or rescue of a large group). ARCHITECTURE.md
//! "Levels" says why.

use crate::rules::{Bitboard, Board, Color, Point};

/// A chain of this many stones or more is a large group: its capture or rescue is seen
/// at every rank.
pub const LARGE_GROUP: u32 = 3;

/// The number of moves a player of kyu rank `kyu` (KaTrain's k: 1 dan is 0) sees among
/// `legal` moves on a board of `points` points: KaTrain's `RankStrategy`
/// (`katrain/core/ai.py`), whose constants were fitted to OGS players' choices. On an
/// empty 19x19 board 18k sees 15, 10k 44, 1d 114. It grows as the rank rises.
pub fn katrain_count(kyu: f64, legal: usize, points: usize) -> usize {
    if legal == 0 {
        return 0;
    }
    let s = points as f64;
    let l = legal as f64 / s;
    let o = 0.063015 + 0.7624 * s / 10f64.powf(-0.05737 * kyu + 1.9482);
    let bump = (-(3.002 * l * l - l - 0.034889 * kyu - 0.5097).powi(2)).exp();
    let m = (0.3931 + 0.6559 * l * bump - 0.01093 * kyu) * o;
    let n = (s * l / (1.31165 * (m + 1.0) - 0.082653)).round();
    (n.max(1.0) as usize).min(legal)
}

/// Whether the policy's favourite is a move anyone of rank `kyu` plays (KaTrain's
/// overrides): it holds more than 0.8 x (1 - 0.5 (S - L) / S) of the policy, or the top
/// two hold more than 0.85 + 0.02 per rank below 8 kyu. `policy` is best first.
pub fn favourite_is_obvious(policy: &[(Point, f32)], kyu: f64, points: usize) -> bool {
    let Some(&(_, top)) = policy.first() else {
        return false;
    };
    let s = points as f64;
    let l = policy.len() as f64;
    let second = policy.get(1).map_or(0.0, |&(_, p)| p);
    f64::from(top) > 0.8 * (1.0 - 0.5 * (s - l) / s)
        || f64::from(top + second) > 0.85 + (0.02 * (kyu - 8.0)).max(0.0)
}

/// KaTrain's calibrated-rank choice itself, for comparisons (`examples/move_choices.rs`,
/// `examples/point_loss.rs`): the favourite when obvious, else the best rated of
/// `katrain_count` legal moves drawn at random. `policy` is best first; the answer is an
/// index into it (`None` when it is empty).
pub fn katrain_choice(
    policy: &[(Point, f32)],
    kyu: f64,
    points: usize,
    rng: &mut impl rand::Rng,
) -> Option<usize> {
    if policy.is_empty() || favourite_is_obvious(policy, kyu, points) {
        return (!policy.is_empty()).then_some(0);
    }
    let n = katrain_count(kyu, policy.len(), points);
    // The smallest of n distinct indices drawn uniformly: the best rated of them.
    rand::seq::index::sample(rng, policy.len(), n)
        .into_iter()
        .min()
}

/// The first impression of a player of kyu rank `kyu` (KaTrain's pick, on the same
/// draw `order`): the policy's obvious favourite, else its favourite among the first
/// `katrain_count` moves of `order` and the `urgent` ones.
pub fn impression(
    kyu: f64,
    policy: &[(Point, f32)],
    order: &[Point],
    urgent: Bitboard,
    points: usize,
) -> Option<Point> {
    let first = policy.first()?.0;
    if favourite_is_obvious(policy, kyu, points) {
        return Some(first);
    }
    let mut looked_at = urgent;
    for &p in order.iter().take(katrain_count(kyu, order.len(), points)) {
        looked_at.insert(p);
    }
    policy
        .iter()
        .find(|&&(p, _)| looked_at.contains(p))
        .map(|&(p, _)| p)
}

/// The captures and rescues of large groups for `color`: the liberty of an opposing
/// chain of `LARGE_GROUP` stones or more in atari, and for such a chain of ours in
/// atari its liberty and the captures of the chains in atari next to it.
pub fn urgent_moves(board: &Board, color: Color) -> Bitboard {
    let mut urgent = Bitboard::EMPTY;
    for chain in board.chains() {
        let Some(stone) = chain.iter().next() else {
            continue;
        };
        if chain.count() < LARGE_GROUP {
            continue;
        }
        let Some(liberty) = board.atari_liberty(stone) else {
            continue;
        };
        urgent.insert(liberty);
        if board.color_at(stone) == Some(color) {
            // Taking a neighbour in atari gives the group a liberty too.
            let size = board.size();
            let around = chain.neighbours(size, &board.on_board()) & board.stones(color.opponent());
            for p in around.iter() {
                if let Some(capture) = board.atari_liberty(p) {
                    urgent.insert(capture);
                }
            }
        }
    }
    urgent
}

/// How a rank sees a board of `points` points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankSight {
    /// KaTrain's k: the rank whose share of the moves is drawn.
    pub kyu: f64,
    /// How many of the moves seen, the policy's favourites among them, the search reads.
    pub reads: usize,
    pub points: usize,
}

impl RankSight {
    /// The moves seen: the first `katrain_count` of `order` (the legal moves in a random
    /// order, drawn once a move), the policy's favourite when it is obvious, and the
    /// `urgent` moves among the legal ones. `policy` is the legal moves' probabilities,
    /// best first. On the same draw a stronger rank (a lower `kyu`) sees all that a
    /// weaker one sees, and more.
    pub fn seen(&self, policy: &[(Point, f32)], order: &[Point], urgent: Bitboard) -> Bitboard {
        let mut seen = Bitboard::EMPTY;
        for &p in order
            .iter()
            .take(katrain_count(self.kyu, order.len(), self.points))
        {
            seen.insert(p);
        }
        seen | self.always_seen(policy, order, urgent)
    }

    /// The moves read out among those `seen`: the policy's `reads` favourites, and what
    /// is always seen (the obvious favourite, the urgent moves). A search among every move seen is led by noise when none of them is
    /// much liked (a uniform draw often misses every good move); a player reads the few
    /// that look natural.
    pub fn read(
        &self,
        policy: &[(Point, f32)],
        order: &[Point],
        urgent: Bitboard,
        seen: Bitboard,
    ) -> Bitboard {
        let mut read = self.always_seen(policy, order, urgent);
        let favourites = policy.iter().filter(|&&(p, _)| seen.contains(p));
        for &(p, _) in favourites.take(self.reads) {
            read.insert(p);
        }
        read
    }

    fn always_seen(&self, policy: &[(Point, f32)], order: &[Point], urgent: Bitboard) -> Bitboard {
        let mut seen = Bitboard::EMPTY;
        if favourite_is_obvious(policy, self.kyu, self.points) {
            seen.insert(policy[0].0);
        }
        let mut legal = Bitboard::EMPTY;
        for &p in order {
            legal.insert(p);
        }
        seen | (urgent & legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, parse_diagram};
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_pcg::Pcg32;

    #[test]
    fn katrains_counts_on_the_empty_board_are_the_published_ones() {
        // ../shared/reference/human-levels.md: 18k about 15 of 361, 10k 44, 5k 75, 1d 114,
        // 3d 132; with 150 legal moves 11, 19, 27, 39, 45.
        let counts = |legal| [18.0, 10.0, 5.0, 0.0, -2.0].map(|k| katrain_count(k, legal, 361));
        assert_eq!(counts(361), [15, 44, 75, 114, 132]);
        assert_eq!(counts(150), [11, 19, 27, 39, 45]);
        assert_eq!(katrain_count(18.0, 0, 361), 0);
        assert!((1..=3).contains(&katrain_count(-2.0, 3, 361)));
    }

    #[test]
    fn a_stronger_rank_sees_what_a_weaker_one_sees_on_the_same_draw() {
        let size = BoardSize::NINETEEN;
        let points: Vec<Point> = size.all_points().collect();
        let mut rng = Pcg32::seed_from_u64(11);
        for legal in [361, 200, 150, 60, 12] {
            let mut order: Vec<Point> = points[..legal].to_vec();
            order.shuffle(&mut rng);
            // A policy that favours the last of the draw, now and then overwhelmingly.
            let mut policy: Vec<(Point, f32)> = order
                .iter()
                .rev()
                .map(|&p| (p, 0.1 / legal as f32))
                .collect();
            policy[0].1 = if legal % 2 == 0 { 0.8 } else { 0.3 };
            let mut weaker = Bitboard::EMPTY;
            for kyu in (-2..=18).rev() {
                let sight = RankSight {
                    kyu: f64::from(kyu),
                    reads: 3,
                    points: 361,
                };
                let seen = sight.seen(&policy, &order, Bitboard::EMPTY);
                assert_eq!(seen & weaker, weaker, "{kyu}k with {legal} legal moves");
                assert!(seen.count() as usize >= katrain_count(f64::from(kyu), legal, 361));
                // It reads the policy's favourites among them.
                let read = sight.read(&policy, &order, Bitboard::EMPTY, seen);
                assert_eq!(read & seen, read);
                let best_seen = policy.iter().find(|&&(p, _)| seen.contains(p)).unwrap();
                assert!(read.contains(best_seen.0));
                let always = sight.read(&policy, &order, Bitboard::EMPTY, Bitboard::EMPTY);
                assert!(read.count() <= 3 + always.count());
                weaker = seen;
            }
        }
    }

    #[test]
    fn a_first_impression_is_the_policys_favourite_of_the_moves_looked_at() {
        let size = BoardSize::NINETEEN;
        let mut order: Vec<Point> = size.all_points().collect();
        order.shuffle(&mut Pcg32::seed_from_u64(5));
        // The policy rates the moves in board order, best first, none overwhelmingly.
        let policy: Vec<(Point, f32)> = size.all_points().map(|p| (p, 0.002)).collect();
        let rank_of = |p: Point| policy.iter().position(|&(q, _)| q == p).unwrap();
        for kyu in [18.0, 14.0, 8.0, 2.0] {
            let n = katrain_count(kyu, order.len(), 361);
            let first = impression(kyu, &policy, &order, Bitboard::EMPTY, 361).unwrap();
            // The best rated of the first n of the draw, whatever they are.
            let best_drawn = order[..n].iter().map(|&p| rank_of(p)).min().unwrap();
            assert_eq!(rank_of(first), best_drawn, "{kyu}k");
            // An urgent move the policy rates higher is looked at too.
            let mut urgent = Bitboard::EMPTY;
            let better = policy[best_drawn.saturating_sub(1)].0;
            urgent.insert(better);
            let with_urgent = impression(kyu, &policy, &order, urgent, 361).unwrap();
            assert_eq!(rank_of(with_urgent), rank_of(better).min(best_drawn));
        }
        // An overwhelming favourite is everybody's first impression, drawn or not.
        let mut obvious = policy.clone();
        obvious[7].1 = 0.9;
        obvious.swap(0, 7);
        let mut drawn_last: Vec<Point> = order
            .iter()
            .copied()
            .filter(|&p| p != obvious[0].0)
            .collect();
        drawn_last.push(obvious[0].0);
        let first = impression(18.0, &obvious, &drawn_last, Bitboard::EMPTY, 361);
        assert_eq!(first, Some(obvious[0].0));
        assert_eq!(impression(18.0, &[], &[], Bitboard::EMPTY, 361), None);
    }

    #[test]
    fn the_capture_and_rescue_of_a_large_group_are_urgent_and_small_ones_are_not() {
        // White's three stones on C5-E5 in atari (liberty F5), Black's two on G1-H1 in
        // atari (liberty J1): Black's capture of the large group and White's rescue of
        // it are urgent; the two-stone chain is not a large group.
        let board = parse_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . X X X . . . .
             . X O O O . . . .
             . . X X X . . . .
             . . . . . . . . .
             . . . . . . O O .
             . . . . . O X X .",
        )
        .unwrap();
        let at = |name: &str| BoardSize::NINE.parse_point(name).unwrap();
        let black = urgent_moves(&board, Color::Black);
        assert!(black.contains(at("F5")), "the capture");
        assert!(
            !black.contains(at("J1")),
            "a two-stone chain is not a large group"
        );
        let white = urgent_moves(&board, Color::White);
        assert!(white.contains(at("F5")), "the rescue");
        assert!(
            !white.contains(at("J1")),
            "a two-stone capture is not urgent"
        );
        assert_eq!(white.count(), 1);
    }
}
