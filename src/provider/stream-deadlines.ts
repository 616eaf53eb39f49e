/**
 * The two limits on one streamed response, for any wire: an idle timeout that only data resets (a server
 * that keeps the connection open with comments or whitespace but never answers is treated as a dropped
 * connection, and retried), and an overall limit for a stream that never ends. Keep-alives are noted only
 * to say, when the idle timeout ends the wait, that the connection was alive but empty.
 */
import { ProviderError } from "./errors.js";
import { monotonicMs } from "../util/monotonic-clock.js";

export interface StreamDeadlineOptions {
  idleMs: number;
  overallMs: number;
  /** The caller's own abort (an interrupt): never reported as a timeout. */
  signal: AbortSignal;
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

export class StreamDeadlines {
  /** Aborts the request when the caller does, or when a limit passes. */
  readonly signal: AbortSignal;
  private readonly idle = new AbortController();
  private readonly overall = new AbortController();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly overallTimer: NodeJS.Timeout;
  /** Bytes arrived since the last data (keep-alives). */
  private keptAlive = false;

  constructor(private readonly options: StreamDeadlineOptions) {
    this.signal = AbortSignal.any([options.signal, this.idle.signal, this.overall.signal]);
    this.overallTimer = setTimeout(() => this.overall.abort(), options.overallMs);
    this.onData();
  }

  /** When the last piece of the answer arrived (monotonicMs()). */
  private lastData = 0;

  /**
   * A piece of the answer arrived (a chunk, the end): the idle time starts again. Called for every chunk of a
   * stream, so it only notes the time; the one idle timer, when it fires, waits again for what is left.
   */
  readonly onData = (): void => {
    this.keptAlive = false;
    this.lastData = monotonicMs();
    this.idleTimer ??= setTimeout(this.checkIdle, this.options.idleMs);
  };

  private readonly checkIdle = (): void => {
    const quiet = monotonicMs() - this.lastData;
    if (quiet >= this.options.idleMs) this.idle.abort();
    else this.idleTimer = setTimeout(this.checkIdle, Math.max(1, Math.ceil(this.options.idleMs - quiet)));
  };

  /** Bytes arrived (data or not): the connection is alive, which does not reset the idle timer. */
  readonly onBytes = (): void => {
    this.keptAlive = true;
  };

  /** The error to report when a limit ended the response, else undefined (the caller classifies `error` itself). */
  explain(): ProviderError | undefined {
    if (this.options.signal.aborted) return undefined;
    if (this.idle.signal.aborted) {
      const what = this.keptAlive ? `no data for ${duration(this.options.idleMs)}, only keep-alives` : `nothing for ${duration(this.options.idleMs)}`;
      return new ProviderError("network", `The model endpoint sent ${what} (provider.streamIdleTimeoutMs).`);
    }
    if (this.overall.signal.aborted) {
      return new ProviderError(
        "invalid_response",
        `The model endpoint was still streaming after ${duration(this.options.overallMs)}, so the response was stopped (provider.responseTimeoutMs).`,
      );
    }
    return undefined;
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.overallTimer);
  }
}
