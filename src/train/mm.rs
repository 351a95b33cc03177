//! Minorization-maximization for the generalised Bradley-Terry model (Hunter 2004, as
//! Coulom 2007 uses it): each position is a competition between the teams of its legal
//! moves, won by the move played. One group of features is updated at a time (a team
//! holds at most one feature of a group, which keeps every step an ascent), with Coulom's
//! prior of one virtual win and one virtual loss against a feature of strength 1.
//!
//! Sums run over fixed chunks of positions, added in chunk order: the same data gives
//! the same γ, bit for bit, on any number of threads.

use crate::knowledge::Team;
use crate::knowledge::model::{GROUPS, Model};
use crate::rules::MAX_POINTS;
use rayon::prelude::*;

/// Training positions: the teams of every legal move, and which move was played.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub teams: Vec<Team>,
    pub positions: Vec<Sample>,
}

#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub start: u64,
    pub len: u16,
    pub played: u16,
}

impl Samples {
    /// One position: the teams of its legal moves (at most one per point) and the one played.
    pub fn push(&mut self, teams: &[Team], played: usize) {
        assert!(teams.len() <= MAX_POINTS && played < teams.len());
        self.positions.push(Sample {
            start: self.teams.len() as u64,
            len: teams.len() as u16,
            played: played as u16,
        });
        self.teams.extend_from_slice(teams);
    }

    pub fn append(&mut self, mut other: Samples) {
        let shift = self.teams.len() as u64;
        self.positions
            .extend(other.positions.iter().map(|s| Sample {
                start: s.start + shift,
                ..*s
            }));
        self.teams.append(&mut other.teams);
    }

    fn teams_of(&self, s: &Sample) -> &[Team] {
        &self.teams[s.start as usize..s.start as usize + s.len as usize]
    }

    pub fn bytes(&self) -> usize {
        self.teams.len() * std::mem::size_of::<Team>()
            + self.positions.len() * std::mem::size_of::<Sample>()
    }
}

const CHUNKS: usize = 32;

/// The fitted strengths after `cycles` passes over every group (or fewer, once a cycle
/// gains less than `1e-5` log-likelihood per position), and the mean log-likelihood
/// after each cycle. `progress` hears of every group update.
pub fn fit(
    model: &Model,
    samples: &Samples,
    cycles: usize,
    progress: &mut dyn FnMut(usize, usize, f64),
) -> (Vec<f64>, Vec<f64>) {
    let mut gammas: Vec<f64> = model.gammas().iter().map(|&g| g as f64).collect();
    let mut wins = vec![0f64; gammas.len()];
    for s in &samples.positions {
        let team = &samples.teams_of(s)[s.played as usize];
        for g in 0..GROUPS {
            if let Some(l) = team.local(g) {
                wins[model.global(g, l)] += 1.0;
            }
        }
    }
    let bounds: Vec<(usize, usize)> = (0..CHUNKS)
        .map(|k| {
            let n = samples.positions.len();
            (n * k / CHUNKS, n * (k + 1) / CHUNKS)
        })
        .collect();
    let positions = samples.positions.len().max(1) as f64;
    let mut history = Vec::new();
    for cycle in 0..cycles {
        let mut cycle_ll = 0.0;
        for g in 0..GROUPS {
            let len = model.group_len(g);
            let base = model.global(g, 0);
            let parts: Vec<(Vec<f64>, f64)> = bounds
                .par_iter()
                .map(|&(from, to)| {
                    accumulate(
                        model,
                        samples,
                        &gammas,
                        g,
                        &samples.positions[from..to],
                        len,
                    )
                })
                .collect();
            let mut denominators = vec![0f64; len];
            let mut ll = 0.0;
            for (part, part_ll) in parts {
                for (d, p) in denominators.iter_mut().zip(part) {
                    *d += p;
                }
                ll += part_ll;
            }
            for (local, d) in denominators.iter().enumerate() {
                let i = base + local;
                gammas[i] = (wins[i] + 1.0) / (d + 2.0 / (gammas[i] + 1.0));
            }
            cycle_ll = ll / positions;
            progress(cycle, g, cycle_ll);
        }
        let gained = history
            .last()
            .map_or(f64::INFINITY, |&last| cycle_ll - last);
        history.push(cycle_ll);
        if gained < 1e-5 {
            break;
        }
    }
    (gammas, history)
}

