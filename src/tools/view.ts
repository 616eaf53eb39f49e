// The `view` tool: numbered file contents (optionally a line range), or a two-level directory listing.
import { createReadStream } from "node:fs";
import { readdir, readFile } from "../util/promised-fs.js";
import { createRequire } from "node:module";
import path from "node:path";
import { z } from "zod";
import { sniffImageFile } from "../util/image-file.js";
import { defineTool, ToolError } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";
import { formatBytes, isBinaryFile, OUTPUT_LIMIT, resolveToolPath, statOrNull, throwIfAborted } from "./resolve-path.js";

/** Files larger than this are only read with a view_range or forceReadLargeFiles. */
export const LARGE_FILE_BYTES = 10 * 1024 * 1024;
/**
 * Files up to this size are read whole and split here; larger ones are streamed line by line through node:readline,
 * which is loaded only then (a `-p` run that views a source file does not load it: docs/benchmarks.md).
 */
const READ_WHOLE_BYTES = 1024 * 1024;
const requireBuiltin = createRequire(import.meta.url);

const parameters = lazyParameters(() =>
  z.object({
    path: z.string().describe("Absolute path to the file or directory to view. A relative path is resolved against the working directory."),
    view_range: z
      .array(z.number().int())
      .length(2)
      .optional()
      .describe("Optional [start, end] line range to show, 1-based and inclusive. Use -1 as end to read to the end of the file. Files only."),
    forceReadLargeFiles: z.boolean().optional().describe("Read a file larger than 10 MB without a view_range. Output is still truncated at 20 KB."),
  }),
);

type ViewArgs = z.infer<typeof parameters>;

function rangeLabel(range: number[] | undefined): string {
  if (!range) return "";
  return ` (lines ${range[0]}-${range[1] === -1 ? "end" : range[1]})`;
}

export const viewTool = defineTool({
  name: "view",
  description: [
    "View a file or a directory.",
    "For a file, returns its lines prefixed with their 1-based line number (`12. text`).",
    "Use view_range [start, end] to read part of a file (end -1 means to the end of the file).",
    "Output is truncated at 20 KB; when it is, a note says which line to continue from with view_range.",
    "An image (PNG, JPEG, GIF, WebP) is shown to you as a picture after the tool results. Other binary files are not shown; the result says the file is binary and gives its size.",
    "For a directory, lists files and subdirectories up to two levels deep (subdirectories end with `/`), skipping hidden entries whose names start with a dot.",
  ].join("\n"),
  parameters,
  kind: "read",
  readOnly: true,
  title: (args) => `${args.path}${rangeLabel(args.view_range)}`,
  permission: (args, ctx) => {
    const abs = resolveToolPath(args.path, ctx.cwd);
    return { kind: "read", path: abs, intention: `Read ${abs}` };
  },
  async execute(args, ctx) {
    const abs = resolveToolPath(args.path, ctx.cwd);
    const info = await statOrNull(abs);
    if (!info) throw new ToolError(`Path ${abs} does not exist. Please provide a valid path.`, "not_found");
    if (info.isDirectory()) {
      if (args.view_range) throw new ToolError(`view_range cannot be used with a directory (${abs}).`, "invalid_range");
      return { content: await listDirectory(abs, ctx.signal) };
    }
    if (!info.isFile()) throw new ToolError(`Path ${abs} is not a regular file or directory.`, "not_a_file");
    const mediaType = info.size > 0 ? sniffImageFile(abs) : undefined;
    if (mediaType) {
      // Chat Completions tool results are text only: the conversation shows the picture in a user message after them.
      return {
        content: `${abs} is an image (${mediaType}, ${formatBytes(info.size)}); it is shown to you after the tool results.`,
        images: [{ path: abs, mediaType }],
        telemetry: { image: true, bytes: info.size },
      };
    }
    if (info.size > 0 && (await isBinaryFile(abs))) {
      return {
        content: `${abs} is a binary file (${formatBytes(info.size)}); it cannot be shown as text.`,
        telemetry: { binary: true, bytes: info.size },
      };
    }
    if (info.size > LARGE_FILE_BYTES && !args.view_range && !args.forceReadLargeFiles) {
      throw new ToolError(
        `File ${abs} is ${formatBytes(info.size)}, too large to read at once. Pass view_range to read a part of it, search it with grep, or set forceReadLargeFiles to true (output is still truncated at 20 KB).`,
        "file_too_large",
      );
    }
    // A client that reads files itself sees its unsaved buffers too: ask it for the text.
    const text = ctx.files ? await ctx.files.readTextFile(abs) : info.size <= READ_WHOLE_BYTES ? await readFile(abs, "utf8") : undefined;
    const lines = text === undefined ? undefined : linesOf(text);
    return await viewFile(abs, args, info.size > LARGE_FILE_BYTES, ctx.signal, lines);
  },
});

