// Declarations of the package `goccia` (node/README.md). The native
// addon's own are generated into native.d.ts (node/regen-dts.sh); this
// file declares the JavaScript API over it.

import type { NativeChange } from "./native";

/** A size: bytes, or digits with a k, m or g suffix ("64m"). */
export type Size = number | string;

/** Every limit of a sandbox (docs/spec.md, "Limits"); each may be left out. */
export interface Limits {
  timeoutMs?: number;
  maxMemory?: Size;
  stackSize?: Size;
  fsQuotaBytes?: Size;
  fsNodeLimit?: number;
  maxOutput?: Size;
  outputOverflow?: "fail" | "truncate";
  maxDepth?: number;
  maxSnapshots?: number;
  maxCommands?: number;
  maxLoopIterations?: number;
  maxFunctionDepth?: number;
  maxSubstitutionBytes?: Size;
  maxBufferedInput?: Size;
  maxConcurrentStages?: number;
  maxValueBytes?: Size;
}

/** One entry of `seeds` (docs/spec.md, "Seeds"). */
export type Seed =
  | { from: string; to?: string; copyRw?: boolean }
  | { path: string; text: string }
  | { path: string; base64: string }
  | { config: string };

/** The sandbox spec in its JSON spelling (docs/spec.md), plus `files`. */
export interface SandboxSpec {
  seeds?: Seed[];
  /** Inline files: `{"/path": text or bytes}` (added after `seeds`). */
  files?: Record<string, string | Uint8Array>;
  exclude?: string[];
  gitignore?: boolean;
  symlinks?: "refuse" | "skip" | "keep";
  env?: Record<string, string> | Array<{ name: string; value: string }>;
  limits?: Limits;
  network?: {
    /** `HOST[:PORT][/PATH-PREFIX][@METHOD,...]` rules (docs/network.md). */
    allowHost?: string[];
    denyPrivateRanges?: boolean;
    fetchMaxBytes?: Size;
    /** Secrets the guest never sees: `"@file"`, `"env:VAR"` or `{ value }`. */
    secrets?: Record<string, string | { value: string }>;
    /** `HOST:Header=template {NAME}` bindings of secrets to requests. */
    secretHeaders?: string[];
    /** PEM files of authorities trusted upstream besides the system's. */
    caFiles?: string[];
  };
  policy?: "read-only" | "workspace-write" | "full";
  writable?: string[];
  approve?: "never" | "always";
  isolation?: "none" | "process";
  hostCommands?: Array<string | { name: string; path?: string }>;
  hostCommandMemory?: Size;
  mode?: "interpreted" | "bytecode";
  auditLog?: string;
}

/** Options of one run. */
export interface CallOptions {
  /** This call's deadline instead of the sandbox's `limits.timeoutMs`. */
  timeoutMs?: number;
  /** Aborting ends the call: exit 130, failure kind "cancelled". */
  signal?: AbortSignal;
  /** What the shell's commands read (the shell only). */
  stdin?: string | Uint8Array;
  /** Each chunk of stdout as it is produced (the result holds it all too). */
  onStdout?: (chunk: Buffer) => void;
  /** Each chunk of stderr as it is produced. */
  onStderr?: (chunk: Buffer) => void;
  /** The shell call runs in this folder, for this call alone (the shell only). */
  cwd?: string;
  /** Variables bound for this shell call alone, exported (the shell only). */
  env?: Record<string, string>;
}

/** An audit event (docs/policy.md). */
export interface AuditEvent {
  schemaVersion: number;
  kind: string;
  decision: string;
  subject: string;
  reason: string | null;
  time: string;
}

/** How a run ended: the same envelope as the CLI's --json and the server's answers (docs/calls.md). */
export interface RunResult {
  /** `exitCode === 0`. */
  ok: boolean;
  exitCode: number;
  /** null on success; "script-error", "timeout", "resource-limit", "cancelled", ... */
  failureKind: string | null;
  /** A script's default export as JSON. */
  result: unknown;
  stdout: string;
  stderr: string;
  /** The failure's one-line message. */
  error: string | null;
  diff: string | null;
  writeBack: WriteBackReport | { skipped: string } | { error: string } | null;
  /** This call's own audit events. */
  events: AuditEvent[];
  seedSkipped: string[];
  policy: { mode: string; writableRoots: string[] };
  isolation: { mode: string; enforcement: string; layers: string[]; missing: string[] };
  hostCommands: unknown;
  stats: {
    durationMs: number;
    memoryBytes: number | null;
    fsBytes: number;
    fsNodes: number;
    outputBytes: number;
    outputTruncated: boolean;
  };
}

/** A change since the baseline (pass a list to another sandbox's `apply`). */
export type Change = NativeChange;

/** What `apply` and `merge` did, per path (docs/vfs.md). */
export interface MergeReport {
  applied: string[];
  merged: string[];
  alreadyPresent: string[];
  conflicts: Array<{ path: string; reason: string; ours: string; theirs: string }>;
}

/** What write-back did. */
export interface WriteBackReport {
  written: Array<{ path: string; hostPath: string }>;
  skipped: Array<{ path: string; hostPath: string | null; reason: string }>;
  summary: string;
}

