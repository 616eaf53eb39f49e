/**
 * A file operation that failed, said in words: what failed, where, and why (a full disk, a read-only home),
 * with the system's code for searching. Node's own messages often lack the path ("ENOSPC: no space left on
 * device, write"), and a person needs both to act.
 */

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EFBIG: "the file is too large (a file size limit)",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "a folder is in the way",
  ENOENT: "no such file or folder",
  EIO: "an input/output error",
  EMFILE: "too many open files",
};

export class FileSystemFailure extends Error {
  constructor(
    message: string,
    /** The system's error code (ENOSPC…), when there was one. */
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "FileSystemFailure";
  }
}

/** `what` is the failed step with its path ("Could not write the session log /…/events.jsonl"). */
export function fsFailure(error: unknown, what: string): FileSystemFailure {
  if (error instanceof FileSystemFailure) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = (code ? REASONS[code] : undefined) ?? (error instanceof Error ? error.message : String(error));
  return new FileSystemFailure(`${what}: ${reason}${code ? ` (${code})` : ""}`, code, { cause: error });
}
