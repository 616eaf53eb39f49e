/**
 * Colours for the TUI. The only place in src/ui that picks colours; NO_COLOR (or a terminal without colour)
 * turns every one of them into plain text.
 */
import { Chalk, type ChalkInstance } from "chalk";

export interface Theme {
  color: boolean;
  chalk: ChalkInstance;
  /** Ink <Text color> values, or undefined when colour is off. */
  accent?: string;
  muted?: string;
  success?: string;
  error?: string;
  warning?: string;
  user?: string;
  border?: string;
}

export function createTheme(env: NodeJS.ProcessEnv = process.env, isTTY = Boolean(process.stdout.isTTY)): Theme {
  const color = env.NO_COLOR === undefined && (isTTY || env.FORCE_COLOR !== undefined) && env.TERM !== "dumb";
  if (!color) return { color, chalk: new Chalk({ level: 0 }) };
  return {
    color,
    chalk: new Chalk({ level: 2 }),
    accent: "cyan",
    muted: "gray",
    success: "green",
    error: "red",
    warning: "yellow",
    user: "magenta",
    border: "gray",
  };
}

export const plainTheme: Theme = { color: false, chalk: new Chalk({ level: 0 }) };
