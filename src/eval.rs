//! Static evaluation: material (a first version; the search issue grows it).

use crate::board::{Color, PieceKind, Position};

/// Material value of each kind in centipawns.
pub const VALUES: [i32; 7] = [0, 120, 120, 400, 900, 450, 100];

/// Evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut v = 0;
    for kind in PieceKind::ALL {
        let red = pos.pieces(Color::Red, kind).count() as i32;
        let black = pos.pieces(Color::Black, kind).count() as i32;
        v += (red - black) * VALUES[kind.index()];
    }
    if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }
}

/// A readable breakdown of the evaluation (for the `eval` command), Red's view then the side
/// to move's.
pub fn breakdown(pos: &Position) -> String {
    let mut out = String::new();
    let mut total = 0;
    for kind in PieceKind::ALL {
        let red = pos.pieces(Color::Red, kind).count() as i32;
        let black = pos.pieces(Color::Black, kind).count() as i32;
        let v = (red - black) * VALUES[kind.index()];
        total += v;
        out.push_str(&format!("material {:?}: {v}\n", kind));
    }
    let stm = if pos.side_to_move() == Color::Red {
        total
    } else {
        -total
    };
    out.push_str(&format!(
        "total (red): {total}\ntotal (side to move): {stm}\n"
    ));
    out
}
