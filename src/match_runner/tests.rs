use super::*;
use crate::rules::{Bitboard, BoardSize, Color, Game, Move, Ruleset};
use crate::search::playout::random_light_move;
use rand::SeedableRng;
use rand_pcg::Pcg32;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Uniformly random legal moves that keep its own true eyes; passes when none is left.
struct RandomPlayer {
    name: String,
    game: Game,
    rng: Pcg32,
    /// Answer `final_score` from its own count.
    scores: bool,
    /// Resign instead of the move with this index in the game (0-based).
    resign_at: Option<usize>,
    /// Play an occupied point at this move index.
    illegal_at: Option<usize>,
    /// Think this long from this move index on.
    slow_from: Option<(usize, Duration)>,
    /// What `time_settings` and `time_left` told it.
    told: Vec<String>,
    /// Answer `fixed_handicap` with its first stone left out.
    misplaces_handicap: bool,
    /// Place `fixed_handicap`'s stones on their mirror image (as Pachi does with three).
    mirrors_handicap: bool,
}

impl RandomPlayer {
    fn new(name: &str, seed: u64) -> RandomPlayer {
        RandomPlayer {
            name: name.to_string(),
            game: Game::new(BoardSize::NINE, Ruleset::Chinese),
            rng: Pcg32::seed_from_u64(seed),
            scores: false,
            resign_at: None,
            illegal_at: None,
            slow_from: None,
            told: Vec::new(),
            misplaces_handicap: false,
            mirrors_handicap: false,
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(
        &mut self,
        size: BoardSize,
        komi: f64,
        ruleset: Ruleset,
    ) -> Result<(), PlayerError> {
        self.game = Game::new(size, ruleset);
        self.game.set_komi(komi);
        Ok(())
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        self.game
            .play(color, mv)
            .map(drop)
            .map_err(|e| PlayerError::IllegalMove(e.to_string()))
    }

    fn fixed_handicap(&mut self, stones: u32) -> Result<Vec<Point>, PlayerError> {
        let mut points = self
            .game
            .place_fixed_handicap(stones)
            .map_err(|e| PlayerError::Rejected(e.to_string()))?;
        if self.misplaces_handicap {
            points.remove(0);
        }
        if self.mirrors_handicap {
            let size = self.game.size();
            let n = size.get();
            let mirrored: Vec<Point> = points
                .iter()
                .map(|&p| {
                    let (col, row) = size.col_row(p);
                    size.point(n - 1 - col, row).expect("on the board")
                })
                .collect();
            self.game = Game::new(size, self.game.ruleset());
            self.game.set_free_handicap(&mirrored).expect("legal");
            return Ok(mirrored);
        }
        Ok(points)
    }

    fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), PlayerError> {
        self.told
            .push(format!("set_free_handicap {}", points.len()));
        self.game
            .set_free_handicap(points)
            .map_err(|e| PlayerError::Rejected(e.to_string()))
    }

    fn time_settings(&mut self, control: TimeControl) -> Result<(), PlayerError> {
        self.told.push(format!("{control:?}"));
        Ok(())
    }

    fn time_left(&mut self, color: Color, left: Duration, count: u32) -> Result<(), PlayerError> {
        self.told
            .push(format!("{color} {} {count}", left.as_millis()));
        Ok(())
    }

    fn genmove(&mut self, color: Color) -> Result<Reply, PlayerError> {
        let index = self.game.record().len();
        if let Some((from, delay)) = self.slow_from
            && index >= from
        {
            std::thread::sleep(delay);
        }
        if self.resign_at == Some(index) {
            return Ok(Reply::Resign);
        }
        if self.illegal_at == Some(index)
            && let Some(&(_, Move::Play(p))) = self
                .game
                .record()
                .iter()
                .rev()
                .find(|(_, m)| *m != Move::Pass)
        {
            return Ok(Reply::Move(Move::Play(p)));
        }
        let suicide = self.game.ruleset().suicide();
        let mut mv = Move::Pass;
        for _ in 0..20 {
            let mut board = *self.game.board();
            match random_light_move(&mut board, color, suicide, &mut self.rng) {
                Some(p) if self.game.is_legal(color, Move::Play(p)) => {
                    mv = Move::Play(p);
                    break;
                }
                Some(_) => continue,
                None => break,
            }
        }
        self.play(color, mv)?;
        Ok(Reply::Move(mv))
    }

    fn final_score(&mut self) -> Result<Option<String>, PlayerError> {
        Ok(self.scores.then(|| {
            self.game
                .score(&Bitboard::EMPTY, &Bitboard::EMPTY)
                .to_string()
        }))
    }
}

/// The moves of an SGF text, as (colour, column, row from the top); `None` for a pass.
fn read_sgf_moves(sgf: &str) -> Vec<(Color, Option<(usize, usize)>)> {
    let mut moves = Vec::new();
    // The root node comes first; every later node is one move.
    for node in sgf.split(';').skip(2) {
        let node = node.trim();
        let color = match node.as_bytes().first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            other => panic!("unexpected node start {other:?} in {node:?}"),
        };
        assert_eq!(&node[1..2], "[", "{node:?}");
        let end = node.find(']').expect("closed value");
        let value = &node[2..end];
        let point = match value.as_bytes() {
            [] => None,
            [c, r] => Some(((c - b'a') as usize, (r - b'a') as usize)),
            _ => panic!("bad point {value:?}"),
        };
        moves.push((color, point));
    }
    moves
}

