//! Which lines of each file are changed, chosen as GNU diff chooses them.
//! Many edit scripts are equally short; GNU's output is byte for byte the
//! one its own steps give, so those steps are followed here (GNU diff's
//! `analyze.c` and gnulib's `diffseq.h`, read and written anew):
//!
//! 1. lines both files share at their start and end are left out, but for
//!    `horizon` lines next to the rest (GNU's `find_identical_ends`);
//! 2. lines with no equal in the other file, and runs of lines with very
//!    many equals there, are set aside as changed before the search
//!    (`discard_confusing_lines`), unless `minimal`;
//! 3. the rest are aligned by the middle-snake search, divided and
//!    conquered (`compareseq`, `diag`), which gives up on a minimal split
//!    past a cost GNU computes from the sizes (`too_expensive`), or here
//!    past the deadline;
//! 4. each run of changes is slid to merge with its neighbours and then
//!    to face a change in the other file (`shift_boundaries`).
//!
//! Lines come as equivalence classes: equal numbers are equal lines under
//! the options in force.

use std::collections::HashMap;
use std::time::Instant;

/// How the alignment is looked for.
pub(super) struct Effort {
    /// `-d`: no lines set aside, and every split minimal.
    pub minimal: bool,
    /// Lines of a shared start or end kept in the search (the context
    /// lines a unified or context diff shows).
    pub horizon: usize,
    /// Past this, every split takes GNU's shortcut.
    pub deadline: Instant,
}

/// The changed lines of each file, given the lines' classes (`left`,
/// `right`) and whether the two lines are byte for byte the same (what
/// GNU's identical start and end compare).
pub(super) fn changed_lines(
    left: &[usize],
    right: &[usize],
    same_bytes: impl Fn(usize, usize) -> bool,
    effort: &Effort,
) -> (Vec<bool>, Vec<bool>) {
    let shortest = left.len().min(right.len());
    let prefix = (0..shortest)
        .find(|&i| !same_bytes(i, i))
        .unwrap_or(shortest);
    let suffix = (0..shortest - prefix)
        .find(|&k| !same_bytes(left.len() - 1 - k, right.len() - 1 - k))
        .unwrap_or(shortest - prefix);
    let start = prefix - prefix.min(effort.horizon);
    let trimmed_end = suffix - suffix.min(effort.horizon);
    let region = |lines: &[usize]| lines[start..lines.len() - trimmed_end].to_vec();
    let files = [region(left), region(right)];
    let mut changed = [vec![false; files[0].len()], vec![false; files[1].len()]];
    let kept = if effort.minimal {
        [vec![false; files[0].len()], vec![false; files[1].len()]]
    } else {
        discards(&files)
    };
    // The lines the search sees, and where each one is in its file.
    let mut undiscarded: [Vec<usize>; 2] = Default::default();
    let mut real: [Vec<usize>; 2] = Default::default();
    for f in 0..2 {
        for (i, &class) in files[f].iter().enumerate() {
            if kept[f][i] {
                changed[f][i] = true;
            } else {
                undiscarded[f].push(class);
                real[f].push(i);
            }
        }
    }
    let mut search = Search::new(&undiscarded[0], &undiscarded[1], effort);
    search.compare(
        0,
        undiscarded[0].len() as isize,
        0,
        undiscarded[1].len() as isize,
        effort.minimal,
    );
    for (f, marks) in search.changed.iter().enumerate() {
        for (i, mark) in marks.iter().enumerate() {
            if *mark {
                changed[f][real[f][i]] = true;
            }
        }
    }
    shift_boundaries(&files, &mut changed);
    let whole = |lines: &[usize], marks: Vec<bool>| {
        let mut all = vec![false; lines.len()];
        all[start..start + marks.len()].copy_from_slice(&marks);
        all
    };
    let [left_marks, right_marks] = changed;
    (whole(left, left_marks), whole(right, right_marks))
}

