//! The heavy playout policy: MoGo / Pachi-moggy style move choice around the last move,
//! in priority order, each heuristic switchable so that its worth can be measured and
//! levels can use fewer. Shared read-only by all threads; all scratch lives on the stack.

use super::patterns::PatternTable;
use super::playout::sample_empty_point;
use crate::knowledge::features::tactical_on_board;
use crate::rules::{Bitboard, Board, Cell, Color, Point, Suicide};
use rand::Rng;
use rand_pcg::Pcg32;

/// Which heuristics a playout uses. Every field has a one-line reason.
pub struct PlayoutPolicy {
    /// Capture the last move's chain when it is in atari: the biggest tactical error.
    pub capture: bool,
    /// Save own chains the last move put in atari, by counter-capture or by an extension
    /// that reaches three liberties (fewer would run into a ladder).
    pub escape: bool,
    /// Chains the last move left with two liberties (its own, or ours next to it): atari
    /// theirs, save ours by a liberty that gains, or counter-atari their attackers (Pachi's
    /// moggy 2-liberty check); fires in `TWO_LIBERTY_RATE` of the moves where it applies.
    pub two_liberties: bool,
    /// Play the vital point of a 3-6 point eye space next to the last move: kills or lives.
    pub nakade: bool,
    /// Answer the last move with a MoGo 3x3 shape (hane, cut, edge moves) next to it.
    pub patterns: bool,
    /// Refuse moves that leave their own chain in atari without capturing, unless the
    /// chain stays small (throw-ins and nakade fillings are useful self-ataris).
    pub avoid_self_atari: bool,
    /// Largest chain a self-atari may create (when `avoid_self_atari` is on).
    pub self_atari_max_stones: u32,
    /// Learned γ of the 3x3 tactical shapes next to the last move (by raw code): the
    /// pattern move, always next to the last move, is drawn in proportion to them
    /// instead of uniformly.
    pub shape_gammas: Option<Box<[f32]>>,
    table: PatternTable,
}

impl PlayoutPolicy {
    /// Every heuristic on.
    pub fn heavy() -> PlayoutPolicy {
        PlayoutPolicy {
            capture: true,
            escape: true,
            two_liberties: false,
            nakade: true,
            patterns: true,
            avoid_self_atari: true,
            self_atari_max_stones: 2,
            shape_gammas: None,
            table: PatternTable::mogo(),
        }
    }

    /// Every heuristic off: uniformly random moves that keep own true eyes.
    pub fn light() -> PlayoutPolicy {
        PlayoutPolicy {
            capture: false,
            escape: false,
            two_liberties: false,
            nakade: false,
            patterns: false,
            avoid_self_atari: false,
            ..PlayoutPolicy::heavy()
        }
    }

    /// Whether a MoGo 3x3 shape is centred on `p`.
    #[inline]
    pub fn matches_pattern(&self, board: &Board, p: Point) -> bool {
        self.table.matches(board, p)
    }

