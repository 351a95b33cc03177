//! How a level picks its move: the moves its rank sees and reads (`seen`), searched, and
//! among what the search found the best or, at the weakest levels, one nearly as good.

use super::levels::{self, Sight};
use super::move_timer::MoveTimer;
use super::{Choice, Engine, seen};
use crate::rules::{Bitboard, Color, Move, Point};
use crate::search::{SearchError, SearchParams, SearchResult};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The rank's chooser's state: what it read in the last position it moved in, and the
/// random stream its draws among the nearly best moves come from.
pub(super) struct Chooser {
    read: Option<ReadCache>,
    rng: Pcg32,
}

impl Chooser {
    pub(super) fn new(seed: u64) -> Chooser {
        Chooser {
            read: None,
            rng: Pcg32::seed_from_u64(seed),
        }
    }

    /// A new position or level: the moves are read anew.
    pub(super) fn forget_reading(&mut self) {
        self.read = None;
    }

    /// The random stream of the level's draws.
    pub(super) fn rng(&mut self) -> &mut Pcg32 {
        &mut self.rng
    }
}

/// The moves a level read in one position, kept so that every search of the move
/// (`reg_genmove` then `genmove`) reads the same.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ReadCache {
    key: ReadKey,
    reading: Option<Reading>,
}

/// What a rank reads in a position: the root moves its search keeps to, and its first
/// impression among them (`levels::Impression`), if it plays one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Reading {
    pub read: Bitboard,
    pub impression: Option<Point>,
}

/// What the moves read depend on: the game (and which one of the session), the position,
/// the side to move, the level and the seed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ReadKey {
    game: u64,
    size: usize,
    moves: usize,
    hash: u64,
    color: Color,
    level: super::Level,
    seed: u64,
}

impl ReadKey {
    /// A seed for this position's draw: the same position of the same game draws the
    /// same moves whatever else the engine drew before.
    fn draw_seed(&self) -> u64 {
        [
            self.game,
            self.moves as u64,
            self.hash,
            self.color.index() as u64,
        ]
        .into_iter()
        .fold(self.seed, |z, x| {
            (z ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
        })
    }
}

/// The playouts a rank's first impression gets at least before it is played or not.
const IMPRESSION_PLAYOUTS: u64 = 64;

impl Engine {
    /// The level's search for a move with `params`: with `params.root_moves` (a rank), a
    /// search of every move first (half the budget), then one among the moves read
    /// (the rest, the same tree; under `--deterministic` a fresh one, as every
    /// deterministic search is); the second's move is played unless the first found a
    /// move not read better than all of them by the rank's `notices` (then `true`).
    pub(super) fn search_as_level(
        &mut self,
        color: Color,
        params: &SearchParams,
        stop: &AtomicBool,
    ) -> Result<(SearchResult, bool), SearchError> {
        let (
            Some(read),
            Sight::AsRank {
                notices,
                impression,
                ..
            },
        ) = (params.root_moves, self.settings().sees)
        else {
            return Ok((self.search.run(&self.game, color, params, stop)?, false));
        };
        let started = Instant::now();
        let mut open = params.clone();
        open.root_moves = None;
        open.max_playouts = (params.max_playouts / 2).max(1);
        open.max_time = params.max_time.map(MoveTimer::wide_search_time);
        let wide = self.search.run(&self.game, color, &open, stop)?;
        let mut narrow_params = params.clone();
        // Other random streams for the second search of the same tree.
        narrow_params.seed = params.seed ^ 0x9E37_79B9_7F4A_7C15;
        narrow_params.max_playouts = params
            .max_playouts
            .saturating_sub(wide.stats.playouts)
            .max(1);
        // A rank that plays its first impression keeps a tenth of its time to read it.
        let size = self.game.size();
        let may_have_one = impression.is_some_and(|i| levels::for_size(i.share, size) > 0.0);
        let kept = |t: Duration| {
            if may_have_one {
                MoveTimer::kept_for_impression(t)
            } else {
                Duration::ZERO
            }
        };
        narrow_params.max_time = params
            .max_time
            .map(|t| t.saturating_sub(started.elapsed()).saturating_sub(kept(t)));
        let narrow = self.search.run(&self.game, color, &narrow_params, stop)?;
        let unread = match wide.best {
            Move::Play(p) => !read.contains(p),
            Move::Pass => false,
        };
        let notices = levels::for_size(notices, self.game.size());
        let noticed = unread && wide.win_rate > narrow.win_rate + notices;
        let playouts = wide.stats.playouts + narrow.stats.playouts;
        let evaluations = wide.stats.network_evaluations + narrow.stats.network_evaluations;
        let mut result = if noticed { wide } else { narrow };
        result.stats.playouts = playouts;
        result.stats.network_evaluations = evaluations;
        result.stats.elapsed = started.elapsed();
        Ok((result, noticed))
    }

