/** `/session [info|plan|checkpoints [n]|files|rename <name>|delete <id>]`: the running session and its folder. */
import { planFile } from "../modes.js";
import { checkpointList, checkpointText, readPlan, sessionFiles, sessionInfo } from "../session-admin/session-report.js";
import { renameSession } from "./rename.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

const USAGE = "Usage: /session [info|plan|checkpoints [n]|files|rename <name>|delete <id|name>]";

export const sessionCommand: SlashCommand = {
  name: "session",
  aliases: ["sessions"],
  description: "Show the session (id, folder, log, plan), its checkpoints and files; rename it, delete another",
  argsHint: "[info|plan|checkpoints [n]|files|rename|delete]",
  run: async (context): Promise<SlashCommandResult> => {
    const { session } = context;
    const [verb = "info", ...rest] = context.args.split(/\s+/).filter((part) => part !== "");
    const argument = rest.join(" ");
    switch (verb) {
      case "info":
        return { kind: "message", text: await sessionInfo(session) };
      case "plan": {
        const plan = readPlan(session);
        return plan === undefined
          ? { kind: "message", text: "This session has no plan yet (plan mode writes one: /plan)." }
          : { kind: "show", title: planFile(session.dir), text: plan };
      }
      case "checkpoints": {
        if (argument === "") return { kind: "message", text: checkpointList(session.dir) };
        const number = Number(argument);
        const found = Number.isInteger(number) ? checkpointText(session.dir, number) : undefined;
        return found ? { kind: "show", ...found } : { kind: "message", level: "error", text: `No checkpoint ${argument}. ${checkpointList(session.dir)}` };
      }
      case "files":
        return { kind: "message", text: sessionFiles(session) };
      case "rename":
        return renameSession({ session, args: argument });
      case "delete": {
        if (argument === "")
          return { kind: "message", level: "error", text: "Usage: /session delete <id|name> (another session; the running one cannot be deleted)" };
        const refused = await session.dispatch({ type: "delete_session", id: argument });
        return refused ? { kind: "message", level: "error", text: refused } : { kind: "done" };
      }
      default:
        return { kind: "message", level: "error", text: USAGE };
    }
  },
};
