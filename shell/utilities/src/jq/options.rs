//! jq's command line: flags combine (`-nr`), `--arg name value` takes two
//! words, the first operand is the filter (unless `-f`), `--args` and
//! `--jsonargs` turn the remaining operands into `$ARGS.positional`.

/// A named argument before its file (if any) has been read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Named {
    /// `--arg name value`
    Text(String),
    /// `--argjson name json`
    Json(String),
    /// `--slurpfile name file`: every JSON value of the file, as an array.
    SlurpFile(String),
    /// `--rawfile name file`: the file's text.
    RawFile(String),
}

/// How the operands after the filter are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Positional {
    /// Input files (the default).
    #[default]
    Files,
    /// `--args`: strings in `$ARGS.positional`.
    Strings,
    /// `--jsonargs`: JSON values in `$ARGS.positional`.
    Json,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    pub filter: Option<String>,
    pub filter_file: Option<String>,
    pub files: Vec<String>,
    /// Where in the arguments each of `files` was (`yq` hands jq the rest).
    pub file_positions: Vec<usize>,
    pub null_input: bool,
    pub raw_input: bool,
    pub slurp: bool,
    pub compact: bool,
    pub raw_output: bool,
    pub join_output: bool,
    pub nul_output: bool,
    pub ascii_output: bool,
    pub sort_keys: bool,
    pub color: bool,
    pub tab: bool,
    /// Spaces per level (`--indent`, default 2).
    pub indent: usize,
    pub exit_status: bool,
    pub seq: bool,
    pub version: bool,
    pub help: bool,
    pub named: Vec<(String, Named)>,
    /// `--args` strings and `--jsonargs` JSON texts, in order.
    pub positional: Vec<(Positional, String)>,
    /// The most `--slurp` reads from a stream (the sandbox's
    /// `max_buffered_input`, set by the caller).
    pub max_buffered_input: usize,
}

pub(crate) fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        indent: 2,
        ..Options::default()
    };
    let mut mode = Positional::Files;
    let mut i = 0;
    let mut options_done = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if options_done || !arg.starts_with('-') || arg == "-" {
            let files = options.files.len();
            operand(&mut options, mode, arg);
            if options.files.len() > files {
                options.file_positions.push(i - 1);
            }
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        let mut take = |count: usize| -> Result<Vec<String>, String> {
            if i + count > args.len() {
                return Err(format!(
                    "{arg} takes {} parameter{}",
                    count,
                    if count == 1 { "" } else { "s" }
                ));
            }
            let values = args[i..i + count].to_vec();
            i += count;
            Ok(values)
        };
        if let Some(long) = arg.strip_prefix("--") {
            match long {
                "null-input" => options.null_input = true,
                "raw-input" => options.raw_input = true,
                "slurp" => options.slurp = true,
                "compact-output" => options.compact = true,
                "raw-output" => options.raw_output = true,
                "raw-output0" => {
                    options.raw_output = true;
                    options.nul_output = true;
                }
                "join-output" => {
                    options.raw_output = true;
                    options.join_output = true;
                }
                "ascii-output" => options.ascii_output = true,
                "sort-keys" => options.sort_keys = true,
                "color-output" => options.color = true,
                "monochrome-output" => options.color = false,
                "tab" => options.tab = true,
                "indent" => {
                    let value = take(1)?.remove(0);
                    let indent: usize = value
                        .parse()
                        .map_err(|_| format!("--indent takes a number: {value}"))?;
                    if indent > 7 {
                        return Err("Cannot indent more than 7 characters".into());
                    }
                    options.indent = indent;
                }
                "seq" => options.seq = true,
                "exit-status" => options.exit_status = true,
                "from-file" => options.filter_file = Some(take(1)?.remove(0)),
                "arg" | "argjson" | "slurpfile" | "rawfile" => {
                    let mut pair = take(2)?;
                    let value = pair.pop().unwrap_or_default();
                    let name = pair.pop().unwrap_or_default();
                    let named = match long {
                        "arg" => Named::Text(value),
                        "argjson" => Named::Json(value),
                        "slurpfile" => Named::SlurpFile(value),
                        _ => Named::RawFile(value),
                    };
                    options.named.push((name, named));
                }
                "args" => mode = Positional::Strings,
                "jsonargs" => mode = Positional::Json,
                "version" => options.version = true,
                "help" => options.help = true,
                "stream" | "stream-errors" | "unbuffered" => {}
                _ => return Err(format!("Unknown arguments: {arg}")),
            }
            continue;
        }
        for flag in arg[1..].chars() {
            match flag {
                'n' => options.null_input = true,
                'R' => options.raw_input = true,
                's' => options.slurp = true,
                'c' => options.compact = true,
                'r' => options.raw_output = true,
                'j' => {
                    options.raw_output = true;
                    options.join_output = true;
                }
                'a' => options.ascii_output = true,
                'S' => options.sort_keys = true,
                'C' => options.color = true,
                'M' => options.color = false,
                'e' => options.exit_status = true,
                'V' => options.version = true,
                'h' => options.help = true,
                'f' => options.filter_file = Some(take(1)?.remove(0)),
                _ => return Err(format!("Unknown arguments: {arg}")),
            }
        }
    }
    Ok(options)
}

/// An operand: the filter first (unless `-f` gave it), then files or
/// positional values.
fn operand(options: &mut Options, mode: Positional, arg: &str) {
    if options.filter.is_none() && options.filter_file.is_none() {
        options.filter = Some(arg.to_string());
        return;
    }
    match mode {
        Positional::Files => options.files.push(arg.to_string()),
        _ => options.positional.push((mode, arg.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        parse_options(&args)
    }

    #[test]
    fn combined_flags_and_filter() {
        let options = parse(&["-snr", ".a", "f.json"]).unwrap();
        assert!(options.slurp && options.null_input && options.raw_output);
        assert_eq!(options.filter.as_deref(), Some(".a"));
        assert_eq!(options.files, ["f.json"]);
    }

    #[test]
    fn named_and_positional_arguments() {
        let options = parse(&[
            "--arg",
            "x",
            "1",
            "--argjson",
            "y",
            "{}",
            ".",
            "--args",
            "a",
            "b",
        ])
        .unwrap();
        assert_eq!(options.named[0], ("x".into(), Named::Text("1".into())));
        assert_eq!(options.named[1], ("y".into(), Named::Json("{}".into())));
        assert_eq!(options.positional.len(), 2);
        assert!(options.files.is_empty());
    }

    #[test]
    fn errors_name_the_argument() {
        assert!(
            parse(&["--arg", "x"])
                .unwrap_err()
                .contains("--arg takes 2 parameters")
        );
        assert!(parse(&["-Z", "."]).unwrap_err().contains("-Z"));
        assert!(parse(&["--indent", "9", "."]).unwrap_err().contains("7"));
    }
}