    /// The win rate of `color`'s first impression `first` after the level's search
    /// `result` with `params`, which began at `started`: the search's own when it gave
    /// the move `IMPRESSION_PLAYOUTS` playouts or more, else from that many more
    /// playouts of the same tree kept to the move (within the time left: `None` when
    /// none is). Also the playouts spent.
    pub(super) fn impression_win_rate(
        &mut self,
        color: Color,
        params: &SearchParams,
        result: &SearchResult,
        first: Point,
        started: Instant,
        stop: &AtomicBool,
    ) -> Result<(Option<f32>, u64), SearchError> {
        let read = result
            .candidates
            .iter()
            .find(|c| c.mv == Move::Play(first) && u64::from(c.visits) >= IMPRESSION_PLAYOUTS);
        if let Some(c) = read {
            return Ok((Some(c.win_rate), 0));
        }
        let left = params.max_time.map(|t| t.saturating_sub(started.elapsed()));
        if left == Some(Duration::ZERO) {
            return Ok((None, 0));
        }
        let mut only = params.clone();
        let mut root = Bitboard::EMPTY;
        root.insert(first);
        only.root_moves = Some(root);
        only.seed = params.seed ^ 0x5851_F42D_4C95_7F2D;
        only.max_playouts = IMPRESSION_PLAYOUTS;
        only.max_time = left;
        let checked = self.search.run(&self.game, color, &only, stop)?;
        let win_rate = (checked.best == Move::Play(first)).then_some(checked.win_rate);
        Ok((win_rate, checked.stats.playouts))
    }

    /// The root moves the level reads for `color` in the current position: `None` at
    /// `max` (everything), and when the opponent has just passed (the end of the game
    /// needs every move). Drawn once a position, from a seed of the position's own.
    pub(super) fn read_moves(&mut self, color: Color) -> Option<Bitboard> {
        self.reading(color).map(|r| r.read)
    }

    /// The first impression the level plays unless its search finds it too much worse
    /// (`levels::Impression`), in the position of [`Engine::read_moves`].
    pub(super) fn impression(&mut self, color: Color) -> Option<Point> {
        self.reading(color).and_then(|r| r.impression)
    }

    fn reading(&mut self, color: Color) -> Option<Reading> {
        let key = ReadKey {
            game: self.games_started,
            size: self.game.size().get(),
            moves: self.game.record().len(),
            hash: self.game.board().hash(),
            color,
            level: self.config.level,
            seed: self.config.seed,
        };
        if let Some(cache) = self.chooser.read.filter(|c| c.key == key) {
            return cache.reading;
        }
        let reading = self.draw_reading(color, &mut Pcg32::seed_from_u64(key.draw_seed()));
        if let Some(reading) = reading
            && log::log_enabled!(log::Level::Debug)
        {
            let size = self.game.size();
            let names: Vec<String> = reading.read.iter().map(|p| size.name(p)).collect();
            let first = reading.impression.map(|p| size.name(p));
            log::debug!(
                "{color:?} reads {} moves: {}; first impression {first:?}",
                names.len(),
                names.join(" ")
            );
        }
        self.chooser.read = Some(ReadCache { key, reading });
        reading
    }

