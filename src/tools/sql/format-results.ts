/** The `sql` tool's answer: each statement's rows as a Markdown table (readable by model and person alike). */
import type { SqlValue } from "sql.js";
import type { StatementResult } from "./session-database.js";

const MAX_ROWS = 200;
const MAX_CELL = 300;

function cell(value: SqlValue): string {
  if (value === null) return "NULL";
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  const text = String(value).replace(/\r?\n/g, "⏎").replace(/\|/g, "\\|");
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL)}…` : text;
}

function table(columns: readonly string[], rows: readonly SqlValue[][]): string {
  if (rows.length === 0) return `(no rows; columns: ${columns.join(", ")})`;
  const shown = rows.slice(0, MAX_ROWS);
  const lines = [`| ${columns.map((column) => cell(column)).join(" | ")} |`, `|${columns.map(() => " --- |").join("")}`];
  for (const row of shown) lines.push(`| ${row.map(cell).join(" | ")} |`);
  const count = `${rows.length} row${rows.length === 1 ? "" : "s"}`;
  lines.push(rows.length > shown.length ? `(${count}; the first ${shown.length} shown: narrow the query with WHERE or LIMIT)` : `(${count})`);
  return lines.join("\n");
}

/** A write's outcome in Copilot's words (models are tuned on them). */
function written(result: Extract<StatementResult, { kind: "changes" }>): string {
  switch (result.keyword) {
    case "INSERT":
      return `${result.changes} row(s) inserted. Last inserted row ID: ${result.lastInsertRowId ?? 0}.`;
    case "UPDATE":
      return `${result.changes} row(s) updated.`;
    case "DELETE":
      return `${result.changes} row(s) deleted.`;
    case "CREATE":
    case "DROP":
    case "ALTER":
      return "Schema operation completed successfully.";
    default:
      return `${result.changes} row(s) affected.`;
  }
}

const outcome = (result: StatementResult) => (result.kind === "rows" ? table(result.columns, result.rows) : written(result));

/** One statement's outcome alone; several numbered, each under its keyword (Copilot's layout). */
export function formatResults(results: readonly StatementResult[]): string {
  if (results.length === 0) return "No statement to run.";
  if (results.length === 1) return outcome(results[0] as StatementResult);
  const each = results.map((result, index) => `${index + 1}. ${result.keyword}\n${outcome(result).replace(/^/gm, "   ")}`);
  return [`Executed ${results.length} statement(s):`, ...each].join("\n\n");
}
