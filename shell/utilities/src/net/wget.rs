//! `wget`: downloads each URL to a file named after it (`index.html` for
//! a path that ends with `/`; `name.1`, `name.2`, ... rather than
//! overwriting), or to `-O`'s file (`-O -`: stdout). Redirects are
//! followed. Progress goes to stderr in a short form (no bar); `-q` says
//! nothing, `-nv` one line per file. Exit codes are wget's: 4 for a
//! network failure (a refusal by the policy included), 8 for an error
//! response.

use super::{header, perform, remote_name};
use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::network::{HttpRequest, NetworkError};

#[derive(Default)]
struct Options {
    urls: Vec<String>,
    output: Option<String>,
    prefix: Option<String>,
    quiet: bool,
    brief: bool,
    headers: Vec<(String, String)>,
    method: Option<String>,
    body: Option<Vec<u8>>,
    user_agent: Option<String>,
    server_response: bool,
}

fn parse(shell: &mut ShellView, args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].clone();
        i += 1;
        if !arg.starts_with('-') || arg == "-" {
            o.urls.push(arg);
            continue;
        }
        // Bundled short options (`-qO-`): one at a time, a valued one
        // taking the rest of the word.
        if !arg.starts_with("--") && arg.len() > 2 && !matches!(arg.as_str(), "-nv" | "-nc") {
            let mut rest = &arg[1..];
            while let Some(c) = rest.chars().next() {
                rest = &rest[c.len_utf8()..];
                match c {
                    'q' => o.quiet = true,
                    'S' => o.server_response = true,
                    'v' | 'c' => {}
                    'O' | 'P' | 'U' | 't' | 'T' => {
                        let value = if rest.is_empty() {
                            let value = args
                                .get(i)
                                .cloned()
                                .ok_or_else(|| format!("option requires an argument -- '{c}'"))?;
                            i += 1;
                            value
                        } else {
                            rest.to_string()
                        };
                        match c {
                            'O' => o.output = Some(value),
                            'P' => o.prefix = Some(value),
                            'U' => o.user_agent = Some(value),
                            _ => {}
                        }
                        break;
                    }
                    other => return Err(format!("invalid option -- '{other}'")),
                }
            }
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (arg.clone(), None),
        };
        let value = |i: &mut usize| -> Result<String, String> {
            if let Some(value) = &inline {
                return Ok(value.clone());
            }
            // A short option's value may follow it directly (`-Ofile`).
            if !name.starts_with("--") && name.len() > 2 {
                return Ok(name[2..].to_string());
            }
            let value = args.get(*i).cloned().ok_or_else(|| {
                format!(
                    "option requires an argument -- '{}'",
                    name.trim_start_matches('-')
                )
            })?;
            *i += 1;
            Ok(value)
        };
        let short = if name.starts_with("--") {
            ""
        } else {
            &name[..2.min(name.len())]
        };
        match (name.as_str(), short) {
            ("--output-document", _) | (_, "-O") => o.output = Some(value(&mut i)?),
            ("--directory-prefix", _) | (_, "-P") => o.prefix = Some(value(&mut i)?),
            ("--quiet", _) | ("-q", _) => o.quiet = true,
            ("--no-verbose", _) | ("-nv", _) => o.brief = true,
            ("--server-response", _) | ("-S", _) => o.server_response = true,
            ("--header", _) => match header(&value(&mut i)?) {
                Some(pair) => o.headers.push(pair),
                None => return Err("invalid header".to_string()),
            },
            ("--user-agent", _) | (_, "-U") => o.user_agent = Some(value(&mut i)?),
            ("--method", _) => o.method = Some(value(&mut i)?.to_ascii_uppercase()),
            ("--post-data", _) | ("--body-data", _) => {
                o.body = Some(value(&mut i)?.into_bytes());
                o.method.get_or_insert_with(|| "POST".to_string());
            }
            ("--post-file", _) | ("--body-file", _) => {
                let file = value(&mut i)?;
                let data = open_quiet(shell, &file)
                    .and_then(|mut source| source.read_all().map_err(|_| "read error"))
                    .map_err(|reason| format!("{file}: {reason}"))?;
                o.body = Some(data);
                o.method.get_or_insert_with(|| "POST".to_string());
            }
            ("--tries" | "--timeout" | "--max-redirect" | "--wait", _) | (_, "-t" | "-T") => {
                value(&mut i)?;
            }
            ("--no-check-certificate" | "--continue" | "--verbose" | "--no-clobber", _)
            | ("-c" | "-v" | "-nc", _) => {}
            _ => return Err(format!("unrecognized option '{arg}'")),
        }
    }
    Ok(o)
}

