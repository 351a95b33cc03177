//! The end of the game during play: passing, filling, the last moves read out, and
//! KGS's cleanup phase.

use super::move_timer::MoveTimer;
use super::{Decision, Engine, Reply};
use crate::referee::{self, Effort, Judgement};
use crate::rules::{Color, Game, Move, Point};
use crate::search::{SearchError, SearchResult};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl Engine {
    /// `genmove` for KGS's cleanup phase: while opposing stones the arbiter judges dead
    /// are on the board, capture them (never pass, never resign); then play on as usual.
    /// Under a clock the whole move, judgement included, may take longer than the
    /// level's time but never longer than the clock allows: a judgement the clock cuts
    /// short leaves the move to the search.
    pub fn genmove_cleanup(
        &mut self,
        color: Color,
        stop: &AtomicBool,
    ) -> Result<Reply, SearchError> {
        let started = Instant::now();
        self.timer.start_move();
        let limit = self.timer.room_on_clock(color);
        let left = |now: Instant| limit.map(|l| l.saturating_sub(now.duration_since(started)));
        let effort = Effort {
            deadline: limit.and_then(|l| MoveTimer::judgement_deadline(started, l)),
            ..self.quick_effort()
        };
        let judgement = match self.judgement_in_play(effort) {
            Some(j) if !(j.dead & self.game.board().stones(color.opponent())).is_empty() => j,
            // Nothing left to capture, or no verdict in time: play on as usual.
            _ => return self.genmove_from(color, stop, left(Instant::now()), started),
        };
        let mv = match referee::capturing_move(&self.game, &judgement, color) {
            Some(p) => Move::Play(p),
            None => {
                // No safe liberty of a dead chain: the search's best move that is not a pass.
                let mut params = self.params_for(color);
                if let Some(room) = left(Instant::now()) {
                    params.max_time = Some(params.max_time.map_or(room, |t| t.min(room)));
                }
                let result = self.search.run(&self.game, color, &params, stop)?;
                let mv = result
                    .candidates
                    .iter()
                    .map(|c| c.mv)
                    .find(|&m| m != Move::Pass)
                    .unwrap_or(Move::Pass);
                self.last = Some((result, Decision::Cleanup));
                mv
            }
        };
        let mv = if self.game.play(color, mv).is_ok() {
            mv
        } else {
            log::error!("cleanup chose an illegal move; passing");
            let _ = self.game.play(color, Move::Pass);
            Move::Pass
        };
        self.timer.charge(color, started);
        Ok(Reply::Move(mv))
    }

    /// The move the endgame's local games, read out, ask instead of the search's `choice`
    /// (`referee::endgame::endgame_move`), at levels that read, unless the search refutes it.
    pub(super) fn endgame_reading(
        &self,
        color: Color,
        choice: Move,
        result: &SearchResult,
        started: Instant,
    ) -> Option<Point> {
        if !self.settings().reads_endgame {
            return None;
        }
        let reading = Instant::now();
        let q = referee::endgame::endgame_move(
            &self.game,
            color,
            choice,
            |q| ownership(&self.game, result, q),
            started.checked_add(self.move_limit(color)),
        )?;
        let mv = Move::Play(q);
        let playable = self.game.is_legal(color, mv) && !search_refutes(result, mv);
        log::debug!(
            "local reading: {q:?} for {choice:?} in {:?}",
            reading.elapsed()
        );
        playable.then_some(q)
    }

    /// A move that closes the game without changing its count: a neutral point filled
    /// (a point under area rules, and one that can cost a point later if left open), or
    /// the connection one of them will ask of us.
    pub(super) fn closing_move(&self, color: Color, judgement: &Judgement) -> Option<Point> {
        referee::fillable_dame(&self.game, judgement, color)
            .or_else(|| referee::teire(&self.game, judgement, color))
    }

    /// Whether something of `color`'s still needs a move: a living chain in atari, or one
    /// that lives only if its owner moves first.
    pub(super) fn needs_answer(&self, color: Color, judgement: &Judgement) -> bool {
        self.living_chain_in_atari(color, judgement)
            || !(judgement.unsettled & self.game.board().stones(color)).is_empty()
    }

    /// Whether a chain of `color`'s that the judgement leaves alive (not dead, not in
    /// seki) stands in atari: one move changes the count there.
    pub(super) fn living_chain_in_atari(&self, color: Color, judgement: &Judgement) -> bool {
        let board = self.game.board();
        let living = board.stones(color) & !judgement.dead & !judgement.seki;
        living.iter().any(|p| board.is_in_atari(p))
    }
}

