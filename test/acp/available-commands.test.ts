/** The command list an editor gets over ACP: the slash commands, then the session's skills a person may run. */
import { describe, expect, it } from "vitest";
import { availableCommands } from "../../src/acp/available-commands.js";

describe("availableCommands", () => {
  it("adds the enabled, user-invocable skills with their argument hints; a skill never takes a command's name", async () => {
    const skill = (name: string, extra: { enabled?: boolean; userInvocable?: boolean; argumentHint?: string } = {}) => ({
      name,
      description: `The ${name} skill.`,
      enabled: extra.enabled ?? true,
      userInvocable: extra.userInvocable ?? true,
      ...(extra.argumentHint ? { argumentHint: extra.argumentHint } : {}),
    });
    const commands = await availableCommands([
      skill("pdf-report", { argumentHint: "<file>" }),
      skill("review"),
      skill("hidden", { userInvocable: false }),
      skill("off", { enabled: false }),
    ]);
    expect(commands.find((command) => command.name === "pdf-report")).toEqual({
      name: "pdf-report",
      description: "The pdf-report skill.",
      input: { hint: "<file>" },
    });
    expect(commands.filter((command) => command.name === "review")).toHaveLength(1);
    expect(commands.find((command) => command.name === "review")?.description).not.toBe("The review skill.");
    expect(commands.map((command) => command.name)).not.toContain("hidden");
    expect(commands.map((command) => command.name)).not.toContain("off");
    expect(commands.map((command) => command.name)).toContain("skills");
  });
});
