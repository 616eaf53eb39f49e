/**
 * The skills a session knows, read on first use (frontmatter only) and again on reload. Which are enabled is
 * the catalog's too: settings' `disabledSkills` at the start, then /skills enable|disable. A disabled skill is
 * listed (as disabled) but neither offered to the model nor invocable.
 */
import { loadSkills, type LoadedSkills } from "./load-skills.js";
import type { SkillCache } from "./skill-cache.js";
import type { SkillDefinition, SkillProblem } from "./skill-file.js";
import type { SkillFolder } from "./skill-sources.js";

export interface SkillCatalogOptions {
  /** The folders to read, in precedence order (asked at each load). */
  folders(): readonly SkillFolder[];
  /** Names disabled at the start (settings' `disabledSkills`, a client's `disabledSkills`). */
  disabled?: Iterable<string>;
  /** Told after every load (the first and each reload): what loaded and what did not. */
  onLoad?(loaded: LoadedSkills): void;
  /** Where the frontmatter of files read before is kept (skills-cache.json); every file is read without it. */
  cache?: SkillCache;
}

export interface SkillState extends SkillDefinition {
  enabled: boolean;
}

export class SkillCatalog {
  private loaded: LoadedSkills | undefined;
  private readonly disabled: Set<string>;

  constructor(private readonly options: SkillCatalogOptions) {
    this.disabled = new Set(options.disabled ?? []);
  }

  /** Whether the skills have been read (a listing before that reads them). */
  get isLoaded(): boolean {
    return this.loaded !== undefined;
  }

  private load(): LoadedSkills {
    if (!this.loaded) {
      this.loaded = loadSkills(this.options.folders(), this.options.cache);
      this.options.onLoad?.(this.loaded);
    }
    return this.loaded;
  }

  /** Every skill found, enabled or not, in precedence order. */
  all(): readonly SkillDefinition[] {
    return this.load().skills;
  }

  /** Every skill with whether it is enabled. */
  states(): SkillState[] {
    return this.all().map((skill) => ({ ...skill, enabled: !this.disabled.has(skill.name) }));
  }

  /** What did not load (or loaded with something to say) at the last load. */
  problems(): { errors: readonly SkillProblem[]; warnings: readonly SkillProblem[] } {
    const { errors, warnings } = this.load();
    return { errors, warnings };
  }

  get(name: string): SkillDefinition | undefined {
    return this.all().find((skill) => skill.name === name);
  }

  isEnabled(name: string): boolean {
    return !this.disabled.has(name);
  }

  /** Enables or disables a skill by name; false when there is no such skill. */
  setEnabled(name: string, enabled: boolean): boolean {
    if (!this.get(name)) return false;
    if (enabled) this.disabled.delete(name);
    else this.disabled.add(name);
    return true;
  }

  /** The enabled skills the model may load, narrowed to `names` when an agent lists its own. */
  forModel(names?: readonly string[]): SkillDefinition[] {
    return this.all().filter((skill) => skill.modelInvocable && !this.disabled.has(skill.name) && (names === undefined || names.includes(skill.name)));
  }

  /** The enabled skills a person may invoke as `/<name>`. */
  forUser(): SkillDefinition[] {
    return this.all().filter((skill) => skill.userInvocable && !this.disabled.has(skill.name));
  }

  /** Reads the folders again (skills added, changed or removed on disk). */
  reload(): LoadedSkills {
    this.loaded = undefined;
    return this.load();
  }
}
