/**
 * `/init`: asks the agent to write `.github/copilot-instructions.md` from what it learns of the repository,
 * folding in the instruction files other agents use (AGENTS.md, CLAUDE.md…) when there are some.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { promptTemplate } from "../../config/prompt-templates.js";
import type { SlashCommand } from "./types.js";

const OTHER_FILES = ["AGENTS.md", "CLAUDE.md", "GEMINI.md", ".cursorrules", path.join(".cursor", "rules"), path.join(".github", "instructions")];
const TARGET = path.join(".github", "copilot-instructions.md");

export const initCommand: SlashCommand = {
  name: "init",
  description: "Have the agent write .github/copilot-instructions.md for this repository",
  run: ({ session }) => {
    const root = session.workspace.context.gitRoot ?? session.cwd;
    const target = path.join(root, TARGET);
    const others = OTHER_FILES.filter((name) => existsSync(path.join(root, name))).map((name) => path.join(root, name));
    return {
      kind: "prompt",
      prompt: promptTemplate("init", {
        target,
        existing: existsSync(target)
          ? "The file already exists: read it first, keep what is still true, and improve it rather than starting over."
          : "The file does not exist yet: create it (and the .github folder if needed).",
        others:
          others.length > 0
            ? `This repository already has instructions for other agents: ${others.join(", ")}. Read them and fold what is still accurate into the new file, so one file says it all; leave those files as they are.`
            : "",
      }),
      // A template: faces show `/init` as typed, and an `@x` in it attaches nothing.
      source: "command:init",
    };
  },
};
