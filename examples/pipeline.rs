//! A scripted pipeline mixing the shell and JavaScript: the shell finds
//! and counts, JS aggregates, the shell queries the result. The host's
//! shell session keeps its state between calls.
//!
//! `cargo run --example pipeline`

use goccia::Sandbox;

const AGGREGATE: &str = r#"
import fs from "fs";
import { $ } from "goccia";

// The shell does the file work: every log line with a level, counted.
const counts = await $`cat /logs/*.log | grep -oE '(INFO|WARN|ERROR)' | sort | uniq -c`.lines();
const byLevel = {};
for (const line of counts.filter(Boolean)) {
  const [count, level] = line.trim().split(/\s+/);
  byLevel[level] = Number(count);
}
// JS does the structure.
const files = (await $`ls /logs`.lines()).filter(Boolean);
fs.writeFileSync("/out/report.json", JSON.stringify({ files, byLevel }, null, 2));
console.log(`${files.length} files, ${byLevel.ERROR ?? 0} errors`);
export default byLevel;
"#;

pub fn main() {
    let sandbox = Sandbox::builder()
        .file(
            "/logs/api.log",
            "INFO start\nWARN slow\nERROR db down\nINFO up\n",
        )
        .file("/logs/web.log", "INFO start\nERROR 500 on /\n")
        .file("/jobs/aggregate.js", AGGREGATE)
        .build()
        .expect("sandbox");

    // The shell session remembers `cd` and variables between calls.
    let made = sandbox
        .run_shell("mkdir -p /out && cd /out && LEVEL=ERROR")
        .unwrap();
    assert!(made.success());

    let run = sandbox.run_script("/jobs/aggregate.js").unwrap();
    assert!(run.success(), "{}", run.stderr_text());
    assert_eq!(run.stdout_text(), "2 files, 2 errors\n");
    let expected = serde_json::json!({"ERROR": 2, "INFO": 3, "WARN": 1});
    assert_eq!(run.result, Some(expected));

    let query = sandbox
        .run_shell(r#"jq -r --arg l "$LEVEL" '.byLevel[$l]' report.json; pwd"#)
        .unwrap();
    assert_eq!(query.stdout_text(), "2\n/out\n");
    print!("{}{}", run.stdout_text(), query.stdout_text());
}
