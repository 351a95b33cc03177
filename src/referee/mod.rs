//! The end-of-game arbiter (RULES.md §4): which chains are alive, dead or in seki, and the
//! count that follows. Layers, each filling the gaps of the one before and never
//! overriding a proof: Benson's unconditional life; the bent four in the corner; searches
//! from the final position with each colour moving first (ownership after good play: an
//! unsettled shape is dead for its owner, as Japanese rules say); a few stones without an
//! eye walled off by the other colour, dead whatever the playouts made of them
//! (`invaders`); and seki from points that playouts leave empty and touching both colours
//! because neither side can fill them.

pub mod benson;
pub mod endgame;
pub mod eye_space;
mod invaders;
pub mod race;
mod shapes;

use crate::rules::{
    Bitboard, Board, ByColor, CELLS, Color, Game, Move, Point, Score, Scoring, owned_regions,
};
use crate::search::SearchError;
use crate::search::playout::{PlayoutLimits, playout};
use crate::search::policy::PlayoutPolicy;
use crate::search::threads;
use crate::search::{Search, SearchParams};
use benson::pass_alive;
use rand::SeedableRng;
use rand_pcg::Pcg32;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A chain's fate at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

impl Status {
    /// The word `final_status_list` uses.
    pub fn name(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Dead => "dead",
            Status::Seki => "seki",
        }
    }
}

/// The nodes of the referee's own searches (the engine keeps room for them).
pub const SEARCH_NODES: usize = 400_000;

/// How hard the arbiter looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Effort {
    /// Search playouts with each colour moving first.
    pub playouts: u64,
    /// The most playouts when a chain stays unclear (the budget grows fourfold up to it).
    pub max_playouts: u64,
    /// Plain playouts (each colour first) for the seki test.
    pub seki_playouts: u64,
    pub threads: usize,
    /// A judgement not done by then gives no verdict (during play, the move's time).
    pub deadline: Option<Instant>,
}

impl Effort {
    /// 2,000 search playouts a side on 9x9, growing with the board to 5,000 on 19x19.
    pub fn for_board(points: usize, threads: usize) -> Effort {
        let playouts = (2_000 + (points.saturating_sub(81) as u64) * 10).min(5_000);
        Effort {
            playouts,
            max_playouts: playouts * 4,
            seki_playouts: 400,
            threads: threads.max(1),
            deadline: None,
        }
    }

    /// The same without looking again at unclear chains: for decisions during play, where
    /// the time comes out of the clock.
    pub fn quick(self) -> Effort {
        Effort {
            max_playouts: self.playouts,
            ..self
        }
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The arbiter's verdict on a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Stones of dead chains: removed before counting.
    pub dead: Bitboard,
    /// Stones of chains in seki: never dead; their eyes are nobody's territory under
    /// territory counting.
    pub seki: Bitboard,
    /// Stones that live or die by who moves first (counted dead for their owner).
    pub unsettled: Bitboard,
    /// Dead stones that only the static rule called dead (`invaders`): during play the
    /// area around them is not yet settled enough to leave an invasion unanswered.
    pub hopeless: Bitboard,
    /// Black's expected ownership per point, row by row from A1, in [-1, 1]: the mean of
    /// the searches with each colour first.
    pub ownership: Vec<f32>,
    /// Black's mean ownership, in the same order, at the end of plain heavy playouts,
    /// which play every border out before passing (the searches may pass at once).
    pub playout_ownership: Vec<f32>,
}

impl Judgement {
    /// The status of the chain on `p` (`None` on an empty point).
    pub fn status(&self, board: &Board, p: Point) -> Option<Status> {
        board.color_at(p)?;
        Some(if self.dead.contains(p) {
            Status::Dead
        } else if self.seki.contains(p) {
            Status::Seki
        } else {
            Status::Alive
        })
    }

