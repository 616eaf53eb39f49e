/**
 * Before a prompt goes to the model, the MCP servers it needs finish starting, so their tools are offered
 * in that request: on the first prompt, servers whose tools are not known yet (no cached list: a first run,
 * or a changed configuration); on any prompt, the servers it names. Each is waited for up to its start
 * timeout (`startupTimeout`), so a slow server is usable in a one-shot `-p` run; a server that misses it is
 * reported (the warning names the setting) and the session goes on without it.
 */
import { inSeconds, type McpManager } from "../mcp/index.js";
import type { Emit } from "./event-sink.js";

/** A bound on the whole wait, when AGENT_MCP_STARTUP_WAIT_MS is set; otherwise each server's start timeout bounds it. */
function mcpStartupWaitCapMs(): number | undefined {
  const fromEnv = Number(process.env.AGENT_MCP_STARTUP_WAIT_MS);
  return process.env.AGENT_MCP_STARTUP_WAIT_MS !== undefined && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : undefined;
}

export class McpStartupGate {
  private first = true;
  /** Waits in progress: a prompt sent meanwhile waits behind them, so prompts reach the model in order. */
  private waiting = 0;
  private chain: Promise<void> = Promise.resolve();
  /** Ends the waits in progress when the user interrupts. */
  private stop = new AbortController();

  constructor(
    private readonly mcp: McpManager,
    private readonly emit: Emit,
  ) {}

  /** Whether a prompt is waiting for servers (the session counts as busy: an interrupt ends the wait). */
  get busy(): boolean {
    return this.waiting > 0;
  }

  /** Undefined when this prompt need not wait for anything. */
  wait(prompt: string): Promise<void> | undefined {
    const first = this.first;
    this.first = false;
    if (!first && this.waiting === 0 && !this.mcp.namesStarting(prompt)) return undefined;
    this.waiting++;
    this.chain = this.chain.then(() => this.waitFor(prompt, first)).finally(() => void this.waiting--);
    return this.chain;
  }

  /** The user interrupted: the prompts waiting for servers go on with the tools there are (the late ones join when ready). */
  interrupt(): void {
    this.stop.abort();
    this.stop = new AbortController();
  }

  private async waitFor(prompt: string, first: boolean): Promise<void> {
    const capMs = mcpStartupWaitCapMs();
    const { signal } = this.stop;
    const late = await this.mcp.waitForPrompt(prompt, { first, signal, ...(capMs !== undefined ? { capMs } : {}) });
    if (late.length === 0) return;
    const several = late.length > 1;
    const why = signal.aborted
      ? "the wait was interrupted"
      : `AGENT_MCP_STARTUP_WAIT_MS limits this wait to ${inSeconds(capMs ?? 0)}: unset it to wait up to each server's "startupTimeout"`;
    this.emit("session.warning", {
      warningType: "mcp",
      message: `MCP server${several ? "s" : ""} ${late.join(", ")} still starting; going on without ${several ? "their" : "its"} tools for now (they join when ready; ${why}).`,
    });
  }
}
