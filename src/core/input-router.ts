/**
 * The one input router: text as a person typed it becomes commands. `/name args` runs a slash command (or,
 * when no command has that name, the skill of that name: issue 19), `!cmd` runs a shell command for the user,
 * anything else is a prompt whose `@path` mentions become attachments. The TUI, `agent -p` and the server
 * faces all come through here, so `/plan x` means the same everywhere. An application's text (the SDK's
 * session.send, `from: "application"`) runs known slash commands and skills only; the rest reaches the model
 * as written, and what a command shows or cannot do there is told as events.
 */
import { randomUUID } from "../util/random-id.js";
import type { InputResult, SessionCommand } from "../protocol/commands.js";
import type { Attachment } from "../protocol/events/index.js";
import type { AgentSession } from "./agent-session.js";
import type { Emit } from "./event-sink.js";
import { attachmentsFor } from "./mentions.js";
import type { SlashCommandResult } from "./slash-commands/registry.js";

export interface RouterContext {
  session: AgentSession;
  emit: Emit;
  cwd: string;
}

function mergeAttachments(given: readonly Attachment[] | undefined, mentioned: readonly Attachment[]): Attachment[] {
  const all = [...(given ?? [])];
  for (const attachment of mentioned) if (!all.some((known) => known.path === attachment.path)) all.push(attachment);
  return all;
}

/**
 * An application waits for session.idle after each input: one that started no turn ends with one too (not
 * while a turn runs, whose own idle ends it).
 */
function idleForApplication({ session, emit }: RouterContext): void {
  if (session.busy) return;
  emit("session.idle", { backgroundTasks: { agents: session.backgroundAgents, shells: session.backgroundShells }, mode: session.mode });
}

/** What a command gave the face, told to an application (it has only events), then its idle. */
function toldToApplication(context: RouterContext, result: InputResult, name: string): InputResult {
  const info = (message: string) => context.emit("session.info", { infoType: "command", message });
  const warn = (message: string) => context.emit("session.warning", { warningType: "command", message });
  switch (result.kind) {
    case "prompt":
      // Its run ends with its idle (a turn's own, or the one applySlashResult adds to a command's run).
      return result;
    case "show":
      info(`${result.title}\n\n${result.text}`);
      break;
    case "diff":
      info(result.patch === "" ? result.summary : `${result.summary}\n\n${result.patch}`);
      break;
    case "copy":
      info(result.text);
      break;
    case "dialog":
      warn(`/${result.dialog} needs the terminal UI (run agent in a terminal).`);
      break;
    case "new-session":
      warn(`/${name} needs the terminal UI: create a new session instead.`);
      break;
    case "exit":
      warn(`/${name} needs the terminal UI: disconnect the session instead.`);
      break;
    case "done":
    case "unknown-command":
      break;
  }
  idleForApplication(context);
  return result;
}

