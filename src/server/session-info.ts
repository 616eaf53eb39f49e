/** Stored sessions in the SDK's words (session.list, session.getMetadata). */
import type { SessionMetadata } from "../session/session-metadata.js";

export interface SessionListFilter {
  cwd?: string;
  gitRoot?: string;
  branch?: string;
}

export function sessionInfo(metadata: SessionMetadata) {
  return {
    sessionId: metadata.id,
    startTime: metadata.createdAt,
    modifiedTime: metadata.updatedAt,
    ...(metadata.name || metadata.firstPrompt ? { summary: metadata.name ?? metadata.firstPrompt } : {}),
    isRemote: false,
    context: {
      cwd: metadata.cwd,
      ...(metadata.gitRoot ? { gitRoot: metadata.gitRoot } : {}),
      ...(metadata.branch ? { branch: metadata.branch } : {}),
    },
  };
}

export function matchesFilter(metadata: SessionMetadata, filter: SessionListFilter | undefined): boolean {
  if (!filter) return true;
  return (
    (filter.cwd === undefined || filter.cwd === metadata.cwd) &&
    (filter.gitRoot === undefined || filter.gitRoot === metadata.gitRoot) &&
    (filter.branch === undefined || filter.branch === metadata.branch)
  );
}