/** A child seed: a VFS path, a path mapped elsewhere, or a file. */
export type ChildSeed = string | { from: string; to?: string } | { path: string; text: string };

/** One snapshot (docs/vfs.md, "Snapshots"). */
export interface SnapshotInfo {
  id: number;
  /** The snapshot the state came from: the last taken or restored. */
  parent: number | null;
  label: string | null;
  takenAt: Date;
  bytes: number;
  hasShellState: boolean;
}

/** One saved snapshot of a store (docs/snapshots.md). */
export interface SavedSnapshotInfo {
  /** 64 hexadecimal digits: what `Sandbox.open` takes. */
  id: string;
  /** The saved snapshot its state came from, when that one was saved too. */
  parent: string | null;
  label: string | null;
  takenAt: Date;
  savedAt: Date;
  bytes: number;
  hasShellState: boolean;
}

/** Where durable snapshots are saved: the path of an SQLite file or a postgres:// URL. */
export declare class SnapshotStore {
  constructor(location: string);
  /** The store, its password hidden. */
  readonly location: string;
  list(): Promise<SavedSnapshotInfo[]>;
  /** Removes a saved snapshot (its blobs go at the next `gc`); whether there was one. */
  drop(savedId: string): Promise<boolean>;
  /** Removes every blob no saved snapshot names. */
  gc(): Promise<{ blobs: number; bytes: number }>;
}

/** A child's own settings, each no wider than its parent's. */
export interface ChildOptions {
  /** Limits left out are the parent's. */
  limits?: Limits;
  policy?: "read-only" | "workspace-write" | "full";
  /** Variables its shells start with (over the parent's). */
  env?: Record<string, string>;
  /** The folder its shell session starts in: one it was seeded with. */
  cwd?: string;
}

/** bash-tool's command result. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export declare class Sandbox implements AsyncDisposable {
  constructor(spec?: SandboxSpec);
  /** The spec `new Sandbox(spec)` would be built from, validated, host paths absolute. */
  static resolveSpec(spec?: SandboxSpec): SandboxSpec;
  /** What this sandbox was built from. */
  readonly spec: SandboxSpec;
  readonly closed: boolean;

  runShell(command: string, options?: CallOptions): Promise<RunResult>;
  runScript(path: string, options?: Omit<CallOptions, "stdin" | "cwd" | "env">): Promise<RunResult>;
  runCode(source: string, options?: Omit<CallOptions, "stdin" | "cwd" | "env">): Promise<RunResult>;

  readFile(path: string): Promise<string>;
  readFile(path: string, encoding: BufferEncoding): Promise<string>;
  readFile(path: string, encoding: null | "buffer"): Promise<Buffer>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
  list(path?: string, options?: { recursive?: boolean }): Promise<Array<{ path: string; type: string }>>;

  changes(): Promise<Change[]>;
  diff(options?: { format?: "unified"; root?: string }): Promise<string>;
  diff(options: { format: "json"; root?: string }): Promise<{ version: number; changes: unknown[] }>;
  child(seeds: ChildSeed[] | { seeds: ChildSeed[] }, options?: ChildOptions): Promise<Sandbox>;
  apply(changes: Change[]): Promise<MergeReport>;
  merge(child: Sandbox): Promise<MergeReport>;
  snapshot(label?: string): Promise<number>;
  snapshots(): Promise<SnapshotInfo[]>;
  fork(id?: number | null, count?: number): Promise<Sandbox[]>;
  /** Writes snapshot `id` to `store`; the saved id. */
  save(store: SnapshotStore, id: number): Promise<string>;
  /** Replaces files, baseline and shell session with a saved snapshot; the settings stay. */
  loadSaved(store: SnapshotStore, savedId: string): Promise<void>;
  /** A sandbox with the default settings holding a saved snapshot. */
  static open(store: SnapshotStore, savedId: string): Promise<Sandbox>;
  restore(id: number): Promise<void>;
  reset(): Promise<void>;
  rebaseline(): Promise<void>;
  writeBack(): Promise<WriteBackReport>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;

  /** bash-tool: a command line, as the model's bash tool runs it. */
  executeCommand(command: string): Promise<CommandResult>;
  /** bash-tool: files written as the guest would (under the write policy). */
  writeFiles(files: Array<{ path: string; content: string | Buffer }>): Promise<void>;
}

/** Sends this process's spans to an OTLP/HTTP collector (docs/telemetry.md). */
export declare function startTracing(url: string): void;
/** Sends the spans not sent yet and stops tracing. */
export declare function stopTracing(): void;

export declare class GocciaError extends Error {
  /** The library's code: FS_SANDBOX_DENIED, ERR_ESCALATION_*, an errno name (ENOENT), or ERR_GOCCIA_*. */
  readonly code: string;
}
export declare class SpecError extends GocciaError {}
export declare class SetupError extends GocciaError {}
export declare class AccessError extends GocciaError {}
export declare class EscalationError extends AccessError {}
export declare class RunError extends GocciaError {}
export declare class ApplyError extends GocciaError {}
export declare class WriteBackError extends GocciaError {}
export declare class SnapshotError extends GocciaError {}
export declare class ClosedError extends GocciaError {}