    fn draw_reading(&self, color: Color, rng: &mut impl Rng) -> Option<Reading> {
        let Sight::AsRank {
            share_of_kyu,
            reads,
            impression,
            ..
        } = self.settings().sees
        else {
            return None;
        };
        if self.game.passes_before(color) > 0 {
            return None;
        }
        let policy = self.seeing_policy(color);
        if policy.is_empty() {
            return None;
        }
        // In board order, then shuffled: the draw depends on the seed alone.
        let mut order: Vec<Point> = policy.iter().map(|&(p, _)| p).collect();
        order.sort_by_key(|p| p.index());
        order.shuffle(rng);
        let board = self.game.board();
        let urgent = seen::urgent_moves(board, color);
        let points = self.game.size().points();
        let reads = levels::for_size(reads, self.game.size());
        let sight = seen::RankSight {
            kyu: share_of_kyu,
            reads,
            points,
        };
        let seen = sight.seen(&policy, &order, urgent);
        let mut read = sight.read(&policy, &order, urgent, seen);
        // Whether it has one on this move is drawn after the order, which stays the same.
        let impression = impression
            .filter(|i| rng.random::<f32>() < levels::for_size(i.share, self.game.size()))
            .and_then(|i| seen::impression(i.kyu, &policy, &order, urgent, points));
        if let Some(p) = impression {
            read.insert(p);
        }
        Some(Reading { read, impression })
    }

