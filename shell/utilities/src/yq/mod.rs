//! `yq`: jq over YAML, as Debian's `yq` (the jq wrapper) is used: each
//! YAML document of the inputs becomes a JSON value, the jq filter runs
//! on them (this shell's `jq`, the jaq interpreter), and the results come
//! out as JSON — or, with `-y`, as YAML written the way that yq writes
//! it (PyYAML's block style).
//!
//! - `load`: YAML (1.2 core schema) to JSON text, keys in order.
//! - `emit`: results back to YAML.

mod emit;
mod load;

use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, Flow, ShellView};
use goccia_interp::io::{CaptureWriter, Fd};

fn fail(shell: &mut ShellView, message: &str, status: i32) -> ExecResult {
    Ok(shell.fail_command("yq", message, status))
}

pub fn yq(shell: &mut ShellView, args: &[String]) -> ExecResult {
    // yq's own flags; everything else is jq's.
    let mut yaml_output = false;
    let mut jq_args: Vec<String> = Vec::new();
    for arg in &args[1..] {
        match arg.as_str() {
            "-y" | "--yaml-output" | "-Y" | "--yaml-roundtrip" => yaml_output = true,
            "--version" => {
                return match shell.write_stdout(b"yq 3.1.0 (goccia: jq through jaq)\n") {
                    Ok(()) => Ok(0),
                    Err(error) => shell.io_status("yq", error),
                };
            }
            _ => jq_args.push(arg.clone()),
        }
    }
    let options = match crate::jq::parse_options(&jq_args) {
        Ok(options) => options,
        Err(message) => return fail(shell, &message, 2),
    };
    // The inputs, read here as YAML; jq gets their JSON on its stdin.
    let mut json = String::new();
    let sources: Vec<String> = if options.files.is_empty() {
        vec!["-".to_string()]
    } else {
        options.files.clone()
    };
    let reads_input = !options.null_input
        || options
            .filter
            .as_deref()
            .is_some_and(|f| f.contains("input"));
    if reads_input {
        for source in &sources {
            let text = match open_quiet(shell, source)
                .and_then(|mut input| input.read_all().map_err(|_| "read error"))
            {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(reason) => return fail(shell, &format!("{source}: {reason}"), 2),
            };
            if options.raw_input {
                // `-R`: the text goes to jq as it is.
                json.push_str(&text);
                continue;
            }
            match load::documents(&text) {
                Ok(documents) => {
                    for document in documents {
                        json.push_str(&document);
                        json.push('\n');
                    }
                }
                Err(message) => return fail(shell, &format!("Error running jq: {message}."), 1),
            }
        }
    }
    let mut jq_args: Vec<String> = jq_args
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !options.file_positions.contains(index))
        .map(|(_, arg)| arg)
        .collect();
    if yaml_output {
        // Compact JSON lines to read back.
        jq_args.insert(0, "-c".to_string());
    }
    jq_args.insert(0, "jq".to_string());
    let mut child = shell.child_process();
    child
        .fds_mut()
        .set(0, Fd::file(bytes::Bytes::from(json.into_bytes())));
    let captured = CaptureWriter::new(shell.context().limits.max_buffered_input);
    if yaml_output {
        child.fds_mut().set(1, Fd::writer(captured.clone()));
    }
    let status = match crate::jq::jq(child.view(), &jq_args) {
        Ok(status) => status,
        Err(Flow::Exit(status)) => status,
        Err(other) => return Err(other),
    };
    if yaml_output {
        let output = captured.take();
        let text = match emit::documents(&String::from_utf8_lossy(&output)) {
            Ok(text) => text,
            Err(message) => return fail(shell, &message, 1),
        };
        if let Err(error) = shell.write_stdout(text.as_bytes()) {
            return shell.io_status("yq", error);
        }
    }
    Ok(status)
}
