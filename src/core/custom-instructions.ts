/**
 * Custom instructions the user keeps for the agent: AGENTS.md (and CLAUDE.md, GEMINI.md), the repository's
 * .github/copilot-instructions.md and .github/instructions/*.instructions.md, read from the cwd and the git
 * root, plus $AGENT_HOME/copilot-instructions.md. Reads are bounded; nothing walks the home directory.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface InstructionFile {
  path: string;
  content: string;
}

const MAX_FILE_BYTES = 64 * 1024;
const ROOT_FILES = ["AGENTS.md", "CLAUDE.md", "GEMINI.md", path.join(".github", "copilot-instructions.md")];

function read(file: string): string | undefined {
  try {
    const text = readFileSync(file, "utf8");
    return text.length > MAX_FILE_BYTES ? `${text.slice(0, MAX_FILE_BYTES)}\n[truncated at 64 KB]` : text;
  } catch {
    return undefined;
  }
}

function instructionsFolder(root: string): string[] {
  const folder = path.join(root, ".github", "instructions");
  try {
    return readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".instructions.md"))
      .sort()
      .slice(0, 50)
      .map((name) => path.join(folder, name));
  } catch {
    return [];
  }
}

export function loadCustomInstructions(options: { cwd: string; gitRoot?: string; agentHome: string }): InstructionFile[] {
  const roots = [...new Set([options.gitRoot, options.cwd].filter((root): root is string => Boolean(root)))];
  return readAll([...roots.flatMap(rootCandidates), path.join(options.agentHome, "copilot-instructions.md")]);
}

/** A directory's instruction files, read as a repository root's are (an SDK client's `instructionDirectories`). */
export function loadInstructionDirectories(dirs: readonly string[]): InstructionFile[] {
  return readAll(dirs.flatMap(rootCandidates));
}

function rootCandidates(root: string): string[] {
  return [...ROOT_FILES.map((name) => path.join(root, name)), ...instructionsFolder(root)];
}

function readAll(candidates: readonly string[]): InstructionFile[] {
  const seen = new Set<string>();
  const files: InstructionFile[] = [];
  for (const file of candidates) {
    if (seen.has(file)) continue;
    seen.add(file);
    const content = read(file);
    if (content !== undefined && content.trim() !== "") files.push({ path: file, content: content.trim() });
  }
  return files;
}
