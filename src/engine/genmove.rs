//! Move generation: the search, then resignation, passing, the endgame's reading and
//! the level's choice.

use super::choice::draw_candidate;
use super::end_of_game::{answers_an_invasion, inside_settled_area};
use super::levels::{LevelSettings, Sight};
use super::passing::{EndOfGame, least_loss};
use super::{Decision, Engine, Reply};
use crate::rules::{BoardSize, Color, Move};
use crate::search::{SearchError, SearchParams, SearchResult, SearchStats};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One line per move on stderr with `-v`: what the search spent and found.
fn log_move(
    size: BoardSize,
    color: Color,
    reply: Reply,
    result: &SearchResult,
    decision: Decision,
    spent: Duration,
) {
    if !log::log_enabled!(log::Level::Info) {
        return;
    }
    let name = |mv: Move| match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => size.name(p),
    };
    let chosen = match reply {
        Reply::Move(mv) => name(mv),
        Reply::Resign => "resign".to_string(),
    };
    let best: Vec<String> = result
        .candidates
        .iter()
        .take(3)
        .map(|c| format!("{} {}", name(c.mv), c.visits))
        .collect();
    log::info!(
        "{color:?} {chosen} ({decision:?}): {} playouts in {:.2} s, win rate {:.1}%, candidates {}",
        result.stats.playouts,
        spent.as_secs_f64(),
        100.0 * result.win_rate,
        best.join(", ")
    );
}

impl Engine {
    /// The network's most probable legal move for `color` that does not fill an own true
    /// eye, or a pass (`None` without a network for this board).
    fn network_move(&self, color: Color) -> Option<Move> {
        self.active_network()?;
        let board = self.game.board();
        let best = self.policy(color)?.into_iter().find(|&(p, _)| {
            !board.is_true_eye(p, color) && self.game.is_legal(color, Move::Play(p))
        });
        Some(best.map_or(Move::Pass, |(p, _)| Move::Play(p)))
    }

    /// Takes what the move spent since `entered`, before its search, from the search's
    /// time, and returns it: the first move of a process may wait for the model's shape
    /// table, built in the background at start-up (up to 0.8 s on a loaded machine), and
    /// that wait is the move's time too.
    fn charge_waiting(&self, params: &mut SearchParams, entered: Instant) -> Duration {
        if let Some(model) = &self.config.knowledge {
            model.prepare();
        }
        let waited = entered.elapsed();
        params.max_time = params.max_time.map(|t| t.saturating_sub(waited));
        waited
    }

    /// The move `genmove` would choose, without playing it or counting it towards a
    /// resignation (GTP `reg_genmove`).
    pub fn choose(&mut self, color: Color, stop: &AtomicBool) -> Result<Reply, SearchError> {
        let started = Instant::now();
        let mut params = self.params_for(color);
        params.root_moves = self.read_moves(color);
        self.charge_waiting(&mut params, started);
        let streaks = self.hopeless;
        let (reply, result, decision) = self.decide(color, &params, started, stop)?;
        self.hopeless = streaks;
        self.last = Some((result, decision));
        Ok(reply)
    }

    /// Chooses a move for `color` and plays it on the game (the game unchanged on an
    /// error).
    pub fn genmove(&mut self, color: Color, stop: &AtomicBool) -> Result<Reply, SearchError> {
        self.genmove_within(color, stop, None)
    }

    /// [`Engine::genmove`] thinking at most `time_cap` (after analysis already spent some).
    pub fn genmove_within(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        time_cap: Option<Duration>,
    ) -> Result<Reply, SearchError> {
        self.timer.start_move();
        self.genmove_from(color, stop, time_cap, Instant::now())
    }

    /// [`Engine::genmove_within`] for a move that began at `started` (the clock is
    /// charged from then).
    pub(super) fn genmove_from(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        time_cap: Option<Duration>,
        started: Instant,
    ) -> Result<Reply, SearchError> {
        let entered = Instant::now();
        let mut params = self.params_for(color);
        params.root_moves = self.read_moves(color);
        if let (Some(cap), Some(t)) = (time_cap, params.max_time) {
            params.max_time = Some(t.min(cap));
        }
        let waited = self.charge_waiting(&mut params, entered);
        let (mut reply, result, decision) = self.decide(color, &params, started, stop)?;
        let searching = params
            .max_time
            .map_or(result.stats.elapsed, |t| t.min(result.stats.elapsed));
        self.timer.learn_overhead(started, waited + searching);
        if let Reply::Move(mv) = reply
            && self.game.play(color, mv).is_err()
        {
            // The search only proposes legal moves; a pass is the safe answer if not, and
            // the answer is the move played. The tree is not trusted again.
            log::error!("the search proposed an illegal move; passing");
            self.search.clear();
            reply = Reply::Move(Move::Pass);
            let _ = self.game.play(color, Move::Pass);
        }
        self.timer.charge(color, started);
        log_move(
            self.game.size(),
            color,
            reply,
            &result,
            decision,
            started.elapsed(),
        );
        self.last = Some((result, decision));
        Ok(reply)
    }

