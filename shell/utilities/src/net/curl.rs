//! `curl`: one or more URLs, the body to stdout (or `-o`/`-O` files),
//! curl's exit codes and its `curl: (N) ...` messages (shown unless `-s`,
//! or with `-sS`). No progress meter is drawn (there is no terminal).

use std::time::Duration;

use super::{header, perform, remote_name, save, url_encode};
use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::network::{HttpRequest, HttpResponse, NetworkError};

/// The version curl's own `User-Agent` names (the oracle's).
const USER_AGENT: &str = "curl/7.88.1";

#[derive(Default)]
struct Options {
    urls: Vec<String>,
    silent: bool,
    show_error: bool,
    fail: bool,
    fail_with_body: bool,
    location: bool,
    outputs: Vec<String>,
    remote_names: usize,
    method: Option<String>,
    headers: Vec<(String, String)>,
    /// `-d` pieces (joined with `&`) and whether any was given.
    data: Vec<Vec<u8>>,
    get: bool,
    head: bool,
    include: bool,
    write_out: Option<String>,
    user_agent: Option<String>,
    user: Option<String>,
    max_time: Option<Duration>,
    verbose: bool,
    json: bool,
    upload: Option<String>,
    dump_header: Option<String>,
}

/// How `-d` and its relatives read their value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DataKind {
    /// `-d`: `@file` read with newlines removed.
    Ascii,
    /// `--data-binary`: `@file` read as is.
    Binary,
    /// `--data-raw`: no `@`.
    Raw,
    /// `--data-urlencode`.
    UrlEncode,
    /// `--json`: as binary, and JSON headers.
    Json,
}

/// curl's failure: an exit code and its words.
struct Failure(i32, String);

fn usage(shell: &mut ShellView, message: &str) -> ExecResult {
    Ok(shell.fail_command(
        "curl",
        &format!("{message}\ncurl: try 'curl --help' or 'curl --manual' for more information"),
        2,
    ))
}

const VALUED: &[(&str, char)] = &[
    ("output", 'o'),
    ("request", 'X'),
    ("header", 'H'),
    ("data", 'd'),
    ("data-ascii", 'd'),
    ("write-out", 'w'),
    ("user-agent", 'A'),
    ("user", 'u'),
    ("max-time", 'm'),
    ("referer", 'e'),
    ("cookie", 'b'),
    ("upload-file", 'T'),
    ("dump-header", 'D'),
    ("retry", '\0'),
    ("connect-timeout", '\0'),
    ("max-redirs", '\0'),
    ("data-binary", '\0'),
    ("data-raw", '\0'),
    ("data-urlencode", '\0'),
    ("json", '\0'),
    ("url", '\0'),
];

