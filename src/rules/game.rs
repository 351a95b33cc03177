//! A game: the board plus turn, passes, rule set, komi, handicap, the move record, the
//! position history for superko, and undo.

use super::bitboard::Bitboard;
use super::board::{Board, IllegalMove};
use super::color::Color;
use super::handicap::{HandicapError, check_free_handicap, fixed_handicap_points};
use super::point::{BoardSize, Move, Point};
use super::ruleset::{KoRule, Ruleset, Scoring};
use super::score::{Score, area_points, territory_points};
use super::zobrist::to_move_key;
use std::collections::HashMap;
use std::fmt;

/// `undo` with no move to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannotUndo;

impl fmt::Display for CannotUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot undo")
    }
}

impl std::error::Error for CannotUndo {}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOutcome {
    /// Opposing stones captured.
    pub captured: u32,
    /// The move recreated an earlier stone arrangement (possible only where the ko rule
    /// is simple ko: under `japanese` such a cycle ends the game without result).
    pub repeats_position: bool,
}

/// The state before a move, for undo.
#[derive(Clone)]
struct Snapshot {
    board: Board,
    to_move: Color,
    passes: u32,
}

/// What [`Game::start_key`] gives: the hash of the stones the record starts from,
/// the side to move then, and the handicap.
pub type StartKey = (u64, Color, u32);

/// A position set up before the first move: its stones and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub to_move: Color,
}

#[derive(Clone)]
pub struct Game {
    board: Board,
    ruleset: Ruleset,
    /// Komi set by a command; `None` means the rule set's default.
    komi: Option<f64>,
    to_move: Color,
    /// Consecutive passes at the end of the record.
    passes: u32,
    /// Black's handicap stones, placed before the first move.
    handicap: Vec<Point>,
    /// The set-up position the record starts from (SGF's AB, AW and PL), if any.
    setup: Option<Setup>,
    record: Vec<(Color, Move)>,
    snapshots: Vec<Snapshot>,
    /// How often each stone arrangement occurred since the start (after the handicap).
    positional: HashMap<u64, u32>,
    /// The same with the player to move folded into the key.
    situational: HashMap<u64, u32>,
}

impl Game {
    /// An empty board under `ruleset`, Black to move.
    pub fn new(size: BoardSize, ruleset: Ruleset) -> Game {
        let mut game = Game {
            board: Board::new(size),
            ruleset,
            komi: None,
            to_move: Color::Black,
            passes: 0,
            handicap: Vec::new(),
            setup: None,
            record: Vec::new(),
            snapshots: Vec::new(),
            positional: HashMap::new(),
            situational: HashMap::new(),
        };
        game.restart_history();
        game
    }

    /// Empties the board, keeping size, rule set and komi.
    pub fn clear(&mut self) {
        *self = Game {
            komi: self.komi,
            ..Game::new(self.board.size(), self.ruleset)
        };
    }

    fn restart_history(&mut self) {
        self.record.clear();
        self.snapshots.clear();
        self.positional.clear();
        self.situational.clear();
        self.passes = 0;
        self.remember_position();
    }

    fn remember_position(&mut self) {
        let key = self.board.hash();
        *self.positional.entry(key).or_default() += 1;
        *self
            .situational
            .entry(key ^ to_move_key(self.to_move))
            .or_default() += 1;
    }

