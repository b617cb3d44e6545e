//! End-to-end tests through the real `goccia` binary. One test binary
//! (modules below) so the suite links once.

#[path = "e2e/common.rs"]
mod common;

#[path = "e2e/archives.rs"]
mod archives;
#[path = "e2e/audit.rs"]
mod audit;
#[path = "e2e/cli.rs"]
mod cli;
#[path = "e2e/console.rs"]
mod console;
#[path = "e2e/diff.rs"]
mod diff;
#[path = "e2e/escape.rs"]
mod escape;
#[path = "e2e/fetch.rs"]
mod fetch;
#[path = "e2e/fs_module.rs"]
mod fs_module;
#[path = "e2e/gateway.rs"]
mod gateway;
#[path = "e2e/gateway_upstream.rs"]
mod gateway_upstream;
#[path = "e2e/guest.rs"]
mod guest;
#[path = "e2e/host_commands.rs"]
mod host_commands;
#[path = "e2e/hostile_round1.rs"]
mod hostile_round1;
#[path = "e2e/hostile_round2.rs"]
mod hostile_round2;
#[path = "e2e/hostile_round3.rs"]
mod hostile_round3;
#[path = "e2e/hostile_round3_serve.rs"]
mod hostile_round3_serve;
#[path = "e2e/hostile_sqlite.rs"]
mod hostile_sqlite;
#[path = "e2e/interactive.rs"]
mod interactive;
#[path = "e2e/isolation.rs"]
mod isolation;
#[path = "e2e/limits.rs"]
mod limits;
#[path = "e2e/mcp.rs"]
mod mcp;
#[path = "e2e/mcp_eras.rs"]
mod mcp_eras;
#[path = "e2e/mcp_model.rs"]
mod mcp_model;
#[path = "e2e/nested.rs"]
mod nested;
#[path = "e2e/net_tools.rs"]
mod net_tools;
#[path = "e2e/node.rs"]
mod node;
#[path = "e2e/node_oracle.rs"]
mod node_oracle;
#[path = "e2e/policy.rs"]
mod policy;
#[path = "e2e/seed_repos.rs"]
mod seed_repos;
#[path = "e2e/seeding.rs"]
mod seeding;
#[path = "e2e/serve.rs"]
mod serve;
#[path = "e2e/shell.rs"]
mod shell;
#[path = "e2e/spec_parity.rs"]
mod spec_parity;
#[path = "e2e/telemetry.rs"]
mod telemetry;
#[path = "e2e/write_back.rs"]
mod write_back;
