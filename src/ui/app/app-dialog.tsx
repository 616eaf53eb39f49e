/** The dialogs the app opens on request: /help, ?, /model, /resume, /agent, /tasks and /rewind. */
import { useEffect, useState } from "react";
import type { SlashCommand } from "../../core/slash-commands/registry.js";
import type { SessionMetadata } from "../../session/session-metadata.js";
import { neutraliseTerminalText } from "../../util/terminal-text.js";
import { AgentPicker } from "../components/agent-picker.js";
import { HelpOverlay } from "../components/help-overlay.js";
import { ModelPicker } from "../components/model-picker.js";
import { QuickHelp } from "../components/quick-help.js";
import { ResumePicker } from "../components/resume-picker.js";
import { RewindDialog } from "../components/rewind-dialog.js";
import { TasksDialog } from "../components/tasks-dialog.js";
import { describeAgent } from "../../core/tasks/agent-transcripts.js";
import type { SessionHost } from "../session-host.js";
import type { Theme } from "../theme.js";
import type { DialogName } from "./use-submit.js";

interface DialogProps {
  host: SessionHost;
  theme: Theme;
  width: number;
  close(): void;
  /** Shows an error in the transcript (e.g. a session that another agent process has open). */
  notify?(text: string): void;
  /** Prints a text into the history (an agent's transcript). */
  print?(title: string, text: string): void;
  /** Puts text in the prompt to edit (the prompt a rewind went back before). */
  editPrompt?(text: string): void;
}

function RewindDialogFor({ host, theme, width, close, notify, editPrompt }: DialogProps) {
  const { session } = host;
  const [points] = useState(() => session.dispatch({ type: "rewind_points" }));
  return (
    <RewindDialog
      points={points}
      cwd={host.cwd}
      theme={theme}
      width={width}
      preview={(eventId, scope) => session.dispatch({ type: "preview_rewind", eventId, scope })}
      onRewind={(eventId, scope, overwrite) => {
        close();
        // What it did is told by its session.snapshot_rewind; the prompt it went back before comes back to edit.
        session
          .dispatch({ type: "rewind", eventId, scope, ...(overwrite ? { overwrite: "all" as const } : {}) })
          .then((outcome) => (outcome.ok ? outcome.prompt !== undefined && editPrompt?.(outcome.prompt) : notify?.(outcome.error)))
          .catch((error: unknown) => notify?.(`Could not rewind: ${(error as Error).message}`));
      }}
      onCancel={close}
    />
  );
}

function TasksDialogFor({ host, theme, width, close, print }: DialogProps) {
  const { session } = host;
  return (
    <TasksDialog
      agents={() => session.agentRecords}
      shells={() => session.backgroundShells}
      theme={theme}
      width={width}
      onView={(id) => {
        close();
        const record = session.agentRecords.find((candidate) => candidate.id === id);
        // What agents said comes from the model: neutralised like any other outside text.
        if (record) print?.(`${id} transcript`, neutraliseTerminalText(describeAgent(record)));
      }}
      onMessage={(id, text) => session.dispatch({ type: "message_agent", agentId: id, message: text })}
      onCancel={(id) => session.dispatch({ type: "cancel_agent", agentId: id })}
      onStopShell={(shellId) => session.dispatch({ type: "stop_shell", shellId })}
      onClose={close}
    />
  );
}

function ModelDialog({ host, theme, width, close }: DialogProps) {
  const [models, setModels] = useState<string[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    host.session
      .listModels(controller.signal)
      // Names come from the endpoint: shown, so neutralised like any other text from outside.
      .then((list) => setModels(list.map(neutraliseTerminalText)))
      .catch((failure: unknown) => {
        setError((failure as Error).message);
        setModels([host.session.model]);
      });
    return () => controller.abort();
  }, [host]);
  return (
    <ModelPicker
      models={models}
      current={host.session.model}
      {...(error ? { error } : {})}
      theme={theme}
      width={width}
      onSelect={(model, effort) => {
        host.session.dispatch({ type: "set_model", model, ...(effort ? { reasoningEffort: effort } : {}) });
        close();
      }}
      onCancel={close}
    />
  );
}

function AgentDialog({ host, theme, width, close, notify }: DialogProps) {
  // Agent files are the user's and the repository's text: shown, so neutralised like any other outside text.
  const agents = host.session
    .selectableAgents()
    .map((agent) => ({ ...agent, name: neutraliseTerminalText(agent.name), description: neutraliseTerminalText(agent.description) }));
  return (
    <AgentPicker
      agents={agents}
      current={host.session.agentName}
      theme={theme}
      width={width}
      onSelect={(name) => {
        close();
        const problem = host.session.dispatch({ type: "select_agent", name });
        if (problem) notify?.(problem);
      }}
      onCancel={close}
    />
  );
}

function ResumeDialog({ host, theme, width, close, notify }: DialogProps) {
  const [sessions, setSessions] = useState<SessionMetadata[] | undefined>();
  useEffect(() => {
    host
      .listSessions()
      .then((all) => setSessions(all.filter((session) => session.id !== host.session.id)))
      .catch(() => setSessions([]));
  }, [host]);
  if (!sessions) return null;
  return (
    <ResumePicker
      sessions={sessions}
      cwd={host.cwd}
      theme={theme}
      width={width}
      onSelect={(id) => {
        close();
        host.switchTo(id).catch((error: unknown) => notify?.(`Could not resume: ${(error as Error).message}`));
      }}
      onCancel={close}
    />
  );
}

export function AppDialog(props: DialogProps & { dialog: DialogName; commands: readonly SlashCommand[] }) {
  switch (props.dialog) {
    case "quick-help":
      return <QuickHelp theme={props.theme} width={props.width} onClose={props.close} />;
    case "help":
      return (
        <HelpOverlay
          commands={props.commands}
          instructionFiles={props.host.session.instructionPaths}
          theme={props.theme}
          width={props.width}
          onClose={props.close}
        />
      );
    case "model":
      return <ModelDialog {...props} />;
    case "resume":
      return <ResumeDialog {...props} />;
    case "agent":
      return <AgentDialog {...props} />;
    case "tasks":
      return <TasksDialogFor {...props} />;
    case "rewind":
      return <RewindDialogFor {...props} />;
  }
}