    fn forget_position(&mut self) {
        let key = self.board.hash();
        for (map, k) in [
            (&mut self.positional, key),
            (&mut self.situational, key ^ to_move_key(self.to_move)),
        ] {
            if let Some(n) = map.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&k);
                }
            }
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Changes the rule set; the history is kept, so superko applies to it from now on.
    pub fn set_ruleset(&mut self, ruleset: Ruleset) {
        self.ruleset = ruleset;
    }

    /// The komi in force: the last `set_komi`, else the rule set's default.
    pub fn komi(&self) -> f64 {
        self.komi
            .unwrap_or_else(|| self.ruleset.default_komi(self.handicap()))
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = Some(komi);
    }

    /// The player whose turn it is (any colour may still be asked to play).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Hands the turn to `color` (set-up: GoGui's `gogui-setup_player`). The position so
    /// far keeps the side to move it was recorded with; before any move that is the
    /// set-up's, which changes with it (SGF's PL).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
        if self.record.is_empty()
            && let Some(setup) = &mut self.setup
        {
            setup.to_move = color;
        }
    }

    /// Consecutive passes that end the record.
    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }

    /// The passes that `color`'s pass would add to: the record's last passes, alternating
    /// and ending with the opponent's. A colour asked to move again after its own pass (GTP
    /// lets a test ask either colour) ends nothing by passing: nobody has answered it.
    pub fn passes_before(&self, color: Color) -> u32 {
        let mut passes = 0;
        let mut passer = color.opponent();
        for &(c, mv) in self.record.iter().rev() {
            if mv != Move::Pass || c != passer {
                break;
            }
            passes += 1;
            passer = passer.opponent();
        }
        passes
    }

    /// Handicap stones placed at the start.
    pub fn handicap(&self) -> u32 {
        self.handicap.len() as u32
    }

    /// Where the handicap stones are.
    pub fn handicap_points(&self) -> &[Point] {
        &self.handicap
    }

    /// The position the record starts from, as a key: the hash of its stones (set-up
    /// and handicap stones: no move puts them there), the side to move then, and the
    /// handicap (White's bonus under area counting). With the record it fixes every
    /// position since, and so the history superko reads: what a search tree is kept for.
    pub fn start_key(&self) -> StartKey {
        let (board, to_move) = self
            .snapshots
            .first()
            .map_or((&self.board, self.to_move), |s| (&s.board, s.to_move));
        (board.hash(), to_move, self.handicap())
    }

    /// Moves played since the start, passes included.
    pub fn record(&self) -> &[(Color, Move)] {
        &self.record
    }

    /// Whether this stone arrangement (a [`Board::hash`]) occurred earlier in the game.
    pub fn arrangement_seen(&self, key: u64) -> bool {
        self.positional.contains_key(&key)
    }

    /// Whether this arrangement occurred earlier with `to_move` to play.
    pub fn situation_seen(&self, key: u64, to_move: Color) -> bool {
        self.situational.contains_key(&(key ^ to_move_key(to_move)))
    }

    /// Stones `color` has captured during play.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.board.captures(color)
    }

    /// Moves after which the game is scored as it stands: three per point.
    pub fn move_limit(&self) -> usize {
        3 * self.size().points()
    }

    /// Two passes in a row, or the move limit reached.
    pub fn is_over(&self) -> bool {
        self.passes >= 2 || self.record.len() >= self.move_limit()
    }

    /// The board after `color` plays at `p`, if the rules allow it.
    fn board_after(&self, color: Color, p: Point) -> Result<Board, IllegalMove> {
        self.board.check(p, color, self.ruleset.suicide())?;
        let mut next = self.board;
        next.play_unchecked(p, color);
        let key = next.hash();
        let forbidden = match self.ruleset.ko_rule() {
            KoRule::Simple => false,
            KoRule::PositionalSuperko => self.positional.contains_key(&key),
            KoRule::SituationalSuperko => self
                .situational
                .contains_key(&(key ^ to_move_key(color.opponent()))),
        };
        if forbidden {
            Err(IllegalMove::Superko)
        } else {
            Ok(next)
        }
    }

    /// Whether `color` may play `mv` now, under every rule of the rule set.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => self.board_after(color, p).map(drop),
        }
    }

    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Whether a legal stone of `color` at `p` would recreate an earlier arrangement
    /// (what the search values as a no-result cycle under `japanese`).
    pub fn repeats_position(&self, color: Color, p: Point) -> bool {
        self.board_after(color, p)
            .is_ok_and(|next| self.positional.contains_key(&next.hash()))
    }

    /// Plays a move for `color`; nothing changes when it is refused.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<PlayOutcome, IllegalMove> {
        let next = match mv {
            Move::Pass => {
                let mut next = self.board;
                next.clear_ko();
                next
            }
            Move::Play(p) => self.board_after(color, p)?,
        };
        let captured = next.captures(color) - self.board.captures(color);
        let repeats_position = mv != Move::Pass && self.positional.contains_key(&next.hash());
        self.snapshots.push(Snapshot {
            board: self.board,
            to_move: self.to_move,
            passes: self.passes,
        });
        self.record.push((color, mv));
        self.board = next;
        self.to_move = color.opponent();
        self.passes = if mv == Move::Pass { self.passes + 1 } else { 0 };
        self.remember_position();
        Ok(PlayOutcome {
            captured,
            repeats_position,
        })
    }

    /// Takes back the last move, restoring the earlier state exactly.
    pub fn undo(&mut self) -> Result<(), CannotUndo> {
        let snapshot = self.snapshots.pop().ok_or(CannotUndo)?;
        self.forget_position();
        self.record.pop();
        self.board = snapshot.board;
        self.to_move = snapshot.to_move;
        self.passes = snapshot.passes;
        Ok(())
    }

    /// Places GTP's fixed handicap; White moves next.
    pub fn place_fixed_handicap(&mut self, stones: u32) -> Result<Vec<Point>, HandicapError> {
        self.require_empty_board()?;
        let points = fixed_handicap_points(self.size(), stones)?;
        self.place_handicap(&points);
        Ok(points)
    }

    /// Places handicap stones where the controller chose; White moves next.
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        self.require_empty_board()?;
        check_free_handicap(self.size(), points)?;
        self.place_handicap(points);
        Ok(())
    }

    fn require_empty_board(&self) -> Result<(), HandicapError> {
        if self.board.empty_count() == self.size().points() {
            Ok(())
        } else {
            Err(HandicapError::BoardNotEmpty)
        }
    }

    /// Sets up a position on an empty board (SGF's AB and AW in the root): the stones are
    /// no moves, and the history starts from this position with `to_move` to play.
    pub fn set_up(
        &mut self,
        black: &[Point],
        white: &[Point],
        to_move: Color,
    ) -> Result<(), HandicapError> {
        self.require_empty_board()?;
        let mut board = Board::new(self.size());
        for (color, points) in [(Color::Black, black), (Color::White, white)] {
            for &p in points {
                board
                    .place_setup_stone(p, color)
                    .map_err(|_| HandicapError::BadVertexList)?;
            }
        }
        if board.has_chain_without_liberties() {
            return Err(HandicapError::BadVertexList);
        }
        self.board = board;
        self.to_move = to_move;
        self.setup = Some(Setup {
            black: black.to_vec(),
            white: white.to_vec(),
            to_move,
        });
        self.restart_history();
        Ok(())
    }

    /// The set-up position the record starts from ([`Game::set_up`]), if any.
    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    fn place_handicap(&mut self, points: &[Point]) {
        let mut board = Board::new(self.size());
        for &p in points {
            board
                .place_setup_stone(p, Color::Black)
                .expect("checked handicap point");
        }
        debug_assert!(!board.has_chain_without_liberties());
        self.board = board;
        self.handicap = points.to_vec();
        self.setup = None;
        self.to_move = Color::White;
        self.restart_history();
    }

    /// The count of RULES.md §5 after removing `dead`, with `seki` chains' points
    /// excluded under territory scoring.
    pub fn score(&self, dead: &Bitboard, seki: &Bitboard) -> Score {
        let dead = *dead & (self.board.stones(Color::Black) | self.board.stones(Color::White));
        let komi = self.komi();
        match self.ruleset.scoring() {
            Scoring::Area => {
                let area = area_points(&self.board, &dead);
                let bonus = self.ruleset.handicap_bonus(self.handicap());
                Score {
                    black: area.black as f64,
                    white: area.white as f64 + komi + bonus as f64,
                }
            }
            Scoring::Territory => {
                let terr = territory_points(&self.board, &dead, seki);
                let dead_of = |c: Color| (dead & self.board.stones(c)).count();
                Score {
                    black: (terr.black + self.prisoners(Color::Black) + dead_of(Color::White))
                        as f64,
                    white: (terr.white + self.prisoners(Color::White) + dead_of(Color::Black))
                        as f64
                        + komi,
                }
            }
        }
    }
}
