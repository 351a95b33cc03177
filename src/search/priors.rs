//! Children of a new tree node with their priors ("equivalent experience": a prior of value
//! v and weight w counts as w visits with v·w wins), after Pachi's hand priors.

use super::policy::PlayoutPolicy;
use super::tree::{ChildSpec, PASS};
use crate::knowledge::{Model, Position, Recent};
use crate::rules::{Bitboard, Board, Cell, Color, Game, KoRule, Point};

/// Prior weights, in visits; `even` is Pachi's E.
#[derive(Clone, Copy, Debug)]
pub struct PriorWeights {
    /// Every move starts as an even game: keeps the tree from trusting one playout.
    pub even: u32,
    /// Value-1 visits for captures and liberty-gaining escapes (2E in Pachi).
    pub tactics: u32,
    /// Value-1 visits for a MoGo 3x3 shape (E).
    pub pattern: u32,
    /// Value-0 visits for a bad self-atari (E).
    pub self_atari: u32,
    /// Value-1 visits by distance to the last move (within 1, 2, 3 lines): play locally.
    pub locality: [u32; 3],
    /// In an empty area: value-0 visits on the first line, value-1 visits on the third.
    pub opening_lines: u32,
    /// With learned knowledge (instead of every hand prior but `even`): a move the model
    /// gives probability p gets `learned * sqrt(p)` value-1 visits (Pachi's pattern prior).
    pub learned: f32,
    /// Likewise for the policy network's probability, where it has rated a node.
    pub network: f32,
}

impl PriorWeights {
    /// The weights for an n x n board (E = 14 on 9x9, 20 on 19x19).
    pub fn for_size(n: usize) -> PriorWeights {
        let e = (14 + (n.saturating_sub(9) * 6) / 10) as u32;
        PriorWeights {
            even: e,
            tactics: 2 * e,
            pattern: e,
            self_atari: e,
            locality: [e, e / 2, e / 4],
            opening_lines: e,
            // Measured on 19x19 at 2,000 playouts: 10E beat 20E 6-0 and drew with 5E.
            learned: 10.0 * e as f32,
            network: 10.0 * e as f32,
        }
    }
}

/// What the children of one node depend on.
pub struct Expansion<'a> {
    pub game: &'a Game,
    pub board: &'a Board,
    pub color: Color,
    /// The opponent's last stone, if the last move was one, and the mover's stone before.
    pub recent: Recent,
    /// Positions (hash, side to move) on the tree path above, for superko and cycles.
    pub path: &'a [(u64, Color)],
    /// Whether a pass is a candidate here.
    pub allow_pass: bool,
    pub policy: &'a PlayoutPolicy,
    pub weights: &'a PriorWeights,
    /// Learned move knowledge for the priors (`None`: the hand priors).
    pub knowledge: Option<&'a Model>,
}

impl Expansion<'_> {
    /// Appends one child per legal move that does not fill an own true eye (superko
    /// repetitions dropped; under simple ko, repetitions flagged as cycles), plus a pass
    /// when allowed or when nothing else is legal.
    /// `strengths` is scratch for the learned priors.
    pub fn children(&self, out: &mut Vec<ChildSpec>, strengths: &mut Vec<f32>) {
        out.clear();
        strengths.clear();
        let position = self
            .knowledge
            .map(|_| Position::new(self.board, self.color, self.recent));
        let board = self.board;
        let suicide = self.game.ruleset().suicide();
        let ko_rule = self.game.ruleset().ko_rule();
        let next = self.color.opponent();
        // Points within two steps of a stone: where the opening-line priors do not apply.
        let on = board.on_board();
        let stones = board.stones(Color::Black) | board.stones(Color::White);
        let one_step = stones | stones.neighbours(board.size(), &on);
        let near_stones = one_step | one_step.neighbours(board.size(), &on);
        for p in board.empty_points().iter() {
            if !board.is_legal(p, self.color, suicide) || board.is_true_eye(p, self.color) {
                continue;
            }
            let key = board.hash_after(p, self.color);
            let arrangement_seen =
                self.game.arrangement_seen(key) || self.path.iter().any(|&(k, _)| k == key);
            let cycle = match ko_rule {
                KoRule::Simple => arrangement_seen,
                KoRule::PositionalSuperko if arrangement_seen => continue,
                KoRule::SituationalSuperko
                    if self.game.situation_seen(key, next)
                        || self.path.iter().any(|&(k, c)| k == key && c == next) =>
                {
                    continue;
                }
                _ => false,
            };
            let (visits, half_wins) = match (self.knowledge, &position) {
                (Some(model), Some(position)) => {
                    strengths.push(model.move_strength(position, p));
                    (0, 0)
                }
                _ => self.prior(p, &near_stones),
            };
            out.push(ChildSpec {
                mv: p.index() as u16,
                prior_visits: visits,
                prior_half_wins: half_wins,
                cycle,
            });
        }
        if !strengths.is_empty() {
            let total: f32 = strengths.iter().sum();
            let (even, scale) = (self.weights.even, self.weights.learned);
            for (spec, &s) in out.iter_mut().zip(strengths.iter()) {
                let visits = (scale * (s / total).sqrt()).round() as u32;
                spec.prior_visits = even + visits;
                spec.prior_half_wins = even + 2 * visits;
            }
        }
        if self.allow_pass || out.is_empty() {
            let e = self.weights.even;
            out.push(ChildSpec {
                mv: PASS,
                prior_visits: e,
                prior_half_wins: e,
                cycle: false,
            });
        }
    }

    /// Prior visits and half-wins of a stone at `p`.
    fn prior(&self, p: Point, near_stones: &Bitboard) -> (u32, u32) {
        let w = self.weights;
        let board = self.board;
        let (mut visits, mut half_wins) = (w.even, w.even);
        let mut add = |weight: u32, value_halves: u32| {
            visits += weight;
            half_wins += weight * value_halves;
        };
        let mut tactical = false;
        for q in board.neighbour_points(p) {
            match board.cell(q) {
                Cell::Stone(c) if c != self.color && board.atari_liberty(q) == Some(p) => {
                    tactical = true
                }
                Cell::Stone(c)
                    if c == self.color
                        && board.atari_liberty(q) == Some(p)
                        && board.liberties_after(p, self.color, 3) >= 3 =>
                {
                    tactical = true
                }
                _ => {}
            }
        }
        if tactical {
            add(w.tactics, 2);
        }
        if self.policy.matches_pattern(board, p) {
            add(w.pattern, 2);
        }
        if self.policy.is_bad_self_atari(board, p, self.color) {
            add(w.self_atari, 0);
        }
        let size = board.size();
        let (col, row) = size.col_row(p);
        if let Some(last) = self.recent.last {
            let (lc, lr) = size.col_row(last);
            let d = col.abs_diff(lc).max(row.abs_diff(lr));
            if (1..=3).contains(&d) {
                add(w.locality[d - 1], 2);
            }
        }
        let n = size.get();
        if n >= 9 {
            let line = col.min(row).min(n - 1 - col).min(n - 1 - row) + 1;
            let quiet = !near_stones.contains(p);
            if quiet && line == 1 {
                add(w.opening_lines, 0);
            } else if quiet && line == 3 {
                add(w.opening_lines, 2);
            }
        }
        (visits, half_wins)
    }
}
