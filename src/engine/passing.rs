//! The resign-and-pass judge: the one place that decides whether a level resigns or
//! passes (RULES.md §8).
//!
//! A level resigns where its row says it does (`resign_below`, and not `--no-resign`)
//! when its search gives it less than that win rate on `RESIGN_AFTER` moves in a row,
//! each read with at least `RESIGN_PLAYOUTS` playouts.
//!
//! A level passes in these cases, and in no other:
//! 1. **Answering a pass**, when the count after it wins, or when nothing can save a lost
//!    count (`HOPELESS`), and nothing of ours still needs an answer.
//! 2. **The move limit** is reached (RULES.md §3; `genmove` decides it before this).
//! 3. **No move changes the count**: the arbiter's judgement of the board after the pass
//!    finds no unsettled stones, no living chain of either colour in atari, no open
//!    border, and no neutral point or teire to fill (under area rules each neutral point
//!    is a point and is filled first). Where there was no time for the judgement: the
//!    board is closed (no empty point that stones of both colours reach: no dame, no open
//!    border, no stone left inside the other side's area), the search's ownership settles
//!    nearly the whole board (`SETTLED`), and every well-read move on the board ends worse
//!    than the pass in the playouts' mean margin (`MOVE_LOSES`), so that only moves that
//!    harm the mover are left (a move as good as the pass, one inside its own area under
//!    area rules, is played: in a game lost by 100 points every move looks alike to the
//!    playouts, and a pass there at move 190 would end a game still open). Or no legal
//!    move is left on the board but filling eyes. At levels that pass first when won
//!    (`pass_when_won`: `normal` and stronger, which also resign), only when the count
//!    wins: a lost game is played on until it is resigned.
//! 4. **Far ahead**, at levels that pass first when won (`LevelSettings::pass_when_won`:
//!    `normal` and stronger, the ranks that also resign): the judgement's count wins by
//!    `FAR_AHEAD_POINTS` or more, the search gives `FAR_AHEAD_WIN_RATE` or more, and
//!    nothing of ours needs an answer, no chain of the opponent's stands in atari, no
//!    neutral point is left and no border is open.
//!
//! The ranks that never resign (`easy` and the ranks below `normal`) pass first only by
//! case 3: behind by any margin they play on, because a pass at move 120 tells a person
//! the game is over. A level's drawn move and a rank's first impression are moves on the
//! board; where the search's best is a pass that no case allows, the best board move is
//! played instead, chosen by the margin where every move loses (or wins) alike
//! ([`least_loss`]).

use super::end_of_game::settled_share;
use super::levels::LevelSettings;
use super::{Decision, Engine, Reply};
use crate::referee::{self, Judgement};
use crate::rules::{Bitboard, Board, Color, Move, Point, owned_regions};
use crate::search::{Candidate, SearchResult};

/// Playouts a search needs before its win rate counts towards a resignation.
const RESIGN_PLAYOUTS: u64 = 500;

/// Hopeless moves in a row before a level resigns: one bad search is not enough.
const RESIGN_AFTER: u32 = 2;

/// Each side's hopeless moves in a row, the resign judge's memory.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct HopelessStreaks([u32; 2]);

impl Engine {
    /// Resigns `color`'s game where the level does and `result` makes it the
    /// `RESIGN_AFTER`th hopeless move in a row.
    pub(super) fn resigns(
        &mut self,
        color: Color,
        result: &SearchResult,
        settings: &LevelSettings,
    ) -> Option<(Reply, Decision)> {
        let threshold = settings.resign_below.filter(|_| self.config.resign)?;
        let streak = &mut self.hopeless.0[color.index()];
        if result.win_rate < threshold && result.stats.playouts >= RESIGN_PLAYOUTS {
            *streak += 1;
        } else {
            *streak = 0;
        }
        (*streak >= RESIGN_AFTER).then_some((Reply::Resign, Decision::Resigned))
    }
}

