/**
 * The bench's scripted model and its working directory. One responder serves every run, so repeated
 * runs need no re-enqueueing: it decides from the request alone.
 *
 *   last message role "user", prompt contains LONG_MARKER → a ~8,000-character answer streamed in
 *                                                          2,000 pieces, usage completion_tokens 2000
 *   last message role "user", prompt contains HOOKS_MARKER → HOOK_BENCH_CALLS `view` calls in one response (a line each)
 *   last message role "user", prompt is SHELL_MARKER: <cmd> → a `bash` call running <cmd>
 *   last message role "user", otherwise                  → a `view` tool call for the bench file
 *   last message role "tool"                             → a short final answer (FINAL_TEXT)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { standaloneEnv } from "./pty.js";
import {
  startScriptedServer,
  text,
  toolCall,
  toolCalls,
  type CompletionRequest,
  type ScriptedResponse,
  type ScriptedServer,
} from "../test/support/scripted-server.js";

export const LONG_MARKER = "BENCH-LONG";
/** A prompt with this marker gets HOOK_BENCH_CALLS `view` calls in one response (the hook cost bench). */
export const HOOKS_MARKER = "BENCH-HOOKS";
export const HOOK_BENCH_CALLS = 10;
export const SUBAGENT_MARKER = "BENCH-SUBAGENT";
export const CHILD_MARKER = "BENCH-CHILD";
/** `${SHELL_MARKER}: <command>` gets a `bash` call running the command (the shell permission bench). */
export const SHELL_MARKER = "BENCH-SHELL";
export const TOOL_PROMPT = "Read notes.txt and tell me what it says.";
export const LONG_PROMPT = `${LONG_MARKER}: write a long explanation.`;
export const FINAL_TEXT = "The file says the bench works.";
export const LONG_TOKENS = 2000;
const LONG_CHARS_PER_TOKEN = 4;

export const LONG_TAIL = "END-OF-LONG-ANSWER";
/** ~8,000 characters of prose-like text; ends with a recognisable tail so a run can be checked. */
export const LONG_TEXT = buildLongText(LONG_TOKENS * LONG_CHARS_PER_TOKEN);

function buildLongText(chars: number): string {
  const words = ["the", "agent", "streams", "tokens", "to", "stdout", "while", "a", "model", "answers", "quickly,", "and", "then", "stops."];
  let out = "";
  for (let i = 0; out.length < chars - LONG_TAIL.length - 1; i++) {
    out += (words[i % words.length] ?? "x") + (i % 17 === 16 ? "\n" : " ");
  }
  return `${out.slice(0, chars - LONG_TAIL.length - 1)} ${LONG_TAIL}`;
}

export interface Workspace {
  /** Temp root; everything of the bench lives under it. */
  root: string;
  /** Working directory for every run. */
  cwd: string;
  /** Absolute path of the file the model asks to view. */
  file: string;
  /** A fresh AGENT_HOME for one run (so session logs never accumulate between runs). */
  freshHome(): string;
  cleanup(): void;
}

export function createWorkspace(): Workspace {
  const root = mkdtempSync(path.join(os.tmpdir(), "agent-bench-"));
  const cwd = path.join(root, "cwd");
  mkdirSync(cwd);
  const file = path.join(cwd, "notes.txt");
  writeFileSync(file, "The bench works.\n".repeat(20));
  let homes = 0;
  return {
    root,
    cwd,
    file,
    freshHome() {
      const home = path.join(root, `home-${homes++}`);
      mkdirSync(home);
      return home;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function contentText(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

export function benchResponder(file: string): (request: CompletionRequest) => ScriptedResponse {
  return (request) => {
    const messages = request.body.messages;
    const last = messages[messages.length - 1];
    if (last?.role === "tool") return text(FINAL_TEXT);
    if (last?.role === "user" && contentText(last.content).includes(CHILD_MARKER)) return text("notes.txt says the bench works.");
    if (last?.role === "user" && contentText(last.content).includes(SUBAGENT_MARKER)) {
      return toolCall("task", { description: "read the notes", prompt: `${CHILD_MARKER}: what does notes.txt say?`, agent_type: "explore" });
    }
    if (last?.role === "user" && contentText(last.content).includes(LONG_MARKER)) {
      return text(LONG_TEXT, { chunkSize: LONG_CHARS_PER_TOKEN, usage: { prompt_tokens: 100, completion_tokens: LONG_TOKENS } });
    }
    const shell = last?.role === "user" ? new RegExp(`${SHELL_MARKER}: (.*)$`, "s").exec(contentText(last.content)) : null;
    if (shell) return toolCall("bash", { command: shell[1] as string, description: "Run the bench command" });
    if (last?.role === "user" && contentText(last.content).includes(HOOKS_MARKER)) {
      // A line each: the same call repeated is refused by the agent's loop guard after three.
      return toolCalls(
        Array.from({ length: HOOK_BENCH_CALLS }, (_, index) => ({ name: "view", arguments: { path: file, view_range: [index + 1, index + 1] } })),
      );
    }
    return toolCall("view", { path: file });
  };
}

/**
 * What a bench file run alone (`npx tsx bench/<file>.ts`) gives its bench: this build's agent in the workspace,
 * a fresh home per run, the scripted server as its model, and our environment without NODE_OPTIONS (tsx's).
 */
export function standaloneRun(ws: Workspace, server: ScriptedServer) {
  return {
    agent: fileURLToPath(new URL("../bin/agent.js", import.meta.url)),
    cwd: ws.cwd,
    freshHome: () => ws.freshHome(),
    env: standaloneEnv,
    providerEnv: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model" },
  };
}

export async function startBenchServer(file: string): Promise<ScriptedServer> {
  return startScriptedServer({ model: "bench-model", responder: benchResponder(file) });
}

/** A run's environment against `baseUrl`: this process's, without NODE_OPTIONS / NODE_DEBUG, plus `extra`. */
export function benchRunEnv(baseUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model", ...extra };
  delete out["NODE_OPTIONS"];
  delete out["NODE_DEBUG"];
  return out;
}
