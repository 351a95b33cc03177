//! A deliberately simple reference implementation of RULES.md: a plain vector of cells,
//! chains found by flood fill, the simple ko found by comparing whole positions, superko
//! by sets of whole positions, and a flood-fill scorer. Slow and obvious, so that the fast
//! core can be checked against it move by move.

use std::collections::HashSet;
use yeoul::rules::{Color, IllegalMove, KoRule, Ruleset, Scoring};

pub const EMPTY: u8 = 0;

/// Cell code of a colour: 1 black, 2 white.
pub fn code(c: Color) -> u8 {
    c.index() as u8 + 1
}

#[derive(Clone)]
pub struct RefGame {
    pub n: usize,
    /// Row-major from the bottom-left: `cells[row * n + col]`.
    pub cells: Vec<u8>,
    pub ruleset: Ruleset,
    /// Stones captured by black and by white.
    pub captures: [u32; 2],
    /// The last move: who played it and the arrangement before it (None for a pass).
    last: Option<(Color, Option<Vec<u8>>)>,
    positional: HashSet<Vec<u8>>,
    situational: HashSet<(Vec<u8>, u8)>,
}

impl RefGame {
    pub fn new(n: usize, ruleset: Ruleset, to_move: Color) -> RefGame {
        RefGame::with_stones(n, ruleset, &[], to_move)
    }

    /// A game that starts with black stones (handicap) on the given cells.
    pub fn with_stones(n: usize, ruleset: Ruleset, black: &[usize], to_move: Color) -> RefGame {
        let mut cells = vec![EMPTY; n * n];
        for &i in black {
            cells[i] = 1;
        }
        let mut g = RefGame {
            n,
            cells: cells.clone(),
            ruleset,
            captures: [0; 2],
            last: None,
            positional: HashSet::new(),
            situational: HashSet::new(),
        };
        g.positional.insert(cells.clone());
        g.situational.insert((cells, code(to_move)));
        g
    }

    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c) = (i / self.n, i % self.n);
        let mut v = Vec::new();
        if r > 0 {
            v.push(i - self.n);
        }
        if r + 1 < self.n {
            v.push(i + self.n);
        }
        if c > 0 {
            v.push(i - 1);
        }
        if c + 1 < self.n {
            v.push(i + 1);
        }
        v
    }

    /// The chain through `i` and its liberty count, by flood fill.
    pub fn chain(&self, cells: &[u8], i: usize) -> (Vec<usize>, usize) {
        let color = cells[i];
        let mut seen = vec![false; cells.len()];
        let mut stack = vec![i];
        let mut stones = Vec::new();
        let mut libs = HashSet::new();
        seen[i] = true;
        while let Some(p) = stack.pop() {
            stones.push(p);
            for q in self.neighbours(p) {
                if cells[q] == EMPTY {
                    libs.insert(q);
                } else if cells[q] == color && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        (stones, libs.len())
    }

    /// The arrangement after `color` plays at `i`, with the stones it captured, or why the
    /// move is refused.
    pub fn try_play(&self, color: Color, i: usize) -> Result<(Vec<u8>, u32, u32), IllegalMove> {
        if self.cells[i] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        let mut cells = self.cells.clone();
        cells[i] = code(color);
        let opp = code(color.opponent());
        let mut captured = 0;
        for q in self.neighbours(i) {
            if cells[q] == opp {
                let (stones, libs) = self.chain(&cells, q);
                if libs == 0 {
                    for s in stones {
                        cells[s] = EMPTY;
                        captured += 1;
                    }
                }
            }
        }
        let mut suicided = 0;
        let (own, libs) = self.chain(&cells, i);
        if libs == 0 {
            let allowed = matches!(self.ruleset, Ruleset::NewZealand | Ruleset::TrompTaylor);
            if !allowed || own.len() == 1 {
                return Err(IllegalMove::Suicide);
            }
            for s in own {
                cells[s] = EMPTY;
                suicided += 1;
            }
        }
        // Simple ko: undoing the opponent's last move at once.
        if let Some((who, Some(before))) = &self.last
            && *who == color.opponent()
            && *before == cells
        {
            return Err(IllegalMove::Ko);
        }
        match self.ruleset.ko_rule() {
            KoRule::PositionalSuperko if self.positional.contains(&cells) => {
                return Err(IllegalMove::Superko);
            }
            KoRule::SituationalSuperko if self.situational.contains(&(cells.clone(), opp)) => {
                return Err(IllegalMove::Superko);
            }
            _ => {}
        }
        Ok((cells, captured, suicided))
    }

    /// Whether the arrangement after a legal move existed before.
    pub fn repeats(&self, cells: &[u8]) -> bool {
        self.positional.contains(cells)
    }

    pub fn play(&mut self, color: Color, i: Option<usize>) {
        match i {
            None => self.last = Some((color, None)),
            Some(i) => {
                let (cells, captured, suicided) = self.try_play(color, i).expect("legal");
                self.captures[color.index()] += captured;
                self.captures[color.opponent().index()] += suicided;
                let before = std::mem::replace(&mut self.cells, cells);
                self.last = Some((color, Some(before)));
            }
        }
        self.positional.insert(self.cells.clone());
        self.situational
            .insert((self.cells.clone(), code(color.opponent())));
    }

    /// Empty regions after removing `dead` (cells set to true), each with the colours it
    /// touches, by flood fill.
    fn regions(&self, dead: &[bool]) -> Vec<(Vec<usize>, bool, bool)> {
        let cells: Vec<u8> = self
            .cells
            .iter()
            .zip(dead)
            .map(|(&c, &d)| if d { EMPTY } else { c })
            .collect();
        let mut seen = vec![false; cells.len()];
        let mut out = Vec::new();
        for start in 0..cells.len() {
            if cells[start] != EMPTY || seen[start] {
                continue;
            }
            let (mut pts, mut b, mut w) = (Vec::new(), false, false);
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(p) = stack.pop() {
                pts.push(p);
                for q in self.neighbours(p) {
                    match cells[q] {
                        EMPTY if !seen[q] => {
                            seen[q] = true;
                            stack.push(q);
                        }
                        1 => b = true,
                        2 => w = true,
                        _ => {}
                    }
                }
            }
            out.push((pts, b, w));
        }
        out
    }

    /// Black's and White's points under the rule set's counting, komi and bonus excluded.
    pub fn count(&self, dead: &[bool], seki: &[bool]) -> (u32, u32) {
        let mut pts = [0u32; 2];
        let regions = self.regions(dead);
        match self.ruleset.scoring() {
            Scoring::Area => {
                for (i, &c) in self.cells.iter().enumerate() {
                    if c != EMPTY && !dead[i] {
                        pts[c as usize - 1] += 1;
                    }
                }
                for (region, b, w) in regions {
                    if b != w {
                        pts[if b { 0 } else { 1 }] += region.len() as u32;
                    }
                }
            }
            Scoring::Territory => {
                for (region, b, w) in regions {
                    let touches_seki = region.iter().any(|&p| {
                        self.neighbours(p)
                            .iter()
                            .any(|&q| seki[q] && !dead[q] && self.cells[q] != EMPTY)
                    });
                    if b != w && !touches_seki {
                        pts[if b { 0 } else { 1 }] += region.len() as u32;
                    }
                }
                pts[0] += self.captures[0];
                pts[1] += self.captures[1];
                for (i, &c) in self.cells.iter().enumerate() {
                    if c != EMPTY && dead[i] {
                        // A dead stone is a prisoner of the other side.
                        pts[2 - c as usize] += 1;
                    }
                }
            }
        }
        (pts[0], pts[1])
    }
}
