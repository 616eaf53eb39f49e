/**
 * The Copilot SDK's session.workspaces methods over a session's folder and working tree: its metadata
 * (getWorkspace, from workspace.yaml), the compaction checkpoints (listCheckpoints, readCheckpoint), the files kept with the session (listFiles, readFile,
 * createFile, which is the engine's write_workspace_file command, and saveLargePaste) and the working tree's changes (diff, in Copilot's unstaged, branch and session modes).
 */
import { z } from "zod";
import { onFirstUse } from "../provider/plain-fields.js";
import { checkpointText, checkpointTitle, listCheckpoints, workspaceDiff } from "../core/index.js";
import { readMetadata } from "../session/session-metadata.js";
import { listWorkspaceFiles, readWorkspaceFile, saveLargePaste } from "../session/workspace-files.js";
import type { ClientLink, ServedSession } from "./served-session.js";
import { sessionIdOf } from "./wire.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  checkpoint: z.looseObject({ sessionId: z.string(), number: z.number() }),
  readFile: z.looseObject({ sessionId: z.string(), path: z.string() }),
  createFile: z.looseObject({ sessionId: z.string(), path: z.string(), content: z.string() }),
  paste: z.looseObject({ sessionId: z.string(), content: z.string() }),
  diff: z.looseObject({ sessionId: z.string(), mode: z.enum(["unstaged", "branch", "session"]), ignoreWhitespace: z.boolean().optional() }),
}));

type Method =
  | "session.workspaces.getWorkspace"
  | "session.workspaces.listCheckpoints"
  | "session.workspaces.readCheckpoint"
  | "session.workspaces.listFiles"
  | "session.workspaces.readFile"
  | "session.workspaces.createFile"
  | "session.workspaces.saveLargePaste"
  | "session.workspaces.diff";

export function workspaceMethods(
  owned: (link: ClientLink, sessionId: string) => ServedSession,
): Record<Method, (link: ClientLink, params: unknown) => unknown> {
  const engine = (link: ClientLink, sessionId: string) => owned(link, sessionId).session as NonNullable<ServedSession["session"]>;
  return {
    "session.workspaces.getWorkspace": async (link, params) => {
      const session = engine(link, sessionIdOf(params));
      // workspace.yaml with Copilot's keys; before it is first written, what the session knows itself.
      const metadata = await readMetadata(session.dir);
      const workspace = {
        id: session.id,
        cwd: session.state.cwd,
        client_name: "agent",
        ...(metadata?.gitRoot ? { git_root: metadata.gitRoot } : {}),
        ...(metadata?.branch ? { branch: metadata.branch } : {}),
        ...(metadata?.name ? { name: metadata.name } : {}),
        user_named: metadata?.userNamed ?? false,
        summary_count: listCheckpoints(session.dir).length,
        ...(metadata ? { created_at: metadata.createdAt, updated_at: metadata.updatedAt } : {}),
      };
      return { workspace, path: session.dir };
    },
    "session.workspaces.listCheckpoints": (link, params) => {
      const session = engine(link, sessionIdOf(params));
      return {
        checkpoints: listCheckpoints(session.dir).map((entry) => ({
          number: entry.number,
          title: checkpointTitle(entry.file),
          filename: entry.file.split(/[\\/]/).at(-1) ?? entry.file,
        })),
      };
    },
    "session.workspaces.readCheckpoint": (link, params) => {
      const { sessionId, number } = schemas().checkpoint.parse(params);
      return { content: checkpointText(engine(link, sessionId).dir, number)?.text ?? null };
    },
    "session.workspaces.listFiles": (link, params) => ({ files: listWorkspaceFiles(engine(link, sessionIdOf(params)).dir) }),
    "session.workspaces.readFile": (link, params) => {
      const { sessionId, path } = schemas().readFile.parse(params);
      return { content: readWorkspaceFile(engine(link, sessionId).dir, path) };
    },
    "session.workspaces.createFile": (link, params) => {
      const { sessionId, path, content } = schemas().createFile.parse(params);
      const refused = engine(link, sessionId).dispatch({ type: "write_workspace_file", path, content });
      if (refused) throw new Error(refused);
      return null;
    },
    "session.workspaces.saveLargePaste": (link, params) => {
      const { sessionId, content } = schemas().paste.parse(params);
      return { saved: saveLargePaste(engine(link, sessionId).dir, content) };
    },
    "session.workspaces.diff": (link, params) => {
      const { sessionId, mode, ignoreWhitespace } = schemas().diff.parse(params);
      const session = engine(link, sessionId);
      return workspaceDiff(session.state.cwd, session.dir, mode, ignoreWhitespace === true);
    },
  };
}