/// Which lines are set aside before the search (`true`): those with no
/// equal in the other file, and provisionally those with more equals
/// there than about the square root of the file's length, which stay set
/// aside only inside a run of the first kind, as GNU decides.
fn discards(files: &[Vec<usize>; 2]) -> [Vec<bool>; 2] {
    let counts: Vec<HashMap<usize, usize>> = files
        .iter()
        .map(|lines| {
            let mut count = HashMap::new();
            for &class in lines {
                *count.entry(class).or_insert(0) += 1;
            }
            count
        })
        .collect();
    const NO: u8 = 0;
    const YES: u8 = 1;
    const MAYBE: u8 = 2;
    let mut marks: Vec<Vec<u8>> = Vec::with_capacity(2);
    for f in 0..2 {
        let other = &counts[1 - f];
        let end = files[f].len();
        let mut many = 5;
        let mut tem = end / 64;
        loop {
            tem >>= 2;
            if tem == 0 {
                break;
            }
            many *= 2;
        }
        marks.push(
            files[f]
                .iter()
                .map(|class| match other.get(class).copied().unwrap_or(0) {
                    0 => YES,
                    matches if matches > many => MAYBE,
                    _ => NO,
                })
                .collect(),
        );
    }
    for marks in &mut marks {
        let end = marks.len();
        let mut i = 0;
        while i < end {
            if marks[i] == MAYBE {
                marks[i] = NO;
            } else if marks[i] != NO {
                // A run of lines set aside that starts with a certain one.
                let mut j = i;
                let mut provisional = 0;
                while j < end && marks[j] != NO {
                    if marks[j] == MAYBE {
                        provisional += 1;
                    }
                    j += 1;
                }
                while j > i && marks[j - 1] == MAYBE {
                    j -= 1;
                    marks[j] = NO;
                    provisional -= 1;
                }
                let length = j - i;
                if provisional * 4 > length {
                    for mark in &mut marks[i..j] {
                        if *mark == MAYBE {
                            *mark = NO;
                        }
                    }
                } else {
                    let mut minimum = 1;
                    let mut tem = length >> 2;
                    loop {
                        tem >>= 2;
                        if tem == 0 {
                            break;
                        }
                        minimum <<= 1;
                    }
                    minimum += 1;
                    // A subrun of `minimum` provisional lines or more goes
                    // back to the search, whole.
                    let mut consecutive = 0;
                    let mut k = 0;
                    while k < length {
                        if marks[i + k] != MAYBE {
                            consecutive = 0;
                        } else {
                            consecutive += 1;
                            if consecutive == minimum {
                                // Back to the subrun's start, to keep it all.
                                k -= consecutive;
                            } else if consecutive > minimum {
                                marks[i + k] = NO;
                            }
                        }
                        k += 1;
                    }
                    // From each end, provisional lines are kept until three
                    // certain ones in a row, or a certain one 8 lines in.
                    let mut consecutive = 0;
                    for k in 0..length {
                        if k >= 8 && marks[i + k] == YES {
                            break;
                        }
                        match marks[i + k] {
                            MAYBE => {
                                consecutive = 0;
                                marks[i + k] = NO;
                            }
                            NO => consecutive = 0,
                            _ => consecutive += 1,
                        }
                        if consecutive == 3 {
                            break;
                        }
                    }
                    i += length - 1;
                    let mut consecutive = 0;
                    for k in 0..length {
                        if k >= 8 && marks[i - k] == YES {
                            break;
                        }
                        match marks[i - k] {
                            MAYBE => {
                                consecutive = 0;
                                marks[i - k] = NO;
                            }
                            NO => consecutive = 0,
                            _ => consecutive += 1,
                        }
                        if consecutive == 3 {
                            break;
                        }
                    }
                }
            }
            i += 1;
        }
    }
    let [left, right]: [Vec<u8>; 2] = marks.try_into().expect("two files");
    [
        left.into_iter().map(|mark| mark != NO).collect(),
        right.into_iter().map(|mark| mark != NO).collect(),
    ]
}