/// For one chunk: the sum over positions of the strength of each of group `g`'s
/// features' team-mates over the position's total, and the chunk's log-likelihood.
fn accumulate(
    model: &Model,
    samples: &Samples,
    gammas: &[f64],
    g: usize,
    chunk: &[Sample],
    len: usize,
) -> (Vec<f64>, f64) {
    let mut acc = vec![0f64; len];
    let mut ll = 0.0;
    let mut mates = [0f64; MAX_POINTS];
    let mut locals = [u32::MAX; MAX_POINTS];
    for s in chunk {
        let teams = samples.teams_of(s);
        let mut total = 0.0;
        let mut played = 0.0;
        for (c, team) in teams.iter().enumerate() {
            let mut others = 1.0;
            let mut own = 1.0;
            locals[c] = u32::MAX;
            for h in 0..GROUPS {
                if let Some(l) = team.local(h) {
                    let gamma = gammas[model.global(h, l)];
                    if h == g {
                        own = gamma;
                        locals[c] = l;
                    } else {
                        others *= gamma;
                    }
                }
            }
            mates[c] = others;
            let strength = others * own;
            total += strength;
            if c == s.played as usize {
                played = strength;
            }
        }
        ll += (played / total).ln();
        for c in 0..teams.len() {
            if locals[c] != u32::MAX {
                acc[locals[c] as usize] += mates[c] / total;
            }
        }
    }
    (acc, ll)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::features::{CAPTURE, DISTANCE_LAST, NONE, capture};
    use crate::knowledge::model::Dictionary;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    /// Positions of 20 moves with random distances to the last move, a third of them
    /// captures; `chosen` picks the move played.
    fn synthetic(chosen: impl Fn(&[Team], &mut Pcg32) -> usize) -> Samples {
        let mut rng = Pcg32::seed_from_u64(3);
        let mut samples = Samples::default();
        for _ in 0..3000 {
            let teams: Vec<Team> = (0..20)
                .map(|_| {
                    let mut levels = [NONE; crate::knowledge::features::LEVEL_GROUPS];
                    if rng.random_bool(1.0 / 3.0) {
                        levels[CAPTURE] = capture::OTHER_ONE;
                    }
                    levels[DISTANCE_LAST] = rng.random_range(0..16);
                    Team {
                        levels,
                        tactical: 0,
                        shape: 0,
                    }
                })
                .collect();
            let played = chosen(&teams, &mut rng);
            samples.push(&teams, played);
        }
        samples
    }

    #[test]
    fn a_feature_every_chosen_move_has_comes_out_strongest() {
        let model = Model::untrained(Dictionary::default()).expect("model");
        let samples = synthetic(|teams, rng| {
            let captures: Vec<usize> = (0..teams.len())
                .filter(|&c| teams[c].levels[CAPTURE] != NONE)
                .collect();
            match captures.len() {
                0 => rng.random_range(0..teams.len()),
                n => captures[rng.random_range(0..n)],
            }
        });
        let (gammas, history) = fit(&model, &samples, 20, &mut |_, _, _| {});
        let capture = model.global(CAPTURE, capture::OTHER_ONE as u32);
        let strongest = (0..gammas.len())
            .max_by(|&a, &b| gammas[a].total_cmp(&gammas[b]))
            .expect("features");
        assert_eq!(strongest, capture);
        assert!(gammas[capture] > 20.0, "{}", gammas[capture]);
        // Every cycle gains likelihood.
        assert!(
            history.windows(2).all(|w| w[1] >= w[0] - 1e-12),
            "{history:?}"
        );
    }

    #[test]
    fn random_choices_teach_nothing() {
        let model = Model::untrained(Dictionary::default()).expect("model");
        let samples = synthetic(|teams, rng| rng.random_range(0..teams.len()));
        let (gammas, _) = fit(&model, &samples, 20, &mut |_, _, _| {});
        for (i, g) in gammas.iter().enumerate() {
            assert!((0.75..1.34).contains(g), "feature {i}: {g}");
        }
    }

    #[test]
    fn the_fit_does_not_depend_on_the_number_of_threads() {
        let model = Model::untrained(Dictionary::default()).expect("model");
        let samples = synthetic(|teams, rng| rng.random_range(0..teams.len() / 2));
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool")
                .install(|| fit(&model, &samples, 5, &mut |_, _, _| {}).0)
        };
        assert_eq!(run(1), run(3));
    }
}
