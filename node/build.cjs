"use strict";
// The package's install step: compiles the native addon from this clone
// with cargo and puts it beside index.cjs as goccia.node. Nothing is
// downloaded: a Rust toolchain (rustup.rs) and this repository are all it
// needs. GOCCIA_NODE_PROFILE picks the cargo profile (default "release";
// CI uses "dev" to share the workspace's build); CARGO_TARGET_DIR is
// honoured.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const here = __dirname;
const root = path.resolve(here, "..");
const manifest = path.join(root, "Cargo.toml");
if (!fs.existsSync(manifest) || !fs.existsSync(path.join(here, "Cargo.toml"))) {
  console.error(
    `goccia: ${here} is not inside a goccia clone; install the package from one: npm install <clone>/node`,
  );
  process.exit(1);
}
const profile = process.env.GOCCIA_NODE_PROFILE || "release";
const cargo = process.env.CARGO || "cargo";
const args = ["build", "--manifest-path", manifest, "-p", "goccia-node", "--profile", profile];
console.error(`goccia: compiling the native addon (cargo ${args.join(" ")}); the first build takes minutes`);
const built = spawnSync(cargo, args, { stdio: "inherit", cwd: root });
if (built.error) {
  console.error(`goccia: cannot run ${cargo} (${built.error.message}); install Rust from https://rustup.rs and try again`);
  process.exit(1);
}
if (built.status !== 0) {
  process.exit(built.status ?? 1);
}
const target = process.env.CARGO_TARGET_DIR
  ? path.resolve(root, process.env.CARGO_TARGET_DIR)
  : path.join(root, "target");
const folder = path.join(target, profile === "dev" ? "debug" : profile);
const library = {
  linux: "libgoccia_node.so",
  darwin: "libgoccia_node.dylib",
  win32: "goccia_node.dll",
}[process.platform];
if (!library) {
  console.error(`goccia: no addon name known for platform ${process.platform}`);
  process.exit(1);
}
// Copied through a temporary name, so a process that has the old addon
// loaded keeps its mapping intact.
const addon = path.join(here, "goccia.node");
const temporary = `${addon}.${process.pid}`;
fs.copyFileSync(path.join(folder, library), temporary);
fs.renameSync(temporary, addon);
console.error(`goccia: built ${addon}`);
