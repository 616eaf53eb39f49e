/**
 * Milliseconds on a monotonic clock, for durations (a request's time to its first token, a stream's quiet time, a
 * hook's run). performance.now() reads the same clock, but the global `performance` loads nine of Node's modules
 * (perf_hooks and its timing entries) at its first touch, which a `-p` run's peak RSS paid (docs/benchmarks.md).
 * Only differences between two readings mean anything.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
