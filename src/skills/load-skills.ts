/**
 * Reads every skill's frontmatter from its folders, in precedence order: the first skill of a name is the
 * one loaded, and a later one of the same name is reported (never silently dropped). A bad file is reported
 * with its field, and the others still load.
 */
import { parseSkillFile, readHead, type SkillDefinition, type SkillProblem } from "./skill-file.js";
import { skillFilesIn, type SkillFolder } from "./skill-sources.js";

export interface LoadedSkills {
  skills: SkillDefinition[];
  /** Files that could not be loaded. */
  errors: SkillProblem[];
  /** Files that loaded with something to say, or did not load because another skill has their name. */
  warnings: SkillProblem[];
}

function where(skill: SkillDefinition): string {
  return skill.pluginName ? `plugin ${skill.pluginName}` : skill.source;
}

export function loadSkills(folders: readonly SkillFolder[]): LoadedSkills {
  const byName = new Map<string, SkillDefinition>();
  const errors: SkillProblem[] = [];
  const warnings: SkillProblem[] = [];
  for (const folder of folders) {
    for (const file of skillFilesIn(folder.dir)) {
      let text: string;
      try {
        text = readHead(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A subfolder without a SKILL.md is not a skill (scripts/, references/ of a folder that is one).
        if (code !== "ENOENT" && code !== "ENOTDIR") errors.push({ file, message: `cannot read: ${(error as Error).message}` });
        continue;
      }
      const parsed = parseSkillFile(file, text, folder.origin);
      if (!parsed.ok) {
        errors.push(parsed.error);
        continue;
      }
      const first = byName.get(parsed.skill.name);
      if (first) {
        warnings.push({
          file,
          field: "name",
          message: `not loaded: the skill "${first.name}" of ${first.file} (${where(first)}) has the same name and comes first`,
        });
        continue;
      }
      byName.set(parsed.skill.name, parsed.skill);
    }
  }
  return { skills: [...byName.values()], errors, warnings };
}
