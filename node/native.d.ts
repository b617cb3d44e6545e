/** Cancels the call it is given to (from any thread); a fresh one per call. */
export declare class CancelToken {
  constructor()
  /** Ends the call: exit 130, failure kind `cancelled`. */
  cancel(): void
}

/** One change since the baseline; pass a list of them to `apply`. */
export declare class NativeChange {
  /** `create`, `mkdir`, `modify`, `replace` or `delete`. */
  get kind(): string
  /** The VFS path. */
  get path(): string
  /** `file`, `directory` or `symlink`. */
  get type(): string
  /** The size before (files). */
  get oldSize(): number | null
  /** The size after (files). */
  get newSize(): number | null
  /** `blake3:<hex>` of the content before (files). */
  get oldHash(): string | null
  /** `blake3:<hex>` of the content after (files). */
  get newHash(): string | null
  /** The content before (files). */
  get oldContent(): Buffer | null
  /** The content after (files). */
  get newContent(): Buffer | null
}

/**
 * One sandbox. `close()` lets its tree and shell go; a run in flight
 * keeps what it needs until it ends.
 */
export declare class NativeSandbox {
  /**
   * Runs `source` (`kind`: `shell`, `script` — a VFS path — or `code`);
   * the answer is the run's envelope (docs/calls.md) as JSON text, at
   * once for a quick call, else through a promise. A run that fails is
   * an answer, not a rejection.
   */
  run(kind: 'shell' | 'script' | 'code', source: string, timeoutMs?: number | null, stdin?: Buffer | null, cancel?: CancelToken | null, onStdout?: ((chunk: Buffer) => void) | null, onStderr?: ((chunk: Buffer) => void) | null, cwd?: string | null, env?: Record<string, string> | null): string | Promise<string>
  /** Builds a sandbox from a spec in JSON; seeding reads the host. */
  constructor(specJson: string)
  /**
   * The spec a sandbox with `spec_json` would be built from, validated,
   * with host paths made absolute (JSON).
   */
  static resolveSpec(specJson: string): string
  /** What this sandbox was built from (JSON). */
  spec(): string
  /** A file's bytes. */
  readFile(path: string): Buffer
  /** Writes a file as the host (no policy applies), creating its folders. */
  writeFile(path: string, data: Buffer): void
  /** Writes a file as guest code would (checked against the policy). */
  writeAsGuest(path: string, data: Buffer): void
  /** Removes a file or folder as the host. */
  remove(path: string): void
  /** `[{path, type}]` under `path` (every level when `recursive`). */
  list(path: string, recursive: boolean): Array<{ path: string; type: string }>
  /** Changes since the baseline, in apply order. */
  changes(): Array<NativeChange>
  /**
   * The diff: `unified` (a patch; with `root`, paths relative to that
   * folder) or `json`.
   */
  diff(format: string, root?: string | undefined | null): string
  /**
   * A child seeded from this sandbox in O(1): `[{from, to?}]` of VFS
   * paths, or `[{path, text}]` files (JSON); `options_json`, its own
   * `{limits, policy, env}`, each no wider than this sandbox's.
   */
  child(seedsJson: string, optionsJson?: string | undefined | null): NativeSandbox
  /**
   * Applies changes (another sandbox's `changes()`) with the merge rules;
   * the merge report.
   */
  apply(changes: Array<NativeChange>): import('./index').MergeReport
  /** Merges a child's changes, its `{from, to}` seeds mapped back. */
  merge(child: NativeSandbox): import('./index').MergeReport
  /**
   * Remembers the tree and the shell session's state, with an optional
   * label; the number restores it.
   */
  snapshot(label?: string | undefined | null): number
  /** Every snapshot: `{id, parent, label, takenAt, bytes, hasShellState}`. */
  snapshots(): import('./index').SnapshotInfo[]
  /**
   * `count` sandboxes holding snapshot `id`'s tree and shell state (the
   * state as it is now, without an id), the tree shared.
   */
  fork(id: number | undefined | null, count: number): Array<NativeSandbox>
  /**
   * Writes snapshot `id` (files, baseline, shell state) to `store`;
   * the saved id. Only what the store lacks is written, off the
   * JavaScript thread.
   */
  save(store: NativeStore, id: number): Promise<string>
  /**
   * Replaces the files, baseline and shell session with saved snapshot
   * `savedId` of `store`; the sandbox's settings stay. All or nothing.
   */
  loadSaved(store: NativeStore, savedId: string): Promise<void>
  /**
   * A sandbox with the default settings holding saved snapshot
   * `savedId` of `store`.
   */
  static open(store: NativeStore, savedId: string): Promise<NativeSandbox>
  /** Puts the tree back as it was at snapshot `id`. */
  restore(id: number): void
  /** Back to the baseline. */
  reset(): void
  /** The tree as it is becomes the baseline. */
  rebaseline(): void
  /**
   * Writes the changes back to the `copyRw` seeds; what was written and
   * skipped.
   */
  writeBack(): import('./index').WriteBackReport
  /** Lets the sandbox go; later calls fail with `ERR_GOCCIA_CLOSED`. */
  close(): void
  /** Whether `close()` was called. */
  get closed(): boolean
}

/** A snapshot store, opened (and set up if new) once. */
export declare class NativeStore {
  /** Opens the store at `location`: `postgres://...`, or a path. */
  constructor(location: string)
  /** The store, its password hidden. */
  get location(): string
  /**
   * Every saved snapshot, oldest first, as JSON text (parsed by the
   * JavaScript half).
   */
  list(): Promise<string>
  /**
   * Removes a saved snapshot (its blobs go at the next `gc`); whether
   * there was one.
   */
  drop(savedId: string): Promise<boolean>
  /**
   * Removes every blob no saved snapshot names: `{blobs, bytes}` freed,
   * as JSON text.
   */
  gc(): Promise<string>
}

/**
 * Sends this process's spans to the OTLP/HTTP collector at `url`. Once
 * per process.
 */
export declare function startTracing(url: string): void

/** Sends the spans not sent yet and stops. */
export declare function stopTracing(): void