fn read_data(shell: &mut ShellView, value: &str, kind: DataKind) -> Result<Vec<u8>, String> {
    let from_file = |shell: &mut ShellView, name: &str| -> Result<Vec<u8>, String> {
        open_quiet(shell, name)
            .and_then(|mut source| source.read_all().map_err(|_| "read error"))
            .map_err(|reason| format!("Failed to open {name}: {reason}"))
    };
    Ok(match kind {
        DataKind::Raw => value.as_bytes().to_vec(),
        DataKind::Ascii => match value.strip_prefix('@') {
            Some(name) => from_file(shell, name)?
                .into_iter()
                .filter(|b| *b != b'\n' && *b != b'\r')
                .collect(),
            None => value.as_bytes().to_vec(),
        },
        DataKind::Binary | DataKind::Json => match value.strip_prefix('@') {
            Some(name) => from_file(shell, name)?,
            None => value.as_bytes().to_vec(),
        },
        DataKind::UrlEncode => {
            // `content`, `=content`, `name=content`, `name@file`, `@file`.
            if let Some((name, content)) = value.split_once('=') {
                let encoded = url_encode(content.as_bytes());
                if name.is_empty() {
                    encoded.into_bytes()
                } else {
                    format!("{name}={encoded}").into_bytes()
                }
            } else if let Some((name, file)) = value.split_once('@') {
                let encoded = url_encode(&from_file(shell, file)?);
                if name.is_empty() {
                    encoded.into_bytes()
                } else {
                    format!("{name}={encoded}").into_bytes()
                }
            } else {
                url_encode(value.as_bytes()).into_bytes()
            }
        }
    })
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
        // (long name, inline value)
        let mut pending: Vec<(String, Option<String>)> = Vec::new();
        if let Some(long) = arg.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, value)) if VALUED.iter().any(|(n, _)| *n == name) => {
                    pending.push((name.to_string(), Some(value.to_string())));
                }
                _ => pending.push((long.to_string(), None)),
            }
        } else {
            let chars: Vec<char> = arg[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                j += 1;
                if let Some((name, _)) = VALUED.iter().find(|(_, short)| *short == c) {
                    let rest: String = chars[j..].iter().collect();
                    pending.push((name.to_string(), (!rest.is_empty()).then_some(rest)));
                    break;
                }
                let name = match c {
                    's' => "silent",
                    'S' => "show-error",
                    'f' => "fail",
                    'L' => "location",
                    'O' => "remote-name",
                    'G' => "get",
                    'I' => "head",
                    'i' => "include",
                    'v' => "verbose",
                    'k' => "insecure",
                    '#' => "progress-bar",
                    'N' => "no-buffer",
                    _ => return Err(format!("option -{c}: is unknown")),
                };
                pending.push((name.to_string(), None));
            }
        }
        for (name, inline) in pending {
            let valued = VALUED.iter().any(|(n, _)| *n == name);
            let value = if valued {
                match inline {
                    Some(value) => value,
                    None => {
                        let value = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("option --{name}: requires parameter"))?;
                        i += 1;
                        value
                    }
                }
            } else {
                String::new()
            };
            match name.as_str() {
                "silent" => o.silent = true,
                "show-error" => o.show_error = true,
                "fail" => o.fail = true,
                "fail-with-body" => o.fail_with_body = true,
                "location" => o.location = true,
                "remote-name" => o.remote_names += 1,
                "get" => o.get = true,
                "head" => o.head = true,
                "include" => o.include = true,
                "verbose" => o.verbose = true,
                "insecure" | "progress-bar" | "no-buffer" | "compressed" | "no-progress-meter"
                | "http1.1" | "retry" | "connect-timeout" | "max-redirs" => {}
                "output" => o.outputs.push(value),
                "request" => o.method = Some(value),
                "header" => match header(&value) {
                    Some(pair) => o.headers.push(pair),
                    None => return Err(format!("option --header: bad header `{value}`")),
                },
                "data" | "data-ascii" => o.data.push(read_data(shell, &value, DataKind::Ascii)?),
                "data-binary" => o.data.push(read_data(shell, &value, DataKind::Binary)?),
                "data-raw" => o.data.push(read_data(shell, &value, DataKind::Raw)?),
                "data-urlencode" => o.data.push(read_data(shell, &value, DataKind::UrlEncode)?),
                "json" => {
                    o.json = true;
                    o.data.push(read_data(shell, &value, DataKind::Json)?);
                }
                "write-out" => o.write_out = Some(value),
                "user-agent" => o.user_agent = Some(value),
                "user" => o.user = Some(value),
                "referer" => o.headers.push(("Referer".into(), value)),
                "cookie" => o.headers.push(("Cookie".into(), value)),
                "upload-file" => o.upload = Some(value),
                "dump-header" => o.dump_header = Some(value),
                "url" => o.urls.push(value),
                "max-time" => {
                    let seconds: f64 = value.parse().map_err(|_| {
                        "option --max-time: expected a proper numerical parameter".to_string()
                    })?;
                    o.max_time = Some(Duration::from_secs_f64(seconds.max(0.0)));
                }
                other => return Err(format!("option --{other}: is unknown")),
            }
        }
    }
    Ok(o)
}