    /// The count of RULES.md §5 with exactly these dead and seki stones; under territory
    /// counting less the points of its own territory that a side must still fill.
    pub fn score(&self, game: &Game) -> Score {
        let mut score = game.score(&self.dead, &self.seki);
        let owed = self.owed(game);
        score.black -= f64::from(owed.black.count());
        score.white -= f64::from(owed.white.count());
        score
    }

    /// Under territory counting, the points of each side's territory that it must still
    /// fill (`owed_moves`: a connection, a capture), which count for nobody; none under
    /// area counting, where filling one's own area costs nothing.
    pub fn owed(&self, game: &Game) -> ByColor<Bitboard> {
        if game.ruleset().scoring() != Scoring::Territory {
            return ByColor {
                black: Bitboard::EMPTY,
                white: Bitboard::EMPTY,
            };
        }
        let owned = self.seki_aware_regions(game);
        ByColor {
            black: owed_moves(game, self, Color::Black) & owned.black,
            white: owed_moves(game, self, Color::White) & owned.white,
        }
    }

    /// The points each side counts as territory (GNU Go's `black_territory` and
    /// `white_territory`): empty points and dead stones in regions of one colour, except
    /// regions touching a seki chain under territory counting.
    pub fn territory(&self, game: &Game) -> ByColor<Bitboard> {
        let mut owned = self.seki_aware_regions(game);
        let owed = self.owed(game);
        owned.black &= !owed.black;
        owned.white &= !owed.white;
        owned
    }

    /// The regions each side owns, less those touching a seki chain under territory
    /// counting.
    fn seki_aware_regions(&self, game: &Game) -> ByColor<Bitboard> {
        let board = game.board();
        let mut owned = owned_regions(board, &self.dead);
        if game.ruleset().scoring() == Scoring::Territory {
            let size = board.size();
            let on = board.on_board();
            let open = owned.black | owned.white;
            let seki_stones = self.seki & !self.dead;
            let in_seki = Bitboard::flood(seki_stones.neighbours(size, &on), open, size);
            owned.black &= !in_seki;
            owned.white &= !in_seki;
        }
        owned
    }