/// A search win rate below which no move saves the game: after the opponent's pass,
/// passing too costs nothing then; and moves are told apart by their margins.
pub(super) const HOPELESS: f32 = 0.15;

/// Passing first when far ahead (case 4) needs the judgement's count to win by this many
/// points: a count that a group the judgement got wrong cannot turn.
pub(super) const FAR_AHEAD_POINTS: f64 = 10.0;

/// ... and the search to give at least this win rate.
pub(super) const FAR_AHEAD_WIN_RATE: f32 = 0.9;

/// A board move whose playouts end at least this many points (mean, komi included) worse
/// than the pass's harms the mover (under territory rules a move inside its own territory
/// costs exactly a point).
pub(super) const MOVE_LOSES: f32 = 0.5;

/// Without the judgement, a pass changes nothing only where the search's ownership gives
/// at least this share of the board firmly to one side: a rank reads a few moves, and
/// among them a pass can look as good as any while a third of the board is open.
pub(super) const SETTLED: f32 = 0.85;

/// Win rates this close count as alike when moves are told apart by their margins.
pub(super) const WIN_RATE_TIE: f32 = 0.03;

/// Playouts through a move before its margin is trusted, and its share of the most
/// visited move's.
const MARGIN_VISITS: u32 = 32;
const MARGIN_VISITS_SHARE: f64 = 0.05;

/// Why a level passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PassReason {
    /// Case 1: after the opponent's pass.
    Answers,
    /// Case 3: nothing on the board changes the count.
    NoChange,
    /// Case 4: far ahead, at a level that passes first when won.
    FarAhead,
}

impl PassReason {
    /// How the move's log and `yeoul-stats` name it.
    pub(super) fn decision(self) -> Decision {
        match self {
            PassReason::Answers => Decision::PassWon,
            PassReason::NoChange => Decision::PassSafe,
            PassReason::FarAhead => Decision::PassFarAhead,
        }
    }
}

/// What the end of the game asks of a move, when the opponent has passed or the search
/// likes a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EndOfGame {
    Pass(PassReason),
    /// A neutral point or teire filled first (never a pass while one is left).
    Fill(Point),
    /// Play a move on the board.
    PlayOn,
}

impl Engine {
    /// The pass judge (cases 1, 3 and 4 above), with the arbiter's `judgement` of the
    /// board after the pass where there was time for it.
    pub(super) fn end_of_game(
        &self,
        color: Color,
        result: &SearchResult,
        judgement: Option<&Judgement>,
        opponent_passed: bool,
        settings: &LevelSettings,
    ) -> EndOfGame {
        let Some(judgement) = judgement else {
            let pass = if opponent_passed {
                // The search's word: the game won, or lost beyond saving.
                result.best == Move::Pass || result.win_rate > 0.5 || result.win_rate < HOPELESS
            } else {
                closed(self.game.board())
                    && playouts_find_only_losses(result)
                    && (result.win_rate > 0.5 || !settings.pass_when_won)
            };
            return match pass {
                true if opponent_passed => EndOfGame::Pass(PassReason::Answers),
                true => EndOfGame::Pass(PassReason::NoChange),
                false => EndOfGame::PlayOn,
            };
        };
        if self.needs_answer(color, judgement) {
            return EndOfGame::PlayOn;
        }
        // Area rules: each neutral point is a point. Territory rules: worth nothing, but
        // free, and one left open can cost a point later (a missing teire).
        if let Some(p) = self.closing_move(color, judgement) {
            return EndOfGame::Fill(p);
        }
        // A count over an open border is no count: the region behind it is nobody's.
        let open = !referee::open_border(&self.game, judgement).is_empty();
        let margin = judgement.score(&self.game).margin();
        let lead = if color == Color::Black {
            margin
        } else {
            -margin
        };
        if opponent_passed {
            let lost_anyway = result.win_rate < HOPELESS || result.best == Move::Pass;
            return if (lead > 0.0 && !open) || lost_anyway {
                EndOfGame::Pass(PassReason::Answers)
            } else {
                EndOfGame::PlayOn
            };
        }
        let in_atari = |c: Color| self.living_chain_in_atari(c, judgement);
        if open || in_atari(color.opponent()) {
            return EndOfGame::PlayOn;
        }
        // Ours in atari or unsettled were answered above (`needs_answer`).
        if judgement.unsettled.is_empty() && (lead > 0.0 || !settings.pass_when_won) {
            return EndOfGame::Pass(PassReason::NoChange);
        }
        let far_ahead = settings.pass_when_won
            && lead >= FAR_AHEAD_POINTS
            && result.win_rate >= FAR_AHEAD_WIN_RATE;
        if far_ahead {
            EndOfGame::Pass(PassReason::FarAhead)
        } else {
            EndOfGame::PlayOn
        }
    }
}

