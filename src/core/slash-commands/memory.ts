/**
 * `/memory [show|on|off|forget <id>…|edit [user]]`: what the agent remembers across sessions (src/memory).
 * `on`/`off` apply to this session at once and are kept in settings.json for later ones; `edit` opens the
 * store file in $EDITOR in the TUI (other faces get its path).
 */
import { describeBoard, describeStores } from "../../memory/memory-report.js";
import type { AgentSession } from "../agent-session.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

const USAGE = "Usage: /memory [show|on|off|forget <id>…|edit [user]]";

async function show(session: AgentSession): Promise<SlashCommandResult> {
  const memory = session.workspace.memory as NonNullable<AgentSession["workspace"]["memory"]>;
  const space = await memory.space();
  const board = memory.board;
  const state = memory.enabled
    ? "Memory is on: the board below is in this session's system prompt, and the agent can store, read and vote on memories."
    : "Memory is off in this session: nothing is sent to the model. /memory on turns it on (and keeps it on in settings.json).";
  const lines = [
    state,
    ...describeStores(space),
    ...(board
      ? describeBoard(board, "The board this session started with")
      : describeBoard(space.board(memory.options.settings.boardTokens), "The board a new session would get")),
    "/memory forget <id> removes one; /memory edit opens this repository's file (/memory edit user: yours).",
  ];
  return { kind: "message", text: lines.join("\n") };
}

export const memoryCommand: SlashCommand = {
  name: "memory",
  description: "What the agent remembers across sessions: show, on, off, forget <id>, edit",
  argsHint: "[show|on|off|forget <id>|edit [user]]",
  run: async ({ session, args }): Promise<SlashCommandResult> => {
    const memory = session.workspace.memory;
    if (!memory) return { kind: "message", level: "error", text: "Memory is not available in this session." };
    const [verb = "show", ...rest] = args.split(/\s+/).filter((part) => part !== "");
    switch (verb) {
      case "show":
      case "list":
        return show(session);
      case "on":
      case "off": {
        const on = verb === "on";
        const { persisted } = await memory.setEnabled(on);
        const now = on
          ? "Memory is on: the agent can store, read and vote on memories (each change asks you first), and sessions start with the board."
          : "Memory is off: no board in the system prompt, no memory tools, no consolidation after the session.";
        const kept = persisted ? ` ${persisted}` : " Later sessions follow (settings.json memory.enabled).";
        return { kind: "message", text: `${now}${kept}` };
      }
      case "forget": {
        if (rest.length === 0) return { kind: "message", level: "error", text: "Usage: /memory forget <id>… (ids from /memory show)" };
        const removed = await (await memory.space()).forget(rest);
        const missing = rest.filter((id) => !removed.some((record) => record.id === id));
        if (removed.length === 0) return { kind: "message", level: "error", text: `No memory ${missing.join(", ")} (/memory show lists them).` };
        return {
          kind: "message",
          text: `Forgot ${removed.map((record) => `${record.id} (${record.subject})`).join(", ")}.${missing.length > 0 ? ` Not found: ${missing.join(", ")}.` : ""}`,
        };
      }
      case "edit": {
        const space = await memory.space();
        const user = rest[0] === "user";
        if (rest.length > 0 && !user) return { kind: "message", level: "error", text: USAGE };
        const store = user ? space.user : space.repository;
        store.ensureFile();
        return { kind: "edit", path: store.file, title: user ? "Your memories (every repository)" : `This repository's memories (${space.key.identity})` };
      }
      default:
        return { kind: "message", level: "error", text: USAGE };
    }
  },
};