    /// Empty points and dead stones that count for nobody (GNU Go's `dame`, which includes
    /// seki eyes under territory counting).
    pub fn dame(&self, game: &Game) -> Bitboard {
        let board = game.board();
        let territory = self.territory(game);
        (board.empty_points() | self.dead) & !territory.black & !territory.white
    }
}

/// Judges every chain of the game's position (the passes that ended it are ignored: the
/// board is played on from here by both sides). `None` only when the effort's deadline
/// comes first: a look cut short is no verdict. All of it runs on one pool of
/// `effort.threads`; an error when the system will not start them.
pub fn judge(game: &Game, effort: &Effort) -> Result<Option<Judgement>, SearchError> {
    let pool = threads::lease(effort.threads)?;
    Ok(pool.install(|| judge_with(game, effort, true)))
}

/// The judgement; `second_look` also replays races with the dead stones taken off.
fn judge_with(game: &Game, effort: &Effort, second_look: bool) -> Option<Judgement> {
    let board = *game.board();
    let size = board.size();
    let suicide = game.ruleset().suicide();
    let seed = board.hash();
    let sure = ByColor {
        black: pass_alive(&board, Color::Black, suicide),
        white: pass_alive(&board, Color::White, suicide),
    };
    let chains = board.chains();
    let played_out = play_out(&board, &chains, suicide, effort, seed)?;
    let expected_margin = played_out.margin;
    // The searches play for every point: with the expected margin as komi, the game is
    // close, so neither side can win while careless about a group (a search that wins
    // or loses either way plays at random, and its ownership says nothing).
    let fair_komi = expected_margin.round() + 0.5;
    let proven =
        sure.black.chains | sure.white.chains | sure.black.territory | sure.white.territory;
    let mut playouts = effort.playouts;
    let (first, views) = loop {
        let this_effort = Effort {
            playouts,
            ..*effort
        };
        let (first, views) = chain_views(game, &chains, fair_komi, &this_effort, seed)?;
        // A chain that lives in about half the searches: look again, harder.
        let unclear = chains.iter().zip(&views).any(|(chain, v)| {
            (*chain & proven).is_empty() && v.mean().abs() < 0.4 && v.attacker_first > -0.5
        });
        if !unclear || playouts * 4 > effort.max_playouts {
            break (first, views);
        }
        log::debug!("arbiter: unclear chains after {playouts} playouts");
        playouts *= 4;
    };
    log::debug!("arbiter: expected margin {expected_margin:.1}, komi {fair_komi}");
    for (chain, v) in chains.iter().zip(&views) {
        log::debug!(
            "arbiter: chain {} ({} stones): attacker first {:.2}, owner first {:.2}",
            size.name(chain.iter().next().expect("a stone")),
            chain.count(),
            v.attacker_first,
            v.owner_first
        );
    }
    let mut dead = Bitboard::EMPTY;
    let mut unsettled = Bitboard::EMPTY;
    let bent_four = shapes::bent_four_victims(&board);
    let (one_eye, unsettled_eye) = shapes::one_eye_victims(&board);
    for (chain, view) in chains.iter().zip(&views) {
        let color = view.color;
        let proven_alive = !(*chain & sure.get(color).chains).is_empty();
        let proven_dead = !(*chain & sure.get(color.opponent()).territory).is_empty();
        if proven_dead || (!proven_alive && !(*chain & (bent_four | one_eye)).is_empty()) {
            dead |= *chain;
            if !proven_dead {
                unsettled |= *chain & unsettled_eye;
            }
        } else if proven_alive {
            continue;
        } else if view.attacker_first < -0.5 && view.owner_first > 0.5 {
            // Lives only if its owner moves first: dead (Japanese rules, Art. 7), unless
            // it is a race the side to move wins (below).
            dead |= *chain;
            unsettled |= *chain;
        } else if view.mean() < 0.0 {
            dead |= *chain;
        }
    }
    // Opposing pairs: of two unsettled chains in contact (adjacent or sharing a
    // liberty), a capturing race, the side to move wins; of two adjacent dead chains, the
    // one that lives more often survives.
    let on = board.on_board();
    let reach: Vec<Bitboard> = chains.iter().map(|c| c.neighbours(size, &on)).collect();
    for i in 0..chains.len() {
        for j in 0..chains.len() {
            if views[i].color == views[j].color {
                continue;
            }
            let adjacent = !(chains[j] & reach[i]).is_empty();
            let both =
                |set: Bitboard| !(chains[i] & set).is_empty() && !(chains[j] & set).is_empty();
            let survivor = if both(unsettled) && (adjacent || !(reach[i] & reach[j]).is_empty()) {
                let by_move = if views[i].to_move_first >= views[j].to_move_first {
                    i
                } else {
                    j
                };
                // Read out: a race of one eye against none (at least three stones) that
                // the side to move loses even moving first goes to the other side.
                let stone = |k: usize| chains[k].iter().next().expect("a stone");
                let read = |first| race::read_race(&board, stone(i), stone(j), first, suicide);
                let other = by_move ^ i ^ j;
                let lost = Some(race::RaceEnd::Captured(views[by_move].color));
                let eye_against_none = race::has_eye(&board, stone(other))
                    && !race::has_eye(&board, stone(by_move))
                    && chains[by_move].count() >= 3;
                if eye_against_none && read(Color::Black) == lost && read(Color::White) == lost {
                    other
                } else {
                    by_move
                }
            } else if both(dead) && adjacent {
                if views[i].mean() >= views[j].mean() {
                    i
                } else {
                    j
                }
            } else {
                continue;
            };
            dead &= !chains[survivor];
            unsettled &= !chains[survivor];
        }
    }
    if second_look {
        let unclear: Vec<Bitboard> = chains
            .iter()
            .zip(&views)
            .filter(|(chain, view)| {
                (**chain & (dead | proven)).is_empty() && view.mean().abs() < 0.5
            })
            .map(|(chain, _)| *chain)
            .collect();
        dead |= lost_races(game, dead, &unclear, effort)?;
    }
    // A few stones without an eye, walled off: dead whatever the playouts made of them.
    let hopeless =
        invaders::hopeless_invaders(&board, dead) & !(sure.black.chains | sure.white.chains | dead);
    dead |= hopeless;
    unsettled &= !hopeless;
    let seki = seki_chains(&board, &chains, dead, &sure, &played_out);

    let ownership = size
        .all_points()
        .map(|p| (first.black[p.index()] + first.white[p.index()]) / 2.0)
        .collect();
    let playout_ownership = size
        .all_points()
        .map(|p| played_out.black_ownership[p.index()])
        .collect();
    Some(Judgement {
        dead,
        seki,
        unsettled,
        hopeless,
        ownership,
        playout_ownership,
    })
}

/// Races that dead stones decide: with every dead chain replaced by its captor's stones
/// (taken and the gap closed), the chains next to them gain the liberties that the
/// searches, unable to finish the capture in their playouts, did not see (Fuego's
/// scoring_final FX178: a chain in a liberty race with a group whose other neighbour is
/// a dead chain with one eye). The unclear chains in contact with such a captor are judged
/// again on that board; those found dead there are dead. `None`: out of time.
fn lost_races(
    game: &Game,
    dead: Bitboard,
    unclear: &[Bitboard],
    effort: &Effort,
) -> Option<Bitboard> {
    let board = game.board();
    let size = board.size();
    let on = board.on_board();
    if dead.is_empty() || unclear.is_empty() {
        return Some(Bitboard::EMPTY);
    }
    let stones = |c: Color| (board.stones(c) & !dead) | (board.stones(c.opponent()) & dead);
    let (black, white) = (stones(Color::Black), stones(Color::White));
    let mut resolved = Game::new(size, game.ruleset());
    resolved.set_komi(game.komi());
    let listed = |b: Bitboard| b.iter().collect::<Vec<_>>();
    if resolved
        .set_up(&listed(black), &listed(white), game.to_move())
        .is_err()
    {
        return Some(Bitboard::EMPTY);
    }
    let captors: Vec<Bitboard> = resolved
        .board()
        .chains()
        .into_iter()
        .filter(|chain| !(*chain & dead).is_empty())
        .collect();
    let reach = |b: Bitboard| {
        let near = b.neighbours(size, &on);
        near | (near & board.empty_points()).neighbours(size, &on)
    };
    let racing: Vec<&Bitboard> = unclear
        .iter()
        .filter(|chain| captors.iter().any(|c| !(reach(*c) & **chain).is_empty()))
        .collect();
    if racing.is_empty() {
        return Some(Bitboard::EMPTY);
    }
    let again = judge_with(&resolved, &effort.quick(), false)?;
    Some(
        racing
            .into_iter()
            .filter(|chain| !(**chain & again.dead).is_empty())
            .fold(Bitboard::EMPTY, |all, chain| all | *chain),
    )
}

/// The move that removes opposing dead stones soonest: a capture, else a liberty of the
/// dead chain with the fewest liberties that is legal, no self-atari and no own true eye.
pub fn capturing_move(game: &Game, judgement: &Judgement, color: Color) -> Option<Point> {
    let board = game.board();
    let mut targets: Vec<Bitboard> = board
        .chains()
        .into_iter()
        .filter(|chain| !(*chain & judgement.dead & board.stones(color.opponent())).is_empty())
        .collect();
    let liberties = |chain: &Bitboard| match chain.iter().next() {
        Some(stone) => board.chain_liberties(stone),
        None => Bitboard::EMPTY,
    };
    targets.sort_by_key(|chain| liberties(chain).count());
    targets.iter().find_map(|chain| {
        let libs = liberties(chain);
        let captures = libs.count() == 1;
        libs.iter().find(|&p| {
            game.is_legal(color, Move::Play(p))
                && !board.is_true_eye(p, color)
                && (captures || board.liberties_after(p, color, 2) >= 2)
        })
    })
}

/// A neutral point that `color` can fill without risk: empty, next to living stones of
/// both colours, legal, and not a self-atari. Under area rules each one is a point to
/// whoever fills it. A seki's spare shared liberties qualify (of k shared liberties, k - 2
/// without eyes, k - 1 with an eye each): filling one leaves the filler two liberties, so
/// the seki stands; the last ones would be self-ataris.
pub fn fillable_dame(game: &Game, judgement: &Judgement, color: Color) -> Option<Point> {
    neutral_points(game.board(), judgement.dead)
        .iter()
        .find(|&p| safe_to_play(game, p, color))
}

/// Whether `color` can play `p` legally and keep at least two liberties there.
fn safe_to_play(game: &Game, p: Point, color: Color) -> bool {
    game.is_legal(color, Move::Play(p)) && game.board().liberties_after(p, color, 2) >= 2
}

/// Empty points next to living stones (not `dead`) of both colours.
fn neutral_points(board: &Board, dead: Bitboard) -> Bitboard {
    let size = board.size();
    let on = board.on_board();
    let near = |c: Color| (board.stones(c) & !dead).neighbours(size, &on);
    board.empty_points() & near(Color::Black) & near(Color::White)
}

/// The defensive move (teire) that a neutral point asks of `color`: where the opponent
/// can fill a neutral point safely and that would leave a living chain of `color` in
/// atari, the chain's other liberty, connected now (Fuego's cleanup test 180: the dame is
/// the opponent's to fill, and the connection costs the same point now or later); or, when
/// that liberty is one of a dead chain's, a legal move of the capture the chain needs.
pub fn teire(game: &Game, judgement: &Judgement, color: Color) -> Option<Point> {
    let owed = owed_moves(game, judgement, color);
    let legal = |p: &Point| game.is_legal(color, Move::Play(*p));
    let safe = owed.iter().find(|&p| safe_to_play(game, p, color));
    safe.or_else(|| owed.iter().find(legal))
}

/// The moves `color` still owes (issue 14): where a living chain of `color` is in atari,
/// or the opponent can fill a neutral point safely and so leave one in atari, (1) a connection: the chain's
/// other liberty, when `color` can play it safely (a boundary stone left in atari); (2) a
/// capture: when that liberty is also a liberty of dead opposing chains, a capturing race
/// that ends only by taking them, every liberty of theirs.
fn owed_moves(game: &Game, judgement: &Judgement, color: Color) -> Bitboard {
    let board = game.board();
    let dead_theirs = board.stones(color.opponent()) & judgement.dead;
    let ours = board.stones(color) & !judgement.dead & !judgement.seki;
    let mut owed = Bitboard::EMPTY;
    // A living chain already in atari by living stones: its liberty, which the opponent
    // could take now (an atari by dead stones ends when they are taken off).
    let size = board.size();
    let on = board.on_board();
    let by_living = |c: &Bitboard| (c.neighbours(size, &on) & dead_theirs).is_empty();
    let chains = board.chains().into_iter();
    for chain in chains.filter(|c| (*c & !ours).is_empty() && by_living(c)) {
        if let Some(l) = board.atari_liberty(chain.iter().next().expect("a stone"))
            && game.is_legal(color.opponent(), Move::Play(l))
            && (board.neighbour_points(l).into_iter()).all(|n| !dead_theirs.contains(n))
            && safe_to_play(game, l, color)
        {
            owed.insert(l);
        }
    }
    let fillable = neutral_points(board, judgement.dead)
        .iter()
        .filter(|&d| safe_to_play(game, d, color.opponent()));
    for d in fillable {
        for q in board
            .neighbour_points(d)
            .into_iter()
            .filter(|&q| ours.contains(q))
        {
            let libs = board.chain_liberties(q);
            if libs.count() != 2 {
                continue;
            }
            for l in libs.iter().filter(|&l| l != d) {
                // Next to dead stones: a race that ends only by taking them.
                let mut captures = false;
                for captive in board.neighbour_points(l).into_iter() {
                    if dead_theirs.contains(captive) {
                        owed |= board.chain_liberties(captive);
                        captures = true;
                    }
                }
                if !captures && safe_to_play(game, l, color) {
                    owed.insert(l);
                }
            }
        }
    }
    owed
}

/// Neutral regions that playouts give firmly to one side: a border still open (the count
/// of RULES.md §5 calls the region behind it nobody's, so the game is not over). A
/// single dame point that one side will fill is no open border (three points are
/// needed), nor are seki liberties, which playouts leave empty.
pub fn open_border(game: &Game, judgement: &Judgement) -> Bitboard {
    const FIRMLY: f32 = 0.6;
    const AT_LEAST: u32 = 3;
    let board = game.board();
    let size = board.size();
    let owned = owned_regions(board, &judgement.dead);
    let neutral = (board.empty_points() | judgement.dead) & !owned.black & !owned.white;
    let firm: Bitboard = neutral
        .iter()
        .filter(|&p| {
            judgement
                .playout_ownership
                .get(size.row_major(p))
                .is_some_and(|o| o.abs() >= FIRMLY)
        })
        .collect();
    neutral
        .components(size)
        .into_iter()
        .filter(|region| (*region & firm).count() >= AT_LEAST)
        .fold(Bitboard::EMPTY, |all, region| all | region)
}

/// Chains in seki: living chains, not pass-alive, next to an empty point that touches
/// living stones of both colours, where most playouts leave that point empty (neither side
/// can fill it without being captured) or end with the chain standing beside some such
/// point: of two shared liberties, one may be filled safely, either one, so each point
/// alone stays empty in only about half the playouts.
fn seki_chains(
    board: &Board,
    chains: &[Bitboard],
    dead: Bitboard,
    sure: &ByColor<benson::PassAlive>,
    played_out: &PlayedOut,
) -> Bitboard {
    const NEUTRAL_AT_LEAST: f32 = 0.6;
    let neutral = &played_out.neutral;
    let size = board.size();
    let on = board.on_board();
    let living = ByColor {
        black: board.stones(Color::Black) & !dead,
        white: board.stones(Color::White) & !dead,
    };
    let near = |stones: Bitboard| stones.neighbours(size, &on);
    let shared_liberties = board.empty_points() & near(living.black) & near(living.white);
    let seki_points: Bitboard = shared_liberties
        .iter()
        .filter(|p| neutral[p.index()] >= NEUTRAL_AT_LEAST)
        .collect();
    let proven = sure.black.chains | sure.white.chains;
    let mut seki = Bitboard::EMPTY;
    for (chain, in_seki) in chains.iter().zip(&played_out.chain_in_seki) {
        let beside_seki_point = !(near(*chain) & seki_points).is_empty();
        let mostly_in_seki =
            !(near(*chain) & shared_liberties).is_empty() && *in_seki >= NEUTRAL_AT_LEAST;
        if (*chain & (dead | proven)).is_empty() && (beside_seki_point || mostly_in_seki) {
            seki |= *chain;
        }
    }
    // One status per group: chains sharing a small eye with a seki chain are in the seki
    // too (their eyes are no territory under Japanese rules either).
    const SMALL_EYE: u32 = 4;
    let owned = owned_regions(board, &dead);
    let small_eyes: Vec<Bitboard> = (owned.black | owned.white)
        .components(size)
        .into_iter()
        .filter(|eye| eye.count() <= SMALL_EYE)
        .collect();
    loop {
        let mut grown = seki;
        for eye in small_eyes
            .iter()
            .filter(|eye| !(**eye & near(seki)).is_empty())
        {
            for chain in chains {
                if (*chain & (dead | proven)).is_empty() && !(near(*chain) & *eye).is_empty() {
                    grown |= *chain;
                }
            }
        }
        if grown == seki {
            return seki;
        }
        seki = grown;
    }
}

/// A chain as the searches saw it: mean ownership from its owner's side (+1: always its
/// owner's, -1: always the opponent's) with each side moving first.
#[derive(Clone, Copy, Debug)]
struct ChainView {
    color: Color,
    attacker_first: f32,
    owner_first: f32,
    /// With the game's side to move first (one of the two above).
    to_move_first: f32,
}

impl ChainView {
    fn mean(&self) -> f32 {
        (self.attacker_first + self.owner_first) / 2.0
    }
}

/// Black's ownership by cell with each colour first, and the view of every chain.
/// `None`: out of time.
fn chain_views(
    game: &Game,
    chains: &[Bitboard],
    komi: f64,
    effort: &Effort,
    seed: u64,
) -> Option<(ByColor<Vec<f32>>, Vec<ChainView>)> {
    let board = game.board();
    let first = ByColor {
        black: searched_ownership(game, Color::Black, komi, effort, seed)?,
        white: searched_ownership(game, Color::White, komi, effort, seed ^ 0x005E_C00D)?,
    };
    let to_move_first = first.get(game.to_move());
    let views = chains
        .iter()
        .map(|chain| {
            let color = board
                .color_at(chain.iter().next().expect("a chain has a stone"))
                .expect("a stone");
            let sign = if color == Color::Black { 1.0 } else { -1.0 };
            let mean = |own: &[f32]| {
                sign * chain.iter().map(|p| own[p.index()]).sum::<f32>() / chain.count() as f32
            };
            ChainView {
                color,
                attacker_first: mean(first.get(color.opponent())),
                owner_first: mean(first.get(color)),
                to_move_first: mean(to_move_first),
            }
        })
        .collect();
    Some((first, views))
}

/// Points over komi at which a playout's result counts as three-quarters of a win.
const SCORE_SCALE: f32 = 3.0;

/// Black's mean ownership per mailbox cell after a fresh search of the position with
/// `first` to move: the tree plays the first moves well, so a shape that dies only when
/// its vital point is taken shows it. `None`: the deadline cut the search short.
fn searched_ownership(
    game: &Game,
    first: Color,
    komi: f64,
    effort: &Effort,
    seed: u64,
) -> Option<Vec<f32>> {
    let board = game.board();
    let size = board.size();
    // Area counting whatever the game's rules: life and death do not depend on them, and
    // the playouts' margin (the komi) is an area margin.
    let ruleset = match game.ruleset().scoring() {
        Scoring::Area => game.ruleset(),
        Scoring::Territory => crate::rules::Ruleset::Chinese,
    };
    let mut fresh = Game::new(size, ruleset);
    fresh.set_komi(komi);
    let black: Vec<_> = board.stones(Color::Black).iter().collect();
    let white: Vec<_> = board.stones(Color::White).iter().collect();
    let mut cells = vec![0.0; CELLS];
    if fresh.set_up(&black, &white, first).is_err() {
        return Some(cells);
    }
    let mut params = SearchParams::for_size(size, effort.playouts);
    params.threads = effort.threads;
    params.deterministic = true;
    params.early_stop = false;
    params.seed = seed;
    params.max_nodes = SEARCH_NODES;
    params.score_utility = Some(crate::search::ScoreUtility {
        scale: SCORE_SCALE,
        weight: 1.0,
    });
    params.pass_from_start = true;
    params.max_time = effort
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()));
    let mut search = Search::new(PlayoutPolicy::heavy());
    let result = search
        .run_here(&fresh, first, &params, &AtomicBool::new(false))
        .ok()?;
    if result.stats.playouts < effort.playouts {
        return None;
    }
    for (k, p) in size.all_points().enumerate() {
        cells[p.index()] = result.ownership[k];
    }
    Some(cells)
}

