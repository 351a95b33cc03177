// Boards to try a loaded model or network on: the empty board and one after a short
// fight with a capture (shared by the two file targets with `include!`).
fn sample_boards(n: usize) -> Vec<(Board, Color, Vec<Option<Point>>)> {
    let size = BoardSize::new(n).expect("a board size from 2 to 19");
    let mut boards = vec![(Board::new(size), Color::Black, Vec::new())];
    let mut board = Board::new(size);
    let mut played = Vec::new();
    let mut color = Color::Black;
    // A fixed walk over the board: legal moves only, so some stones get captured.
    for k in 0..(3 * n) {
        let p = size.all_points().nth((k * 7 + 3) % size.points()).expect("a point");
        if board.play(p, color, Suicide::Forbidden).is_ok() {
            played.push(Some(p));
            color = color.opponent();
        }
    }
    boards.push((board, color, played));
    boards
}
