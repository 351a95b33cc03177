//! Unconditional life (D. B. Benson, "Life in the game of Go", 1976): chains that cannot be
//! captured even if their owner passes forever, and the regions they enclose for sure.

use crate::rules::{Bitboard, Board, Color, Suicide};

/// What Benson's algorithm proves for one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassAlive {
    /// Stones of pass-alive chains.
    pub chains: Bitboard,
    /// Points of enclosed regions where the opponent can never make an eye: every empty
    /// point touches a pass-alive stone. Opposing stones there are dead.
    pub territory: Bitboard,
}

/// Benson's fixed point for `color`: drop chains with fewer than two vital regions, then
/// regions bordering a dropped chain, until nothing changes. A region (a maximal connected
/// set of points without `color`'s stones) is vital to a chain it borders when every empty
/// point of it is that chain's liberty; when multi-stone suicide is legal the opponent can
/// remove own stones, so every point must be.
pub fn pass_alive(board: &Board, color: Color, suicide: Suicide) -> PassAlive {
    let size = board.size();
    let on = board.on_board();
    let own = board.stones(color);
    let empty = board.empty_points();
    let chains: Vec<Bitboard> = board
        .chains()
        .into_iter()
        .filter(|chain| !(*chain & own).is_empty())
        .collect();
    let regions = (on & !own).components(size);
    let reach: Vec<Bitboard> = chains.iter().map(|c| c.neighbours(size, &on)).collect();
    let must_touch = |region: &Bitboard| match suicide {
        Suicide::Forbidden => *region & empty,
        Suicide::MultiStoneAllowed => *region,
    };
    // borders[r]: chains next to region r; vital[r]: those it is vital to.
    let borders: Vec<Vec<usize>> = regions
        .iter()
        .map(|r| {
            (0..chains.len())
                .filter(|&c| !(reach[c] & *r).is_empty())
                .collect()
        })
        .collect();
    let vital: Vec<Vec<usize>> = regions
        .iter()
        .zip(&borders)
        .map(|(r, b)| {
            let inner = must_touch(r);
            b.iter()
                .copied()
                .filter(|&c| (inner & !reach[c]).is_empty())
                .collect()
        })
        .collect();
    let mut chain_alive = vec![true; chains.len()];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (c, alive) in chain_alive.iter_mut().enumerate() {
            let healthy = (0..regions.len())
                .filter(|&r| region_alive[r] && vital[r].contains(&c))
                .count();
            if *alive && healthy < 2 {
                *alive = false;
                changed = true;
            }
        }
        for r in 0..regions.len() {
            if region_alive[r] && borders[r].iter().any(|&c| !chain_alive[c]) {
                region_alive[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut result = PassAlive::default();
    for (c, chain) in chains.iter().enumerate() {
        if chain_alive[c] {
            result.chains |= *chain;
        }
    }
    let sure_reach = result.chains.neighbours(size, &on);
    for (r, region) in regions.iter().enumerate() {
        if region_alive[r] && !borders[r].is_empty() && (*region & empty & !sure_reach).is_empty() {
            result.territory |= *region;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_diagram;

    #[test]
    fn two_separate_eyes_are_pass_alive_and_one_big_eye_is_not() {
        // Black (bottom) has two one-point eyes; White (top) one five-point eye.
        let b = parse_diagram(
            ". . . . .
             O O O O O
             X X X X X
             X . X . X
             X X X X X",
        )
        .unwrap();
        let black = pass_alive(&b, Color::Black, Suicide::Forbidden);
        assert_eq!(black.chains, b.stones(Color::Black));
        assert_eq!(black.territory.vertex_names(b.size()), "B2 D2");
        let white = pass_alive(&b, Color::White, Suicide::Forbidden);
        assert!(
            white.chains.is_empty(),
            "{}",
            white.chains.vertex_names(b.size())
        );
    }

    #[test]
    fn an_opposing_stone_inside_a_vital_region_is_in_sure_territory() {
        // T04 of the arbiter notes: Black is pass-alive (A1 and D1-E1), E1 is dead.
        let b = parse_diagram(
            ". . . . .
             . . . . .
             O O O O O
             X X X X X
             . X X . O",
        )
        .unwrap();
        let black = pass_alive(&b, Color::Black, Suicide::Forbidden);
        assert_eq!(black.chains, b.stones(Color::Black));
        assert_eq!(black.territory.vertex_names(b.size()), "A1 D1 E1");
    }
}
