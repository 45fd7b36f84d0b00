//! `Grid`: a rectangular map of free cells, walls and supply stations, read from a Moving AI
//! `.map` file or from a plain text grid.
//!
//! Text grid: one row per line (or `/`-separated inline), `.` free, `#` or `@` wall, `S` start,
//! `G` goal, `+` supply station; or the digit form `0` free, `1` wall, `2` station. Cell
//! `(x, y)` is column x, row y, origin at the top left, as in the Moving AI benchmarks.

use std::fmt;

/// Largest accepted width or height.
pub const MAX_SIDE: usize = 8192;
/// Largest accepted number of cells.
pub const MAX_CELLS: usize = 1 << 24;

/// What a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Passable ground.
    Free,
    /// Not passable.
    Wall,
    /// Passable; refills the energy budget.
    Station,
}

/// A map.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row-major cells.
    pub cells: Vec<Cell>,
    /// Start marked in a text grid.
    pub start: Option<(usize, usize)>,
    /// Goal marked in a text grid.
    pub goal: Option<(usize, usize)>,
}

/// Why a map was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// No rows.
    Empty,
    /// A row of a different length than the first.
    Ragged {
        /// 0-based row.
        row: usize,
        /// Its length.
        len: usize,
        /// The expected length.
        expected: usize,
    },
    /// A character that is not a cell.
    UnknownChar {
        /// The character.
        ch: char,
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A Moving AI header that is missing, malformed or disagrees with the rows.
    Header(String),
    /// Too large.
    TooLarge(usize, usize),
    /// Start or goal outside the map.
    OutOfBounds(&'static str, i64, i64),
    /// Start or goal on a wall.
    OnWall(&'static str, usize, usize),
    /// No start or goal given.
    Missing(&'static str),
    /// More than one `S` or `G`.
    Duplicate(&'static str),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Empty => write!(f, "empty map"),
            GridError::Ragged { row, len, expected } => {
                write!(
                    f,
                    "ragged rows: row {row} has {len} cells, expected {expected}"
                )
            }
            GridError::UnknownChar { ch, x, y } => {
                write!(
                    f,
                    "unknown character '{}' at ({x}, {y})",
                    ch.escape_default()
                )
            }
            GridError::Header(s) => write!(f, "bad map header: {s}"),
            GridError::TooLarge(w, h) => write!(
                f,
                "map of {w} x {h} is too large (at most {MAX_SIDE} per side, {MAX_CELLS} cells)"
            ),
            GridError::OutOfBounds(what, x, y) => write!(f, "{what} ({x}, {y}) is outside the map"),
            GridError::OnWall(what, x, y) => write!(f, "{what} ({x}, {y}) is on a wall"),
            GridError::Missing(what) => write!(f, "no {what} given"),
            GridError::Duplicate(what) => write!(f, "more than one {what} in the grid"),
        }
    }
}

impl std::error::Error for GridError {}

fn check_size(w: usize, h: usize) -> Result<(), GridError> {
    if w == 0 || h == 0 {
        return Err(GridError::Empty);
    }
    if w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_CELLS {
        return Err(GridError::TooLarge(w, h));
    }
    Ok(())
}

impl Grid {
    /// Index of (x, y).
    #[inline(always)]
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// Whether (x, y) is inside and passable.
    #[inline(always)]
    pub fn passable(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && self.cells[y as usize * self.width + x as usize] != Cell::Wall
    }

    /// Parses a Moving AI `.map` text (CR LF accepted).
    pub fn parse_movingai(text: &str) -> Result<Grid, GridError> {
        let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
        let mut width = None;
        let mut height = None;
        loop {
            let line = lines
                .next()
                .ok_or_else(|| GridError::Header("no 'map' line".into()))?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("type"), _) => {}
                (Some("height"), Some(v)) => {
                    height = Some(
                        v.parse::<usize>()
                            .map_err(|_| GridError::Header(format!("bad height '{v}'")))?,
                    )
                }
                (Some("width"), Some(v)) => {
                    width = Some(
                        v.parse::<usize>()
                            .map_err(|_| GridError::Header(format!("bad width '{v}'")))?,
                    )
                }
                (Some("map"), None) => break,
                _ => {
                    return Err(GridError::Header(format!(
                        "unexpected line '{}'",
                        line.chars().take(30).collect::<String>()
                    )))
                }
            }
        }
        let (w, h) = match (width, height) {
            (Some(w), Some(h)) => (w, h),
            _ => return Err(GridError::Header("missing width or height".into())),
        };
        check_size(w, h)?;
        let mut cells = Vec::with_capacity(w * h);
        let mut rows = 0;
        for (y, line) in lines.enumerate() {
            if line.is_empty() && y >= h {
                continue;
            }
            if y >= h {
                return Err(GridError::Header(format!("more than {h} rows")));
            }
            let len = line.chars().count();
            if len != w {
                return Err(GridError::Ragged {
                    row: y,
                    len,
                    expected: w,
                });
            }
            for (x, ch) in line.chars().enumerate() {
                cells.push(match ch {
                    '.' | 'G' | 'S' => Cell::Free,
                    '@' | 'O' | 'T' | 'W' => Cell::Wall,
                    _ => return Err(GridError::UnknownChar { ch, x, y }),
                });
            }
            rows += 1;
        }
        if rows != h {
            return Err(GridError::Header(format!(
                "header says {h} rows, found {rows}"
            )));
        }
        Ok(Grid {
            width: w,
            height: h,
            cells,
            start: None,
            goal: None,
        })
    }

    /// Parses a text grid given as rows.
    pub fn parse_text<'a>(rows: impl IntoIterator<Item = &'a str>) -> Result<Grid, GridError> {
        let rows: Vec<&str> = rows
            .into_iter()
            .map(|r| r.trim_end_matches('\r'))
            .filter(|r| !r.trim().is_empty())
            .collect();
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.chars().count());
        check_size(w, h)?;
        let mut g = Grid {
            width: w,
            height: h,
            cells: Vec::with_capacity(w * h),
            start: None,
            goal: None,
        };
        for (y, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != w {
                return Err(GridError::Ragged {
                    row: y,
                    len,
                    expected: w,
                });
            }
            for (x, ch) in row.chars().enumerate() {
                let cell = match ch {
                    '.' | '0' => Cell::Free,
                    '#' | '@' | '1' => Cell::Wall,
                    '+' | '2' => Cell::Station,
                    'S' => {
                        if g.start.replace((x, y)).is_some() {
                            return Err(GridError::Duplicate("start"));
                        }
                        Cell::Free
                    }
                    'G' => {
                        if g.goal.replace((x, y)).is_some() {
                            return Err(GridError::Duplicate("goal"));
                        }
                        Cell::Free
                    }
                    _ => return Err(GridError::UnknownChar { ch, x, y }),
                };
                g.cells.push(cell);
            }
        }
        Ok(g)
    }

    /// Checks that (x, y) is a passable cell for `what` ("start" or "goal").
    pub fn check_point(
        &self,
        what: &'static str,
        x: i64,
        y: i64,
    ) -> Result<(usize, usize), GridError> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return Err(GridError::OutOfBounds(what, x, y));
        }
        let (x, y) = (x as usize, y as usize);
        if self.cells[self.index(x, y)] == Cell::Wall {
            return Err(GridError::OnWall(what, x, y));
        }
        Ok((x, y))
    }
}