/// What plain heavy playouts from the position (half with each colour first) end with.
struct PlayedOut {
    /// Per mailbox cell: the fraction of playouts that leave it empty and touching both
    /// colours.
    neutral: Vec<f32>,
    /// Per mailbox cell: Black's mean ownership (+1 Black's stone or region, -1 White's).
    black_ownership: Vec<f32>,
    /// Per chain of the position: the fraction of playouts that end with all of it still
    /// standing next to a point left empty and touching both colours.
    chain_in_seki: Vec<f32>,
    /// The mean area margin (Black minus White).
    margin: f64,
}

/// `None`: out of time.
fn play_out(
    board: &Board,
    chains: &[Bitboard],
    suicide: crate::rules::Suicide,
    effort: &Effort,
    seed: u64,
) -> Option<PlayedOut> {
    const CHUNK: u64 = 50;
    /// Counts over a batch of playouts.
    struct Tally {
        neutral: Vec<u32>,
        owner: Vec<i32>,
        chain_in_seki: Vec<u32>,
        margin: i64,
    }
    impl Tally {
        fn add(mut self, other: Tally) -> Tally {
            self.neutral
                .iter_mut()
                .zip(other.neutral)
                .for_each(|(x, y)| *x += y);
            self.owner
                .iter_mut()
                .zip(other.owner)
                .for_each(|(x, y)| *x += y);
            let seki = self.chain_in_seki.iter_mut().zip(other.chain_in_seki);
            seki.for_each(|(x, y)| *x += y);
            self.margin += other.margin;
            self
        }
    }
    let policy = PlayoutPolicy::heavy();
    let size = board.size();
    let on = board.on_board();
    let chunks = effort.seki_playouts.div_ceil(CHUNK).max(2);
    let colors: Vec<Color> = chains
        .iter()
        .filter_map(|c| c.iter().next().and_then(|p| board.color_at(p)))
        .collect();
    let zero = || Tally {
        neutral: vec![0; CELLS],
        owner: vec![0; CELLS],
        chain_in_seki: vec![0; chains.len()],
        margin: 0,
    };
    let tally = (0..chunks)
        .into_par_iter()
        .map(|k| {
            if effort.out_of_time() {
                return None;
            }
            let mut rng = Pcg32::seed_from_u64(seed.wrapping_add(k.wrapping_mul(0x9E37_79B9)));
            let mut trace = Vec::with_capacity(4 * CELLS);
            let mut tally = zero();
            let first = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut limits = PlayoutLimits::for_game_at(size, 0);
            limits.suicide = suicide;
            for _ in 0..CHUNK {
                let mut b = *board;
                trace.clear();
                let end = playout(&mut b, first, limits, &policy, None, &mut rng, &mut trace);
                tally.margin += i64::from(end.area_margin);
                let owned = owned_regions(&b, &Bitboard::EMPTY);
                let nobody = b.empty_points() & !owned.black & !owned.white;
                for p in nobody.iter() {
                    tally.neutral[p.index()] += 1;
                }
                for p in (b.stones(Color::Black) | owned.black).iter() {
                    tally.owner[p.index()] += 1;
                }
                for p in (b.stones(Color::White) | owned.white).iter() {
                    tally.owner[p.index()] -= 1;
                }
                for ((chain, color), count) in
                    chains.iter().zip(&colors).zip(&mut tally.chain_in_seki)
                {
                    let standing = (*chain & b.stones(*color)) == *chain;
                    if standing && !(chain.neighbours(size, &on) & nobody).is_empty() {
                        *count += 1;
                    }
                }
            }
            Some(tally)
        })
        .reduce(|| Some(zero()), |a, b| Some(a?.add(b?)))?;
    let total = (chunks * CHUNK) as f32;
    Some(PlayedOut {
        neutral: tally
            .neutral
            .into_iter()
            .map(|c| c as f32 / total)
            .collect(),
        black_ownership: tally.owner.into_iter().map(|c| c as f32 / total).collect(),
        chain_in_seki: tally
            .chain_in_seki
            .into_iter()
            .map(|c| c as f32 / total)
            .collect(),
        margin: tally.margin as f64 / total as f64,
    })
}