    /// The move for `color` from a search with `params`, for a move that began at
    /// `started`: the search, then stages that may end the move (resigning, passing,
    /// filling) or change its choice, in this order.
    fn decide(
        &mut self,
        color: Color,
        params: &SearchParams,
        started: Instant,
        stop: &AtomicBool,
    ) -> Result<(Reply, SearchResult, Decision), SearchError> {
        if let Some(answer) = self.network_only_answer(color, started) {
            return Ok(answer);
        }
        let (mut result, noticed) = self.search_as_level(color, params, stop)?;
        let settings = self.settings();
        let mut draft = Draft {
            choice: result.best,
            decision: if noticed {
                Decision::Noticed
            } else {
                Decision::Searched
            },
        };
        let ended = self
            .at_the_move_limit()
            .or_else(|| self.resigns(color, &result, &settings))
            .or_else(|| self.reading_instead_of_a_pass(color, &result, started))
            .or_else(|| self.passes_or_fills(color, &result, &settings, started));
        if let Some((reply, decision)) = ended {
            return Ok((reply, result, decision));
        }
        plays_on(&result, &mut draft);
        if draft.choice == Move::Pass {
            // Nothing on the board was read: no legal move but filling eyes.
            return Ok((Reply::Move(Move::Pass), result, Decision::NoMoves));
        }
        self.reads_the_endgame(color, &result, started, &mut draft);
        let ended = self.keeps_out_of_settled_territory(color, &result, &settings, started, &draft);
        if let Some((reply, decision)) = ended {
            return Ok((reply, result, decision));
        }
        let first = (color, params, started, stop);
        self.first_impression(first, &mut result, &settings, &mut draft)?;
        if draft.decision == Decision::Searched
            && let Some(drawn) =
                draw_candidate(&result, draft.choice, settings.choice, self.chooser.rng())
            && drawn != draft.choice
        {
            draft = Draft {
                choice: drawn,
                decision: Decision::Drawn,
            };
        }
        Ok((Reply::Move(draft.choice), result, draft.decision))
    }

    /// `--net-only`: the network's move at once, no search.
    fn network_only_answer(
        &self,
        color: Color,
        started: Instant,
    ) -> Option<(Reply, SearchResult, Decision)> {
        if !self.config.network_only {
            return None;
        }
        let mv = self.network_move(color)?;
        let result = SearchResult {
            color,
            best: mv,
            win_rate: 0.5,
            candidates: Vec::new(),
            ownership: vec![0.0; self.game.size().points()],
            score_lead: 0.0,
            stats: SearchStats {
                elapsed: started.elapsed(),
                network_evaluations: 1,
                ..SearchStats::default()
            },
        };
        Some((Reply::Move(mv), result, Decision::Network))
    }

    /// The game has reached its move limit: pass from then on.
    fn at_the_move_limit(&self) -> Option<(Reply, Decision)> {
        let reached = self.game.record().len() >= self.game.move_limit();
        reached.then_some((Reply::Move(Move::Pass), Decision::MoveLimit))
    }

    /// A search that sees every move win (or lose) alike may pass with points still on
    /// the board: the biggest local game read out is worth more than a pass.
    fn reading_instead_of_a_pass(
        &self,
        color: Color,
        result: &SearchResult,
        started: Instant,
    ) -> Option<(Reply, Decision)> {
        if result.best != Move::Pass {
            return None;
        }
        let q = self.endgame_reading(color, Move::Pass, result, started)?;
        Some((Reply::Move(Move::Play(q)), Decision::LocalReading))
    }