async function applySlashResult(
  context: RouterContext,
  result: SlashCommandResult,
  { delivery, from }: Extract<SessionCommand, { type: "input" }>,
  typed: string,
): Promise<InputResult> {
  switch (result.kind) {
    case "done":
      return { kind: "done" };
    case "message":
      if (result.level === "warning" || result.level === "error") context.emit("session.warning", { warningType: "command", message: result.text });
      else context.emit("session.info", { infoType: result.infoType ?? "command", message: result.text });
      // An error (bad arguments, no such server) is the caller's to report: `-p` exits 2 on it.
      return result.level === "error" ? { kind: "done", error: result.text } : { kind: "done" };
    case "prompt": {
      // A template's text (a diff, say) is not the user's: an `@x` in it attaches nothing.
      const attachments = result.source ? [] : attachmentsFor(result.prompt, context.cwd);
      const run = context.session.dispatch({
        type: "send",
        prompt: result.prompt,
        ...(result.source ? { source: result.source } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(delivery ? { delivery } : {}),
        // While it waits in the queue it shows, and comes back to edit, as the command the person typed.
        ...(result.prompt !== typed ? { typed } : {}),
      });
      return { kind: "prompt", run };
    }
    case "run":
      // A command's run (a compaction) is no turn and ends with no idle of its own: an application's gets one.
      return { kind: "prompt", run: from === "application" ? result.run.finally(() => idleForApplication(context)) : result.run };
    case "dialog":
      return { kind: "dialog", dialog: result.dialog };
    case "new-session":
      return { kind: "new-session" };
    case "switch-session":
      return result;
    case "exit":
      return { kind: "exit" };
    case "show":
    case "diff":
    case "copy":
    case "edit":
      return result;
  }
}

export async function routeInput(context: RouterContext, command: Extract<SessionCommand, { type: "input" }>): Promise<InputResult> {
  const text = command.text.trim();
  // The commands (and all they import) load only for a line that could be one: a plain prompt never needs them.
  const registry = text.startsWith("/") ? await import("./slash-commands/registry.js") : undefined;
  const slash = registry?.parseSlashCommand(text);
  const application = command.from === "application";
  // An application's `/x` that is no command (nor skill) is text for the model, as Copilot's SDK sends it.
  if (registry && slash && (slash.command || !application || context.session.skills.forCommand(slash.name))) {
    const routed = await runSlashCommand(context, { ...slash, registry }, command, text);
    return application ? toldToApplication(context, routed, slash.name) : routed;
  }
  if (text.startsWith("!") && !application) {
    const shellCommand = text.slice(1).trim();
    if (shellCommand !== "") await context.session.dispatch({ type: "run_shell", command: shellCommand });
    return { kind: "done" };
  }
  const attachments = mergeAttachments(command.attachments, attachmentsFor(command.text, context.cwd));
  const run = context.session.dispatch({
    type: "send",
    prompt: command.text,
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(command.delivery ? { delivery: command.delivery } : {}),
    ...(command.requestHeaders ? { requestHeaders: command.requestHeaders } : {}),
  });
  return { kind: "prompt", run };
}

type Registry = typeof import("./slash-commands/registry.js");

/** Runs `/name args` between command.execute and command.completed. */
async function runSlashCommand(
  context: RouterContext,
  slash: NonNullable<ReturnType<Registry["parseSlashCommand"]>> & { registry: Registry },
  command: Extract<SessionCommand, { type: "input" }>,
  text: string,
): Promise<InputResult> {
  const requestId = randomUUID();
  context.emit("command.execute", { requestId, command: text, commandName: slash.name, args: slash.args });
  try {
    if (!slash.command) {
      // Built-in commands come first: a skill cannot take a command's name.
      const skill = context.session.skills.forCommand(slash.name);
      if (skill && "problem" in skill) {
        context.emit("session.warning", { warningType: "command", message: skill.problem });
        return { kind: "done", error: skill.problem };
      }
      if (skill) {
        const run = context.session.dispatch({
          type: "invoke_skill",
          name: slash.name,
          prompt: text,
          ...(command.delivery ? { delivery: command.delivery } : {}),
        });
        return { kind: "prompt", run };
      }
      const near = slash.registry.closestCommand(slash.name);
      context.emit("session.warning", {
        warningType: "unknown_command",
        message: `Unknown command: /${slash.name}${near ? ` (did you mean /${near}?)` : ""}`,
      });
      return { kind: "unknown-command", name: slash.name };
    }
    const result = await slash.command.run({
      session: context.session,
      args: slash.args,
      info: (infoType, message) => context.emit("session.info", { infoType, message }),
    });
    return await applySlashResult(context, result, command, text);
  } catch (error) {
    const message = `/${slash.name}: ${(error as Error).message}`;
    context.emit("session.warning", { warningType: "command", message });
    return { kind: "done", error: message };
  } finally {
    context.emit("command.completed", { requestId });
  }
}