/// The request for `url` as the options describe it.
fn request(shell: &mut ShellView, options: &Options, url: &str) -> Result<HttpRequest, Failure> {
    let mut url = url.to_string();
    if !url.contains("://") {
        // curl's guess: plain host names are http.
        url = format!("http://{url}");
    }
    let data = (!options.data.is_empty()).then(|| options.data.join(&b'&'));
    let mut body = None;
    let mut method = "GET".to_string();
    if options.head {
        method = "HEAD".to_string();
    }
    if let Some(data) = data {
        if options.get {
            let separator = if url.contains('?') { '&' } else { '?' };
            url = format!("{url}{separator}{}", String::from_utf8_lossy(&data));
        } else {
            method = "POST".to_string();
            body = Some(data);
        }
    }
    if let Some(file) = &options.upload {
        let content = open_quiet(shell, file)
            .and_then(|mut source| source.read_all().map_err(|_| "read error"))
            .map_err(|reason| {
                Failure(
                    26,
                    format!(
                        "Failed to open/read local data from file/application: {file}: {reason}"
                    ),
                )
            })?;
        if url.ends_with('/')
            && let Some(name) = file.rsplit('/').next()
        {
            url.push_str(name);
        }
        method = "PUT".to_string();
        body = Some(content);
    }
    if let Some(explicit) = &options.method {
        method = explicit.clone();
    }
    let mut headers: Vec<(String, String)> = Vec::new();
    let has = |name: &str| {
        options
            .headers
            .iter()
            .any(|(key, _)| key.eq_ignore_ascii_case(name))
    };
    if let Some(user) = &options.user {
        use base64::Engine;
        let token = base64::engine::general_purpose::STANDARD.encode(user.as_bytes());
        headers.push(("Authorization".into(), format!("Basic {token}")));
    }
    if !has("user-agent") {
        headers.push((
            "User-Agent".into(),
            options
                .user_agent
                .clone()
                .unwrap_or_else(|| USER_AGENT.into()),
        ));
    }
    if !has("accept") {
        let accept = if options.json {
            "application/json"
        } else {
            "*/*"
        };
        headers.push(("Accept".into(), accept.into()));
    }
    if body.is_some() && options.upload.is_none() && !has("content-type") {
        let kind = if options.json {
            "application/json"
        } else {
            "application/x-www-form-urlencoded"
        };
        headers.push(("Content-Type".into(), kind.into()));
    }
    headers.extend(options.headers.iter().cloned());
    Ok(HttpRequest {
        method,
        url,
        headers,
        body,
        follow_redirects: options.location,
        keep_method: options.method.is_some(),
    })
}

/// curl's exit code and words for why there is no response.
fn failure(error: NetworkError) -> Failure {
    match error {
        NetworkError::BadUrl(message) => Failure(
            3,
            format!("URL using bad/illegal format or missing URL ({message})"),
        ),
        NetworkError::Refused(message) if message.contains("only http and https") => {
            Failure(1, format!("Protocol not supported: {message}"))
        }
        NetworkError::Refused(message) => Failure(7, format!("Failed to connect: {message}")),
        NetworkError::Resolve(message) => Failure(6, format!("Could not resolve host: {message}")),
        NetworkError::Failed(message) => Failure(7, format!("Failed to connect: {message}")),
        NetworkError::TooLarge(message) => Failure(
            63,
            format!("Exceeded the maximum allowed file size: {message}"),
        ),
        NetworkError::TooManyRedirects(message) => {
            Failure(47, format!("Maximum redirects followed: {message}"))
        }
        NetworkError::Stopped(_) => Failure(28, "Operation timed out".to_string()),
    }
}

/// `location` made absolute against `base` (curl shows redirects so).
fn absolute(base: &str, location: &str) -> String {
    if location.contains("://") {
        return location.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("http", base));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if location.starts_with('/') {
        return format!("{scheme}://{authority}{location}");
    }
    let path = rest[authority.len()..]
        .split(['?', '#'])
        .next()
        .unwrap_or("");
    let folder = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let folder = if folder.is_empty() { "/" } else { folder };
    format!("{scheme}://{authority}{folder}{location}")
}

/// The head as `-i`/`-I`/`-D` show it.
fn head_text(response: &HttpResponse) -> String {
    let mut text = format!(
        "{} {} {}\r\n",
        response.version, response.status, response.status_text
    );
    for (name, value) in &response.headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text
}

