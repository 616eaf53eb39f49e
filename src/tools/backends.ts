/**
 * Where the tools' side effects happen. By default the file tools use the local disk and `bash` starts a
 * local process; a face whose client offers to do these itself (an editor over ACP: its open buffers, its
 * terminal) hands the session other backends. The tools stay the same; only the I/O moves.
 */

/** Text files, by absolute path. */
export interface FileBackend {
  readTextFile(path: string): Promise<string>;
  /** Creates the file when it does not exist. */
  writeTextFile(path: string, content: string): Promise<void>;
}

/** One foreground command, run to its end (or its time limit, or an interrupt). */
export interface CommandRequest {
  command: string;
  cwd: string;
  toolCallId: string;
  /** After this long the command is stopped. */
  timeoutMs: number;
  signal: AbortSignal;
}

export interface CommandResult {
  output: string;
  /** The runner kept only part of the output. */
  truncated: boolean;
  exitCode: number | null;
  signal: string | null;
  /** Stopped at timeoutMs. */
  timedOut: boolean;
  /** Stopped because the call was interrupted. */
  interrupted: boolean;
}

export interface CommandBackend {
  run(request: CommandRequest): Promise<CommandResult>;
}

export interface ToolBackends {
  files?: FileBackend;
  commands?: CommandBackend;
}