/// An endgame: the search's ownership settles at least this share of the board.
pub(super) const SETTLED_SHARE: f32 = 0.5;

/// Whether `p` is within two points of stones that only the arbiter's static rule calls
/// dead: a fresh invasion the search wants to answer is answered, not left for a pass
/// while the invader plays on.
pub(super) fn answers_an_invasion(game: &Game, judgement: &Judgement, p: Point) -> bool {
    let size = game.size();
    let on = game.board().on_board();
    let near = judgement.hopeless.neighbours(size, &on) | judgement.hopeless;
    (near | near.neighbours(size, &on)).contains(p)
}

/// Whether the search's ownership gives `p` firmly to one side, in an endgame where most
/// of the board is settled (the arbiter is asked only then: it costs two searches, seconds
/// on 19x19, and in the opening a point near a corner stone looks owned).
pub(super) fn inside_settled_area(game: &Game, result: &SearchResult, p: Point) -> bool {
    ownership(game, result, p).abs() >= 0.4 && settled_share(result) >= SETTLED_SHARE
}

/// The share of the board the search's ownership gives firmly to one side.
pub(super) fn settled_share(result: &SearchResult) -> f32 {
    const FIRM: f32 = 0.7;
    let settled = result.ownership.iter().filter(|o| o.abs() >= FIRM).count();
    settled as f32 / result.ownership.len().max(1) as f32
}

/// Whether the search's own move wins almost surely while `mv` clearly does not: then the
/// search has found what the local count misses (a race the playouts settle only with
/// its move, say), and its move stands. The reading is for the opposite case, moves the
/// search cannot tell apart: in sekis its playouts are wrong by a wide margin (GNU Go's
/// seki suite, test 402: 64% for the pair in atari, 9% for the corner that is worth
/// more), so only a near-certain win outweighs the reading.
fn search_refutes(result: &SearchResult, mv: Move) -> bool {
    const ENOUGH_VISITS: u32 = 100;
    const SURE_WIN: f32 = 0.9;
    const CLEARLY_WORSE: f32 = 0.3;
    let rate = |m: Move| result.candidates.iter().find(|c| c.mv == m);
    match (rate(result.best), rate(mv)) {
        (Some(best), Some(other)) => {
            best.win_rate >= SURE_WIN
                && other.visits >= ENOUGH_VISITS
                && other.win_rate < best.win_rate - CLEARLY_WORSE
        }
        _ => false,
    }
}

