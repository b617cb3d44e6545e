"use strict";
// The errors of the package: one class per family of the library's errors
// (node/README.md, "Errors"), each carrying the library's `code`. The
// native half puts the code at the head of its message ("[ENOENT] ...");
// `fromNative` moves it to `error.code` and picks the class.

class GocciaError extends Error {
  constructor(message, code) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}
/** A spec value no sandbox can be built with, or a bad call option. */
class SpecError extends GocciaError {}
/** The sandbox could not be built (a seed, a host command). */
class SetupError extends GocciaError {}
/** A path could not be read, written or listed (ENOENT, FS_SANDBOX_DENIED, ...). */
class AccessError extends GocciaError {}
/** An escalation was asked badly or not granted (ERR_ESCALATION_*). */
class EscalationError extends AccessError {}
/** A run could not start (a run that starts and fails is a Run, not an error). */
class RunError extends GocciaError {}
/** Changes could not be applied, or a child not seeded. */
class ApplyError extends GocciaError {}
/** Write-back could not run. */
class WriteBackError extends GocciaError {}
/** A snapshot was refused by a limit, or is unknown. */
class SnapshotError extends GocciaError {}
/** The sandbox was closed. */
class ClosedError extends GocciaError {}

function classOf(code) {
  if (code === "ERR_GOCCIA_SPEC" || code === "ERR_INVALID_ARG_VALUE") return SpecError;
  if (code === "ERR_GOCCIA_SETUP" || code === "ERR_GOCCIA_HOST_COMMAND") return SetupError;
  if (code.startsWith("ERR_ESCALATION_")) return EscalationError;
  if (code === "FS_SANDBOX_DENIED" || code === "ERR_GOCCIA_INVALID_PATH" || /^E[A-Z]+$/.test(code)) {
    return AccessError;
  }
  if (code === "ERR_GOCCIA_RUN") return RunError;
  if (code === "ERR_GOCCIA_APPLY" || code === "ERR_GOCCIA_CHILD_SEED" || code === "ERR_GOCCIA_PATCH") {
    return ApplyError;
  }
  if (code === "ERR_GOCCIA_WRITE_BACK") return WriteBackError;
  if (code.includes("SNAPSHOT") || code.startsWith("ERR_GOCCIA_STORE")) return SnapshotError;
  if (code === "ERR_GOCCIA_CLOSED") return ClosedError;
  return GocciaError;
}

/** The package's error for an error the native half threw. */
function fromNative(error) {
  const match = /^\[([A-Z0-9_]+)\] ([\s\S]*)$/.exec(error && error.message);
  if (!match) return error;
  const [, code, message] = match;
  const Class = classOf(code);
  return new Class(message, code);
}

/** Calls `fn`, throwing the package's error for a native one. */
function native(fn) {
  try {
    return fn();
  } catch (error) {
    throw fromNative(error);
  }
}

module.exports = {
  GocciaError,
  SpecError,
  SetupError,
  AccessError,
  EscalationError,
  RunError,
  ApplyError,
  WriteBackError,
  SnapshotError,
  ClosedError,
  fromNative,
  native,
};