/// Whether no empty point is reached by stones of both colours: the board's regions all
/// closed, as at the end of a game played out (a stone left inside the other side's area
/// reaches its region too: until it is captured, the board is open). A rank reads a
/// few moves, and in a game lost by 100 points the playouts own the whole board for the
/// winner: neither tells a board still open from a finished one; this does.
fn closed(board: &Board) -> bool {
    let owned = owned_regions(board, &Bitboard::EMPTY);
    let empty = board.on_board() & !(board.stones(Color::Black) | board.stones(Color::White));
    (empty & !(owned.black | owned.white)).is_empty()
}

/// Whether a candidate of `result` was read enough for its margin to be trusted
/// (`MARGIN_VISITS`, and `MARGIN_VISITS_SHARE` of the most visited move's playouts).
fn well_read(result: &SearchResult) -> impl Fn(&&Candidate) -> bool + Copy {
    let most = result
        .candidates
        .iter()
        .map(|c| c.visits)
        .max()
        .unwrap_or(0);
    move |c| c.visits >= MARGIN_VISITS && c.visits as f64 >= MARGIN_VISITS_SHARE * most as f64
}

/// Case 3 without the arbiter: the board is settled (`SETTLED`), the pass was read well
/// and every well-read move on the board ends `MOVE_LOSES` worse in the playouts' mean
/// margin. Moves little read do not count against it: the search gave them few playouts
/// because they lose.
pub(super) fn playouts_find_only_losses(result: &SearchResult) -> bool {
    if settled_share(result) < SETTLED {
        return false;
    }
    let well_read = well_read(result);
    let Some(pass) = result
        .candidates
        .iter()
        .filter(well_read)
        .find(|c| c.mv == Move::Pass)
        .and_then(|c| c.score_lead)
    else {
        return false;
    };
    result
        .candidates
        .iter()
        .filter(well_read)
        .filter(|c| c.mv != Move::Pass)
        .all(|c| c.score_lead.is_some_and(|m| m <= pass - MOVE_LOSES))
}

