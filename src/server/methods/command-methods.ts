/**
 * Slash commands and forms over the SDK. The engine's commands are listed from its registry and run as the
 * person would type them (the `input` command); a client's own commands (the SDK's `commands`) are run by
 * that client: it is sent command.execute and answers with session.commands.handlePendingCommand. A form
 * the application puts (session.ui.elicitation) goes to a client that can answer forms the same way.
 */
import { z } from "zod";
import { loadSlashCommands, type SessionView } from "../../core/index.js";
import type { InputResult } from "../../protocol/commands.js";
import { elicitationReplySchema } from "../../protocol/interactions.js";
import { planReply, userInputReply } from "../replies.js";
import type { ServedSession } from "../served-session.js";
import type { COMMAND_METHODS, UI_METHODS } from "./command-method-names.js";
import type { MethodTable, Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

const listSchema = z.looseObject({
  sessionId: z.string(),
  includeBuiltins: z.boolean().optional(),
  includeSkills: z.boolean().optional(),
  includeClientCommands: z.boolean().optional(),
});
const invokeSchema = z.looseObject({ sessionId: z.string(), name: z.string(), input: z.string().optional() });
const executeSchema = z.looseObject({ sessionId: z.string(), commandName: z.string(), args: z.string().optional() });
const enqueueSchema = z.looseObject({ sessionId: z.string(), command: z.string() });
const respondSchema = z.looseObject({
  sessionId: z.string(),
  requestId: z.string(),
  result: z.looseObject({ handled: z.boolean(), stopProcessingQueue: z.boolean().optional() }),
});
const pendingSchema = z.looseObject({ sessionId: z.string(), requestId: z.string(), error: z.string().optional() });
const answerSchema = z.looseObject({ sessionId: z.string(), requestId: z.string(), response: z.unknown().optional() });
const elicitSchema = z.looseObject({ sessionId: z.string(), message: z.string(), requestedSchema: z.looseObject({ type: z.literal("object") }) });
const questionSchema = z.looseObject({ sessionId: z.string(), question: z.string() });
const handleSchema = z.looseObject({ sessionId: z.string(), handle: z.string() });

type Method = (typeof COMMAND_METHODS)[number] | (typeof UI_METHODS)[number];

function open(served: ServedSession): SessionView {
  const session = served.session;
  if (!session) throw new Error(`Session not found: ${served.id}`);
  return session;
}

const bare = (name: string) => name.replace(/^\/+/, "").toLowerCase();

/** What a routed command gave, as the SDK's invocation result. */
function invocation(result: InputResult, help: () => Promise<string>): Promise<unknown> | unknown {
  switch (result.kind) {
    case "show":
      return { kind: "text", text: `${result.title}\n\n${result.text}` };
    case "copy":
    case "diff":
      return { kind: "text", text: result.kind === "copy" ? result.text : result.patch || result.summary };
    case "dialog":
      // The help dialog's content is the command list; other dialogs have no text without a terminal.
      return result.dialog === "help"
        ? help().then((text) => ({ kind: "text", text }))
        : { kind: "completed", message: `/${result.dialog} needs the interactive terminal.` };
    case "done":
      return result.error ? { kind: "completed", message: result.error } : { kind: "completed" };
    case "unknown-command":
      throw new Error(`Unknown command: /${result.name}`);
    default:
      return { kind: "completed" };
  }
}

/** An application's unknown `/x` would go to the model as written: only a command or a skill is run here. */
async function known(session: SessionView, name: string): Promise<boolean> {
  if ((await loadSlashCommands()).findSlashCommand(bare(name)) !== undefined) return true;
  return session.dispatch({ type: "list_skills" }).skills.some((skill) => skill.userInvocable && skill.name.toLowerCase() === bare(name));
}

async function builtins() {
  const { slashCommands } = await loadSlashCommands();
  return slashCommands.map((command) => ({
    name: command.name,
    ...(command.aliases?.length ? { aliases: [...command.aliases] } : {}),
    description: command.description,
    kind: "builtin" as const,
    allowDuringAgentExecution: false,
  }));
}

export function commandMethods(owned: Owned): MethodTable<Method> {
  /** The direct auto-mode-switch handlers a client registered (agent never switches by itself: they are never asked). */
  const autoModeHandles = new Set<string>();
  let nextHandle = 0;
  const help = async () => (await builtins()).map((command) => `/${command.name}  ${command.description}`).join("\n");
  const notPending = () => ({ success: false });
  return {
    "session.commands.list": async (link, params) => {
      const { sessionId, includeBuiltins = true, includeSkills = true, includeClientCommands = true } = listSchema.parse(params);
      const served = owned(link, sessionId);
      const session = open(served);
      const client = includeClientCommands
        ? served.clientCommands().map(({ name, description }) => ({ name, description: description ?? "", kind: "client", allowDuringAgentExecution: false }))
        : [];
      const skills = includeSkills
        ? session
            .dispatch({ type: "list_skills" })
            .skills.filter((skill) => skill.enabled && skill.userInvocable)
            .map((skill) => ({ name: skill.name, description: skill.description, kind: "skill", allowDuringAgentExecution: false }))
        : [];
      return { commands: [...(includeBuiltins ? await builtins() : []), ...skills, ...client] };
    },
    "session.commands.invoke": async (link, params) => {
      const { sessionId, name, input } = invokeSchema.parse(params);
      const text = `/${bare(name)}${input ? ` ${input}` : ""}`;
      const session = open(owned(link, sessionId));
      if (!(await known(session, name))) throw new Error(`Unknown command: /${bare(name)}`);
      // What a command says (/help's listing, /usage's figures) it says as session.info: that is its text here.
      const said: string[] = [];
      const off = session.subscribe((event) => {
        if (event.type === "session.info" && !event.agentId) said.push(event.data.message);
      });
      try {
        const result = await session.dispatch({ type: "input", text, from: "application" });
        return result.kind === "done" && !result.error && said.length > 0 ? { kind: "text", text: said.join("\n") } : invocation(result, help);
      } finally {
        off();
      }
    },
    "session.commands.execute": async (link, params) => {
      const { sessionId, commandName, args = "" } = executeSchema.parse(params);
      const served = owned(link, sessionId);
      const mine = served.clientCommands().find((command) => bare(command.name) === bare(commandName));
      const command = `/${mine?.name ?? bare(commandName)}${args ? ` ${args}` : ""}`;
      if (!mine) {
        if (!(await known(open(served), commandName))) return { error: `Unknown command: /${bare(commandName)}` };
        const result = await open(served).dispatch({ type: "input", text: command, from: "application" });
        if (result.kind === "unknown-command") return { error: `Unknown command: /${result.name}` };
        return result.kind === "done" && result.error ? { error: result.error } : {};
      }
      const answer = await served.askClient(mine.link, "command.execute", { command, commandName: mine.name, args });
      if (answer === undefined) return { error: `The client did not finish /${mine.name} in time.` };
      const { error } = answer as { error?: string };
      return error ? { error } : {};
    },
    // Queued behind the prompts in hand, as typed input is (a command runs at once when the session is idle).
    // A client that listens for command.queued runs slash commands itself: each is handed to it in its turn.
    "session.commands.enqueue": (link, params) => {
      const { sessionId, command } = enqueueSchema.parse(params);
      const served = owned(link, sessionId);
      const handedOff = command.trim().startsWith("/") && served.interestedIn("command.queued");
      void open(served)
        .dispatch(
          handedOff ? { type: "queue_client_command", command: command.trim() } : { type: "input", text: command, from: "application", delivery: "enqueue" },
        )
        .catch(() => undefined);
      return { queued: true };
    },
    "session.commands.respondToQueuedCommand": (link, params) => {
      const { sessionId, requestId, result } = respondSchema.parse(params);
      const answered = open(owned(link, sessionId)).dispatch({
        type: "answer_client_command",
        requestId,
        handled: result.handled,
        ...(result.handled && result.stopProcessingQueue ? { stopProcessingQueue: true } : {}),
      });
      return { success: answered };
    },
    // An unknown id is a command already finished (or given up): nothing is left to do, as in Copilot.
    "session.commands.handlePendingCommand": (link, params) => {
      const { sessionId, requestId, error } = pendingSchema.parse(params);
      owned(link, sessionId).settle(requestId, error !== undefined ? { error } : {});
      return { success: true };
    },
    "session.ui.elicitation": async (link, params) => {
      const { sessionId, message, requestedSchema } = elicitSchema.parse(params);
      const served = owned(link, sessionId);
      if (!served.elicitation) throw new Error("Elicitation is not supported: no client of this session answers forms.");
      const answer = await served.askClient(undefined, "elicitation.requested", { message, requestedSchema, mode: "form" });
      const reply = elicitationReplySchema.safeParse(answer);
      return reply.success ? reply.data : { action: "cancel" };
    },
    // A question beside the conversation (ask_aside): the model answers, nothing is recorded.
    "session.ui.ephemeralQuery": async (link, params) => {
      const { sessionId, question } = questionSchema.parse(params);
      return { answer: await open(owned(link, sessionId)).dispatch({ type: "ask_aside", question }) };
    },
    "session.ui.handlePendingUserInput": (link, params) => {
      const { sessionId, requestId, response } = answerSchema.parse(params);
      return { success: owned(link, sessionId).answer(requestId, userInputReply(response)) === undefined };
    },
    "session.ui.handlePendingExitPlanMode": (link, params) => {
      const { sessionId, requestId, response } = answerSchema.parse(params);
      return { success: owned(link, sessionId).answer(requestId, planReply(response)) === undefined };
    },
    // agent asks none of these: no request of theirs can be pending.
    "session.ui.handlePendingSampling": (link, params) => (owned(link, sessionIdOf(params)), notPending()),
    "session.ui.handlePendingAutoModeSwitch": (link, params) => (owned(link, sessionIdOf(params)), notPending()),
    "session.ui.handlePendingSessionLimitsExhausted": (link, params) => (owned(link, sessionIdOf(params)), notPending()),
    "session.mcp.headers.handlePendingHeadersRefreshRequest": (link, params) => (owned(link, sessionIdOf(params)), notPending()),
    "session.ui.registerDirectAutoModeSwitchHandler": (link, params) => {
      owned(link, sessionIdOf(params));
      const handle = `auto-mode-switch-${++nextHandle}`;
      autoModeHandles.add(handle);
      return { handle };
    },
    "session.ui.unregisterDirectAutoModeSwitchHandler": (link, params) => {
      const { sessionId, handle } = handleSchema.parse(params);
      owned(link, sessionId);
      return { unregistered: autoModeHandles.delete(handle) };
    },
  };
}
