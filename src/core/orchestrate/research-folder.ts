import path from "node:path";

/** Where /research keeps its reports: research/ in the session folder (a folder the session writes without asking). */
export function researchFolder(sessionDir: string): string {
  return path.join(sessionDir, "research");
}
