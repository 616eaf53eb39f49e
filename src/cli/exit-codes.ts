/** Exit codes of `agent`, documented in docs/headless.md. */
export const ExitCode = {
  /** The prompt ran to the end (tool denials included). */
  ok: 0,
  /** Configuration problem: no endpoint or model, invalid settings, unknown session to resume. */
  config: 1,
  /** Command-line usage error: unknown flag, bad value. */
  usage: 2,
  /** The model endpoint failed and retries did not help (authentication, rate limit, server, network). */
  provider: 3,
  /** Autopilot stopped at --max-autopilot-continues without task_complete. */
  autopilotLimit: 4,
  /** The session to resume is open in another agent process (one writer per session). */
  sessionInUse: 5,
  /** The agent made the same tool call again after the repeat guard told it to change approach, with nobody to ask (autopilot, -p). */
  doomLoop: 6,
  /** Interrupted with Ctrl+C (SIGINT). */
  interrupted: 130,
  /** Terminated (SIGTERM). */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