    /// The move `color` plays after the opponent's `last` move, or `None` to pass.
    pub fn choose(
        &self,
        board: &mut Board,
        color: Color,
        last: Option<Point>,
        suicide: Suicide,
        rng: &mut Pcg32,
    ) -> Option<Point> {
        if let Some(last) = last.filter(|&p| board.cell(p) == Cell::Stone(color.opponent())) {
            let mut candidates = Candidates::default();
            if self.capture
                && let Some(liberty) = board.atari_liberty(last)
                && board.is_legal(liberty, color, suicide)
            {
                return Some(liberty);
            }
            if self.escape {
                self.escapes(board, color, last, &mut candidates);
                if let Some(p) = candidates.pick(board, color, suicide, rng) {
                    return Some(p);
                }
            }
            if self.two_liberties && rng.random::<f32>() < TWO_LIBERTY_RATE {
                self.two_liberty_moves(board, color, last, suicide, &mut candidates);
                if let Some(p) = candidates.pick(board, color, suicide, rng) {
                    return Some(p);
                }
            }
            if self.nakade {
                for &e in &board.neighbour_points(last) {
                    if board.cell(e) == Cell::Empty
                        && let Some(vital) = nakade_vital_point(board, e)
                    {
                        candidates.push(vital);
                    }
                }
                if let Some(p) = candidates.pick(board, color, suicide, rng) {
                    return Some(p);
                }
            }
            if self.patterns {
                for &q in &board.points_around(last) {
                    if board.cell(q) == Cell::Empty
                        && self.table.matches(board, q)
                        && !self.is_bad_self_atari(board, q, color)
                    {
                        candidates.push(q);
                    }
                }
                let chosen = match &self.shape_gammas {
                    Some(gammas) => candidates.pick_weighted(board, color, suicide, rng, |q| {
                        gammas[tactical_on_board(board, color, q) as usize]
                    }),
                    None => candidates.pick(board, color, suicide, rng),
                };
                if let Some(p) = chosen {
                    return Some(p);
                }
            }
        }
        self.random_move(board, color, suicide, rng)
    }

    /// Counter-captures and liberty-gaining extensions for own chains next to `last` that
    /// are in atari.
    fn escapes(&self, board: &Board, color: Color, last: Point, out: &mut Candidates) {
        let around = board.neighbour_points(last);
        for (k, &n) in around.iter().enumerate() {
            // Each chain once: a chain seen through an earlier neighbour gave its moves.
            if board.cell(n) != Cell::Stone(color)
                || around[..k].iter().any(|&m| board.same_chain(m, n))
            {
                continue;
            }
            let Some(liberty) = board.atari_liberty(n) else {
                continue;
            };
            for stone in board.chain_stones(n).iter() {
                for &q in &board.neighbour_points(stone) {
                    if board.cell(q) == Cell::Stone(color.opponent())
                        && let Some(capture) = board.atari_liberty(q)
                    {
                        out.push(capture);
                    }
                }
            }
            if board.liberties_after(liberty, color, 3) >= 3 {
                out.push(liberty);
            }
        }
    }

    /// Pachi's local 2-liberty check for `color` after the opponent's `last`: the last
    /// move's chain and our chains next to it that have two liberties.
    fn two_liberty_moves(
        &self,
        board: &Board,
        color: Color,
        last: Point,
        suicide: Suicide,
        out: &mut Candidates,
    ) {
        if let Some(libs) = board.two_liberties(last)
            && !liberties_are_miai(board, last, libs)
        {
            self.fill_a_liberty(board, last, libs, color, suicide, out);
        }
        let mut seen = [last; 4];
        let mut n = 0;
        for &q in &board.neighbour_points(last) {
            if board.cell(q) != Cell::Stone(color)
                || seen[..n].iter().any(|&s| board.same_chain(s, q))
            {
                continue;
            }
            seen[n] = q;
            n += 1;
            let Some(libs) = board.two_liberties(q) else {
                continue;
            };
            if liberties_are_miai(board, q, libs) {
                continue;
            }
            self.fill_a_liberty(board, q, libs, color, suicide, out);
            // Counter-attack: capture or atari a chain that presses ours.
            for stone in board.chain_stones(q).iter() {
                for &r in &board.neighbour_points(stone) {
                    if board.cell(r) != Cell::Stone(color.opponent()) {
                        continue;
                    }
                    if let Some(capture) = board.atari_liberty(r) {
                        out.push(capture);
                    } else if let Some(their) = board.two_liberties(r) {
                        self.fill_a_liberty(board, r, their, color, suicide, out);
                    }
                }
            }
        }
    }