fn sgf_property<'a>(sgf: &'a str, name: &str) -> Option<&'a str> {
    let start = sgf.find(&format!("{name}["))? + name.len() + 1;
    let len = sgf[start..].find(']')?;
    Some(&sgf[start..start + len])
}

fn temp_dir(label: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("yeoul-match-{label}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn check_sgf_matches(path: &Path, record: &GameRecord) {
    let text = std::fs::read_to_string(path).expect("SGF written");
    assert!(text.starts_with("(;FF[4]GM[1]"), "{text}");
    assert_eq!(sgf_property(&text, "SZ"), Some("5"));
    assert_eq!(sgf_property(&text, "PB"), Some(record.black.as_str()));
    assert_eq!(sgf_property(&text, "PW"), Some(record.white.as_str()));
    assert_eq!(
        sgf_property(&text, "RE").map(str::to_string),
        Some(record.result.sgf_result())
    );
    let parsed = read_sgf_moves(&text);
    assert_eq!(parsed.len(), record.moves.len());
    let n = record.size.get();
    for (&(color, mv), &(sgf_color, sgf_point)) in record.moves.iter().zip(&parsed) {
        assert_eq!(color, sgf_color);
        let expected = match mv {
            Move::Pass => None,
            Move::Play(p) => {
                let (col, row) = record.size.col_row(p);
                Some((col, n - 1 - row))
            }
        };
        assert_eq!(sgf_point, expected);
    }
}

#[test]
fn wilson_interval_matches_known_values() {
    let (lo, hi) = wilson_interval(7.0, 10);
    assert!((lo - 0.3968).abs() < 5e-4, "{lo}");
    assert!((hi - 0.8922).abs() < 5e-4, "{hi}");
    let (lo, hi) = wilson_interval(50.0, 100);
    assert!((lo - 0.4038).abs() < 5e-4 && (hi - 0.5962).abs() < 5e-4);
    assert_eq!(wilson_interval(0.0, 0), (0.0, 1.0));
    let (lo, hi) = wilson_interval(10.0, 10);
    assert!((lo - 0.7225).abs() < 5e-4 && hi == 1.0);
    assert_eq!(wilson_interval(0.0, 10).0, 0.0);
}

#[test]
fn scores_parse() {
    assert_eq!(parse_score("B+3.5"), Some((Some(Color::Black), 3.5)));
    assert_eq!(parse_score(" w+0.5 "), Some((Some(Color::White), -0.5)));
    assert_eq!(parse_score("W+12"), Some((Some(Color::White), -12.0)));
    assert_eq!(parse_score("0"), Some((None, 0.0)));
    assert_eq!(parse_score("Jigo"), Some((None, 0.0)));
    assert_eq!(parse_score("B+0"), Some((None, 0.0)));
    assert_eq!(parse_score("B+R"), None);
    assert_eq!(parse_score("X+3"), None);
    assert_eq!(parse_score(""), None);
    assert_eq!(parse_score("B+-3"), None);
    assert_eq!(parse_score("é+3"), None);
}

#[test]
fn command_lines_split_on_whitespace_and_quotes() {
    assert_eq!(
        split_command_line("gnugo --mode gtp  --level 10").unwrap(),
        ["gnugo", "--mode", "gtp", "--level", "10"]
    );
    assert_eq!(
        split_command_line(r#""/opt/my engine/bin" -c "a b" """#).unwrap(),
        ["/opt/my engine/bin", "-c", "a b", ""]
    );
    assert!(split_command_line("  ").is_err());
    assert!(split_command_line(r#"gnugo "--mode"#).is_err());
}

/// One 5x5 game under `clock` (and `network_delay` on every move) between a prompt player
/// and one that is slow from a move on; the players come back with what they were told.
fn clocked_game(
    clock: TimeControl,
    network_delay: Duration,
    slow_from: Option<(usize, Duration)>,
) -> (MatchSummary, RandomPlayer, RandomPlayer) {
    let config = MatchConfig {
        size: BoardSize::new(5).unwrap(),
        games: 1,
        clock,
        network_delay,
        ..MatchConfig::default()
    };
    let mut a = RandomPlayer::new("prompt", 1);
    let mut b = RandomPlayer::new("slow", 2);
    b.slow_from = slow_from;
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    (summary, a, b)
}

#[test]
fn a_move_slower_than_the_clock_loses_on_time_and_the_clock_is_told() {
    let clock = TimeControl::ByoYomi {
        main: Duration::from_millis(100),
        period: Duration::from_millis(150),
        periods: 2,
    };
    // White's second move (index 3) takes 500 ms: the main time and both periods.
    let slow = Some((3, Duration::from_millis(500)));
    let (summary, a, b) = clocked_game(clock, Duration::ZERO, slow);
    let rec = &summary.records[0];
    assert_eq!(
        rec.result,
        GameResult::Time(Color::Black),
        "{:?}",
        rec.errors
    );
    assert_eq!(rec.result.sgf_result(), "B+T");
    assert_eq!(rec.moves.len(), 3, "the slow move is not played");
    assert_eq!((summary.b.time_losses, summary.a.time_losses), (1, 0));
    assert_eq!(summary.on_time, 1);
    assert_eq!(b.told[0], format!("{clock:?}"));
    // Before each of its moves, what its clock showed: all the main time at first.
    assert_eq!(b.told[1], "white 100 0");
    assert!(
        b.told.len() == 3 && a.told.len() == 3,
        "{:?} {:?}",
        a.told,
        b.told
    );

    // The same player without a clock plays on.
    let slow = Some((3, Duration::from_millis(1)));
    let (summary, _, b) = clocked_game(TimeControl::None, Duration::ZERO, slow);
    assert!(matches!(
        summary.records[0].result,
        GameResult::Score { .. }
    ));
    assert!(b.told.is_empty());
}

#[test]
fn a_move_past_a_byo_yomi_period_burns_one_and_the_last_loses_on_time() {
    let clock = TimeControl::ByoYomi {
        main: Duration::ZERO,
        period: Duration::from_millis(200),
        periods: 3,
    };
    // From White's second move on, 250 ms a move: one period each, the third is the last.
    let slow = Some((3, Duration::from_millis(250)));
    let (summary, _, _) = clocked_game(clock, Duration::ZERO, slow);
    let rec = &summary.records[0];
    assert_eq!(
        rec.result,
        GameResult::Time(Color::Black),
        "{:?}",
        rec.errors
    );
    assert_eq!(rec.moves.len(), 7);
    assert_eq!((summary.b.periods_lost, summary.a.periods_lost), (2, 0));
    assert_eq!(summary.b.time_losses, 1);
    assert!(summary.to_string().contains("periods"), "{summary}");
}

#[test]
fn the_network_delay_is_charged_on_every_move() {
    let clock = TimeControl::Absolute {
        main: Duration::from_secs(1),
    };
    let (summary, _, _) = clocked_game(clock, Duration::from_millis(300), None);
    let rec = &summary.records[0];
    // Black's fourth move brings its clock to 1.2 s of 1 s.
    assert_eq!(
        rec.result,
        GameResult::Time(Color::White),
        "{:?}",
        rec.errors
    );
    assert_eq!(rec.moves.len(), 6);
}

#[test]
fn random_games_on_five_by_five_add_up_and_alternate() {
    let dir = temp_dir("random");
    let config = MatchConfig {
        size: BoardSize::new(5).unwrap(),
        komi: 0.5,
        ruleset: Ruleset::Chinese,
        games: 6,
        alternate: true,
        sgf_dir: Some(dir.clone()),
        move_timeout: Duration::from_secs(10),
        clock: TimeControl::None,
        network_delay: Duration::ZERO,
        handicap: 0,
        max_moves: None,
    };
    let mut a = RandomPlayer::new("rand-a", 1);
    let mut b = RandomPlayer::new("rand-b", 2);
    b.scores = true; // a cannot score: the rules core counts
    let mut seen = Vec::new();
    let summary = run_match(&config, &mut a, &mut b, None, &mut |r| seen.push(r.number));
    assert_eq!(seen, [1, 2, 3, 4, 5, 6]);
    assert_eq!(summary.games, 6);
    assert_eq!(summary.records.len(), 6);
    assert_eq!(
        summary.a.wins + summary.b.wins + summary.draws + summary.no_results,
        6
    );
    assert_eq!(
        summary.black_wins + summary.white_wins,
        summary.a.wins + summary.b.wins
    );
    for p in [&summary.a, &summary.b] {
        assert_eq!(p.wins_as_black + p.wins_as_white, p.wins);
        assert_eq!((p.games_as_black, p.games_as_white), (3, 3));
        assert_eq!(p.errors(), 0);
        assert!(p.moves > 0);
        assert!(p.max_time >= p.average_time());
    }
    assert_eq!(summary.no_results, 0);
    assert_eq!(summary.scored + summary.resignations + summary.forfeits, 6);
    let total: usize = summary.records.iter().map(|r| r.moves.len()).sum();
    assert!((summary.average_length - total as f64 / 6.0).abs() < 1e-9);
    let a_points = summary.a.wins as f64 + 0.5 * summary.draws as f64;
    assert_eq!(
        summary.a_win_rate,
        Some(a_points / (6 - summary.no_results) as f64)
    );
    for (i, rec) in summary.records.iter().enumerate() {
        let (black, white) = if i % 2 == 0 {
            ("rand-a", "rand-b")
        } else {
            ("rand-b", "rand-a")
        };
        assert_eq!((rec.black.as_str(), rec.white.as_str()), (black, white));
        assert_eq!(rec.a_is_black, i % 2 == 0);
        assert!(rec.errors.is_empty(), "{:?}", rec.errors);
        assert!(matches!(rec.result, GameResult::Score { .. }));
        assert_eq!(rec.times.len(), rec.moves.len());
        // Moves alternate from Black, and the game ended on two passes or the limit.
        for (j, &(color, _)) in rec.moves.iter().enumerate() {
            assert_eq!(
                color,
                if j % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            );
        }
        let two_passes = rec.moves.len() >= 2
            && rec.moves[rec.moves.len() - 2..]
                .iter()
                .all(|&(_, m)| m == Move::Pass);
        assert!(two_passes || rec.moves.len() == 75, "{rec}");
        // Only a's final_score is asked (b could answer): the rules core counts.
        assert_eq!(rec.scorer.as_deref(), Some("rules core (all stones alive)"));
        check_sgf_matches(&dir.join(sgf_file_name(rec.number)), rec);
    }
    let text = summary.to_string();
    assert!(text.contains("rand-a") && text.contains("rand-b"), "{text}");
    eprintln!("{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_stops_at_the_move_limit_and_is_counted_as_it_stands() {
    let config = MatchConfig {
        size: BoardSize::new(5).unwrap(),
        games: 2,
        max_moves: Some(7),
        ..MatchConfig::default()
    };
    let mut a = RandomPlayer::new("rand-a", 1);
    let mut b = RandomPlayer::new("rand-b", 2);
    b.scores = true;
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    for rec in &summary.records {
        assert_eq!(rec.moves.len(), 7, "{rec}");
        assert!(matches!(rec.result, GameResult::Score { .. }), "{rec}");
    }
    assert_eq!(summary.stopped, 2);
    assert!(
        summary
            .to_string()
            .contains("stopped at the move limit and counted: 2")
    );
}

#[test]
fn the_first_players_count_is_used_and_matches_the_rules_core() {
    let config = MatchConfig {
        size: BoardSize::new(5).unwrap(),
        komi: 2.5,
        games: 2,
        alternate: false,
        ..MatchConfig::default()
    };
    let mut a = RandomPlayer::new("scorer", 3);
    a.scores = true;
    let mut b = RandomPlayer::new("other", 4);
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    for rec in &summary.records {
        assert!(rec.a_is_black);
        assert_eq!(rec.scorer.as_deref(), Some("scorer"));
        let mut game = Game::new(config.size, config.ruleset);
        game.set_komi(config.komi);
        for &(c, m) in &rec.moves {
            game.play(c, m).unwrap();
        }
        let score = game.score(&Bitboard::EMPTY, &Bitboard::EMPTY);
        match &rec.result {
            GameResult::Score {
                winner,
                margin,
                text,
            } => {
                assert_eq!(*winner, score.winner());
                assert_eq!(*margin, score.margin());
                assert_eq!(text, &score.to_string());
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(summary.a.games_as_black, 2);
}

#[test]
fn resignation_and_illegal_moves_end_games() {
    let config = MatchConfig {
        size: BoardSize::new(5).unwrap(),
        games: 2,
        sgf_dir: Some(temp_dir("faults")),
        ..MatchConfig::default()
    };
    // a resigns at its second move (index 2 as Black, index 3 as White).
    let mut a = RandomPlayer::new("resigner", 5);
    a.resign_at = Some(2);
    // b plays an occupied point at move index 4, which is Black's (game 2).
    let mut b = RandomPlayer::new("cheat", 6);
    b.illegal_at = Some(4);
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    assert_eq!(
        summary.records[0].result,
        GameResult::Resignation(Color::White)
    );
    assert_eq!(summary.records[0].moves.len(), 2);
    assert_eq!(summary.records[0].result.sgf_result(), "W+R");
    // Game 2: b is Black and moves at 0, 2, 4; a is White and never reaches index 2.
    let second = &summary.records[1];
    assert!(
        matches!(
            second.result,
            GameResult::Forfeit {
                winner: Color::White,
                ..
            }
        ),
        "{second}"
    );
    assert_eq!(second.result.sgf_result(), "W+F");
    assert_eq!(second.faults.len(), 1);
    assert_eq!(second.faults[0].kind, FaultKind::IllegalMove);
    assert_eq!(second.faults[0].role, Role::Black);
    assert_eq!(summary.b.illegal_moves, 1);
    assert_eq!((summary.a.wins, summary.b.wins), (1, 1));
    assert_eq!((summary.resignations, summary.forfeits), (1, 1));
    let dir = config.sgf_dir.as_ref().unwrap();
    let text = std::fs::read_to_string(dir.join("game-002.sgf")).unwrap();
    assert_eq!(sgf_property(&text, "RE"), Some("W+F"));
    assert!(text.contains("illegal move"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sgf_escapes_and_counts_rows_from_the_top() {
    let size = BoardSize::new(5).unwrap();
    let rec = GameRecord {
        number: 7,
        black: "a]b\\c".to_string(),
        white: "w".to_string(),
        a_is_black: true,
        size,
        komi: 6.5,
        ruleset: Ruleset::Japanese,
        handicap: Vec::new(),
        moves: vec![
            (Color::Black, Move::Play(size.parse_point("A1").unwrap())),
            (Color::White, Move::Play(size.parse_point("E5").unwrap())),
            (Color::Black, Move::Pass),
        ],
        result: GameResult::NoResult("test".to_string()),
        times: Vec::new(),
        periods_lost: [0; 2],
        scorer: None,
        errors: Vec::new(),
        faults: Vec::new(),
    };
    let sgf = game_to_sgf(&rec);
    assert!(sgf.contains("PB[a\\]b\\\\c]"), "{sgf}");
    assert!(sgf.contains("RU[Japanese]") && sgf.contains("KM[6.5]") && sgf.contains("RE[Void]"));
    assert!(sgf.contains(";B[ae];W[ea];B[])"), "{sgf}");
    assert_eq!(sgf_file_name(7), "game-007.sgf");
}

#[test]
fn the_game_line_gives_each_colours_mean_time() {
    let size = BoardSize::new(5).unwrap();
    let ms = Duration::from_millis;
    let rec = GameRecord {
        number: 3,
        black: "b".to_string(),
        white: "w".to_string(),
        a_is_black: false,
        size,
        komi: 6.5,
        ruleset: Ruleset::Chinese,
        handicap: Vec::new(),
        moves: Vec::new(),
        result: GameResult::NoResult("test".to_string()),
        times: vec![
            (Color::Black, ms(1000)),
            (Color::White, ms(300)),
            (Color::Black, ms(2000)),
        ],
        periods_lost: [0; 2],
        scorer: None,
        errors: Vec::new(),
        faults: Vec::new(),
    };
    assert!((rec.mean_time(Color::Black) - 1.5).abs() < 1e-9);
    assert!((rec.mean_time(Color::White) - 0.3).abs() < 1e-9);
    let line = rec.to_string();
    assert!(line.contains("(0 moves; s/move B 1.50, W 0.30)"), "{line}");
}

#[cfg(unix)]
mod external {
    use super::*;

    const GNUGO: &str = "/usr/games/gnugo";

    #[test]
    fn an_engine_without_kgs_time_settings_gets_the_clock_in_gtp_words() {
        if !Path::new(GNUGO).exists() {
            assert_ne!(
                std::env::var("CI").as_deref(),
                Ok("true"),
                "{GNUGO} is missing under CI"
            );
            eprintln!("{GNUGO} is not installed: skipped");
            return;
        }
        let mut gnugo = GtpPlayer::start(
            &format!("{GNUGO} --mode gtp --level 0"),
            Duration::from_secs(30),
        )
        .unwrap();
        gnugo
            .new_game(BoardSize::NINE, 7.5, Ruleset::Chinese)
            .unwrap();
        let clock = TimeControl::ByoYomi {
            main: Duration::from_secs(10),
            period: Duration::from_secs(5),
            periods: 3,
        };
        // GNU Go answers `?` to a time_settings or time_left it cannot read.
        gnugo.time_settings(clock).unwrap();
        gnugo
            .time_left(Color::Black, Duration::from_millis(4_500), 2)
            .unwrap();
        assert!(gnugo.genmove(Color::Black).is_ok());
    }

    /// A GTP engine in sh that passes; `hang`, `crash` or `garbage` change its genmove.
    fn fake_engine(mode: &str) -> (PathBuf, String) {
        let dir = temp_dir(&format!("fake-{mode}"));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("engine.sh");
        std::fs::write(
            &script,
            r#"mode="$1"
while read -r id cmd rest; do
  case "$cmd" in
    name) printf '=%s fake\n\n' "$id" ;;
    version) printf '=%s 1.0\n\n' "$id" ;;
    known_command) printf '=%s false\n\n' "$id" ;;
    genmove)
      case "$mode" in
        hang) sleep 2 ;;
        crash) echo dying >&2; exit 3 ;;
        garbage) printf '=%s Z99\n\n' "$id"; continue ;;
      esac
      printf '=%s PASS\n\n' "$id" ;;
    play) printf 'noise\n=%s\n\n' "$id" ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
  esac
done
"#,
        )
        .unwrap();
        let command = format!("/bin/sh {} {mode}", script.display());
        (dir, command)
    }

    #[test]
    fn a_fake_engine_passes_and_its_faults_are_reported() {
        if !Path::new("/bin/sh").exists() {
            eprintln!("no /bin/sh: skipped");
            return;
        }
        let size = BoardSize::NINE;
        let timeout = Duration::from_millis(300);

        let (dir, command) = fake_engine("pass");
        let mut engine = GtpPlayer::start(&command, timeout).unwrap();
        assert_eq!(engine.name(), "fake 1.0");
        engine.new_game(size, 7.5, Ruleset::Chinese).unwrap();
        engine.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(engine.genmove(Color::White), Ok(Reply::Move(Move::Pass)));
        assert_eq!(engine.final_score(), Ok(None));
        drop(engine);
        let _ = std::fs::remove_dir_all(dir);

        let (dir, command) = fake_engine("hang");
        let mut engine = GtpPlayer::start(&command, timeout).unwrap();
        engine.new_game(size, 7.5, Ruleset::Chinese).unwrap();
        assert!(matches!(
            engine.genmove(Color::Black),
            Err(PlayerError::Timeout(_))
        ));
        assert!(!engine.is_running());
        assert!(matches!(
            engine.play(Color::Black, Move::Pass),
            Err(PlayerError::Crashed(_))
        ));
        engine.new_game(size, 7.5, Ruleset::Chinese).unwrap();
        assert!(engine.is_running());
        drop(engine);
        let _ = std::fs::remove_dir_all(dir);

        let (dir, command) = fake_engine("crash");
        let mut engine = GtpPlayer::start(&command, timeout).unwrap();
        engine.new_game(size, 7.5, Ruleset::Chinese).unwrap();
        match engine.genmove(Color::Black) {
            Err(PlayerError::Crashed(msg)) => assert!(msg.contains("dying"), "{msg}"),
            other => panic!("{other:?}"),
        }
        drop(engine);
        let _ = std::fs::remove_dir_all(dir);

        let (dir, command) = fake_engine("garbage");
        let mut engine = GtpPlayer::start(&command, timeout).unwrap();
        engine.new_game(size, 7.5, Ruleset::Chinese).unwrap();
        assert!(matches!(
            engine.genmove(Color::Black),
            Err(PlayerError::Protocol(_))
        ));
        // The answer was well framed: the engine still runs.
        engine.play(Color::Black, Move::Pass).unwrap();
        drop(engine);
        let _ = std::fs::remove_dir_all(dir);

        assert!(matches!(
            GtpPlayer::start("/nonexistent/engine --gtp", timeout),
            Err(PlayerError::Start(_))
        ));
    }

    #[test]
    fn a_crashing_engine_forfeits_and_is_restarted() {
        if !Path::new("/bin/sh").exists() {
            eprintln!("no /bin/sh: skipped");
            return;
        }
        let (dir, command) = fake_engine("crash");
        let config = MatchConfig {
            size: BoardSize::new(5).unwrap(),
            games: 3,
            move_timeout: Duration::from_secs(5),
            ..MatchConfig::default()
        };
        let mut a = RandomPlayer::new("rand", 7);
        let mut b = GtpPlayer::start(&command, config.move_timeout).unwrap();
        let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
        assert_eq!(summary.a.wins, 3);
        assert_eq!(summary.b.crashes, 3);
        assert_eq!(summary.forfeits, 3);
        assert_eq!(summary.records[0].moves.len(), 1);
        assert_eq!(summary.records[1].moves.len(), 0);
        assert_eq!(summary.records[1].result.sgf_result(), "W+F");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn random_player_against_gnugo_with_a_gnugo_referee() {
        if !Path::new(GNUGO).exists() {
            eprintln!("{GNUGO} is not installed: skipped");
            return;
        }
        let config = MatchConfig {
            size: BoardSize::NINE,
            komi: 7.5,
            ruleset: Ruleset::Chinese,
            games: 2,
            alternate: true,
            sgf_dir: None,
            move_timeout: Duration::from_secs(60),
            clock: TimeControl::None,
            network_delay: Duration::ZERO,
            handicap: 0,
            max_moves: None,
        };
        let mut a = RandomPlayer::new("random", 11);
        let mut b = GtpPlayer::start(
            &format!("{GNUGO} --mode gtp --level 0"),
            config.move_timeout,
        )
        .unwrap();
        let mut referee = GtpPlayer::start(
            &format!("{GNUGO} --mode gtp --chinese-rules"),
            config.move_timeout,
        )
        .unwrap();
        assert!(b.name().starts_with("GNU Go"), "{}", b.name());
        let summary = run_match(&config, &mut a, &mut b, Some(&mut referee), &mut |r| {
            eprintln!("{r}")
        });
        eprintln!("{summary}");
        assert_eq!(summary.games, 2);
        for rec in &summary.records {
            assert!(rec.errors.is_empty(), "{:?}", rec.errors);
            assert!(
                rec.result.winner().is_some() || rec.result.is_draw(),
                "{rec}"
            );
            if let GameResult::Score { .. } = rec.result {
                assert!(
                    rec.scorer
                        .as_deref()
                        .is_some_and(|s| s.starts_with("referee GNU Go")),
                    "{:?}",
                    rec.scorer
                );
            }
        }
        assert_eq!(
            summary.a.errors() + summary.b.errors() + summary.referee_errors,
            0
        );
    }
}

#[test]
fn a_handicap_game_gives_black_the_stones_and_white_the_first_move() {
    let dir = temp_dir("handicap");
    let config = MatchConfig {
        size: BoardSize::NINE,
        komi: 0.5,
        games: 2,
        handicap: 4,
        sgf_dir: Some(dir.clone()),
        ..MatchConfig::default()
    };
    let mut a = RandomPlayer::new("giver", 7);
    a.scores = true;
    let mut b = RandomPlayer::new("taker", 8);
    let mut referee = RandomPlayer::new("referee", 9);
    referee.scores = true;
    let summary = run_match(&config, &mut a, &mut b, Some(&mut referee), &mut |_| {});
    let stones = crate::rules::fixed_handicap_points(config.size, 4).unwrap();
    for rec in &summary.records {
        // The taker is Black in every game; White moves first.
        assert!(!rec.a_is_black, "{rec}");
        assert_eq!(rec.black, "taker");
        assert_eq!(rec.handicap, stones);
        assert_eq!(rec.moves[0].0, Color::White, "{rec}");
        assert_eq!(rec.scorer.as_deref(), Some("referee referee"), "{rec}");
        // The referee's board had the stones: its count is the rules core's with them.
        let mut game = Game::new(config.size, config.ruleset);
        game.set_komi(config.komi);
        game.place_fixed_handicap(4).unwrap();
        for &(c, m) in &rec.moves {
            game.play(c, m).unwrap();
        }
        let score = game.score(&Bitboard::EMPTY, &Bitboard::EMPTY);
        assert_eq!(rec.result.sgf_result(), score.to_string(), "{rec}");
        let text = std::fs::read_to_string(dir.join(sgf_file_name(rec.number))).unwrap();
        assert_eq!(sgf_property(&text, "HA"), Some("4"), "{text}");
        assert!(text.contains("AB[cg][gc][cc][gg]"), "{text}");
    }
    assert_eq!(summary.a.games_as_black, 0);
    let text = summary.to_string();
    assert!(
        text.contains("taker takes Black with 4 handicap stone(s)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_whose_own_handicap_points_differ_is_told_gtps() {
    let config = MatchConfig {
        games: 1,
        handicap: 3,
        ..MatchConfig::default()
    };
    let mut a = RandomPlayer::new("giver", 1);
    let mut b = RandomPlayer::new("mirror", 2);
    b.mirrors_handicap = true;
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    let rec = &summary.records[0];
    assert!(rec.faults.is_empty(), "{:?}", rec.faults);
    assert!(!rec.moves.is_empty(), "{rec}");
    assert_eq!(
        rec.handicap,
        crate::rules::fixed_handicap_points(config.size, 3).unwrap()
    );
    assert!(
        b.told.iter().any(|t| t == "set_free_handicap 3"),
        "{:?}",
        b.told
    );
}

#[test]
fn a_handicap_placed_elsewhere_or_refused_leaves_the_game_unplayed() {
    let config = MatchConfig {
        games: 1,
        handicap: 3,
        ..MatchConfig::default()
    };
    let mut a = RandomPlayer::new("giver", 1);
    let mut b = RandomPlayer::new("misplacer", 2);
    b.misplaces_handicap = true;
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    let rec = &summary.records[0];
    assert!(matches!(rec.result, GameResult::NoResult(_)), "{rec}");
    assert!(rec.moves.is_empty());
    assert_eq!(rec.faults[0].kind, FaultKind::Protocol, "{:?}", rec.faults);

    // 10 stones on 9x9 is more than GTP's table: every engine refuses, no game is played.
    let config = MatchConfig {
        games: 1,
        handicap: 10,
        ..MatchConfig::default()
    };
    let mut b = RandomPlayer::new("taker", 2);
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| {});
    assert!(matches!(summary.records[0].result, GameResult::NoResult(_)));
}

#[test]
fn a_matchs_settings_are_checked_in_the_command_lines_words() {
    assert_eq!(MatchConfig::default().check(), Ok(()));
    let nineteen = MatchConfig {
        size: BoardSize::NINETEEN,
        handicap: 9,
        ..MatchConfig::default()
    };
    assert_eq!(nineteen.check(), Ok(()));
    assert_eq!(MatchConfig::default_komi(Ruleset::Chinese, 9), 0.5);
    assert_eq!(MatchConfig::default_komi(Ruleset::Chinese, 0), 7.5);
    let bad = [
        (
            MatchConfig {
                handicap: 10,
                size: BoardSize::NINETEEN,
                ..MatchConfig::default()
            },
            "--handicap must be 0 to 9 on 19x19",
        ),
        (
            MatchConfig {
                move_timeout: Duration::ZERO,
                ..MatchConfig::default()
            },
            "--move-timeout",
        ),
        (
            MatchConfig {
                network_delay: Duration::from_secs(61),
                ..MatchConfig::default()
            },
            "--network-delay",
        ),
        (
            MatchConfig {
                max_moves: Some(0),
                ..MatchConfig::default()
            },
            "--max-moves",
        ),
        (
            MatchConfig {
                komi: f64::NAN,
                ..MatchConfig::default()
            },
            "--komi",
        ),
    ];
    for (config, error) in bad {
        let said = config.check().expect_err(error);
        assert!(said.starts_with(error), "{said}");
    }
}
