/**
 * The session's plan as a document: plan.md in the session folder, the file plan mode writes. A client
 * reads it (a state read) and writes or removes it with the write_plan command, which tells every face by
 * session.plan_changed.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { replacePrivateFile } from "../../util/private-files.js";
import type { Emit } from "../event-sink.js";
import { planFile } from "../modes.js";

export interface PlanDocument {
  exists: boolean;
  content: string | null;
  path: string;
}

export function readPlan(sessionDir: string): PlanDocument {
  const file = planFile(sessionDir);
  try {
    return { exists: true, content: readFileSync(file, "utf8"), path: file };
  } catch {
    return { exists: false, content: null, path: file };
  }
}

/** Writes (or, for null, removes) the plan; why it could not, or undefined. */
export function writePlan(sessionDir: string, emit: Emit, content: string | null): string | undefined {
  const file = planFile(sessionDir);
  const existed = existsSync(file);
  try {
    if (content === null) {
      if (!existed) return undefined;
      rmSync(file, { force: true });
    } else {
      replacePrivateFile(file, content);
    }
  } catch (error) {
    return `Could not ${content === null ? "delete" : "write"} the plan ${file}: ${(error as Error).message}`;
  }
  emit("session.plan_changed", { operation: content === null ? "delete" : existed ? "update" : "create" });
  return undefined;
}