    /// `color` playing on a liberty of the two-liberty chain through `chain`: an atari when
    /// the chain is the opponent's, an extension when it is ours. Skips bad self-ataris and
    /// extensions that gain nothing, and prefers a move that is not lumpy (three own
    /// stones or edges around it) when only one of the two is (Pachi's `can_atari_group`).
    fn fill_a_liberty(
        &self,
        board: &Board,
        chain: Point,
        (a, b): (Point, Point),
        color: Color,
        suicide: Suicide,
        out: &mut Candidates,
    ) {
        let defending = board.cell(chain) == Cell::Stone(color);
        let usable = |lib: Point, other: Point| {
            board.is_legal(lib, color, suicide)
                && !(defending && extension_is_hopeless(board, lib, other, color))
                && !self.is_bad_self_atari(board, lib, color)
        };
        let lumpy = |lib: Point| board.neighbours_of_color_or_edge(lib, color) >= 3;
        match (usable(a, b), usable(b, a)) {
            (true, true) => match (lumpy(a), lumpy(b)) {
                (false, true) => out.push(a),
                (true, false) => out.push(b),
                _ => {
                    out.push(a);
                    out.push(b);
                }
            },
            (true, false) => out.push(a),
            (false, true) => out.push(b),
            (false, false) => {}
        }
    }

    /// A move that leaves its chain with one liberty, captures nothing, and makes a chain
    /// larger than `self_atari_max_stones`.
    #[inline]
    pub fn is_bad_self_atari(&self, board: &Board, p: Point, color: Color) -> bool {
        // Inline: most points have two empty neighbours and end here.
        self.avoid_self_atari
            && board.empty_neighbours(p) < 2
            && self.is_bad_self_atari_without_two_empties(board, p, color)
    }

    #[inline(never)]
    fn is_bad_self_atari_without_two_empties(&self, board: &Board, p: Point, color: Color) -> bool {
        if board.liberties_after(p, color, 2) >= 2 {
            return false;
        }
        let mut stones = 1;
        let mut seen = [p; 4]; // p is empty: in no chain
        let mut n = 0;
        for &q in &board.neighbour_points(p) {
            if board.cell(q) == Cell::Stone(color)
                && !seen[..n].iter().any(|&s| board.same_chain(s, q))
            {
                seen[n] = q;
                n += 1;
                stones += board.chain_size(q);
            }
        }
        stones > self.self_atari_max_stones
    }

    /// A uniformly random legal move that neither fills an own true eye nor is a bad
    /// self-atari.
    fn random_move(
        &self,
        board: &mut Board,
        color: Color,
        suicide: Suicide,
        rng: &mut Pcg32,
    ) -> Option<Point> {
        let stride = board.stride();
        sample_empty_point(board, rng, |b: &Board, p: Point| {
            b.is_playable_in(stride, p, color, suicide) && !self.is_bad_self_atari(b, p, color)
        })
    }
}

/// How often the 2-liberty check fires where it applies (Pachi's 19x19 rate: playouts
/// stay diverse).
const TWO_LIBERTY_RATE: f32 = 0.8;

/// Whether the two-liberty chain through `chain` cannot be caught by an atari: it can
/// connect on one liberty to a chain with two or more liberties and connect or run out on
/// the other (Pachi's `miai_2lib`, as its comment means it).
fn liberties_are_miai(board: &Board, chain: Point, (a, b): (Point, Point)) -> bool {
    let Some(owner) = board.color_at(chain) else {
        return false;
    };
    let connects = |lib: Point| {
        board.neighbour_points(lib).into_iter().any(|q| {
            board.cell(q) == Cell::Stone(owner)
                && !board.same_chain(q, chain)
                && board.liberties_up_to(q, 2) >= 2
        })
    };
    let runs = |lib: Point, other: Point| {
        board
            .neighbour_points(lib)
            .into_iter()
            .any(|q| q != other && board.cell(q) == Cell::Empty)
    };
    let (ca, cb) = (connects(a), connects(b));
    (ca && (cb || runs(b, a))) || (cb && runs(a, b))
}

