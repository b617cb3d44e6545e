//! Tokens of the awk language. Whether `/` starts a regex or divides
//! depends on the token before it.

#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    Number(f64),
    Str(String),
    Regex(String),
    /// A name directly followed by `(` (a user function call).
    FuncName(String),
    Name(String),
    Builtin(String),
    Keyword(&'static str),
    Op(&'static str),
    Newline,
    Eof,
}

const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "BEGINFILE",
    "ENDFILE",
    "function",
    "func",
    "if",
    "else",
    "while",
    "for",
    "do",
    "break",
    "continue",
    "next",
    "nextfile",
    "exit",
    "return",
    "delete",
    "in",
    "getline",
    "print",
    "printf",
];

pub const BUILTINS: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2",
    "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "system", "close",
    "fflush", "systime", "strftime", "gensub", "asort", "asorti",
];

const OPS: &[&str] = &[
    "**=", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "++", "--", "&&", "||",
    ">>", "!~", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!",
    ">", "<", "|", "?", ":", "~", "$", "=",
];

pub struct Lexer {
    chars: Vec<char>,
    pos: usize,
    /// Where the token being read began.
    start: usize,
    /// Where the last comment began, while only newlines followed it.
    comment_at_end: Option<usize>,
    /// Where each comment began.
    comments: Vec<usize>,
    last: Option<Token>,
}

/// A program read into tokens: each token, the source line (from 1) it
/// starts on, and the index of its first character.
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub lines: Vec<u32>,
    pub starts: Vec<usize>,
    /// Where a comment began after which only newlines came: gawk reports
    /// a rule left open there its own way.
    pub comment_at_end: Option<usize>,
    /// Where each comment began (gawk's caret goes to one that stands
    /// where the program stopped).
    pub comments: Vec<usize>,
}

/// A program the lexer cannot read: what is wrong, and the index of the
/// character gawk points its caret at.
pub struct LexError {
    pub message: String,
    pub at: usize,
}

/// A string or regex that does not end on its line.
enum Unterminated {
    String,
    Regexp,
}

/// Why a token cannot be read.
enum Fault {
    Unterminated(Unterminated),
    /// A character that is a token to gawk but to no rule of the grammar.
    Misplaced,
    /// Anything else, as gawk words it, its caret on the character.
    Other(String),
}

impl From<Unterminated> for Fault {
    fn from(unterminated: Unterminated) -> Self {
        Fault::Unterminated(unterminated)
    }
}

impl Lexer {
    pub fn new(source: &str) -> Self {
        Lexer {
            chars: source.chars().collect(),
            pos: 0,
            start: 0,
            comment_at_end: None,
            comments: Vec::new(),
            last: None,
        }
    }

    /// At most `most` digits of `radix` from here, as a number (`None`
    /// when there is none).
    fn digits(&mut self, radix: u32, most: usize) -> Option<u32> {
        let mut value = 0u32;
        let mut count = 0;
        while count < most {
            match self.chars.get(self.pos).and_then(|c| c.to_digit(radix)) {
                Some(digit) => {
                    value = value * radix + digit;
                    self.pos += 1;
                    count += 1;
                }
                None => break,
            }
        }
        (count > 0).then_some(value)
    }

    fn regex_allowed(&self) -> bool {
        match &self.last {
            None => true,
            Some(Token::Number(_))
            | Some(Token::Str(_))
            | Some(Token::Name(_))
            | Some(Token::Builtin(_))
            | Some(Token::Regex(_)) => false,
            Some(Token::Op(op)) => !matches!(*op, ")" | "]" | "$" | "++" | "--"),
            Some(Token::Keyword("getline")) => false,
            _ => true,
        }
    }

