//! Numbers: `expr`, `numfmt`, `shuf`.

use crate::args::{getopt, print_text};
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Read;

enum ExprError {
    Syntax(String),
    Division,
}

struct ExprParser<'a> {
    args: &'a [String],
    pos: usize,
}

impl ExprParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.pos).map(String::as_str)
    }

    fn next(&mut self) -> Result<String, ExprError> {
        let value = self.args.get(self.pos).cloned().ok_or_else(|| {
            ExprError::Syntax(
                "syntax error: missing argument after '".to_string()
                    + self
                        .args
                        .get(self.pos.wrapping_sub(1))
                        .map_or("", |s| s.as_str())
                    + "'",
            )
        })?;
        self.pos += 1;
        Ok(value)
    }

    fn or(&mut self) -> Result<String, ExprError> {
        let mut left = self.and()?;
        while self.peek() == Some("|") {
            self.pos += 1;
            let right = self.and()?;
            left = if truthy(&left) {
                left
            } else if truthy(&right) {
                right
            } else {
                "0".to_string()
            };
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<String, ExprError> {
        let mut left = self.compare()?;
        while self.peek() == Some("&") {
            self.pos += 1;
            let right = self.compare()?;
            left = if truthy(&left) && truthy(&right) {
                left
            } else {
                "0".to_string()
            };
        }
        Ok(left)
    }

    fn compare(&mut self) -> Result<String, ExprError> {
        let mut left = self.additive()?;
        while let Some(op) = self
            .peek()
            .filter(|op| matches!(*op, "<" | "<=" | "=" | "==" | "!=" | ">=" | ">"))
        {
            let op = op.to_string();
            self.pos += 1;
            let right = self.additive()?;
            let ordering = match (left.parse::<i64>(), right.parse::<i64>()) {
                (Ok(a), Ok(b)) => a.cmp(&b),
                _ => left.cmp(&right),
            };
            let result = match op.as_str() {
                "<" => ordering.is_lt(),
                "<=" => ordering.is_le(),
                "=" | "==" => ordering.is_eq(),
                "!=" => ordering.is_ne(),
                ">=" => ordering.is_ge(),
                _ => ordering.is_gt(),
            };
            left = if result { "1" } else { "0" }.to_string();
        }
        Ok(left)
    }

    fn number(text: &str) -> Result<i64, ExprError> {
        text.trim()
            .parse()
            .map_err(|_| ExprError::Syntax("non-integer argument".to_string()))
    }

    fn additive(&mut self) -> Result<String, ExprError> {
        let mut left = self.multiplicative()?;
        while let Some(op) = self.peek().filter(|op| matches!(*op, "+" | "-")) {
            let op = op.to_string();
            self.pos += 1;
            let right = self.multiplicative()?;
            let (a, b) = (Self::number(&left)?, Self::number(&right)?);
            left = if op == "+" {
                a.wrapping_add(b)
            } else {
                a.wrapping_sub(b)
            }
            .to_string();
        }
        Ok(left)
    }

    fn multiplicative(&mut self) -> Result<String, ExprError> {
        let mut left = self.matching()?;
        while let Some(op) = self.peek().filter(|op| matches!(*op, "*" | "/" | "%")) {
            let op = op.to_string();
            self.pos += 1;
            let right = self.matching()?;
            let (a, b) = (Self::number(&left)?, Self::number(&right)?);
            if op != "*" && b == 0 {
                return Err(ExprError::Division);
            }
            left = match op.as_str() {
                "*" => a.wrapping_mul(b),
                "/" => a / b,
                _ => a % b,
            }
            .to_string();
        }
        Ok(left)
    }

    fn matching(&mut self) -> Result<String, ExprError> {
        let mut left = self.primary()?;
        while self.peek() == Some(":") {
            self.pos += 1;
            let pattern = self.primary()?;
            left = regex_match(&left, &pattern)?;
        }
        Ok(left)
    }

    fn primary(&mut self) -> Result<String, ExprError> {
        let token = self.next()?;
        match token.as_str() {
            "(" => {
                let value = self.or()?;
                if self.next()? != ")" {
                    return Err(ExprError::Syntax("syntax error: expecting ')'".to_string()));
                }
                Ok(value)
            }
            "length" => Ok(self.next()?.chars().count().to_string()),
            "substr" => {
                let text = self.next()?;
                let position = Self::number(&self.next()?)?;
                let length = Self::number(&self.next()?)?;
                if position < 1 || length < 1 {
                    return Ok(String::new());
                }
                Ok(text
                    .chars()
                    .skip(position as usize - 1)
                    .take(length as usize)
                    .collect())
            }
            "index" => {
                let text = self.next()?;
                let chars = self.next()?;
                Ok(text
                    .chars()
                    .position(|c| chars.contains(c))
                    .map_or(0, |i| i + 1)
                    .to_string())
            }
            "match" => {
                let text = self.next()?;
                let pattern = self.next()?;
                regex_match(&text, &pattern)
            }
            "+" => self.next(),
            _ => Ok(token),
        }
    }
}

fn truthy(value: &str) -> bool {
    !value.is_empty() && value != "0" && (value.parse::<i64>() != Ok(0))
}

/// `STRING : REGEX`: an anchored BRE; the group's text or the match length.
fn regex_match(text: &str, pattern: &str) -> Result<String, ExprError> {
    let translated = format!("^(?:{})", goccia_interp::regex_compat::bre_to_rust(pattern));
    let regex = regex::Regex::new(&translated)
        .map_err(|_| ExprError::Syntax(format!("Invalid regular expression: {pattern}")))?;
    match regex.captures(text) {
        Some(captures) => {
            if captures.len() > 1 {
                Ok(captures
                    .get(1)
                    .map_or(String::new(), |m| m.as_str().to_string()))
            } else {
                Ok(captures
                    .get(0)
                    .map_or(0, |m| m.as_str().chars().count())
                    .to_string())
            }
        }
        None => Ok(if regex.captures_len() > 1 {
            String::new()
        } else {
            "0".to_string()
        }),
    }
}

pub fn expr(shell: &mut ShellView, args: &[String]) -> ExecResult {
    if args.len() < 2 {
        return Ok(shell.fail_command(
            "expr",
            "missing operand\nTry 'expr --help' for more information.",
            2,
        ));
    }
    let mut parser = ExprParser {
        args: &args[1..],
        pos: 0,
    };
    let result = parser.or().and_then(|value| {
        if parser.pos < parser.args.len() {
            Err(ExprError::Syntax(format!(
                "syntax error: unexpected argument '{}'",
                parser.args[parser.pos]
            )))
        } else {
            Ok(value)
        }
    });
    match result {
        Ok(value) => {
            let status = i32::from(
                !truthy(&value) && value.parse::<i64>().map_or(value.is_empty(), |n| n == 0),
            );
            print_text(shell, "expr", &format!("{value}\n"), status)
        }
        Err(ExprError::Division) => Ok(shell.fail_command("expr", "division by zero", 2)),
        Err(ExprError::Syntax(message)) => Ok(shell.fail_command("expr", &message, 2)),
    }
}

fn scale_of(unit: &str) -> Option<(f64, bool)> {
    match unit {
        "si" => Some((1000.0, false)),
        "iec" => Some((1024.0, false)),
        "iec-i" => Some((1024.0, true)),
        "auto" => Some((1000.0, false)),
        "none" => None,
        _ => None,
    }
}

fn parse_scaled(text: &str, from: Option<&str>) -> Option<f64> {
    let text = text.trim();
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(text.len());
    let value: f64 = text[..number_end].parse().ok()?;
    let suffix = &text[number_end..];
    if suffix.is_empty() {
        return Some(value);
    }
    let base = match from {
        Some("si") => 1000.0,
        Some("iec") | Some("iec-i") => 1024.0,
        Some("auto") => {
            if suffix.ends_with('i') {
                1024.0
            } else {
                1000.0
            }
        }
        _ => return None,
    };
    let letter = suffix.chars().next()?;
    let power = "KMGTPEZY".find(letter.to_ascii_uppercase())? as i32 + 1;
    Some(value * f64::powi(base, power))
}

fn format_scaled(value: f64, to: &str) -> String {
    let Some((base, binary_suffix)) = scale_of(to) else {
        return format!("{}", value.round() as i64);
    };
    if value.abs() < base {
        return format!("{}", value.ceil() as i64);
    }
    let mut scaled = value;
    let mut power = 0;
    while scaled.abs() >= base && power < 8 {
        scaled /= base;
        power += 1;
    }
    // numfmt rounds away from zero; one decimal below 10.
    let mut text = if scaled.abs() < 10.0 {
        let rounded = (scaled * 10.0).ceil() / 10.0;
        if rounded >= 10.0 {
            format!("{}", rounded.ceil() as i64)
        } else {
            format!("{rounded:.1}")
        }
    } else {
        format!("{}", scaled.ceil() as i64)
    };
    if text.parse::<f64>().is_ok_and(|v| v >= base) && power < 8 {
        power += 1;
        text = "1.0".to_string();
    }
    let letter = "KMGTPEZY".chars().nth(power - 1).unwrap_or('?');
    format!("{text}{letter}{}", if binary_suffix { "i" } else { "" })
}

pub fn numfmt(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut to = None;
    let mut from = None;
    let mut suffix = String::new();
    let mut padding: i64 = 0;
    let mut numbers = Vec::new();
    for arg in &args[1..] {
        if let Some(value) = arg.strip_prefix("--to=") {
            to = Some(value.to_string());
        } else if let Some(value) = arg.strip_prefix("--from=") {
            from = Some(value.to_string());
        } else if let Some(value) = arg.strip_prefix("--suffix=") {
            suffix = value.to_string();
        } else if let Some(value) = arg.strip_prefix("--padding=") {
            padding = value.parse().unwrap_or(0);
        } else if arg.starts_with("--") {
            continue;
        } else {
            numbers.push(arg.clone());
        }
    }
    if numbers.is_empty() {
        let mut text = String::new();
        if let Some(reader) = shell.fds().input(0) {
            let _ = reader.lock().read_to_string(&mut text);
        }
        numbers = text.split_whitespace().map(str::to_string).collect();
    }
    let mut out = String::new();
    for number in numbers {
        let Some(value) = parse_scaled(&number, from.as_deref()) else {
            return Ok(shell.fail_command("numfmt", &format!("invalid number: '{number}'"), 2));
        };
        let mut text = match &to {
            Some(to) => format_scaled(value, to),
            None => {
                if value.fract() == 0.0 {
                    format!("{}", value as i64)
                } else {
                    format!("{value}")
                }
            }
        };
        text.push_str(&suffix);
        if padding > 0 {
            text = goccia_interp::pad::left_pad(&text, padding as usize, ' ');
        } else if padding < 0 {
            text = goccia_interp::pad::right_pad(&text, padding.unsigned_abs() as usize, ' ');
        }
        out.push_str(&text);
        out.push('\n');
    }
    print_text(shell, "numfmt", &out, 0)
}

pub fn shuf(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "ni",
        &[
            ("head-count", 'n', true),
            ("echo", 'e', false),
            ("input-range", 'i', true),
            ("repeat", 'r', false),
            ("zero-terminated", 'z', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return Ok(shell.fail_command("shuf", &message, 1)),
    };
    let terminator = if parsed.has('z') { '\0' } else { '\n' };
    let mut items: Vec<String> = if parsed.has('e') {
        parsed.operands.clone()
    } else if let Some(range) = parsed.value('i') {
        let Some((lo, hi)) = range
            .split_once('-')
            .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
        else {
            return Ok(shell.fail_command("shuf", &format!("invalid input range: '{range}'"), 1));
        };
        (lo..=hi).map(|n| n.to_string()).collect()
    } else {
        let operand = parsed
            .operands
            .first()
            .cloned()
            .unwrap_or_else(|| "-".to_string());
        let Ok(mut source) = goccia_interp::input::open_source(shell, "shuf", &operand) else {
            return Ok(1);
        };
        match source.read_all() {
            Ok(data) => {
                let text = String::from_utf8_lossy(&data);
                let mut records: Vec<String> = text.split(terminator).map(str::to_string).collect();
                if records.last().is_some_and(String::is_empty) {
                    records.pop();
                }
                records
            }
            Err(error) => return shell.io_status("shuf", error),
        }
    };
    let count = parsed.value('n').and_then(|n| n.parse::<usize>().ok());
    if parsed.has('r') {
        let Some(count) = count else {
            return Ok(shell.fail_command(
                "shuf",
                "--repeat requires --head-count in the sandbox (it would never end)",
                1,
            ));
        };
        if items.is_empty() {
            return Ok(shell.fail_command("shuf", "no lines to repeat", 1));
        }
        let picks: String = (0..count)
            .map(|_| {
                format!(
                    "{}{terminator}",
                    items[shell.random_u32() as usize % items.len()]
                )
            })
            .collect();
        return print_text(shell, "shuf", &picks, 0);
    }
    for i in (1..items.len()).rev() {
        let j = shell.random_u32() as usize % (i + 1);
        items.swap(i, j);
    }
    items.truncate(count.unwrap_or(usize::MAX));
    let text: String = items.iter().map(|i| format!("{i}{terminator}")).collect();
    print_text(shell, "shuf", &text, 0)
}