async function viewFile(
  abs: string,
  args: ViewArgs,
  stopEarly: boolean,
  signal: AbortSignal,
  given?: readonly string[],
): Promise<{ content: string; telemetry: Record<string, unknown> }> {
  const range = args.view_range;
  const start = range?.[0] ?? 1;
  const requestedEnd = range?.[1] ?? -1;
  if (range) {
    if (start < 1) throw new ToolError(`Invalid view_range [${start}, ${requestedEnd}]: start must be 1 or more.`, "invalid_range");
    if (requestedEnd !== -1 && requestedEnd < start) {
      throw new ToolError(`Invalid view_range [${start}, ${requestedEnd}]: end must be at least start, or -1 for the end of the file.`, "invalid_range");
    }
  }

  const out: string[] = [];
  let size = 0;
  let total = 0;
  let lastShown = start - 1;
  let truncated = false;
  let cutShort = false;
  let countedAll = true;
  const stream = given ? undefined : createReadStream(abs, { encoding: "utf8" });
  const lines = stream && (requireBuiltin("node:readline") as typeof import("node:readline")).createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of lines ?? given ?? []) {
      total++;
      if (total % 10000 === 0) throwIfAborted(signal, "Reading the file");
      const pastRange = truncated || (requestedEnd !== -1 && total > requestedEnd);
      if (pastRange && stopEarly) {
        // A very large file: do not read to the end just to count its lines.
        total--;
        countedAll = false;
        break;
      }
      if (pastRange || total < start) continue;
      const entry = `${total}. ${line}\n`;
      if (size + entry.length > OUTPUT_LIMIT) {
        truncated = true;
        if (out.length === 0) {
          // A single line larger than the limit: show its beginning.
          out.push(entry.slice(0, OUTPUT_LIMIT) + "\n");
          lastShown = total;
          cutShort = true;
        }
        continue;
      }
      out.push(entry);
      size += entry.length;
      lastShown = total;
    }
  } finally {
    lines?.close();
    stream?.destroy();
  }

  if (total === 0) {
    if (range) throw new ToolError(`Invalid view_range [${start}, ${requestedEnd}]: ${abs} is empty (0 lines).`, "invalid_range");
    return { content: `${abs} is empty (0 lines).`, telemetry: { lines: 0 } };
  }
  if (start > total) {
    throw new ToolError(`Invalid view_range [${start}, ${requestedEnd}]: ${abs} has only ${total} line${total === 1 ? "" : "s"}.`, "invalid_range");
  }
  // When a huge file was not read to its end, the true last line is unknown.
  const end = !countedAll ? Infinity : requestedEnd === -1 ? total : Math.min(requestedEnd, total);
  let content = out.join("").replace(/\n$/, "");
  if (truncated) {
    const next = lastShown + 1;
    const nextEnd = requestedEnd === -1 ? -1 : Math.min(requestedEnd, end);
    content +=
      `\n\n[Output truncated at 20 KB: showed lines ${start}-${lastShown}${countedAll ? ` of ${total}` : ""}${cutShort ? ` (line ${lastShown} was cut short)` : ""}. ` +
      (next <= end ? `Use view_range [${next}, ${nextEnd}] to see the rest.]` : `Search the line with grep to see specific parts.]`);
  } else if (range && requestedEnd > total && countedAll) {
    content += `\n\n[The file has ${total} lines; showed lines ${start}-${total}.]`;
  }
  return { content, telemetry: { lines: total, truncated } };
}

/** A text's lines as readline splits a file: CRLF, LF or a lone CR, no empty last line after a final one. */
export function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Lists a directory two levels deep, hidden entries skipped, directories suffixed with "/". */
async function listDirectory(abs: string, signal: AbortSignal): Promise<string> {
  const lines: string[] = [];
  let size = 0;
  let truncated = false;
  const push = (line: string): void => {
    if (truncated) return;
    if (size + line.length + 1 > OUTPUT_LIMIT) {
      truncated = true;
      return;
    }
    lines.push(line);
    size += line.length + 1;
  };
  const visit = async (dir: string, prefix: string, depth: number): Promise<void> => {
    throwIfAborted(signal, "Listing the directory");
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (depth === 1) throw new ToolError(`Cannot list ${dir}: ${(error as Error).message}`, "read_failed");
      return;
    }
    const visible = entries.filter((e) => !e.name.startsWith(".")).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of visible) {
      if (truncated) return;
      const rel = prefix + entry.name;
      if (entry.isDirectory()) {
        push(rel + "/");
        if (depth < 2) await visit(path.join(dir, entry.name), rel + "/", depth + 1);
      } else {
        push(rel);
      }
    }
  };
  await visit(abs, "", 1);
  // Only the entries, as Copilot's view lists them (models are tuned on it): two levels, hidden ones skipped.
  if (lines.length === 0) return "(empty directory)";
  let content = lines.join("\n");
  if (truncated) content += `\n\n[Listing truncated at 20 KB. View a subdirectory to see more, or use glob to find specific files.]`;
  return content;
}
