/**
 * The skills a person may run as `/<name>`, for the `/` palette: read when the session opens or is switched,
 * and again from each session.skills_loaded (a reload, an enable or disable). A skill whose name a built-in
 * command has is left out: the command wins.
 */
import { useEffect, useState } from "react";
import type { PaletteCommand } from "../components/composer/command-palette.js";
import type { SessionHost } from "../session-host.js";

type Listed = { name: string; description: string; enabled: boolean; userInvocable: boolean; argumentHint?: string };

/** The skills a person may run, as palette entries. */
export function paletteEntries(skills: readonly Listed[]): PaletteCommand[] {
  return skills
    .filter((skill) => skill.enabled && skill.userInvocable)
    .map((skill) => ({ name: skill.name, description: skill.description, ...(skill.argumentHint ? { argsHint: skill.argumentHint } : {}) }));
}

export function useSkillCommands(host: SessionHost, starting: boolean, builtIn: readonly PaletteCommand[]): readonly PaletteCommand[] {
  const [skills, setSkills] = useState<readonly PaletteCommand[]>([]);
  const [generation, setGeneration] = useState(0);
  useEffect(() => host.onSwitch(() => setGeneration((value) => value + 1)), [host]);
  useEffect(() => {
    if (starting || !host.ready) return;
    const session = host.session;
    const taken = new Set(builtIn.flatMap((command) => [command.name, ...(command.aliases ?? [])]));
    const keep = (list: readonly PaletteCommand[]) => setSkills(list.filter((command) => !taken.has(command.name)));
    const unsubscribe = session.subscribe((event) => {
      if (event.type === "session.skills_loaded") keep(paletteEntries(event.data.skills));
    });
    keep(paletteEntries(session.dispatch({ type: "list_skills" }).skills));
    return unsubscribe;
  }, [host, starting, generation, builtIn]);
  return skills;
}