/// The search's playout ownership of `p` (+1 Black, -1 White).
fn ownership(game: &Game, result: &SearchResult, p: Point) -> f32 {
    let index = game.size().row_major(p);
    result.ownership.get(index).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;
    use crate::engine::test_support::result_with;
    use crate::rules::{BoardSize, Ruleset};
    use std::time::Duration;

    #[test]
    fn a_move_near_stones_only_the_static_rule_killed_answers_an_invasion() {
        let game = Game::new(BoardSize::NINETEEN, Ruleset::Japanese);
        let at = |name: &str| BoardSize::NINETEEN.parse_point(name).unwrap();
        let mut hopeless = crate::rules::Bitboard::EMPTY;
        hopeless.insert(at("C3"));
        let judgement = Judgement {
            dead: hopeless,
            seki: crate::rules::Bitboard::EMPTY,
            unsettled: crate::rules::Bitboard::EMPTY,
            hopeless,
            ownership: vec![0.0; 361],
            playout_ownership: vec![0.0; 361],
        };
        for near in ["C3", "C4", "D4", "E3", "C1"] {
            assert!(answers_an_invasion(&game, &judgement, at(near)), "{near}");
        }
        for far in ["C6", "F4", "G3"] {
            assert!(!answers_an_invasion(&game, &judgement, at(far)), "{far}");
        }
    }

    #[test]
    fn only_an_endgame_asks_the_arbiter_about_a_point_that_looks_owned() {
        let game = Game::new(BoardSize::NINETEEN, Ruleset::Japanese);
        let p = BoardSize::NINETEEN.parse_point("R16").unwrap();
        let k = BoardSize::NINETEEN.row_major(p);
        // The opening: one point near a corner stone looks owned, the rest is open.
        let mut opening = vec![0.1; 361];
        opening[k] = 0.8;
        assert!(!inside_settled_area(&game, &result_with(opening), p));
        // The endgame: most of the board is settled.
        let mut endgame = vec![0.9; 361];
        endgame[k] = 0.5;
        assert!(inside_settled_area(&game, &result_with(endgame.clone()), p));
        endgame[k] = 0.1;
        assert!(!inside_settled_area(&game, &result_with(endgame), p));
    }

    #[test]
    fn cleanup_answers_within_its_clock() {
        // A 19x19 judgement takes over a second on one thread; a clock of 0.6 s bounds the
        // whole cleanup move, the judgement included.
        // The lag keeps 0.3 s back: room for a loaded machine before the clock runs out.
        let config = EngineConfig {
            threads: 1,
            level: Level::HARD,
            lag: Duration::from_millis(300),
            ..EngineConfig::default()
        };
        // The model's shape table is built on first use: here before the clock starts, as
        // the binary's start-up does (slow in a debug build).
        if let Some(model) = &config.knowledge {
            model.prepare();
        }
        let mut engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
        let size = BoardSize::NINETEEN;
        for (k, name) in ["D4", "Q16", "D16", "Q4", "C10", "R10", "E7", "D6"]
            .iter()
            .enumerate()
        {
            let color = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let p = size.parse_point(name).unwrap();
            engine.game_mut().play(color, Move::Play(p)).unwrap();
        }
        let main = Duration::from_millis(600);
        engine.set_time_control(TimeControl::Absolute { main });
        let started = Instant::now();
        let reply = engine
            .genmove_cleanup(Color::Black, &AtomicBool::new(false))
            .unwrap();
        let took = started.elapsed();
        assert!(took < main, "{took:?}");
        assert!(matches!(reply, Reply::Move(Move::Play(_))), "{reply:?}");
        // The clock was charged the move's time.
        let left = engine.clock_mut(Color::Black).left;
        assert!(left < main && left >= main.saturating_sub(took), "{left:?}");
    }

    /// A 9x9 race of two chains with two liberties each and no eye (D and E), between
    /// two living groups: the side to move wins it, and the game with it (B+3.5 when
    /// Black moves, W+36.5 when White does). Black has passed; White to move.
    fn race_after_blacks_pass() -> Engine {
        let race = crate::rules::parse_diagram(
            ".XXOXOOO.
             .XXOXOOO.
             .XXOXOOO.
             .X.OX.OO.
             XXXOXOOOO
             .X.OX.OO.
             .XXOXOOO.
             .XXOXOOO.
             .XXOXOOO.",
        )
        .unwrap();
        let stones = |color| race.stones(color).iter().collect::<Vec<_>>();
        let size = race.size();
        let config = EngineConfig {
            threads: 1,
            // A level that plays the search's best move, not one drawn near it.
            level: Level::NORMAL,
            playouts: Some(1_000),
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(size, Ruleset::Chinese, config);
        engine.game_mut().set_komi(7.5);
        engine
            .game_mut()
            .set_up(&stones(Color::Black), &stones(Color::White), Color::Black)
            .unwrap();
        engine.game_mut().play(Color::Black, Move::Pass).unwrap();
        engine
    }

    #[test]
    fn a_pass_is_judged_on_the_board_it_leaves_to_be_counted() {
        // White to move wins the race, but a pass hands the move, and the race, to Black:
        // judged with White to move (as before), White passed and `final_score` then
        // said B+3.5. White must play the race out.
        let mut engine = race_after_blacks_pass();
        let reply = engine
            .genmove(Color::White, &AtomicBool::new(false))
            .unwrap();
        let at = |name| Reply::Move(Move::Play(BoardSize::NINE.parse_point(name).unwrap()));
        assert!(reply == at("F4") || reply == at("F6"), "{reply:?}");
        assert_eq!(engine.final_score().unwrap().winner(), Some(Color::White));
    }

    #[test]
    fn a_pass_that_ends_the_game_is_counted_as_it_was_judged() {
        // The race won, Black passes again: White passes on its quick judgement, and that
        // judgement is the count, not a second, fuller one that could differ.
        let mut engine = race_after_blacks_pass();
        let stop = AtomicBool::new(false);
        let first = engine.genmove(Color::White, &stop).unwrap();
        assert_ne!(first, Reply::Move(Move::Pass));
        engine.game_mut().play(Color::Black, Move::Pass).unwrap();
        assert_eq!(
            engine.genmove(Color::White, &stop).unwrap(),
            Reply::Move(Move::Pass)
        );
        let relied_on = engine.known_judgement(true).expect("the pass's judgement");
        assert_eq!(engine.arbiter.last_was_quick(), Some(true));
        assert_eq!(engine.known_judgement(false), Some(relied_on.clone()));
        assert_eq!(
            engine.final_score().unwrap(),
            relied_on.score(engine.game())
        );
        assert_eq!(engine.final_score().unwrap().winner(), Some(Color::White));
    }
}
