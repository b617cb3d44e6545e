//! `cal`: calendars as Debian's `cal` prints them (BSD `ncal` in its `cal`
//! mode): a month, three months (`-3`), a span (`-A n`, `-B n`), a year
//! (`-y`, or a year alone), day-of-year numbers (`-j`). Weeks start on
//! Sunday; today is never highlighted (the sandbox's output is not a
//! terminal). Dates before 14 September 1752 are Julian, as the reform
//! happened in Britain and its colonies (`cal 9 1752` has the gap).

use std::io::Write;

use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::pad::{left_pad, right_pad};
use goccia_interp::time::MONTHS;

use crate::args::{Out, buffered, check_flags, finish, parse_options};

/// BSD's status for a usage error (`EX_USAGE`).
const USAGE_STATUS: i32 = 64;

const USAGE: &str = "Usage: cal [general options] [-jy] [[month] year]\n       cal [general options] [-j] [-m month] [year]\nGeneral options: [-31] [-A months] [-B months] [-d yyyy-mm]";

/// A month as months since the start of year 1 (January of year 1 is 0;
/// BSD prints year 0 and year 10000 when a span reaches them).
type MonthIndex = i64;

/// January 4713 BC, the first month day numbers are defined for.
const FIRST_MONTH: MonthIndex = -4713 * 12;

pub fn cal(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(status USAGE_STATUS; shell, args, "ABdm", &[]);
    if let Err(message) = check_flags(&parsed, "13jyh") {
        return Ok(shell.fail_command("cal", &format!("{message}\n{USAGE}"), USAGE_STATUS));
    }
    let request = match Request::from(&parsed, shell) {
        Ok(request) => request,
        Err(Refusal::Usage) => {
            shell.write_stderr(format!("{USAGE}\n").as_bytes());
            return Ok(USAGE_STATUS);
        }
        Err(Refusal::Said(message)) => {
            return Ok(shell.fail_command("cal", &message, USAGE_STATUS));
        }
    };
    let mut out = buffered(shell);
    // Written a row of months at a time: a span may be long, and the
    // output budget or the deadline ends it.
    let written = request.render(&mut out, shell);
    match written {
        Ok(()) => finish(shell, "cal", out, 0),
        Err(Stopped::Write(error)) => shell.io_status("cal", error),
        Err(Stopped::Flow(flow)) => Err(flow),
    }
}

/// Why the arguments name no calendar.
enum Refusal {
    /// Too many operands: the synopsis alone.
    Usage,
    /// What is wrong with one of them.
    Said(String),
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal::Said(message)
    }
}

/// Why printing stopped before the end.
enum Stopped {
    Write(std::io::Error),
    Flow(goccia_interp::interp::Flow),
}

/// What to print.
struct Request {
    first: MonthIndex,
    count: i64,
    day_of_year: bool,
}

impl Request {
    fn from(parsed: &crate::args::Parsed, shell: &ShellView) -> Result<Request, Refusal> {
        let (this_year, this_month) = today(shell);
        let mut month = parsed.value('m').map(parse_month).transpose()?;
        let mut year = None;
        match parsed.operands.as_slice() {
            [] => {}
            [only] => year = Some(parse_year(only)?),
            [m, y] if month.is_none() => {
                month = Some(parse_month(m)?);
                year = Some(parse_year(y)?);
            }
            _ => return Err(Refusal::Usage),
        }
        if let Some(text) = parsed.value('d') {
            // BSD reads both numbers with atoi (what is not one is 0), and
            // checks the year's range; a month past December runs into the
            // next year.
            let (y, m) = text.split_once('-').unwrap_or((text, ""));
            let (year, month) = (leading_number(y), leading_number(m));
            if !(1..=9999).contains(&year) {
                return Err(format!("year `{year}' not in range 1..9999").into());
            }
            let index = (year - 1) * 12 + month - 1;
            return Ok(Request::span(index, parsed, parsed.has('j')));
        }
        let day_of_year = parsed.has('j');
        let whole_year = parsed.has('y') || (year.is_some() && month.is_none());
        if whole_year {
            let year = year.unwrap_or(this_year);
            return Ok(Request {
                first: (year - 1) * 12,
                count: 12,
                day_of_year,
            });
        }
        let index = (year.unwrap_or(this_year) - 1) * 12 + month.unwrap_or(this_month) - 1;
        Ok(Request::span(index, parsed, day_of_year))
    }

