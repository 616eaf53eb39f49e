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

/** A row of the agent's median against a baseline's, passing when their ratio is at most `limit` (shown with `digits` decimals). */
export function ratioRow(name: string, agent: Stats, baseline: Stats, limit: number | undefined, digits = 1): Row {
  const ratio = agent.median / baseline.median;
  return {
    name,
    agent: `${ms(agent.median)} (min ${agent.min.toFixed(1)})`,
    baseline: `${ms(baseline.median)} (min ${baseline.min.toFixed(1)})`,
    ratio,
    target: limit === undefined ? "—" : `≤ ${limit.toFixed(digits)}×`,
    pass: limit === undefined ? undefined : ratio <= limit,
    data: { agent, baseline, ratio, ...(limit === undefined ? {} : { targetRatio: limit }) },
  };
}

function verdict(pass: boolean | undefined): string {
  if (pass === undefined) return "info";
  return pass ? "PASS" : "FAIL";
}

export function formatTable(rows: readonly Row[]): string {
  const header = ["measurement", "agent", "baseline", "ratio", "target", "result"];
  const body = rows.map((r) => [r.name, r.agent, r.baseline, ratioText(r.ratio), r.target, verdict(r.pass)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...body.map(line)].join("\n");
}

export function summaryLine(rows: readonly Row[]): string {
  const judged = rows.filter((r) => r.pass !== undefined);
  const failed = judged.filter((r) => r.pass === false);
  if (failed.length === 0) return `bench: all ${judged.length} targets met.`;
  return `bench: ${failed.length} of ${judged.length} targets MISSED: ${failed.map((r) => r.name).join("; ")}`;
}

export function writeResults(file: string, payload: Record<string, unknown>): void {
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
}
