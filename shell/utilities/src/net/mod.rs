//! The network family: `curl` and `wget`, over the network the host lets
//! the sandbox use (docs/limits.md: the allow-list, private ranges refused,
//! every redirect checked again, bodies capped). Without a network (a
//! shell the host built without one) they fail as a refused connection
//! would.
//!
//! - `curl`: curl's common surface (`-s -S -f -L -o -O -X -H -d
//!   --data-binary -w '%{http_code}' -i -I -G -u -A --json -m`).
//! - `wget`: wget's (`-O -q -nv --header --post-data --method -P`).

pub mod curl;
pub mod wget;

use std::time::Duration;

use goccia_interp::interp::{Flow, ShellView};
use goccia_interp::network::{HttpRequest, HttpResponse, NetworkError};

/// Performs `request` within `max_time` (narrowing the shell's deadline);
/// `Ok(Err(..))` is the command's own failure, `Err` a stop of the shell
/// (its deadline, a cancellation).
pub(crate) fn perform(
    shell: &ShellView,
    request: HttpRequest,
    max_time: Option<Duration>,
) -> Result<Result<HttpResponse, NetworkError>, Flow> {
    let Some(network) = shell.context().network.clone() else {
        return Ok(Err(NetworkError::Refused(
            "fetch refused: this sandbox has no network".to_string(),
        )));
    };
    let watch = shell.watch().narrowed(max_time);
    match network.fetch(request, &watch) {
        // The command's own time limit: its failure, not the shell's stop.
        Err(NetworkError::Stopped(stop)) if shell.watch().check().is_ok() => {
            let _ = stop;
            Ok(Err(NetworkError::Stopped(goccia_core::Stop::DEADLINE)))
        }
        Err(NetworkError::Stopped(stop)) => Err(Flow::Stop(stop)),
        other => Ok(other),
    }
}

/// Writes `data` to the operand `file` (a VFS file, or `/dev/null`,
/// `/dev/stdout`, `/dev/fd/N`); the status `command` ends with if it
/// cannot (`status` for anything but a policy denial).
pub(crate) fn save(
    shell: &mut ShellView,
    command: &str,
    file: &str,
    data: &[u8],
    status: i32,
) -> Result<(), i32> {
    use crate::output::open_sink_or_fail;
    use std::io::Write;
    let mut sink = open_sink_or_fail(shell, command, file, false, status)?;
    sink.write_all(data)
        .and_then(|()| sink.flush())
        .map_err(|error| shell.fail_command(command, &format!("{file}: {error}"), status))
}

/// `Name: value` as given to `-H`/`--header`.
pub(crate) fn header(text: &str) -> Option<(String, String)> {
    let (name, value) = text.split_once(':')?;
    let name = name.trim();
    (!name.is_empty()).then(|| (name.to_string(), value.trim().to_string()))
}

/// Percent-encodes everything but unreserved characters, a space as `+`
/// (curl's `--data-urlencode`: form encoding).
pub(crate) fn url_encode(text: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for &byte in text {
        if byte == b' ' {
            out.push('+');
        } else if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The last segment of a URL's path, as `-O` and `wget` name the file
/// (`None` when the path ends with `/`).
pub(crate) fn remote_name(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.split(['?', '#']).next().unwrap_or("");
    let path = path.split_once('/').map_or("", |(_, path)| path);
    let name = path.rsplit('/').next().unwrap_or("");
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_headers_and_encodings_as_the_tools_take_them() {
        assert_eq!(
            remote_name("http://h:1/a/b.txt?x=1").as_deref(),
            Some("b.txt")
        );
        assert_eq!(remote_name("http://h/a/"), None);
        assert_eq!(remote_name("http://h"), None);
        assert_eq!(header("X-A:  b c "), Some(("X-A".into(), "b c".into())));
        assert_eq!(header("novalue"), None);
        assert_eq!(url_encode(b"a b&c=d/~"), "a+b%26c%3Dd%2F~");
    }
}