/// Whether extending our two-liberty chain at `lib` gains nothing: `lib` touches only
/// this chain of ours and has one empty neighbour, or two that include the other liberty
/// (Pachi's `defense_is_hopeless`).
fn extension_is_hopeless(board: &Board, lib: Point, other: Point, color: Color) -> bool {
    let own = board
        .neighbour_points(lib)
        .into_iter()
        .filter(|&q| board.cell(q) == Cell::Stone(color))
        .count();
    if own != 1 {
        return false;
    }
    match board.empty_neighbours(lib) {
        1 => true,
        2 => board.neighbour_points(lib).contains(&other),
        _ => false,
    }
}

/// A few candidate points, deduplicated, on the stack.
struct Candidates {
    points: [Point; 16],
    len: usize,
}

impl Default for Candidates {
    fn default() -> Candidates {
        // The slots past `len` are never read: any point fills them.
        Candidates {
            points: [Point::from_index(0); 16],
            len: 0,
        }
    }
}

impl Candidates {
    fn push(&mut self, p: Point) {
        if self.len < self.points.len() && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// A legal candidate drawn in proportion to `weight` (emptied afterwards either way).
    fn pick_weighted(
        &mut self,
        board: &Board,
        color: Color,
        suicide: Suicide,
        rng: &mut Pcg32,
        weight: impl Fn(Point) -> f32,
    ) -> Option<Point> {
        let mut weights = [0f32; 16];
        let n = self.len;
        self.len = 0;
        for (w, &p) in weights.iter_mut().zip(&self.points[..n]) {
            if board.is_legal(p, color, suicide) && !board.is_true_eye(p, color) {
                *w = weight(p);
            }
        }
        let total: f32 = weights.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = rng.random::<f32>() * total;
        let mut chosen = None;
        for (&w, &p) in weights.iter().zip(self.points[..n].iter()) {
            if w > 0.0 {
                chosen = Some(p);
                x -= w;
                if x <= 0.0 {
                    break;
                }
            }
        }
        chosen
    }

    /// A uniformly random legal candidate (emptied afterwards either way).
    #[inline]
    fn pick(
        &mut self,
        board: &Board,
        color: Color,
        suicide: Suicide,
        rng: &mut Pcg32,
    ) -> Option<Point> {
        // Most moves reach a heuristic with no candidate: no call for them.
        if self.len == 0 {
            return None;
        }
        self.pick_among(board, color, suicide, rng)
    }

    #[inline(never)]
    fn pick_among(
        &mut self,
        board: &Board,
        color: Color,
        suicide: Suicide,
        rng: &mut Pcg32,
    ) -> Option<Point> {
        while self.len > 0 {
            let i = rng.random_range(0..self.len as u32) as usize;
            let p = self.points[i];
            if board.color_at(p).is_none()
                && board.is_playable_in(board.stride(), p, color, suicide)
            {
                self.len = 0;
                return Some(p);
            }
            self.len -= 1;
            self.points.swap(i, self.len);
        }
        None
    }
}

/// The vital point of the enclosed empty region through `start`, when the region has 3 to
/// 6 points, touches stones of one colour only, and one point has strictly more
/// neighbours inside the region than any other (straight three: the middle; bent three:
/// the corner; pyramid four, bulky five, crossed five, rabbity six: the centre).
#[inline]
pub fn nakade_vital_point(board: &Board, start: Point) -> Option<Point> {
    // From the start point's neighbour counts (one load): a point with no empty neighbour
    // is a region of one, and one touching both colours borders no nakade. Inline: most
    // calls end here.
    let empties = board.empty_neighbours(start);
    let black = board.neighbours_of_color_or_edge(start, Color::Black);
    let white = board.neighbours_of_color_or_edge(start, Color::White);
    let edges = black + white + empties - 4;
    if empties == 0 || (black > edges && white > edges) {
        return None;
    }
    nakade_region_vital_point(board, start, empties)
}

/// [`nakade_vital_point`] past its first test, `empties` being the start's empty
/// neighbours.
#[inline(never)]
fn nakade_region_vital_point(board: &Board, start: Point, empties: u32) -> Option<Point> {
    const MAX: usize = 6;
    // A lower bound on the region from the empty counts of the start's empty neighbours:
    // their empty neighbours other than the start lie two steps away, and only a diagonal
    // of the start can be counted twice, at most once per perpendicular pair of them. In
    // open areas this rules out a nakade without the walk.
    let mut second_ring = 0;
    for &q in &board.neighbour_points(start) {
        if board.cell(q) == Cell::Empty {
            second_ring += board.empty_neighbours(q) - 1;
        }
    }
    const PERPENDICULAR_PAIRS: [u32; 5] = [0, 0, 1, 2, 4];
    if 1 + empties + second_ring > MAX as u32 + PERPENDICULAR_PAIRS[empties as usize] {
        return None;
    }
    let mut region = [start; MAX];
    // Membership in a bitboard, not a scan of the list: most calls are in open areas,
    // where the region outgrows MAX after a few points.
    let mut in_region = Bitboard::EMPTY;
    in_region.insert(start);
    let mut len = 1;
    let mut next = 0;
    let mut border: Option<Color> = None;
    while next < len {
        let p = region[next];
        next += 1;
        for &q in &board.neighbour_points(p) {
            match board.cell(q) {
                Cell::Empty => {
                    if !in_region.contains(q) {
                        if len == MAX {
                            return None;
                        }
                        region[len] = q;
                        len += 1;
                        in_region.insert(q);
                    }
                }
                Cell::Stone(c) => match border {
                    None => border = Some(c),
                    Some(b) if b != c => return None,
                    _ => {}
                },
                Cell::Off => {}
            }
        }
    }
    if len < 3 {
        return None;
    }
    let inside = |p: Point| {
        board
            .neighbour_points(p)
            .iter()
            .filter(|&&q| in_region.contains(q))
            .count()
    };
    let mut best = None;
    let mut best_count = 0;
    let mut unique = false;
    for &p in &region[..len] {
        let c = inside(p);
        if c > best_count {
            (best, best_count, unique) = (Some(p), c, true);
        } else if c == best_count {
            unique = false;
        }
    }
    best.filter(|_| unique)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Move, Ruleset, parse_diagram};
    use rand::SeedableRng;

