//! Shapes random text rarely reaches: the fuzzer picks a construct and how
//! deep or wide to make it (thousands of levels, huge widths), and the
//! script it builds runs under tight limits. Property: the run ends with a
//! status or a stop — never a panic, an abort (stack overflow) or a run far
//! past its 200 ms deadline (libFuzzer's `-timeout` catches that, its
//! `-rss_limit_mb` unbounded growth).
//!
//! Each shape is one class of the second hostile-input round (deep trees,
//! wide formats, nested expansions, quadratic parsing, native loops).
#![no_main]

#[path = "tight.rs"]
mod tight;

use std::sync::Arc;
use std::time::Duration;

use arbitrary::Arbitrary;
use goccia_core::Watch;
use goccia_shell::io::Fd;
use goccia_shell::Shell;
use goccia_vfs::{Quota, Vfs};
use libfuzzer_sys::fuzz_target;
use parking_lot::Mutex;

#[derive(Arbitrary, Debug)]
enum Shape {
    /// `${x:-${x:-...}}` nested `n` deep.
    NestedDefaults,
    /// `$( $( ... ) )` nested `n` deep.
    NestedSubstitutions,
    /// `(((...1)))` or `1+1+...` in arithmetic, awk or bc.
    Arithmetic { tool: u8, chain: bool },
    /// A printf-style width or precision of `n` in one of the formatters.
    Width { tool: u8 },
    /// A directory tree `n` levels deep, then walked by a tool.
    DeepTree { walker: u8 },
    /// A jq value or filter nested `n` deep.
    Jq { form: u8 },
    /// `n` brace groups, or a glob of `n` stars.
    Braces { glob: bool },
    /// sed or grep with the filler as the program.
    Pattern { sed: bool },
}

#[derive(Arbitrary, Debug)]
struct Input {
    shape: Shape,
    size: u16,
    filler: String,
}

fn script(input: &Input) -> String {
    let n = usize::from(input.size);
    let filler = input.filler.replace('\'', "");
    match &input.shape {
        Shape::NestedDefaults => format!("echo {}y{}", "${x:-".repeat(n), "}".repeat(n)),
        Shape::NestedSubstitutions => format!("echo {}y{}", "$(echo ".repeat(n), ")".repeat(n)),
        Shape::Arithmetic { tool, chain } => {
            let expr = if *chain {
                "1+".repeat(n) + "1"
            } else {
                "(".repeat(n) + "1" + &")".repeat(n)
            };
            match tool % 3 {
                0 => format!("echo $(( {expr} ))"),
                1 => format!("echo | awk '{{ print {expr} }}'"),
                _ => format!("echo '{expr}' | bc"),
            }
        }
        Shape::Width { tool } => {
            let width = n.saturating_mul(1 << (tool / 8 % 12));
            match tool % 8 {
                0 => format!("printf '%{width}d' 1"),
                1 => format!("printf '%.{width}f' 1"),
                2 => format!("awk 'BEGIN {{ printf \"%{width}s\", \"x\" }}'"),
                3 => format!("seq -f '%{width}g' 1 2"),
                4 => format!("echo 'scale={width}; 1/3' | bc"),
                5 => format!("numfmt --padding={width} 1"),
                6 => format!("split -a {width} /dev/null /tmp/p"),
                _ => format!("printf '%{width}s\\n' a | column -t"),
            }
        }
        Shape::DeepTree { walker } => {
            let path = "/d/".to_string() + &"a/".repeat(n % 400);
            let walk = match walker % 6 {
                0 => "find /d | wc -l",
                1 => "du -s /d",
                2 => "grep -r x /d",
                3 => "cp -r /d /e && rm -rf /d",
                4 => "tar cf /t.tar /d && tar tf /t.tar | wc -l",
                _ => "mv /d /n && mkdir /d && mv /n /d/n",
            };
            format!("mkdir -p {path} && echo x > {path}f; {walk}")
        }
        Shape::Jq { form } => match form % 4 {
            0 => format!("printf '%.0s[' $(seq {n}) | jq ."),
            1 => format!("jq -n 'reduce range({n}) as $x (null; [.]) | tojson | length'"),
            2 => format!("jq -n 'reduce range({n}) as $x (null; {{a: .}}) | [paths] | length'"),
            _ => format!("jq -n '{filler}'"),
        },
        Shape::Braces { glob } => {
            if *glob {
                format!("touch /{filler}; echo /{}", "*".repeat(n % 2000))
            } else {
                format!("echo {}", "{a,b}".repeat(n % 64))
            }
        }
        Shape::Pattern { sed } => {
            if *sed {
                format!("seq {n} | sed '{filler}'")
            } else {
                format!("seq {n} | grep -E '{filler}'")
            }
        }
    }
}

fuzz_target!(|input: Input| {
    let script = script(&input);
    let vfs = Arc::new(Mutex::new(Vfs::new(Quota {
        max_bytes: 1 << 20,
        max_nodes: 2_000,
    })));
    let limits = tight::shell_limits();
    let context = goccia_shell::context(vfs, Watch::new(Duration::from_millis(200)), limits);
    // The shell runs on a deep stack, as the library runs it.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut shell = Shell::new(
                context,
                Fd::null_input(),
                Fd::null_output(),
                Fd::null_output(),
            );
            let _ = shell.run_script(&script);
        })
        .expect("spawn")
        .join()
        .expect("the shell never panics");
});