    /// The tokens, with where each starts.
    pub fn tokens(mut self) -> Result<Lexed, LexError> {
        let mut out = Vec::new();
        let mut lines = Vec::new();
        let mut starts = Vec::new();
        let (mut line, mut counted) = (1u32, 0usize);
        loop {
            let token = self.next_token().map_err(|fault| match fault {
                Fault::Unterminated(Unterminated::String) => LexError {
                    message: "unterminated string".to_string(),
                    at: self.start,
                },
                // gawk points past the opening slash.
                Fault::Unterminated(Unterminated::Regexp) => LexError {
                    message: "unterminated regexp".to_string(),
                    at: self.start + 1,
                },
                // gawk reads `@` with the name that should follow it, and
                // points at that.
                Fault::Misplaced => LexError {
                    message: "syntax error".to_string(),
                    at: if self.chars[self.start] == '@' {
                        (self.start + 1..self.chars.len())
                            .find(|at| !matches!(self.chars[*at], ' ' | '\t'))
                            .unwrap_or(self.chars.len())
                    } else {
                        self.start
                    },
                },
                Fault::Other(message) => LexError {
                    message,
                    at: self.start,
                },
            })?;
            starts.push(self.start);
            if !matches!(token, Token::Newline | Token::Eof) {
                self.comment_at_end = None;
            }
            // The token ends at `pos`; it started on the line of its first
            // character (a newline token is on the line it ends).
            let start = self.pos.saturating_sub(1).max(counted);
            line += self.chars[counted..start.min(self.chars.len())]
                .iter()
                .filter(|c| **c == '\n')
                .count() as u32;
            counted = start.min(self.chars.len());
            let end = token == Token::Eof;
            self.last = Some(token.clone());
            out.push(token);
            lines.push(line);
            if end {
                return Ok(Lexed {
                    tokens: out,
                    lines,
                    starts,
                    comment_at_end: self.comment_at_end,
                    comments: std::mem::take(&mut self.comments),
                });
            }
        }
    }