/// A file name not taken yet in the VFS: `name`, else `name.1`, ...
fn free_name(shell: &ShellView, name: &str) -> String {
    let taken = |candidate: &str| {
        shell
            .cwd()
            .resolve(candidate)
            .is_ok_and(|path| shell.context().vfs.lock().lookup_link(&path).is_ok())
    };
    if !taken(name) {
        return name.to_string();
    }
    (1..)
        .map(|n| format!("{name}.{n}"))
        .find(|candidate| !taken(candidate))
        .expect("unbounded")
}

pub fn wget(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let options = match parse(shell, args) {
        Ok(options) => options,
        Err(message) => {
            return Ok(shell.fail_command(
                "wget",
                &format!("{message}\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options."),
                2,
            ));
        }
    };
    if options.urls.is_empty() {
        return Ok(shell.fail_command(
            "wget",
            "missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.",
            1,
        ));
    }
    let say = |shell: &ShellView, text: &str| {
        if !options.quiet {
            shell.write_stderr(text.as_bytes());
        }
    };
    let mut status = 0;
    let mut to_stdout: Vec<u8> = Vec::new();
    for url in &options.urls {
        let url = if url.contains("://") {
            url.clone()
        } else {
            format!("http://{url}")
        };
        if !options.brief {
            say(shell, &format!("--  {url}\n"));
        }
        let mut headers = vec![(
            "User-Agent".to_string(),
            options
                .user_agent
                .clone()
                .unwrap_or_else(|| "Wget/1.21.3".to_string()),
        )];
        headers.push(("Accept".into(), "*/*".into()));
        if options.body.is_some()
            && !options
                .headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            headers.push((
                "Content-Type".into(),
                "application/x-www-form-urlencoded".into(),
            ));
        }
        headers.extend(options.headers.iter().cloned());
        let request = HttpRequest {
            method: options.method.clone().unwrap_or_else(|| "GET".to_string()),
            url: url.clone(),
            headers,
            body: options.body.clone(),
            follow_redirects: true,
            keep_method: false,
        };
        let response = match perform(shell, request, None)? {
            Ok(response) => response,
            Err(error) => {
                let (code, why) = match error {
                    NetworkError::Resolve(message) => {
                        (4, format!("unable to resolve host address: {message}"))
                    }
                    NetworkError::TooLarge(message) => (3, message),
                    NetworkError::Stopped(_) => (4, "Read error: timed out".to_string()),
                    NetworkError::Refused(message)
                    | NetworkError::BadUrl(message)
                    | NetworkError::Failed(message)
                    | NetworkError::TooManyRedirects(message) => (4, message),
                };
                shell.write_stderr(format!("failed: {why}.\n").as_bytes());
                status = code;
                continue;
            }
        };
        if options.server_response {
            let mut head = format!(
                "  {} {} {}\n",
                response.version, response.status, response.status_text
            );
            for (name, value) in &response.headers {
                head.push_str(&format!("  {name}: {value}\n"));
            }
            say(shell, &head);
        }
        if !options.brief {
            say(
                shell,
                &format!(
                    "HTTP request sent, awaiting response... {} {}\n",
                    response.status, response.status_text
                ),
            );
        }
        if response.status >= 400 {
            let line = format!(
                "{}ERROR {}: {}.\n",
                if options.brief { &url } else { "" },
                response.status,
                response.status_text
            );
            say(shell, &line);
            status = 8;
            continue;
        }
        let name = match &options.output {
            Some(file) => file.clone(),
            None => {
                let name = remote_name(&response.url).unwrap_or_else(|| "index.html".to_string());
                let name = match &options.prefix {
                    Some(prefix) => format!("{}/{name}", prefix.trim_end_matches('/')),
                    None => name,
                };
                free_name(shell, &name)
            }
        };
        let size = response.body.len();
        if name == "-" {
            to_stdout.extend_from_slice(&response.body);
        } else {
            // `-P` makes its folder.
            if let (Some(_), Ok(path)) = (&options.prefix, shell.cwd().resolve(&name))
                && let Some(parent) = path.parent()
            {
                let made = shell.context().vfs.lock().mkdir_all(&parent).map(drop);
                if let Err(error) = made {
                    status = shell.fail_fs(
                        "wget",
                        &name,
                        &error,
                        |reason| format!("{name}: {reason}"),
                        3,
                    );
                    continue;
                }
            }
            if let Err(code) = super::save(shell, "wget", &name, &response.body, 3) {
                status = code;
                continue;
            }
        }
        if options.brief {
            say(shell, &format!("{url} [{size}/{size}] -> \"{name}\" [1]\n"));
        } else {
            let kind = response
                .header("content-type")
                .unwrap_or("application/octet-stream");
            say(
                shell,
                &format!(
                    "Length: {size} [{kind}]\nSaving to: ‘{name}’\n\n‘{name}’ saved [{size}/{size}]\n\n"
                ),
            );
        }
    }
    if !to_stdout.is_empty()
        && let Err(error) = shell.write_stdout(&to_stdout)
    {
        return shell.io_status("wget", error);
    }
    Ok(status)
}
