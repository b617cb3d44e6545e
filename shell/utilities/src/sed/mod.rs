//! `sed`: GNU sed's language over the VFS (addresses and ranges, `s` with
//! all flags and case conversions, hold space, branches, `a`/`i`/`c`,
//! `r`/`w`, `-n`, `-i`, `-E`, `-s`, `-z`).

mod program;
mod run;

use std::collections::HashMap;

use goccia_interp::input::{Source, open_quiet};
use goccia_interp::interp::{ExecResult, ShellView};
use program::{Cmd, Compiler};
use run::{Lines, Machine, flush_writes, run_program};

pub fn sed(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut scripts: Vec<String> = Vec::new();
    let mut quiet = false;
    let mut extended = false;
    let mut in_place: Option<String> = None;
    let mut separate = false;
    let mut null_data = false;
    let mut files = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        match arg.as_str() {
            "-n" | "--quiet" | "--silent" => quiet = true,
            "-E" | "-r" | "--regexp-extended" => extended = true,
            "-s" | "--separate" => separate = true,
            "-z" | "--null-data" => null_data = true,
            "-u" | "--unbuffered" | "--posix" | "--debug" | "--sandbox" => {}
            "-e" | "--expression" => {
                scripts.push(args.get(i).cloned().unwrap_or_default());
                i += 1;
            }
            "-f" | "--file" => {
                let file = args.get(i).cloned().unwrap_or_default();
                i += 1;
                match open_quiet(shell, &file)
                    .and_then(|mut s| s.read_all().map_err(|_| "read error"))
                {
                    Ok(data) => scripts.push(
                        goccia_interp::raw::decode(&data)
                            .trim_end_matches('\n')
                            .to_string(),
                    ),
                    Err(reason) => {
                        return Ok(shell.fail_command(
                            "sed",
                            &format!("couldn't open file {file}: {reason}"),
                            1,
                        ));
                    }
                }
            }
            "-i" | "--in-place" => in_place = Some(String::new()),
            _ if arg.starts_with("-i") => in_place = Some(arg[2..].to_string()),
            _ if arg.starts_with("--in-place=") => in_place = Some(arg[11..].to_string()),
            _ if arg.starts_with("-e") && arg.len() > 2 => scripts.push(arg[2..].to_string()),
            _ if arg.starts_with('-')
                && arg.len() > 1
                && arg[1..].chars().all(|c| "nErsz".contains(c)) =>
            {
                for c in arg[1..].chars() {
                    match c {
                        'n' => quiet = true,
                        'E' | 'r' => extended = true,
                        's' => separate = true,
                        _ => null_data = true,
                    }
                }
            }
            _ if arg.starts_with('-') && arg.len() > 1 => {
                return Ok(shell.fail_command("sed", &format!("invalid option -- '{}'\nUsage: sed [OPTION]... {{script-only-if-no-other-script}} [input-file]...", &arg[1..]), 1));
            }
            _ => {
                if scripts.is_empty()
                    && files.is_empty()
                    && !args[..i - 1].iter().any(|a| {
                        a == "-e"
                            || a == "-f"
                            || a.starts_with("--expression")
                            || a.starts_with("--file")
                    })
                {
                    scripts.push(arg.clone());
                } else {
                    files.push(arg.clone());
                }
            }
        }
    }
    if scripts.is_empty() {
        return Ok(shell.fail_command("sed", "no script specified\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...", 1));
    }
    // GNU joins -e pieces with newlines; `a\` at the end of one continues.
    let script = scripts.join("\n");
    let mut compiler = Compiler {
        chars: script.chars().collect(),
        pos: 0,
        extended,
        instructions: Vec::new(),
        blocks: Vec::new(),
        shell,
    };
    if let Err(message) = compiler.compile() {
        let message = if message.starts_with("-e") {
            message
        } else {
            format!("-e expression #1, char {}: {message}", compiler.pos)
        };
        return Ok(compiler.shell.fail_command("sed", &message, 1));
    }
    let program = std::mem::take(&mut compiler.instructions);
    let shell = compiler.shell;
    let labels: HashMap<String, usize> = program
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| match &inst.cmd {
            Cmd::Label(name) => Some((name.clone(), i)),
            _ => None,
        })
        .collect();
    for inst in &program {
        if let Cmd::Branch(label) | Cmd::BranchIfSub(label) | Cmd::BranchUnlessSub(label) =
            &inst.cmd
            && !label.is_empty()
            && !labels.contains_key(label)
        {
            return Ok(shell.fail_command(
                "sed",
                &format!("-e expression #1, char 0: can't find label for jump to `{label}'"),
                1,
            ));
        }
    }
    let separator = if null_data { 0 } else { b'\n' };
    let operands = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.clone()
    };
    let mut machine = Machine {
        program: &program,
        labels,
        quiet,
        last_regex: None,
        range_active: vec![false; program.len()],
        range_end_line: vec![0; program.len()],
        hold: String::new(),
        hold_newline: true,
        line_number: 0,
        output: Vec::new(),
        append_queue: Vec::new(),
        writes: HashMap::new(),
        separator,
        owes_separator: false,
    };
    let mut status = 0;
    if in_place.is_some() {
        for file in &operands {
            let Ok(path) = shell.cwd().resolve(file) else {
                continue;
            };
            let data = shell.context().vfs.lock().read_file(&path);
            let data = match data {
                Ok(data) => data,
                Err(error) => {
                    status = shell.fail_command(
                        "sed",
                        &format!("can't read {file}: {}", error.errno.strerror()),
                        2,
                    );
                    continue;
                }
            };
            machine.line_number = 0;
            machine.range_active.iter_mut().for_each(|r| *r = false);
            let mut lines = Lines::new(vec![(file.clone(), Source::Data(data.clone()))], separator);
            let code = run_program(shell, &mut machine, &mut lines, false)?;
            let output = std::mem::take(&mut machine.output);
            machine.owes_separator = false;
            let backup = in_place
                .as_ref()
                .filter(|s| !s.is_empty())
                .and_then(|suffix| {
                    let backup = if suffix.contains('*') {
                        suffix.replace('*', file)
                    } else {
                        format!("{file}{suffix}")
                    };
                    shell.cwd().resolve(&backup).ok()
                });
            // The backup and the edit land together or not at all.
            let written = shell.context().vfs.lock().all_or_nothing(|vfs| {
                if let Some(backup) = &backup {
                    vfs.write_file(backup, data.clone())?;
                }
                vfs.write_file(&path, output)
            });
            if let Err(error) = written {
                status = shell.fail_fs(
                    "sed",
                    file,
                    &error,
                    |reason| format!("couldn't edit {file}: {reason}"),
                    4,
                );
                continue;
            }
            if let Some(code) = code {
                status = code;
                break;
            }
        }
        if let Some(failed) = flush_writes(shell, &mut machine) {
            status = failed;
        }
        return Ok(status);
    }
    let mut inputs = Vec::new();
    for file in &operands {
        match open_quiet(shell, file) {
            Ok(source) => inputs.push((file.clone(), source)),
            Err(reason) => {
                shell.fail_command("sed", &format!("can't read {file}: {reason}"), 2);
                status = 2;
            }
        }
    }
    let code = if separate {
        let mut code = None;
        for input in inputs {
            machine.line_number = 0;
            let mut lines = Lines::new(vec![input], separator);
            code = run_program(shell, &mut machine, &mut lines, true)?;
            if code.is_some() {
                break;
            }
        }
        code
    } else {
        run_program(
            shell,
            &mut machine,
            &mut Lines::new(inputs, separator),
            true,
        )?
    };
    let failed = flush_writes(shell, &mut machine);
    let output = std::mem::take(&mut machine.output);
    if let Err(error) = shell.write_stdout(&output) {
        return shell.io_status("sed", error);
    }
    Ok(failed.or(code).unwrap_or(status))
}
