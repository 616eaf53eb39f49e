/**
 * Reads every skill's frontmatter from its folders, in precedence order: the first skill of a name is the
 * one loaded, and a later one of the same name is reported (never silently dropped). A bad file is reported
 * with its field, and the others still load.
 */
import { statSync, type Stats } from "node:fs";
import type { SkillCache } from "./skill-cache.js";
import { parseSkillFile, readHead, type SkillDefinition, type SkillOrigin, type SkillProblem } from "./skill-file.js";
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

/** The frontmatter as read now, or as cached for a file of the same size and time; undefined when there is no such file. */
function parseAt(file: string, origin: SkillOrigin, cache: SkillCache | undefined): ReturnType<typeof parseSkillFile> | undefined {
  let stat: Stats | undefined;
  try {
    stat = statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR: a file where a skill's folder would be
  }
  // A subfolder without a SKILL.md is not a skill (scripts/, references/ of a folder that is one).
  if (!stat) return undefined;
  const cached = cache?.get(file, stat.size, stat.mtimeMs);
  if (cached) return cached.ok ? { ok: true, skill: { ...cached.skill, ...origin } } : cached;
  let parsed: ReturnType<typeof parseSkillFile>;
  try {
    parsed = parseSkillFile(file, readHead(file), origin);
  } catch (error) {
    return { ok: false, error: { file, message: `cannot read: ${(error as Error).message}` } };
  }
  if (parsed.ok) {
    const { source: _source, pluginName: _plugin, pluginVersion: _version, trustFolder: _trust, ...skill } = parsed.skill;
    cache?.set(file, stat.size, stat.mtimeMs, { ok: true, skill });
  } else cache?.set(file, stat.size, stat.mtimeMs, parsed);
  return parsed;
}

/** Reads every folder's skills; `cache` spares the reads of files that did not change since they were cached. */
export function loadSkills(folders: readonly SkillFolder[], cache?: SkillCache): LoadedSkills {
  const byName = new Map<string, SkillDefinition>();
  const errors: SkillProblem[] = [];
  const warnings: SkillProblem[] = [];
  for (const folder of folders) {
    for (const file of skillFilesIn(folder.dir)) {
      const parsed = parseAt(file, folder.origin, cache);
      if (!parsed) continue;
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
  cache?.save();
  return { skills: [...byName.values()], errors, warnings };
}
