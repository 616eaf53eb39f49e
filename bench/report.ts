/** Table and JSON output for the bench. */
import { writeFileSync } from "node:fs";
import type { Stats } from "./measure.js";

export interface Row {
  /** What is measured. */
  name: string;
  /** The agent's figure (or the first of the pair), formatted, plus the raw number. */
  agent: string;
  baseline: string;
  /** agent / baseline; undefined when not applicable. */
  ratio: number | undefined;
  /** e.g. "≤ 2.0×", "≤ 100 MB", "no", or "—" for information only. */
  target: string;
  /** undefined: information only (no target). */
  pass: boolean | undefined;
  /** Raw values for the JSON file. */
  data: Record<string, unknown>;
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export function mb(value: number | undefined): string {
  return value === undefined ? "n/a" : `${value.toFixed(1)} MB`;
}

export function ratioText(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? "—" : `${value.toFixed(2)}×`;
}

/** A median and the fastest run of one figure (wall, CPU, first request…), in ms. */
export interface Figure {
  median: number;
  min: number;
}

/** A row of the agent's median against a baseline's, passing when their ratio is at most `limit` (shown with `digits` decimals). */
export function ratioRow(name: string, agent: Figure, baseline: Figure, limit: number | undefined, digits = 1): Row {
  const ratio = agent.median / baseline.median;
  return {
    name,
    agent: `${ms(agent.median)} (min ${agent.min.toFixed(1)})`,
    baseline: `${ms(baseline.median)} (min ${baseline.min.toFixed(1)})`,
    ratio,
    target: limit === undefined ? "—" : `≤ ${limit.toFixed(digits)}×`,
    pass: limit === undefined ? undefined : Number.isFinite(ratio) && ratio <= limit,
    data: { agent, baseline, ratio, ...(limit === undefined ? {} : { targetRatio: limit }) },
  };
}

/** The CPU-time figure of a run's stats (undefined medians become NaN, which no target accepts). */
export function cpuFigure(stats: Stats): Figure {
  return { median: stats.cpuMedian ?? Number.NaN, min: stats.cpuMin ?? Number.NaN };
}

/** The spawn → first model request figure of a run's stats. */
export function firstRequestFigure(stats: Stats): Figure {
  return { median: stats.firstRequestMedian ?? Number.NaN, min: stats.firstRequestMin ?? Number.NaN };
}

/** Whether a row states a target (information rows have "—" or a target starting with it). */
export function hasTarget(row: Row): boolean {
  return !row.target.startsWith("—");
}

/** A row with a target that was missed, or whose target could not be checked (no verdict). */
export function missed(row: Row): boolean {
  return hasTarget(row) && row.pass !== true;
}

function verdict(row: Row): string {
  if (!hasTarget(row)) return "info";
  if (row.pass === undefined) return "UNCHECKED";
  return row.pass ? "PASS" : "FAIL";
}

export function formatTable(rows: readonly Row[]): string {
  const header = ["measurement", "agent", "baseline", "ratio", "target", "result"];
  const body = rows.map((r) => [r.name, r.agent, r.baseline, ratioText(r.ratio), r.target, verdict(r)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...body.map(line)].join("\n");
}

export function summaryLine(rows: readonly Row[]): string {
  const judged = rows.filter(hasTarget);
  const failed = judged.filter(missed);
  if (failed.length === 0) return `bench: all ${judged.length} targets met.`;
  return `bench: ${failed.length} of ${judged.length} targets MISSED`;
}

/** One line per missed target, saying what was measured against what was wanted. */
export function missedLines(rows: readonly Row[]): string[] {
  return rows.filter(missed).map((r) => {
    const versus = r.baseline === "—" ? "" : ` vs ${r.baseline}`;
    const figure = r.target.includes("×") && r.ratio !== undefined ? `${ratioText(r.ratio)} (${r.agent}${versus})` : `${r.agent}${versus}`;
    return `  MISSED ${r.name}: ${figure}; target ${r.target}${r.pass === undefined ? " (could not be checked)" : ""}`;
  });
}

export function writeResults(file: string, payload: Record<string, unknown>): void {
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
}