    /// The month at `index` with the months `-3`, `-A` and `-B` add.
    fn span(index: MonthIndex, parsed: &crate::args::Parsed, day_of_year: bool) -> Request {
        // BSD reads the counts with atoi: what is not a number is 0.
        let count_of = |option| {
            parsed
                .value(option)
                .map_or(0, |text: &str| leading_number(text).max(0))
        };
        let (mut before, mut after) = (count_of('B'), count_of('A'));
        if parsed.last_of(&['1', '3']) == Some('3') {
            before = before.max(1);
            after = after.max(1);
        }
        let first = index.saturating_sub(before).max(FIRST_MONTH);
        Request {
            first,
            count: (index.saturating_add(after) - first + 1).max(1),
            day_of_year,
        }
    }

    fn render(&self, out: &mut Out, shell: &ShellView) -> Result<(), Stopped> {
        let per_row: i64 = if self.day_of_year { 2 } else { 3 };
        let cell = if self.day_of_year { 3 } else { 2 };
        // A month's block: seven cells and the spaces between them.
        let block = 7 * cell + 6;
        let last = self.first.saturating_add(self.count - 1);
        let mut text = String::new();
        if self.count == 1 {
            let month = Month::at(self.first);
            text.push_str(&month.lines(cell, &month.title(true)).join("\n"));
            text.push('\n');
            return out.write_all(text.as_bytes()).map_err(Stopped::Write);
        }
        // A span whose first month starts a row (rows then never straddle
        // two years) is titled with each year as it begins, its months by
        // name alone.
        let year_titles = self.first.rem_euclid(per_row) == 0;
        let mut start = self.first;
        while start <= last {
            if year_titles && (start == self.first || start.rem_euclid(12) == 0) {
                let year = (start.div_euclid(12) + 1).to_string();
                let width = block * per_row as usize;
                text.push_str(&" ".repeat(width.saturating_sub(year.len()) / 2));
                text.push_str(&year);
                text.push('\n');
            }
            let end = (start + per_row - 1).min(last);
            let blocks: Vec<Vec<String>> = (start..=end)
                .map(|index| {
                    let month = Month::at(index);
                    month.lines(cell, &month.title(!year_titles))
                })
                .collect();
            for row in 0..blocks[0].len() {
                for lines in &blocks {
                    text.push_str(&lines[row]);
                }
                text.push('\n');
            }
            start = end + 1;
            if start <= last {
                text.push('\n');
            }
            out.write_all(text.as_bytes()).map_err(Stopped::Write)?;
            text.clear();
            shell.check_watch().map_err(Stopped::Flow)?;
        }
        Ok(())
    }
}

/// This year and month in the sandbox's time zone.
fn today(shell: &ShellView) -> (i64, i64) {
    let stamp =
        goccia_interp::time::strftime("%Y %m", goccia_interp::time::now(), &shell.time_zone());
    let mut parts = stamp
        .split(' ')
        .map(|part| part.parse::<i64>().unwrap_or(1));
    (parts.next().unwrap_or(1970), parts.next().unwrap_or(1))
}

/// The number `text` starts with, as C's `atoi` reads it (0 if none),
/// kept within the range `cal` can lay out.
fn leading_number(text: &str) -> i64 {
    let text = text.trim_start();
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    sign * digits[..end].parse::<i64>().unwrap_or(0).min(1 << 40)
}

fn parse_year(text: &str) -> Result<i64, String> {
    match text.parse::<i64>() {
        Ok(year) if (1..=9999).contains(&year) => Ok(year),
        Ok(_) => Err(format!("year `{text}' not in range 1..9999")),
        Err(_) => Err(format!("not a valid year {text}")),
    }
}

/// A month by number (1–12) or by a name's first three letters or more.
fn parse_month(text: &str) -> Result<i64, String> {
    if let Ok(number) = text.parse::<i64>() {
        if (1..=12).contains(&number) {
            return Ok(number);
        }
    } else if text.len() >= 3 {
        let lower = text.to_ascii_lowercase();
        if let Some(found) = MONTHS
            .iter()
            .position(|name| name.to_ascii_lowercase().starts_with(&lower))
        {
            return Ok(found as i64 + 1);
        }
    }
    Err(format!(
        "{text} is neither a month number (1..12) nor a name"
    ))
}