/// Where the search splits a problem: a point on the alignment, and
/// whether each half must be split minimally.
struct Partition {
    x: isize,
    y: isize,
    lo_minimal: bool,
    hi_minimal: bool,
}

/// The middle-snake search over two vectors of classes.
struct Search<'a> {
    x: &'a [usize],
    y: &'a [usize],
    /// Furthest-reaching points of the forward and backward searches, by
    /// diagonal (offset by `offset`).
    forward: Vec<isize>,
    backward: Vec<isize>,
    offset: isize,
    too_expensive: isize,
    deadline: Instant,
    changed: [Vec<bool>; 2],
}

impl<'a> Search<'a> {
    fn new(x: &'a [usize], y: &'a [usize], effort: &Effort) -> Self {
        let diagonals = x.len() + y.len() + 3;
        let mut too_expensive: isize = 1;
        let mut left = diagonals;
        while left != 0 {
            too_expensive <<= 1;
            left >>= 2;
        }
        Search {
            x,
            y,
            forward: vec![0; diagonals],
            backward: vec![0; diagonals],
            offset: y.len() as isize + 1,
            too_expensive: too_expensive.max(4096),
            deadline: effort.deadline,
            changed: [vec![false; x.len()], vec![false; y.len()]],
        }
    }

    fn equal(&self, i: isize, j: isize) -> bool {
        self.x[i as usize] == self.y[j as usize]
    }

    fn fd(&mut self, d: isize) -> &mut isize {
        &mut self.forward[(d + self.offset) as usize]
    }

    fn bd(&mut self, d: isize) -> &mut isize {
        &mut self.backward[(d + self.offset) as usize]
    }

    /// Aligns `x[xoff..xlim]` with `y[yoff..ylim]`, marking what is changed.
    fn compare(
        &mut self,
        mut xoff: isize,
        mut xlim: isize,
        mut yoff: isize,
        mut ylim: isize,
        minimal: bool,
    ) {
        while xoff < xlim && yoff < ylim && self.equal(xoff, yoff) {
            xoff += 1;
            yoff += 1;
        }
        while xoff < xlim && yoff < ylim && self.equal(xlim - 1, ylim - 1) {
            xlim -= 1;
            ylim -= 1;
        }
        if xoff == xlim {
            for j in yoff..ylim {
                self.changed[1][j as usize] = true;
            }
        } else if yoff == ylim {
            for i in xoff..xlim {
                self.changed[0][i as usize] = true;
            }
        } else {
            let part = self.diag(xoff, xlim, yoff, ylim, minimal);
            self.compare(xoff, part.x, yoff, part.y, part.lo_minimal);
            self.compare(part.x, xlim, part.y, ylim, part.hi_minimal);
        }
    }

