//! Prompt strings as bash decodes them (`${PS1@P}`, `PS4` before a traced
//! command): first the backslash escapes (`\u`, `\w`, `\t`, octal bytes,
//! ...), then — with `promptvars` on, as by default — `$` expansions as in
//! double quotes. The order matters: `x='\'; y=h; PS1='$x$y'` shows `\h`,
//! and a folder named `$foo` in `\w` stays as it is (the escapes' values
//! are quoted against the second step).
//!
//! The sandbox has no terminal and no line editor: `\l` is `tty` (bash's
//! word for "not a terminal") and `\[`/`\]` mark nothing.

use super::shell::HOST_NAME;
use super::{Flow, Shell};
use crate::time::{now, strftime};

impl Shell {
    /// `text` decoded as a prompt.
    pub(crate) fn expand_prompt(&mut self, text: &str) -> Result<String, Flow> {
        let decoded = self.decode_prompt_escapes(text);
        if !self.opts.promptvars {
            return Ok(decoded);
        }
        let word = match crate::parse::expandable_text_word(&decoded) {
            Ok(word) => word,
            Err(error) => match error.stop {
                Some(stop) => return Err(Flow::Stop(stop)),
                // bash shows a prompt it cannot expand as it is.
                None => return Ok(decoded),
            },
        };
        // An expansion that fails (`$((1/0))`, `set -u`) has said why; the
        // prompt is then shown unexpanded and the command goes on.
        let status = self.status;
        let expanded = self.expand_string(&word);
        self.status = status;
        match expanded {
            Ok(text) => Ok(text),
            Err(Flow::Stop(stop)) => Err(Flow::Stop(stop)),
            Err(_) => Ok(decoded),
        }
    }

    /// What precedes a command `set -x` shows: `PS4` expanded as a
    /// prompt (not itself traced), its first character repeated once for
    /// each command substitution the command runs in; nothing when `PS4`
    /// is unset or empty.
    pub(crate) fn trace_prefix(&mut self) -> Result<String, Flow> {
        let Some(ps4) = self.get_var("PS4").filter(|ps4| !ps4.is_empty()) else {
            return Ok(String::new());
        };
        let tracing = std::mem::replace(&mut self.opts.xtrace, false);
        let expanded = self.expand_prompt(&ps4);
        self.opts.xtrace = tracing;
        let expanded = expanded?;
        let mut prefix = String::with_capacity(expanded.len() + self.substitution_depth);
        if let Some(first) = expanded.chars().next() {
            prefix.extend(std::iter::repeat_n(first, self.substitution_depth));
        }
        prefix.push_str(&expanded);
        Ok(prefix)
    }

    /// The user name `\u` and `whoami` give: `$USER`, or `user`.
    pub(crate) fn user_name(&mut self) -> String {
        self.get_var("USER").unwrap_or_else(|| "user".to_string())
    }

    fn decode_prompt_escapes(&mut self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let zone = self.time_zone();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(&escape) = chars.get(i) else {
                out.push('\\');
                break;
            };
            i += 1;
            let value = match escape {
                'a' => "\x07".to_string(),
                'e' => "\x1b".to_string(),
                'r' => "\r".to_string(),
                'n' => "\n".to_string(),
                // Kept for the second step, where `\\` and `\$` quote.
                '\\' => "\\".to_string(),
                '$' => {
                    let root = self.get_var("EUID").is_some_and(|id| id == "0");
                    let sign = if root { "#" } else { "\\$" };
                    out.push_str(sign);
                    continue;
                }
                '[' | ']' => continue,
                '0'..='7' => {
                    let mut value = 0u32;
                    let mut digits = 0;
                    i -= 1;
                    while digits < 3 && i < chars.len() && matches!(chars[i], '0'..='7') {
                        value = value * 8 + chars[i].to_digit(8).unwrap_or(0);
                        i += 1;
                        digits += 1;
                    }
                    // A byte: `\555` wraps to `m` as bash's char does.
                    char::from((value & 0xff) as u8).to_string()
                }
                'u' => quote_for_second_step(&self.user_name()),
                'h' => HOST_NAME.split('.').next().unwrap_or(HOST_NAME).to_string(),
                'H' => HOST_NAME.to_string(),
                'w' => quote_for_second_step(&self.prompt_folder(false)),
                'W' => quote_for_second_step(&self.prompt_folder(true)),
                's' => "bash".to_string(),
                'v' => "5.2".to_string(),
                'V' => "5.2.15".to_string(),
                'j' => self.jobs.active().len().to_string(),
                'l' => "tty".to_string(),
                '#' => self.commands_read.to_string(),
                // The number of the command being run; at the prompt, of
                // the one about to be read.
                '!' => {
                    let next = self.history.first_number() + self.history.len();
                    let running = usize::from(!self.at_prompt && self.history.len() > 0);
                    (next - running).to_string()
                }
                't' => strftime("%H:%M:%S", now(), &zone),
                'T' => strftime("%I:%M:%S", now(), &zone),
                '@' => strftime("%I:%M %p", now(), &zone),
                'A' => strftime("%H:%M", now(), &zone),
                'd' => strftime("%a %b %d", now(), &zone),
                'D' if chars.get(i) == Some(&'{') => {
                    let Some(close) = chars[i..].iter().position(|&c| c == '}') else {
                        // No closing brace: bash shows the rest as it is.
                        out.push_str("\\D");
                        continue;
                    };
                    let format: String = chars[i + 1..i + close].iter().collect();
                    i += close + 1;
                    let format = if format.is_empty() { "%X" } else { &format };
                    quote_for_second_step(&strftime(format, now(), &zone))
                }
                other => {
                    out.push('\\');
                    out.push(other);
                    continue;
                }
            };
            out.push_str(&value);
        }
        out
    }

    /// `\w` (`$PWD`, `~` for `$HOME`) or `\W` (its last name).
    fn prompt_folder(&mut self, last_name_only: bool) -> String {
        let pwd = self
            .get_var("PWD")
            .unwrap_or_else(|| self.cwd.as_str().to_string());
        let home = self.get_var("HOME").filter(|home| !home.is_empty());
        if let Some(home) = &home {
            if pwd == *home {
                return "~".to_string();
            }
            if let Some(rest) = pwd.strip_prefix(home.as_str())
                && !last_name_only
                && rest.starts_with('/')
            {
                return format!("~{rest}");
            }
        }
        if last_name_only && pwd != "/" {
            let trimmed = pwd.trim_end_matches('/');
            return trimmed.rsplit('/').next().unwrap_or(trimmed).to_string();
        }
        pwd
    }
}

/// A value that must come out of the second step as it is.
fn quote_for_second_step(value: &str) -> String {
    let mut quoted = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '$' | '`' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted
}
