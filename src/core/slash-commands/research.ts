import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { promptTemplate } from "../../config/prompt-templates.js";
import { researchFolder } from "../orchestrate/research-folder.js";
import type { SlashCommand } from "./types.js";

/** "How does X work?" → "how-does-x-work": a file name for the report. */
export function researchSlug(topic: string): string {
  const slug = topic
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug === "" ? "research" : slug;
}

/** research/<slug>.md in the session folder, numbered when that topic was researched before. */
function reportPath(sessionDir: string, topic: string): string {
  const folder = researchFolder(realpathSync(sessionDir));
  const slug = researchSlug(topic);
  for (let n = 1; ; n++) {
    const candidate = path.join(folder, n === 1 ? `${slug}.md` : `${slug}-${n}.md`);
    if (!existsSync(candidate)) return candidate;
  }
}

/**
 * `/research <topic>`: the main agent becomes an orchestrator that sends `research` agents down several lines
 * of investigation at once, judges their coverage, and writes a cited report into the session folder (a
 * folder the session may write without asking).
 */
export const researchCommand: SlashCommand = {
  name: "research",
  description: "Research a topic with several research agents and write a cited report",
  argsHint: "<topic>",
  run: ({ session, args }) => {
    if (args === "") return { kind: "message", level: "error", text: "Usage: /research <topic>: what should be researched?" };
    const prompt = promptTemplate("research", { topic: args, cwd: session.cwd, reportPath: reportPath(session.dir, args) });
    return { kind: "prompt", prompt, source: "command:research" };
  },
};
