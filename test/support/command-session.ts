/**
 * Tests drive a session the way every face does, through `dispatch`; this wrapper only spells the commands
 * as methods so the tests read plainly. It holds no state of its own beyond what events say.
 */
import type { AgentSession } from "../../src/core/agent-session.js";
import type { Attachment, PermissionRequest } from "../../src/protocol/events/index.js";
import type { RunResult } from "../../src/protocol/commands.js";
import type { AgentMode } from "../../src/protocol/events/index.js";
import type { InteractionReply, PermissionReply } from "../../src/protocol/interactions.js";

export class CommandSession {
  private readonly pending = new Map<string, PermissionRequest>();

  constructor(readonly engine: AgentSession) {
    engine.subscribe((event) => {
      if (event.type === "permission.requested") this.pending.set(event.data.requestId, event.data.permissionRequest);
      if (event.type === "permission.completed") this.pending.delete(event.data.requestId);
    });
  }

  get id(): string {
    return this.engine.id;
  }
  get dir(): string {
    return this.engine.dir;
  }
  get cwd(): string {
    return this.engine.cwd;
  }
  get mode(): AgentMode {
    return this.engine.mode;
  }
  get model(): string {
    return this.engine.model;
  }
  get busy(): boolean {
    return this.engine.busy;
  }
  get metrics(): AgentSession["metrics"] {
    return this.engine.metrics;
  }
  get hasConversation(): boolean {
    return this.engine.state.hasConversation;
  }

  readonly subscribe: AgentSession["subscribe"] = (listener) => this.engine.subscribe(listener);
  readonly dispatch: AgentSession["dispatch"] = (command) => this.engine.dispatch(command);

  send(prompt: string, options: { attachments?: Attachment[]; source?: string } = {}): Promise<RunResult> {
    return this.engine.dispatch({ type: "send", prompt, ...options });
  }
  interrupt(): void {
    this.engine.dispatch({ type: "interrupt" });
  }
  setMode(mode: AgentMode): void {
    this.engine.dispatch({ type: "set_mode", mode });
  }
  setModel(model: string): void {
    this.engine.dispatch({ type: "set_model", model });
  }
  respond(requestId: string, reply: InteractionReply): string | undefined {
    return this.engine.dispatch({ type: "respond", requestId, reply });
  }
  respondToPermission(requestId: string, reply: PermissionReply): boolean {
    return this.respond(requestId, reply) === undefined;
  }
  runShellCommand(command: string): Promise<void> {
    return this.engine.dispatch({ type: "run_shell", command });
  }
  shutdown(): void {
    this.engine.dispatch({ type: "shutdown" });
  }

  /** The permission state as the events and commands show it. */
  get permissionBroker() {
    const session = this;
    return {
      get pendingRequests() {
        return [...session.pending].map(([requestId, request]) => ({ requestId, request }));
      },
      get allowAll() {
        return session.engine.state.permissions.allowAll;
      },
      get summary() {
        return session.engine.state.permissions.summary;
      },
      setAllowAll: (on: boolean) => session.engine.dispatch({ type: "set_allow_all", on }),
      resetAllowedTools: () => session.engine.dispatch({ type: "reset_allowed_tools" }),
    };
  }
}
