// Declarations of goccia/just-bash: just-bash's Bash, as far as goccia
// gives it (node/README.md has what is left out).

import type { Sandbox } from "./index";

export interface BashOptions {
  /** Initial files: content, `{content}`, or a function giving it. */
  files?: Record<string, string | Uint8Array | { content: string | Uint8Array } | (() => string | Uint8Array)>;
  env?: Record<string, string>;
  /** Starting folder (default /home/user, or / when files are given). */
  cwd?: string;
  executionLimits?: {
    maxCallDepth?: number;
    maxCommandCount?: number;
    maxLoopIterations?: number;
    maxOutputSize?: number;
  };
  /** @deprecated as in just-bash: use executionLimits.maxCallDepth */
  maxCallDepth?: number;
  /** @deprecated as in just-bash: use executionLimits.maxCommandCount */
  maxCommandCount?: number;
  /** @deprecated as in just-bash: use executionLimits.maxLoopIterations */
  maxLoopIterations?: number;
}

export interface ExecOptions {
  env?: Record<string, string>;
  replaceEnv?: boolean;
  cwd?: string;
  stdin?: string;
  signal?: AbortSignal;
  args?: string[];
  rawScript?: boolean;
}

export interface BashExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  env: Record<string, string>;
}

export declare class Bash {
  constructor(options?: BashOptions);
  exec(commandLine: string, options?: ExecOptions): Promise<BashExecResult>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  getCwd(): string;
  getEnv(): Record<string, string>;
  /** The goccia Sandbox underneath (diffs, snapshots, children). */
  readonly sandbox: Sandbox;
}