    /// The policy a rank sees the board with: the level's own ([`Engine::policy`]: the
    /// network's on the sizes the ranks see with it, else the learned model's), else every
    /// move alike; over the legal moves that do not fill an own true eye, best first.
    fn seeing_policy(&self, color: Color) -> Vec<(Point, f32)> {
        let game = &self.game;
        let board = game.board();
        let sensible =
            |p: Point| !board.is_true_eye(p, color) && game.is_legal(color, Move::Play(p));
        let rated = self.policy(color);
        match rated {
            Some(rated) => rated.into_iter().filter(|&(p, _)| sensible(p)).collect(),
            None => {
                let moves: Vec<Point> = game.size().all_points().filter(|&p| sensible(p)).collect();
                let share = 1.0 / moves.len().max(1) as f32;
                moves.into_iter().map(|p| (p, share)).collect()
            }
        }
    }
}

/// A move drawn for `choice` among the search's candidates that are nearly as good as
/// `best` (never a pass); `None` when the level plays the best move.
pub(super) fn draw_candidate(
    result: &SearchResult,
    best: Move,
    choice: Choice,
    rng: &mut impl Rng,
) -> Option<Move> {
    if choice.temperature <= 0.0 || best == Move::Pass {
        return None;
    }
    let top = result.candidates.iter().find(|c| c.mv == best)?;
    let eligible = |c: &&crate::search::Candidate| {
        c.mv != Move::Pass
            && c.visits > 0
            && c.win_rate >= top.win_rate - choice.max_loss
            && c.visits as f64 >= choice.min_visits_share * top.visits as f64
    };
    let weight = |c: &crate::search::Candidate| (c.visits as f64).powf(1.0 / choice.temperature);
    let total: f64 = result.candidates.iter().filter(eligible).map(weight).sum();
    let mut draw = rng.random::<f64>() * total;
    for c in result.candidates.iter().filter(eligible) {
        draw -= weight(c);
        if draw <= 0.0 {
            return Some(c.mv);
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::{candidate, result_with};
    use rand::SeedableRng;
    use rand_pcg::Pcg32;

    #[test]
    fn a_level_draws_only_among_nearly_best_moves_by_their_visits() {
        let mut result = result_with(vec![0.5; 81]);
        result.candidates = vec![
            candidate("E5", 600, 0.60),
            candidate("C3", 300, 0.55),
            candidate("pass", 500, 0.60),
            candidate("G7", 200, 0.30),
            candidate("D4", 20, 0.60),
        ];
        let best = result.candidates[0].mv;
        let mut rng = Pcg32::seed_from_u64(7);
        assert_eq!(draw_candidate(&result, best, Choice::BEST, &mut rng), None);
        let choice = Choice {
            temperature: 1.0,
            max_loss: 0.1,
            min_visits_share: 0.1,
        };
        let mut counts = std::collections::HashMap::new();
        for _ in 0..9_000 {
            let mv = draw_candidate(&result, best, choice, &mut rng).unwrap();
            *counts.entry(mv).or_insert(0) += 1;
        }
        // Not the pass, not G7 (30 points worse), not D4 (under a tenth of the visits):
        // E5 and C3 by their visits, 2 to 1.
        assert_eq!(counts.len(), 2, "{counts:?}");
        let e5 = counts[&best] as f64;
        let c3 = counts[&result.candidates[1].mv] as f64;
        assert!((e5 / c3 - 2.0).abs() < 0.2, "{counts:?}");
        // A colder draw leans to the best; the best being a pass, nothing is drawn.
        let cold = Choice {
            temperature: 0.25,
            ..choice
        };
        let c3_cold = (0..9_000)
            .filter(|_| draw_candidate(&result, best, cold, &mut rng) != Some(best))
            .count() as f64;
        assert!(c3_cold < c3 / 4.0, "{c3_cold} against {c3}");
        assert_eq!(draw_candidate(&result, Move::Pass, choice, &mut rng), None);
    }
}

#[cfg(test)]
mod seen_tests {
    use super::super::*;
    use crate::rules::{Bitboard, BoardSize, Ruleset};
    use std::sync::atomic::AtomicBool;

    fn engine(level: Level) -> Engine {
        let config = EngineConfig {
            level,
            threads: 1,
            ..EngineConfig::default()
        };
        Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config)
    }

    #[test]
    fn max_sees_every_move_and_a_rank_a_share_drawn_once_a_position() {
        assert_eq!(engine(Level::MAX).read_moves(Color::Black), None);
        let mut weakest = engine("18k".parse().unwrap());
        let seen = weakest
            .read_moves(Color::Black)
            .expect("a rank sees a share");
        // Its four favourites of the 15 moves it sees, and the overwhelming favourite.
        assert!((1..=5).contains(&seen.count()), "{}", seen.count());
        // Asked again in the same position (the steps of one move), the same share.
        assert_eq!(weakest.read_moves(Color::Black), Some(seen));
        // After the opponent's pass the end of the game needs every move.
        weakest.game_mut().play(Color::White, Move::Pass).unwrap();
        assert_eq!(weakest.read_moves(Color::Black), None);
    }

    #[test]
    fn a_new_game_a_new_size_or_a_new_seed_reads_afresh() {
        let level: Level = "18k".parse().unwrap();
        let draw = |engine: &mut Engine| engine.read_moves(Color::Black).expect("a rank reads");
        let mut engine = engine(level);
        let first = draw(&mut engine);
        // The same position of a new game (another draw: the game is part of the seed).
        let draws: Vec<Bitboard> = (0..4)
            .map(|_| {
                engine.new_game(BoardSize::NINETEEN);
                draw(&mut engine)
            })
            .collect();
        assert!(draws.iter().any(|&d| d != first), "{draws:?}");
        // Another size: every move read is on the new board.
        engine.new_game(BoardSize::NINE);
        let nine = draw(&mut engine);
        let on_board = engine.game().board().on_board();
        assert_eq!(nine & on_board, nine);
        assert!(nine.count() >= 1);
        // The same game and position read the same whatever the engine drew before; a new
        // seed reads afresh.
        let mut again = self::engine(level);
        assert_eq!(draw(&mut again), first);
        let reseeded = (0..4).map(|k| {
            again.set_seed(99 + k);
            draw(&mut again)
        });
        assert!(reseeded.into_iter().any(|d| d != first));
    }

    #[test]
    fn a_rank_sees_with_the_network_on_19x19_and_with_the_learned_model_on_9x9() {
        let mut engine = engine("12k".parse().unwrap());
        let network = engine.network_for_board().expect("the network is on 19x19");
        let with_network = engine.policy_from(Color::Black, Some(network)).unwrap();
        let sees = |engine: &Engine| engine.seeing_policy(Color::Black)[..10].to_vec();
        assert_eq!(sees(&engine), with_network[..10]);
        // On 9x9 the network is on (for max), yet the rank sees as its ladder was measured.
        engine.new_game(BoardSize::NINE);
        assert!(engine.network_for_board().is_some());
        let learned = engine.policy_from(Color::Black, None).unwrap();
        let network = engine.network_for_board();
        assert_ne!(engine.policy_from(Color::Black, network).unwrap(), learned);
        assert_eq!(sees(&engine), learned[..10]);
    }

    /// An engine at `level` on 9x9 that plays its first impression unless `within` worse
    /// (`None`: as the table says), noticing nothing it did not read.
    fn impressed(level: &str, within: Option<f32>) -> Engine {
        let mut config = EngineConfig {
            level: level.parse().unwrap(),
            threads: 1,
            playouts: Some(400),
            ..EngineConfig::default()
        };
        config.level_changes.impression_within = within;
        config.level_changes.notices = Some(1.0);
        Engine::new(BoardSize::NINE, Ruleset::Chinese, config)
    }

    #[test]
    fn a_rank_plays_its_first_impression_unless_its_reading_rejects_it() {
        let stop = AtomicBool::new(false);
        let mut trusting = impressed("14k", Some(1.0));
        let mut cautious = impressed("14k", Some(0.0));
        let mut without = impressed("14k", Some(-1.0));
        let (mut played, mut cautious_played) = (0, 0);
        for k in 0..16 {
            let color = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let first = trusting
                .impression(color)
                .expect("a rank's first impression");
            // Read with the others, whatever its rating.
            assert!(trusting.read_moves(color).unwrap().contains(first));
            let Reply::Move(mv) = trusting.genmove(color, &stop).unwrap() else {
                panic!("resigned");
            };
            // Trusted whatever its reading says.
            assert_eq!(mv, Move::Play(first), "move {k}");
            played += usize::from(trusting.last_search().unwrap().1 == Decision::Impression);
            // The same position: the cautious rank plays it only when no worse than the
            // best read, and the rank without one never.
            for engine in [&mut cautious, &mut without] {
                engine.set_game(trusting.game().clone());
                engine.game_mut().undo().unwrap();
            }
            let cautious_first = cautious.impression(color).expect("the same rank's");
            let reply = cautious.choose(color, &stop).unwrap();
            if cautious.last_search().unwrap().1 == Decision::Impression {
                assert_eq!(reply, Reply::Move(Move::Play(cautious_first)));
                cautious_played += 1;
            }
            without.choose(color, &stop).unwrap();
            assert_ne!(without.last_search().unwrap().1, Decision::Impression);
        }
        // 14k's impression is often not the search's best on an open board; a rank that
        // gives up nothing for it plays fewer of them.
        assert!(played >= 4, "{played}");
        assert!(cautious_played < played, "{cautious_played} of {played}");
    }

    #[test]
    fn a_rank_has_a_first_impression_on_its_share_of_moves() {
        let had_one = |share: f32| {
            let mut engine = impressed("14k", Some(1.0));
            let mut changes = engine.config.level_changes;
            changes.impression_share = Some(share);
            engine.set_level_changes(changes);
            (0..40)
                .filter(|&seed| {
                    engine.set_seed(seed);
                    engine.impression(Color::Black).is_some()
                })
                .count()
        };
        assert_eq!(had_one(1.0), 40);
        assert_eq!(had_one(0.0), 0);
        let half = had_one(0.5);
        assert!((10..=30).contains(&half), "{half} of 40");
    }

    #[test]
    fn normal_has_a_first_impression_on_a_fifth_of_its_moves_on_19x19_alone() {
        let had_one = |size: BoardSize| {
            let config = EngineConfig {
                level: Level::NORMAL,
                threads: 1,
                ..EngineConfig::default()
            };
            let mut engine = Engine::new(size, Ruleset::Chinese, config);
            (0..60)
                .filter(|&seed| {
                    engine.set_seed(seed);
                    engine.impression(Color::Black).is_some()
                })
                .count()
        };
        assert_eq!(had_one(BoardSize::NINE), 0);
        assert_eq!(had_one(BoardSize::THIRTEEN), 0);
        let on_19x19 = had_one(BoardSize::NINETEEN);
        assert!((4..=22).contains(&on_19x19), "{on_19x19} of 60");
    }

    #[test]
    fn a_ranks_two_searches_keep_to_the_moves_playouts() {
        let config = EngineConfig {
            level: "12k".parse().unwrap(),
            threads: 2,
            playouts: Some(600),
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
        let stop = AtomicBool::new(false);
        for color in [Color::Black, Color::White, Color::Black] {
            engine.genmove(color, &stop).expect("a move");
            let (result, _) = engine.last_search().expect("a search");
            // One playout a thread may start as the budget runs out, in each search.
            assert!(result.stats.playouts <= 600 + 2 * 2, "{:?}", result.stats);
            assert!(result.stats.playouts >= 300, "{:?}", result.stats);
        }
    }
}
