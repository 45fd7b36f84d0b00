//! Material values and piece-square tables: the part of the evaluation that `Position` keeps
//! incrementally (`Position::psq`). A leaf module: the board and the evaluation both read it,
//! and it reads nothing of the crate. The values are fitted by `chariot tune`; tables are
//! written from Red's side (rank 0 first), mirrored for Black.

/// Material value of each kind in centipawns (king 0).
pub const VALUES: [i32; 7] = [0, 120, 120, 420, 950, 430, 60];

type Table = [[i32; 9]; 10];

#[rustfmt::skip]
const PAWN: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [28, 0, -6, 0, 49, 0, -6, 0, 28],
    [35, 0, 48, 0, 68, 0, 48, 0, 35],
    [78, 63, 106, 118, 130, 118, 106, 63, 78],
    [97, 121, 137, 112, 121, 112, 137, 121, 97],
    [55, 73, 166, 188, 185, 188, 166, 73, 55],
    [55, 105, 119, 148, 189, 148, 119, 105, 55],
    [10, 21, 44, 23, 30, 23, 44, 21, 10],
];

#[rustfmt::skip]
const HORSE: Table = [
    [0, -95, -63, -65, 0, -65, -63, -95, 0],
    [13, 2, -23, -39, -54, -39, -23, 2, 13],
    [-61, -23, -36, 40, -33, 40, -36, -23, -61],
    [2, -6, -13, -14, 13, -14, -13, -6, 2],
    [4, 0, 39, 43, 4, 43, 39, 0, 4],
    [6, -17, 35, 52, 37, 52, 35, -17, 6],
    [-54, 37, 55, 38, 26, 38, 55, 37, -54],
    [5, 23, -1, 52, 32, 52, -1, 23, 5],
    [4, 42, 13, 16, 8, 16, 13, 42, 4],
    [4, 8, 16, 12, 4, 12, 16, 8, 4],
];

#[rustfmt::skip]
const ROOK: Table = [
    [-58, 17, 59, 34, 12, 34, 59, 17, -58],
    [-37, -56, 42, -32, 8, -32, 42, -56, -37],
    [-66, -7, 19, 21, 16, 21, 19, -7, -66],
    [20, 52, 36, 58, 65, 58, 36, 52, 20],
    [-3, 48, 73, 46, 63, 46, 73, 48, -3],
    [51, -5, 58, 15, 76, 15, 58, -5, 51],
    [16, 46, 81, 41, 78, 41, 81, 46, 16],
    [26, 4, 28, 55, 42, 55, 28, 4, 26],
    [15, 44, 54, 6, 88, 6, 54, 44, 15],
    [35, 14, 28, 52, 47, 52, 28, 14, 35],
];

#[rustfmt::skip]
const CANNON: Table = [
    [4, -33, -9, 54, 35, 54, -9, -33, 4],
    [3, -32, 15, 65, 27, 65, 15, -32, 3],
    [19, -21, 64, 56, 67, 56, 64, -21, 19],
    [0, 6, 27, 7, 0, 7, 27, 6, 0],
    [4, -2, 23, -6, 1, -6, 23, -2, 4],
    [-12, 9, -21, -45, 19, -45, -21, 9, -12],
    [-11, -17, -34, -9, 24, -9, -34, -17, -11],
    [0, -22, -25, -10, -8, -10, -25, -22, 0],
    [-5, 7, -52, -33, -14, -33, -52, 7, -5],
    [-30, 22, -25, -47, -12, -47, -25, 22, -30],
];

#[rustfmt::skip]
const ADVISOR: Table = [
    [0, 0, 0, -59, 5, -59, 0, 0, 0],
    [0, 0, 0, 0, -37, 0, 0, 0, 0],
    [-2, 0, 0, -68, 3, -68, 0, 0, -2],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -2, 0, 0, 0, -2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

#[rustfmt::skip]
const ELEPHANT: Table = [
    [0, 0, -47, 0, 5, 0, -47, 0, 0],
    [0, 0, 0, 0, 3, 0, 0, 0, 0],
    [-71, 0, 0, -1, -39, -1, 0, 0, -71],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -77, 0, 0, 0, -77, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// The table of each kind, in `PieceKind` order.
pub const TABLES: [Table; 7] = [[[0; 9]; 10], ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN];

/// Material plus piece-square value of each piece (by `Piece::index`) on each square, positive
/// for Red and negative for Black (`Piece::index` puts Red's kinds first); `Position` keeps the sum incrementally (`Position::psq`).
pub const PSQ: [[i32; 90]; 14] = {
    let mut t = [[0; 90]; 14];
    let mut k = 0;
    while k < 7 {
        let mut sq = 0;
        while sq < 90 {
            let (rank, file) = (sq / 9, sq % 9);
            t[k][sq] = VALUES[k] + TABLES[k][rank][file];
            t[7 + k][sq] = -(VALUES[k] + TABLES[k][9 - rank][file]);
            sq += 1;
        }
        k += 1;
    }
    t
};
