"use strict";

/** A run as bash-tool's and just-bash's `{stdout, stderr, exitCode}`: a
 * stop goccia made (a timeout, a limit, a cancellation) is told on stderr,
 * as a shell tells why it stopped a command. */
function commandResult(run) {
  const told = run.error && run.failureKind !== "script-error" ? `goccia: ${run.error}\n` : "";
  return { stdout: run.stdout, stderr: run.stderr + told, exitCode: run.exitCode };
}

module.exports = { commandResult };
