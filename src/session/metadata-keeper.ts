/** Keeps workspace.yaml current from the event stream: first prompt, name (/rename), directory (/cwd), update time, event count. */
import type { SessionEvent } from "../protocol/events/index.js";
import { writeMetadata, type SessionMetadata } from "./session-metadata.js";

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
    if (event.type === "user.message" && this.metadata.firstPrompt === undefined && event.data.source === undefined) {
      this.metadata.firstPrompt = event.data.content.slice(0, 500);
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
    this.metadata.updatedAt = new Date().toISOString();
    try {
      writeMetadata(this.dir, this.metadata);
    } catch {
      // Listing falls back to the log itself; a failed metadata write must not stop the session.
    }
  }
}
