/**
 * `/share [file [path] | html [path]]`: writes the conversation to a Markdown file or a self-contained HTML
 * page (tool calls collapsed), in the working directory unless a path is given.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readMetadata } from "../../session/session-metadata.js";
import { readSessionEvents } from "../session-admin/session-report.js";
import { buildTranscript } from "../session-admin/transcript.js";
import { transcriptHtml, transcriptMarkdown } from "../session-admin/transcript-render.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

const USAGE = "Usage: /share [file [path] | html [path]]";

export const shareCommand: SlashCommand = {
  name: "share",
  aliases: ["export"],
  description: "Save the conversation as a Markdown file or an HTML page",
  argsHint: "[file [path] | html [path]]",
  run: async ({ session, args }): Promise<SlashCommandResult> => {
    const match = /^(file|html|md|markdown)?(?:\s+([\s\S]+))?$/.exec(args);
    if (!match) return { kind: "message", level: "error", text: USAGE };
    const format = match[1] === "html" ? "html" : "markdown";
    const given = match[2]?.trim();
    const defaultName = `agent-session-${session.id.slice(0, 8)}.${format === "html" ? "html" : "md"}`;
    let file = session.workspace.resolvePath(given ?? defaultName);
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, defaultName);
    // Only this session's own earlier export is refreshed in place; any other file is the person's, and kept.
    if (existsSync(file) && path.basename(file) !== defaultName)
      return { kind: "message", level: "error", text: `${file} already exists; /share does not overwrite it: give another path.` };
    const name = (await readMetadata(session.dir))?.name;
    const transcript = buildTranscript(await readSessionEvents(session), { sessionId: session.id, ...(name ? { name } : {}) });
    if (transcript.entries.length === 0) return { kind: "message", level: "warning", text: "Nothing to share yet: the conversation is empty." };
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, format === "html" ? transcriptHtml(transcript) : transcriptMarkdown(transcript));
    return { kind: "message", text: `Conversation saved to ${file}` };
  },
};