    fn point(board: &Board, name: &str) -> Point {
        board.size().parse_point(name).unwrap()
    }

    /// The moves `policy` picks for `color` after `last`, over many seeds.
    fn choices(
        policy: &PlayoutPolicy,
        diagram: &str,
        color: Color,
        last: &str,
    ) -> Vec<Option<String>> {
        let board = parse_diagram(diagram).unwrap();
        let last = point(&board, last);
        (0..100)
            .map(|seed| {
                let mut b = board;
                let mut rng = Pcg32::seed_from_u64(seed);
                policy
                    .choose(&mut b, color, Some(last), Suicide::Forbidden, &mut rng)
                    .map(|p| board.size().name(p))
            })
            .collect()
    }

    /// The nakade vital point the slow and obvious way: flood the empty region, check its
    /// size and border, count each point's neighbours inside.
    fn slow_nakade_vital_point(board: &Board, start: Point) -> Option<Point> {
        let size = board.size();
        let on = board.on_board();
        let region = Bitboard::flood([start].into_iter().collect(), board.empty_points(), size);
        let border = region.neighbours(size, &on) & !region;
        let touches = |c| !(border & board.stones(c)).is_empty();
        if !(3..=6).contains(&region.count()) || (touches(Color::Black) && touches(Color::White)) {
            return None;
        }
        let inside = |p: Point| {
            let single: Bitboard = [p].into_iter().collect();
            (single.neighbours(size, &on) & region).count()
        };
        let best = region.iter().map(inside).max()?;
        let mut at_best = region.iter().filter(|&p| inside(p) == best);
        match (at_best.next(), at_best.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }

    #[test]
    fn the_nakade_test_agrees_with_a_flood_of_the_region_in_random_positions() {
        let mut checked = 0;
        for (n, seed) in [(5, 0..60), (9, 60..160), (13, 160..200), (19, 200..230)] {
            let size = crate::rules::BoardSize::new(n).unwrap();
            for seed in seed {
                let mut rng = Pcg32::seed_from_u64(seed);
                let mut board = Board::new(size);
                let mut color = Color::Black;
                // Stop at a random moment: early positions are open, late ones full of eyes.
                let stop = rng.random_range(0..3 * size.points());
                for _ in 0..stop {
                    if let Some(p) = crate::search::playout::random_light_move(
                        &mut board,
                        color,
                        Suicide::Forbidden,
                        &mut rng,
                    ) {
                        board.play_unchecked(p, color);
                    }
                    color = color.opponent();
                }
                for p in board.empty_points().iter() {
                    assert_eq!(
                        nakade_vital_point(&board, p),
                        slow_nakade_vital_point(&board, p),
                        "{n}x{n} seed {seed} at {}",
                        size.name(p)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 5_000, "only {checked} points checked");
    }

    #[test]
    fn the_nakade_test_agrees_with_a_flood_of_the_region_in_random_enclosed_shapes() {
        // Random connected regions of 3 to 8 points in a board of Black stones (now and
        // then one border stone White): every nakade shape and its near misses.
        let size = crate::rules::BoardSize::new(7).unwrap();
        let mut found = 0;
        for seed in 0..3000 {
            let mut rng = Pcg32::seed_from_u64(seed);
            let points: Vec<Point> = size.all_points().collect();
            let mut region = vec![points[rng.random_range(0..points.len())]];
            let target = rng.random_range(3..=8);
            while region.len() < target {
                let from = region[rng.random_range(0..region.len())];
                let board = Board::new(size);
                let q = board.neighbour_points(from)[rng.random_range(0..4)];
                if size.contains(q) && !region.contains(&q) {
                    region.push(q);
                }
            }
            let mut board = Board::new(size);
            let white = rng.random_ratio(1, 3);
            for &p in &points {
                if !region.contains(&p) {
                    let touches = board.neighbour_points(p).iter().any(|q| region.contains(q));
                    let c = if white && touches && rng.random_ratio(1, 4) {
                        Color::White
                    } else {
                        Color::Black
                    };
                    board.place_setup_stone(p, c).unwrap();
                }
            }
            for &p in &region {
                let fast = nakade_vital_point(&board, p);
                assert_eq!(fast, slow_nakade_vital_point(&board, p), "seed {seed}");
                found += usize::from(fast.is_some());
            }
        }
        assert!(found > 1_000, "only {found} vital points found");
    }

    fn always(policy: &PlayoutPolicy, diagram: &str, color: Color, last: &str, expected: &str) {
        for choice in choices(policy, diagram, color, last) {
            assert_eq!(choice.as_deref(), Some(expected));
        }
    }

    #[test]
    fn a_weighted_pick_follows_the_weights_and_skips_illegal_points() {
        let board = parse_diagram(
            ". . . . .
             . . . . .
             . . X . .
             . X . X .
             . . X . .",
        )
        .unwrap();
        let (c2, a1, e5) = (
            point(&board, "C2"),
            point(&board, "A1"),
            point(&board, "E5"),
        );
        let mut counts = [0; 3];
        for seed in 0..400 {
            let mut rng = Pcg32::seed_from_u64(seed);
            let mut candidates = Candidates::default();
            for p in [c2, a1, e5] {
                candidates.push(p);
            }
            // C2 is a suicide for White (its four neighbours are Black): never chosen.
            let chosen =
                candidates.pick_weighted(&board, Color::White, Suicide::Forbidden, &mut rng, |p| {
                    if p == a1 { 3.0 } else { 1.0 }
                });
            let k = [c2, a1, e5]
                .iter()
                .position(|&p| Some(p) == chosen)
                .unwrap();
            counts[k] += 1;
        }
        assert_eq!(counts[0], 0);
        // A1 three times as often as E5: 300 and 100 expected.
        assert!((250..350).contains(&counts[1]), "{counts:?}");
    }

    #[test]
    fn the_heavy_policy_takes_the_chain_the_last_move_left_in_atari() {
        let diagram = ". . . . .
                       . . X . .
                       . X O X .
                       . . . . .
                       . . . . .";
        always(&PlayoutPolicy::heavy(), diagram, Color::Black, "C3", "C2");
        // With captures off, the light policy plays anywhere.
        let light = choices(&PlayoutPolicy::light(), diagram, Color::Black, "C3");
        assert!(light.iter().any(|c| c.as_deref() != Some("C2")));
    }

    /// How many of the 100 choices are each of `points`.
    fn count(choices: &[Option<String>], points: &[&str]) -> Vec<usize> {
        points
            .iter()
            .map(|p| choices.iter().filter(|c| c.as_deref() == Some(*p)).count())
            .collect()
    }

    /// Only the 2-liberty check (and the self-atari filter it uses), or nothing.
    fn two_liberty_policy(on: bool) -> PlayoutPolicy {
        PlayoutPolicy {
            two_liberties: on,
            avoid_self_atari: true,
            ..PlayoutPolicy::light()
        }
    }

    #[test]
    fn the_two_liberty_check_ataris_the_last_moves_chain() {
        let diagram = ". . . . . . .
                       . . . . . . .
                       . . X X . . .
                       . X O O X . .
                       . . . . . . .
                       . . . . . . .
                       . . . . . . .";
        let on = count(
            &choices(&two_liberty_policy(true), diagram, Color::Black, "D4"),
            &["C3", "D3"],
        );
        let off = count(
            &choices(&two_liberty_policy(false), diagram, Color::Black, "D4"),
            &["C3", "D3"],
        );
        // It fires in 80% of the moves (and random moves find the points sometimes too).
        assert!(on[0] > 15 && on[1] > 15 && on[0] + on[1] >= 65, "{on:?}");
        assert!(off[0] + off[1] <= 20, "{off:?}");
    }

    #[test]
    fn the_two_liberty_check_extends_where_it_gains_liberties() {
        // White's E4 left C4-D4 with C3 and D3: D3 would keep two liberties (C3, E3) and
        // gain nothing; C3 gains.
        let diagram = ". . . . . . .
                       . . . . . . .
                       . . O O . . .
                       . O X X O . .
                       . . . . . . .
                       . . . O . . .
                       . . . . . . .";
        let on = count(
            &choices(&two_liberty_policy(true), diagram, Color::Black, "E4"),
            &["C3", "D3"],
        );
        assert!(on[0] >= 65 && on[1] <= 10, "{on:?}");
    }

    #[test]
    fn the_two_liberty_check_leaves_a_chain_whose_liberties_are_miai() {
        // C4 can connect to E4-E5 at D4 or run out at C3: no atari catches it.
        let diagram = ". . . . . . .
                       . . . . . . .
                       . . X . O . .
                       . X O . O . .
                       . . . . . . .
                       . . . . . . .
                       . . . . . . .";
        let on = count(
            &choices(&two_liberty_policy(true), diagram, Color::Black, "C4"),
            &["C3", "D4"],
        );
        assert!(on[0] + on[1] <= 15, "{on:?}");
    }

    #[test]
    fn the_heavy_policy_saves_a_chain_put_in_atari_by_extending_to_three_liberties() {
        always(
            &PlayoutPolicy::heavy(),
            ". . . . .
             . . . . .
             . O X O .
             . . O . .
             . . . . .",
            Color::Black,
            "C2",
            "C4",
        );
    }

    #[test]
    fn the_heavy_policy_saves_a_chain_in_atari_by_capturing_an_attacker_in_atari() {
        // White's D3 put black C3 in atari; running to C4 gains nothing (B4 and D4 are
        // white), but white C2 is in atari too, and taking it at C1 saves Black.
        always(
            &PlayoutPolicy::heavy(),
            ". . . . .
             . O . O .
             . O X O .
             . X O X .
             . . . . .",
            Color::Black,
            "D3",
            "C1",
        );
    }

    #[test]
    fn the_heavy_policy_plays_the_vital_point_of_a_straight_three() {
        always(
            &PlayoutPolicy::heavy(),
            ". . . . .
             O O O O O
             O . . . O
             O O O O O
             . . . . .",
            Color::Black,
            "C4",
            "C3",
        );
    }

    #[test]
    fn nakade_finds_the_vital_point_of_the_killable_shapes_only() {
        let vital = |diagram: &str, start: &str| {
            let b = parse_diagram(diagram).unwrap();
            nakade_vital_point(&b, point(&b, start)).map(|p| b.size().name(p))
        };
        // Bent three in the corner (A2, A1, B1): the corner of the bend.
        assert_eq!(
            vital(
                ". . . . .
                 . . . . .
                 O O . . .
                 . O O . .
                 . . O . .",
                "A2"
            ),
            Some("A1".to_string())
        );
        // Pyramid four (A3, B3, C3, B4): the centre.
        let pyramid = ". O . . .
                       O . O . .
                       . . . O .
                       O O O . .
                       . . . . .";
        assert_eq!(vital(pyramid, "A3"), Some("B3".to_string()));
        // The open area below is no eye space.
        assert_eq!(vital(pyramid, "A1"), None);
        // Square four has no vital point.
        assert_eq!(
            vital(
                ". O O . .
                 O . . O .
                 O . . O .
                 . O O . .
                 . . . . .",
                "B4"
            ),
            None
        );
    }

    #[test]
    fn the_heavy_policy_never_makes_a_big_self_atari() {
        let b = parse_diagram(
            ". . . . .
             . . . . .
             O O O . .
             X X . . .
             O O O . .",
        )
        .unwrap();
        let policy = PlayoutPolicy::heavy();
        assert!(policy.is_bad_self_atari(&b, point(&b, "C2"), Color::Black));
        assert!(!policy.is_bad_self_atari(&b, point(&b, "D2"), Color::Black));
        assert!(!PlayoutPolicy::light().is_bad_self_atari(&b, point(&b, "C2"), Color::Black));
        for seed in 0..200 {
            let mut scratch = b;
            let mut rng = Pcg32::seed_from_u64(seed);
            let p = policy.random_move(&mut scratch, Color::Black, Suicide::Forbidden, &mut rng);
            assert_ne!(p, Some(point(&b, "C2")));
        }
    }

    #[test]
    fn every_policy_keeps_its_own_true_eyes_and_passes_when_only_they_remain() {
        let b = parse_diagram(
            "X X .
             X X X
             . X X",
        )
        .unwrap();
        for policy in [PlayoutPolicy::heavy(), PlayoutPolicy::light()] {
            for color in Color::BOTH {
                let mut scratch = b;
                let mut rng = Pcg32::seed_from_u64(1);
                let last = Some(point(&b, "B2"));
                assert_eq!(
                    policy.choose(&mut scratch, color, last, Suicide::Forbidden, &mut rng),
                    None
                );
            }
        }
    }

    #[test]
    fn heavy_playouts_play_only_legal_moves_and_never_fill_their_true_eyes() {
        let policy = PlayoutPolicy::heavy();
        for seed in 0..60 {
            let size = crate::rules::BoardSize::new(7 + (seed as usize % 3) * 2).unwrap();
            let mut game = Game::new(size, Ruleset::Japanese);
            let mut rng = Pcg32::seed_from_u64(seed);
            let mut last = None;
            while !game.is_over() {
                let color = game.to_move();
                let mut scratch = *game.board();
                match policy.choose(&mut scratch, color, last, Suicide::Forbidden, &mut rng) {
                    Some(p) => {
                        assert!(!game.board().is_true_eye(p, color));
                        game.play(color, Move::Play(p)).expect("legal");
                        last = Some(p);
                    }
                    None => {
                        game.play(color, Move::Pass).unwrap();
                        last = None;
                    }
                }
            }
        }
    }
}
