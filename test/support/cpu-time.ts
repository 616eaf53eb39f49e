/**
 * CPU time this process spends from now on (user + system, in ms). A performance budget measured this way
 * holds on a loaded machine: other processes competing for the cores stretch the wall clock, not this.
 */
export function cpuTimer(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}