    /// The middle snake of `x[xoff..xlim]` against `y[yoff..ylim]`: the
    /// searches from both ends, one edit at a time, until they overlap; or,
    /// when not `minimal` and the cost has grown too high, the furthest
    /// point either has reached.
    fn diag(
        &mut self,
        xoff: isize,
        xlim: isize,
        yoff: isize,
        ylim: isize,
        minimal: bool,
    ) -> Partition {
        let dmin = xoff - ylim;
        let dmax = xlim - yoff;
        let fmid = xoff - yoff;
        let bmid = xlim - ylim;
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let odd = (fmid - bmid) & 1 != 0;
        *self.fd(fmid) = xoff;
        *self.bd(bmid) = xlim;
        let mut cost: isize = 1;
        loop {
            if fmin > dmin {
                fmin -= 1;
                *self.fd(fmin - 1) = -1;
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                *self.fd(fmax + 1) = -1;
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let low = *self.fd(d - 1);
                let high = *self.fd(d + 1);
                let x0 = if low < high { high } else { low + 1 };
                let mut x = x0;
                let mut y = x0 - d;
                while x < xlim && y < ylim && self.equal(x, y) {
                    x += 1;
                    y += 1;
                }
                *self.fd(d) = x;
                if odd && bmin <= d && d <= bmax && *self.bd(d) <= x {
                    return Partition {
                        x,
                        y,
                        lo_minimal: true,
                        hi_minimal: true,
                    };
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                *self.bd(bmin - 1) = isize::MAX;
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                *self.bd(bmax + 1) = isize::MAX;
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let low = *self.bd(d - 1);
                let high = *self.bd(d + 1);
                let x0 = if low < high { low } else { high - 1 };
                let mut x = x0;
                let mut y = x0 - d;
                while xoff < x && yoff < y && self.equal(x - 1, y - 1) {
                    x -= 1;
                    y -= 1;
                }
                *self.bd(d) = x;
                if !odd && fmin <= d && d <= fmax && x <= *self.fd(d) {
                    return Partition {
                        x,
                        y,
                        lo_minimal: true,
                        hi_minimal: true,
                    };
                }
                d -= 2;
            }
            // The clock is read every 64 steps: a step of a cheap split is
            // a few comparisons, less than reading it.
            let late = cost % 64 == 0 && Instant::now() >= self.deadline;
            if !minimal && (cost >= self.too_expensive || late) {
                return self.best_so_far((xoff, xlim, yoff, ylim), (fmin, fmax, bmin, bmax));
            }
            cost += 1;
        }
    }

    /// GNU's way out of an expensive split: the forward diagonal that got
    /// furthest (largest x + y) or the backward one that did (smallest),
    /// whichever went further from its end.
    fn best_so_far(
        &mut self,
        (xoff, xlim, yoff, ylim): (isize, isize, isize, isize),
        (fmin, fmax, bmin, bmax): (isize, isize, isize, isize),
    ) -> Partition {
        let (mut fxy_best, mut fx_best) = (-1, 0);
        let mut d = fmax;
        while d >= fmin {
            let mut x = (*self.fd(d)).min(xlim);
            let mut y = x - d;
            if ylim < y {
                x = ylim + d;
                y = ylim;
            }
            if fxy_best < x + y {
                fxy_best = x + y;
                fx_best = x;
            }
            d -= 2;
        }
        let (mut bxy_best, mut bx_best) = (isize::MAX, 0);
        let mut d = bmax;
        while d >= bmin {
            let mut x = xoff.max(*self.bd(d));
            let mut y = x - d;
            if y < yoff {
                x = yoff + d;
                y = yoff;
            }
            if x + y < bxy_best {
                bxy_best = x + y;
                bx_best = x;
            }
            d -= 2;
        }
        if (xlim + ylim) - bxy_best < fxy_best - (xoff + yoff) {
            Partition {
                x: fx_best,
                y: fxy_best - fx_best,
                lo_minimal: true,
                hi_minimal: false,
            }
        } else {
            Partition {
                x: bx_best,
                y: bxy_best - bx_best,
                lo_minimal: false,
                hi_minimal: true,
            }
        }
    }
}

/// Slides each run of changes as GNU does: back while the line before it
/// equals its last (merging with runs before it), then forward while its
/// first equals the line after it (merging with runs after it), again
/// until it stops growing; then back to where it last faced a change in
/// the other file, if it did.
fn shift_boundaries(files: &[Vec<usize>; 2], changed: &mut [Vec<bool>; 2]) {
    for f in 0..2 {
        // Both lists with a `false` before and after (GNU's sentinels).
        let pad = |marks: &[bool]| {
            let mut padded = Vec::with_capacity(marks.len() + 2);
            padded.push(false);
            padded.extend_from_slice(marks);
            padded.push(false);
            padded
        };
        let mut this = pad(&changed[f]);
        let other = pad(&changed[1 - f]);
        let classes = &files[f];
        let end = classes.len();
        // Positions are the files' line indexes; `this[i + 1]` is line i.
        let at = |marks: &[bool], i: isize| marks[(i + 1) as usize];
        let (mut i, mut j): (isize, isize) = (0, 0);
        loop {
            while (i as usize) < end && !at(&this, i) {
                while at(&other, j) {
                    j += 1;
                }
                j += 1;
                i += 1;
            }
            if i as usize == end {
                break;
            }
            let mut start = i;
            i += 1;
            while at(&this, i) {
                i += 1;
            }
            while at(&other, j) {
                j += 1;
            }
            let mut corresponding;
            loop {
                let run_length = i - start;
                while start > 0 && classes[(start - 1) as usize] == classes[(i - 1) as usize] {
                    start -= 1;
                    this[(start + 1) as usize] = true;
                    i -= 1;
                    this[(i + 1) as usize] = false;
                    while at(&this, start - 1) {
                        start -= 1;
                    }
                    j -= 1;
                    while at(&other, j) {
                        j -= 1;
                    }
                }
                corresponding = if at(&other, j - 1) { i } else { end as isize };
                while (i as usize) != end && classes[start as usize] == classes[i as usize] {
                    this[(start + 1) as usize] = false;
                    start += 1;
                    this[(i + 1) as usize] = true;
                    i += 1;
                    while at(&this, i) {
                        i += 1;
                    }
                    j += 1;
                    while at(&other, j) {
                        j += 1;
                        corresponding = i;
                    }
                }
                if run_length == i - start {
                    break;
                }
            }
            while corresponding < i {
                start -= 1;
                this[(start + 1) as usize] = true;
                i -= 1;
                this[(i + 1) as usize] = false;
                j -= 1;
                while at(&other, j) {
                    j -= 1;
                }
            }
        }
        changed[f].copy_from_slice(&this[1..=end]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The changed lines GNU diff 3.8 reports for two files of one-letter
    /// lines (its normal output, read back into flags).
    fn changed(left: &str, right: &str, minimal: bool) -> (String, String) {
        let class = |text: &str| text.bytes().map(usize::from).collect::<Vec<_>>();
        let (left_lines, right_lines) = (class(left), class(right));
        let effort = Effort {
            minimal,
            horizon: 0,
            deadline: Instant::now() + std::time::Duration::from_secs(60),
        };
        let (a, b) = changed_lines(
            &left_lines,
            &right_lines,
            |i, j| left_lines[i] == right_lines[j],
            &effort,
        );
        let show = |marks: Vec<bool>| marks.iter().map(|m| if *m { '1' } else { '0' }).collect();
        (show(a), show(b))
    }

    #[test]
    fn an_added_copy_of_a_line_is_the_later_one() {
        // GNU: `2a3`.
        assert_eq!(changed("abc", "abbc", false), ("000".into(), "0010".into()));
    }

    #[test]
    fn a_reversal_keeps_the_middle_line_and_changes_the_first_two() {
        // GNU: `1,2d0` and `3a2,3`.
        assert_eq!(changed("abc", "cba", false), ("110".into(), "011".into()));
    }

    #[test]
    fn a_repeated_block_removed_is_the_second_copy() {
        // GNU: `4,6d3`.
        assert_eq!(
            changed("xabxab", "xab", false),
            ("000111".into(), "000".into())
        );
    }

    #[test]
    fn lines_found_only_in_one_file_are_set_aside_unless_minimal() {
        let files = [vec![1, 2, 3, 9, 9], vec![1, 3, 4]];
        let [left, right] = discards(&files);
        assert_eq!(left, [false, true, false, true, true]);
        assert_eq!(right, [false, false, true]);
        // Set aside or not, the result is a shortest script here.
        assert_eq!(changed("abc", "cba", true), ("110".into(), "011".into()));
    }
}