/// `-w`'s format with one response's variables.
fn write_out(format: &str, response: Option<&HttpResponse>, exit: i32, error: &str) -> String {
    let mut out = String::new();
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        if c == '\\' && rest.len() > 1 {
            let next = rest[1..].chars().next().unwrap_or('\\');
            match next {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '\\' => out.push('\\'),
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            rest = &rest[1 + next.len_utf8()..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("%{")
            && let Some(end) = after.find('}')
        {
            let name = &after[..end];
            let value = match (name, response) {
                ("http_code" | "response_code", Some(r)) => format!("{:03}", r.status),
                ("http_code" | "response_code", None) => "000".to_string(),
                ("url_effective", Some(r)) => r.url.clone(),
                ("content_type", Some(r)) => r.header("content-type").unwrap_or("").to_string(),
                ("size_download", Some(r)) => r.body.len().to_string(),
                ("size_download", None) => "0".to_string(),
                ("redirect_url", Some(r)) if (300..400).contains(&r.status) => r
                    .header("location")
                    .map(|location| absolute(&r.url, location))
                    .unwrap_or_default(),
                ("exitcode", _) => exit.to_string(),
                ("errormsg", _) => error.to_string(),
                ("time_total" | "time_connect" | "time_starttransfer", _) => "0.000000".to_string(),
                _ => String::new(),
            };
            out.push_str(&value);
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("%%") {
            out.push('%');
            rest = after;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

pub fn curl(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let options = match parse(shell, args) {
        Ok(options) => options,
        Err(message) => return usage(shell, &format!("curl: {message}")),
    };
    if options.urls.is_empty() {
        return usage(shell, "curl: no URL specified");
    }
    let show_errors = !options.silent || options.show_error;
    let mut status = 0;
    for (index, url) in options.urls.iter().enumerate() {
        let (exit, response, message) = match request(shell, &options, url) {
            Err(Failure(code, message)) => (code, None, message),
            Ok(request) => {
                if options.verbose {
                    let line = format!("> {} {} HTTP/1.1\n", request.method, request.url);
                    shell.write_stderr(line.as_bytes());
                }
                match perform(shell, request, options.max_time)? {
                    Ok(response) => (0, Some(response), String::new()),
                    Err(error) => {
                        let Failure(code, message) = failure(error);
                        (code, None, message)
                    }
                }
            }
        };
        let mut exit = exit;
        let mut message = message;
        let mut out: Vec<u8> = Vec::new();
        if let Some(response) = &response {
            if options.verbose {
                let line = format!(
                    "< {} {} {}\n",
                    response.version, response.status, response.status_text
                );
                shell.write_stderr(line.as_bytes());
            }
            let failed = response.status >= 400 && (options.fail || options.fail_with_body);
            if failed {
                exit = 22;
                message = format!("The requested URL returned error: {}", response.status);
            }
            if let Some(file) = &options.dump_header {
                let head = head_text(response);
                if file == "-" {
                    out.extend_from_slice(head.as_bytes());
                } else if let Err(status) = save(shell, "curl", file, head.as_bytes(), 23) {
                    return Ok(status);
                }
            }
            if options.include || options.head {
                out.extend_from_slice(head_text(response).as_bytes());
            }
            // -f drops the body of an error; -I has none.
            let body_dropped = options.head || failed && options.fail;
            if !body_dropped {
                out.extend_from_slice(&response.body);
            }
        }
        // Where this URL's output goes: its -o, its -O, or stdout.
        let target = options.outputs.get(index).cloned().or_else(|| {
            (index < options.remote_names).then(|| remote_name(url).unwrap_or_default())
        });
        match target.as_deref() {
            Some("") => {
                exit = 23;
                message = "Remote file name has no length".to_string();
            }
            Some("-") | None => {
                if let Err(error) = shell.write_stdout(&out) {
                    return shell.io_status("curl", error);
                }
            }
            Some(file) if response.is_some() => {
                if let Err(status) = save(shell, "curl", file, &out, 23) {
                    return Ok(status);
                }
            }
            Some(_) => {}
        }
        if let Some(format) = &options.write_out {
            let text = write_out(format, response.as_ref(), exit, &message);
            if let Err(error) = shell.write_stdout(text.as_bytes()) {
                return shell.io_status("curl", error);
            }
        }
        if exit != 0 {
            if show_errors {
                shell.write_stderr(format!("curl: ({exit}) {message}\n").as_bytes());
            }
            status = exit;
        }
    }
    Ok(status)
}