    fn next_token(&mut self) -> Result<Token, Fault> {
        loop {
            match self.chars.get(self.pos) {
                Some(' ') | Some('\t') | Some('\r') => self.pos += 1,
                Some('\\') if matches!(self.chars.get(self.pos + 1), Some('\n')) => self.pos += 2,
                Some('\\')
                    if matches!(self.chars.get(self.pos + 1), Some('\r'))
                        && self.chars.get(self.pos + 2) == Some(&'\n') =>
                {
                    self.pos += 3
                }
                Some('#') => {
                    self.comment_at_end = Some(self.pos);
                    self.comments.push(self.pos);
                    while self.chars.get(self.pos).is_some_and(|c| *c != '\n') {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        self.start = self.pos;
        let Some(&c) = self.chars.get(self.pos) else {
            return Ok(Token::Eof);
        };
        if c == '\n' {
            self.pos += 1;
            return Ok(Token::Newline);
        }
        if c.is_ascii_digit()
            || (c == '.'
                && self
                    .chars
                    .get(self.pos + 1)
                    .is_some_and(|d| d.is_ascii_digit()))
        {
            return Ok(Token::Number(self.number()));
        }
        if c == '"' {
            self.pos += 1;
            return Ok(Token::Str(self.string()?));
        }
        if c == '/' && self.regex_allowed() {
            self.pos += 1;
            return Ok(Token::Regex(self.regex()?));
        }
        if c == '_' || c.is_ascii_alphabetic() {
            let start = self.pos;
            while self
                .chars
                .get(self.pos)
                .is_some_and(|c| *c == '_' || c.is_ascii_alphanumeric())
            {
                self.pos += 1;
            }
            let word: String = self.chars[start..self.pos].iter().collect();
            if let Some(keyword) = KEYWORDS.iter().find(|k| **k == word) {
                return Ok(Token::Keyword(keyword));
            }
            if BUILTINS.contains(&word.as_str()) {
                return Ok(Token::Builtin(word));
            }
            if self.chars.get(self.pos) == Some(&'(') {
                return Ok(Token::FuncName(word));
            }
            return Ok(Token::Name(word));
        }
        for op in OPS {
            if op
                .chars()
                .enumerate()
                .all(|(i, ch)| self.chars.get(self.pos + i) == Some(&ch))
            {
                self.pos += op.len();
                return Ok(Token::Op(op));
            }
        }
        Err(match c {
            // Characters gawk reads as tokens of its own (`&`, `.`, `@`
            // of its extensions) that no rule here allows.
            '&' | '.' | '@' => Fault::Misplaced,
            '\\' => Fault::Other("backslash not last character on line".to_string()),
            _ => Fault::Other(format!("invalid char '{c}' in expression")),
        })
    }

    fn number(&mut self) -> f64 {
        let start = self.pos;
        if self.chars[self.pos] == '0'
            && matches!(self.chars.get(self.pos + 1), Some('x') | Some('X'))
        {
            self.pos += 2;
            let hex_start = self.pos;
            while self
                .chars
                .get(self.pos)
                .is_some_and(|c| c.is_ascii_hexdigit())
            {
                self.pos += 1;
            }
            let text: String = self.chars[hex_start..self.pos].iter().collect();
            return i64::from_str_radix(&text, 16).unwrap_or(0) as f64;
        }
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_digit() || *c == '.')
        {
            self.pos += 1;
        }
        if matches!(self.chars.get(self.pos), Some('e') | Some('E')) {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.chars.get(self.pos), Some('+') | Some('-')) {
                self.pos += 1;
            }
            if self.chars.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                while self.chars.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        // gawk reads a constant of octal digits with a leading 0 as octal
        // (`017` is 15); with an 8, a 9, a point or an exponent, decimal.
        if text.len() > 1
            && text.starts_with('0')
            && text.bytes().all(|b| (b'0'..=b'7').contains(&b))
        {
            return i64::from_str_radix(&text, 8).map_or(0.0, |value| value as f64);
        }
        text.parse().unwrap_or(0.0)
    }

    fn string(&mut self) -> Result<String, Unterminated> {
        let mut out = String::new();
        loop {
            let Some(&c) = self.chars.get(self.pos) else {
                return Err(Unterminated::String);
            };
            self.pos += 1;
            match c {
                '"' => return Ok(out),
                '\n' => return Err(Unterminated::String),
                '\\' => {
                    let Some(&e) = self.chars.get(self.pos) else {
                        continue;
                    };
                    self.pos += 1;
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '\\' => out.push('\\'),
                        '"' => out.push('"'),
                        '/' => out.push('/'),
                        'a' => out.push('\x07'),
                        'b' => out.push('\x08'),
                        'f' => out.push('\x0c'),
                        'v' => out.push('\x0b'),
                        '\n' => {}
                        'u' => match self.digits(16, 8) {
                            Some(value) => out.push(char::from_u32(value).unwrap_or('\u{fffd}')),
                            None => out.push_str("\\u"),
                        },
                        '0'..='7' => {
                            self.pos -= 1;
                            let value = self.digits(8, 3).unwrap_or(0);
                            // A byte, as gawk writes it (`"\377"` is 0xff).
                            out.push(goccia_interp::raw::byte_char(value as u8));
                        }
                        // gawk takes at most two hex digits.
                        'x' => match self.digits(16, 2) {
                            Some(value) => out.push(goccia_interp::raw::byte_char(value as u8)),
                            None => out.push('x'),
                        },
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
                c => out.push(c),
            }
        }
    }

    fn regex(&mut self) -> Result<String, Unterminated> {
        let mut out = String::new();
        let mut in_bracket = false;
        loop {
            let Some(&c) = self.chars.get(self.pos) else {
                return Err(Unterminated::Regexp);
            };
            self.pos += 1;
            match c {
                '\n' => return Err(Unterminated::Regexp),
                '/' if !in_bracket => return Ok(out),
                '[' => {
                    in_bracket = true;
                    out.push(c);
                    if self.chars.get(self.pos) == Some(&'^') {
                        out.push('^');
                        self.pos += 1;
                    }
                    if self.chars.get(self.pos) == Some(&']') {
                        out.push(']');
                        self.pos += 1;
                    }
                }
                ']' => {
                    in_bracket = false;
                    out.push(c);
                }
                '\\' => match self.chars.get(self.pos) {
                    Some('/') => {
                        out.push('/');
                        self.pos += 1;
                    }
                    Some(&next) => {
                        out.push('\\');
                        out.push(next);
                        self.pos += 1;
                    }
                    None => out.push('\\'),
                },
                c => out.push(c),
            }
        }
    }
}