/// The board move to play in place of `choice` (the search's pick, perhaps a pass that no
/// case allows): where the moves lose alike (`choice`'s win rate below `HOPELESS`) or win
/// alike (above `1 - HOPELESS`), the well-read move on the board within `WIN_RATE_TIE` of
/// it whose playouts end best in mean margin, so that a lost game is lost by as little
/// as the search sees and a won one gives nothing away; otherwise the search's most
/// visited board move. `None` when no move on the board was read; with the move, whether
/// its margin chose it.
pub(super) fn least_loss(result: &SearchResult, choice: Move) -> Option<(Move, bool)> {
    let well_read = well_read(result);
    let board_moves = || result.candidates.iter().filter(|c| c.mv != Move::Pass);
    let reference = result
        .candidates
        .iter()
        .find(|c| c.mv == choice)
        .map_or(result.win_rate, |c| c.win_rate);
    let alike = !(HOPELESS..=1.0 - HOPELESS).contains(&reference);
    let by_margin = alike
        .then(|| {
            board_moves()
                .filter(|c| well_read(c) && (c.win_rate - reference).abs() <= WIN_RATE_TIE)
                .filter_map(|c| c.score_lead.map(|m| (c.mv, m)))
                .max_by(|a, b| a.1.total_cmp(&b.1))
        })
        .flatten();
    match by_margin {
        Some((mv, _)) => Some((mv, true)),
        None if choice != Move::Pass => Some((choice, false)),
        // Candidates come most visited first.
        None => board_moves().find(|c| c.visits > 0).map(|c| (c.mv, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::{candidate, result_with};

    fn with_margin(name: &str, visits: u32, win_rate: f32, margin: f32) -> Candidate {
        Candidate {
            score_lead: Some(margin),
            ..candidate(name, visits, win_rate)
        }
    }

    #[test]
    fn without_the_arbiter_a_pass_changes_nothing_only_where_every_move_harms() {
        let mut result = result_with(vec![0.9; 81]);
        result.candidates = vec![
            with_margin("pass", 800, 0.3, -20.0),
            // Filling an own eye, and playing into the opponent's area.
            with_margin("E5", 300, 0.1, -35.0),
            with_margin("G3", 100, 0.25, -21.0),
            // Little read: its margin does not count.
            with_margin("C3", 10, 0.5, 5.0),
        ];
        assert!(playouts_find_only_losses(&result));
        // The same with a third of the board open.
        let mut open = result.clone();
        open.ownership[..27].fill(0.2);
        assert!(!playouts_find_only_losses(&open));
        // A move as good as the pass (a lost game, where every move looks alike; or one
        // inside an own area under area rules) is played, not passed over.
        let mut alike = result.clone();
        alike.candidates[2] = with_margin("G3", 100, 0.3, -19.8);
        assert!(!playouts_find_only_losses(&alike));
        // A pass little read is no evidence.
        result.candidates = vec![
            with_margin("E5", 800, 0.3, -30.0),
            with_margin("pass", 20, 0.3, -19.0),
        ];
        assert!(!playouts_find_only_losses(&result));
    }

    #[test]
    fn a_board_is_closed_when_no_empty_point_is_reached_by_both_colours() {
        let board = |diagram| crate::rules::parse_diagram(diagram).unwrap();
        let finished = ". X O .
                        X X O O
                        . X O .
                        X X O O";
        assert!(closed(&board(finished)));
        // A neutral point between them.
        let dame = ". X . O
                    X X O O
                    . X O .
                    X X O O";
        assert!(!closed(&board(dame)));
        // A White stone left in Black's area.
        let inside = ". X O .
                      X X O O
                      O . X O
                      X X X O";
        assert!(!closed(&board(inside)));
    }

    #[test]
    fn where_every_move_loses_alike_the_one_that_loses_least_is_played() {
        let mut result = result_with(vec![0.0; 81]);
        result.candidates = vec![
            with_margin("pass", 500, 0.05, -40.0),
            with_margin("E5", 400, 0.04, -35.0),
            with_margin("C3", 300, 0.05, -22.0),
            // Loses least but little read.
            with_margin("G7", 5, 0.05, -2.0),
        ];
        let c3 = candidate("C3", 0, 0.0).mv;
        assert_eq!(least_loss(&result, Move::Pass), Some((c3, true)));
        assert_eq!(
            least_loss(&result, result.candidates[1].mv),
            Some((c3, true))
        );
        // A close game: the search's move stands; a pass gives way to the most visited.
        for c in &mut result.candidates {
            c.win_rate += 0.4;
        }
        let e5 = result.candidates[1].mv;
        assert_eq!(least_loss(&result, c3), Some((c3, false)));
        assert_eq!(least_loss(&result, Move::Pass), Some((e5, false)));
        // Nothing on the board read: no move.
        result.candidates.truncate(1);
        assert_eq!(least_loss(&result, Move::Pass), None);
    }
}
