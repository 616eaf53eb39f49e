/** Keeps workspace.yaml current from the event stream: first prompt, name (/rename), directory (/cwd), update time, event count. */
import type { EventData, SessionEvent } from "../protocol/events/index.js";
import { writeMetadata, type SessionMetadata } from "./session-metadata.js";
import { isoTime } from "../util/iso-time.js";

/**
 * What a person typed, for a user message they sent: the line itself (`/review main..HEAD` for a prompt a
 * command built from its template), or undefined for messages nobody typed (autopilot, notifications, hooks).
 * A session's first such line names it in listings, and makes it one `--continue` finds.
 */
export function typedPrompt(message: EventData<"user.message">): string | undefined {
  if (message.typedText !== undefined) return message.typedText;
  return message.source === undefined ? message.content : undefined;
}

export class MetadataKeeper {
  constructor(
    private readonly dir: string,
    private readonly metadata: SessionMetadata,
  ) {
    writeMetadata(dir, metadata);
  }

  readonly onEvent = (event: SessionEvent): void => {
    if (event.agentId) return;
    if (!event.ephemeral) this.metadata.eventCount++;
    const typed = event.type === "user.message" ? typedPrompt(event.data) : undefined;
    if (typed !== undefined && this.metadata.firstPrompt === undefined) {
      this.metadata.firstPrompt = typed.slice(0, 500);
      this.flush();
    } else if (event.type === "session.title_changed") {
      this.rename(event.data.title);
    } else if (event.type === "session.context_changed") {
      // `--continue` finds the latest session of a directory: after /cwd, that is the new one.
      Object.assign(this.metadata, { cwd: event.data.cwd, gitRoot: event.data.gitRoot, branch: event.data.branch });
      this.flush();
    } else if (event.type === "session.idle" || event.type === "session.shutdown") {
      this.flush();
    }
  };

  rename(name: string): void {
    this.metadata.name = name;
    this.metadata.userNamed = true;
    this.flush();
  }

  private flush(): void {
    this.metadata.updatedAt = isoTime();
    try {
      writeMetadata(this.dir, this.metadata);
    } catch {
      // Listing falls back to the log itself; a failed metadata write must not stop the session.
    }
  }
}