    /// The pass judge, where the opponent passed or the search's best is a pass: a pass,
    /// a neutral point filled, or nothing (play on).
    fn passes_or_fills(
        &mut self,
        color: Color,
        result: &SearchResult,
        settings: &LevelSettings,
        started: Instant,
    ) -> Option<(Reply, Decision)> {
        let opponent_passed = self.game.passes_before(color) > 0;
        if !opponent_passed && result.best != Move::Pass {
            return None;
        }
        let judgement = self.judgement_after_pass(color, started.elapsed());
        let end = self.end_of_game(color, result, judgement.as_ref(), opponent_passed, settings);
        self.ends_with(end, judgement.is_some())
    }

    /// The answer of the pass judge's `end`, `counted` when a judgement was made for it.
    fn ends_with(&mut self, end: EndOfGame, counted: bool) -> Option<(Reply, Decision)> {
        match end {
            EndOfGame::Pass(reason) => {
                if counted {
                    self.count_on_judgement_after_pass();
                }
                Some((Reply::Move(Move::Pass), reason.decision()))
            }
            EndOfGame::Fill(p) => Some((Reply::Move(Move::Play(p)), Decision::Cleanup)),
            EndOfGame::PlayOn => None,
        }
    }

    /// Small local games are read out to the end: the exact best move within the one
    /// the search chose, or a bigger game when the reading can compare.
    fn reads_the_endgame(
        &self,
        color: Color,
        result: &SearchResult,
        started: Instant,
        draft: &mut Draft,
    ) {
        if let Some(q) = self.endgame_reading(color, draft.choice, result, started) {
            *draft = Draft {
                choice: Move::Play(q),
                decision: Decision::LocalReading,
            };
        }
    }

    /// Territory rules: a stone inside settled territory costs a point (own) or hands
    /// over a prisoner (the opponent's): fill a neutral point, or pass where the pass
    /// judge allows it.
    fn keeps_out_of_settled_territory(
        &mut self,
        color: Color,
        result: &SearchResult,
        settings: &LevelSettings,
        started: Instant,
        draft: &Draft,
    ) -> Option<(Reply, Decision)> {
        let Move::Play(p) = draft.choice else {
            return None;
        };
        if draft.decision == Decision::LocalReading
            || self.game.ruleset().scoring() != crate::rules::Scoring::Territory
            || !inside_settled_area(&self.game, result, p)
        {
            return None;
        }
        let judgement = self.judgement_after_pass(color, started.elapsed())?;
        let territory = judgement.territory(&self.game);
        if !(territory.black | territory.white).contains(p)
            || answers_an_invasion(&self.game, &judgement, p)
        {
            return None;
        }
        let end = self.end_of_game(color, result, Some(&judgement), false, settings);
        self.ends_with(end, true)
    }

    /// A rank's first impression, played unless its reading finds it too much worse.
    fn first_impression(
        &mut self,
        (color, params, started, stop): (Color, &SearchParams, Instant, &AtomicBool),
        result: &mut SearchResult,
        settings: &LevelSettings,
        draft: &mut Draft,
    ) -> Result<(), SearchError> {
        let Sight::AsRank {
            impression: Some(impression),
            ..
        } = settings.sees
        else {
            return Ok(());
        };
        if draft.decision != Decision::Searched {
            return Ok(());
        }
        let Move::Play(best) = draft.choice else {
            return Ok(());
        };
        let Some(first) = self.impression(color).filter(|&first| first != best) else {
            return Ok(());
        };
        let best_win_rate = result
            .candidates
            .iter()
            .find(|c| c.mv == draft.choice)
            .map_or(result.win_rate, |c| c.win_rate);
        let (first_win_rate, playouts) =
            self.impression_win_rate(color, params, result, first, started, stop)?;
        result.stats.playouts += playouts;
        if first_win_rate.is_some_and(|w| w >= best_win_rate - impression.within) {
            *draft = Draft {
                choice: Move::Play(first),
                decision: Decision::Impression,
            };
        }
        Ok(())
    }
}

/// The move a level is about to play and why, as the stages of `decide` leave it.
struct Draft {
    choice: Move,
    decision: Decision,
}

/// A pass no case of the pass judge allows gives way to a move on the board; where every
/// move loses (or wins) alike, the one with the best margin.
fn plays_on(result: &SearchResult, draft: &mut Draft) {
    if matches!(draft.decision, Decision::Searched | Decision::Noticed)
        && let Some((mv, by_margin)) = least_loss(result, draft.choice)
        && mv != draft.choice
    {
        *draft = Draft {
            choice: mv,
            decision: if by_margin {
                Decision::LeastLoss
            } else {
                Decision::PlaysOn
            },
        };
    }
}