/// One month of the calendar Britain kept.
struct Month {
    year: i64,
    /// 1–12.
    number: i64,
}

impl Month {
    fn at(index: MonthIndex) -> Month {
        Month {
            year: index.div_euclid(12) + 1,
            number: index.rem_euclid(12) + 1,
        }
    }

    fn title(&self, with_year: bool) -> String {
        let name = MONTHS[(self.number - 1) as usize];
        if with_year {
            format!("{name} {}", self.year)
        } else {
            name.to_string()
        }
    }

    /// The days the month has, in order (September 1752 lacks 3–13).
    fn days(&self) -> Vec<i64> {
        let length = match self.number {
            4 | 6 | 9 | 11 => 30,
            2 if is_leap(self.year) => 29,
            2 => 28,
            _ => 31,
        };
        (1..=length)
            .filter(|&day| !(self.year == 1752 && self.number == 9 && (3..=13).contains(&day)))
            .collect()
    }

    /// The title, the weekday names and six weeks, each line as wide as
    /// the block and two spaces more.
    fn lines(&self, cell: usize, title: &str) -> Vec<String> {
        let block = 7 * cell + 6;
        let width = block + 2;
        let mut lines = Vec::with_capacity(8);
        let left = block.saturating_sub(title.len()) / 2;
        lines.push(pad(format!("{}{title}", " ".repeat(left)), width));
        let names = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]
            .map(|name| left_pad(name, cell, ' '))
            .join(" ");
        lines.push(pad(names, width));
        let mut cells: Vec<Option<i64>> = Vec::with_capacity(42);
        let days = self.days();
        let first_weekday = weekday(day_number(self.year, self.number, days[0]));
        cells.extend(std::iter::repeat_n(None, first_weekday as usize));
        let new_year = day_number(self.year, 1, 1);
        for &day in &days {
            let shown = if cell == 3 {
                day_number(self.year, self.number, day) - new_year + 1
            } else {
                day
            };
            cells.push(Some(shown));
        }
        cells.resize(42, None);
        for week in cells.chunks(7) {
            let line = week
                .iter()
                .map(|day| match day {
                    Some(day) => left_pad(&day.to_string(), cell, ' '),
                    None => " ".repeat(cell),
                })
                .collect::<Vec<_>>()
                .join(" ");
            lines.push(pad(line, width));
        }
        lines
    }
}

fn pad(line: String, width: usize) -> String {
    right_pad(&line, width, ' ')
}

/// Whether `year` has a 29 February: every fourth year until 1752 (the
/// Julian calendar), then the Gregorian rule.
fn is_leap(year: i64) -> bool {
    if year <= 1752 {
        year.rem_euclid(4) == 0
    } else {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }
}

/// The Julian day number of a date: Julian up to 2 September 1752,
/// Gregorian from 14 September 1752.
fn day_number(year: i64, month: i64, day: i64) -> i64 {
    let a = (14 - month) / 12;
    let y = year + 4800 - a;
    let m = month + 12 * a - 3;
    let gregorian = (year, month, day) >= (1752, 9, 14);
    if gregorian {
        day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    } else {
        day + (153 * m + 2) / 5 + 365 * y + y / 4 - 32083
    }
}

/// 0 for Sunday.
fn weekday(day_number: i64) -> i64 {
    (day_number + 1).rem_euclid(7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reform_leaves_no_weekday_out() {
        // 2 September 1752 was a Wednesday, the next day 14 September a Thursday.
        assert_eq!(weekday(day_number(1752, 9, 2)), 3);
        assert_eq!(day_number(1752, 9, 14), day_number(1752, 9, 2) + 1);
        // 1 January 2024 was a Monday.
        assert_eq!(weekday(day_number(2024, 1, 1)), 1);
        assert!(is_leap(1700) && !is_leap(1900) && is_leap(2000));
    }

    #[test]
    fn months_are_read_by_number_or_name() {
        assert_eq!(parse_month("feb"), Ok(2));
        assert_eq!(parse_month("September"), Ok(9));
        assert!(parse_month("13").is_err() && parse_month("ju").is_err());
        assert_eq!(parse_year("0"), Err("year `0' not in range 1..9999".into()));
        assert_eq!(
            (
                leading_number("12x"),
                leading_number("x"),
                leading_number("-3")
            ),
            (12, 0, -3)
        );
        assert_eq!(leading_number("99999999999999999999999"), 0);
    }
}
