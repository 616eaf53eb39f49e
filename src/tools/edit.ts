// The `edit` tool: replaces exactly one occurrence of old_str with new_str (or creates a missing file).
import { readFile, writeFile } from "../util/promised-fs.js";
import { z } from "zod";
import type { FileBackend } from "./backends.js";
import { defineTool, ToolError } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";
import { makeParentFolders, writeNewFile } from "./new-file.js";
import { countLineChanges, resolveToolPath, statOrNull, unifiedDiff } from "./resolve-path.js";

const parameters = lazyParameters(() =>
  z.object({
    path: z.string().describe("Absolute path of the file to edit. A relative path is resolved against the working directory."),
    old_str: z
      .string()
      .optional()
      .describe(
        "The exact text to replace, including whitespace and indentation. It must occur exactly once in the file: include enough surrounding lines to make it unique. Leave empty to create a file that does not exist yet.",
      ),
    new_str: z.string().optional().describe("The text that replaces old_str (default: empty, which deletes old_str)."),
  }),
);

type EditArgs = z.infer<typeof parameters>;

interface PlannedEdit {
  abs: string;
  before: string;
  after: string;
  created: boolean;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
}

/** Works out the new file content, or throws a ToolError explaining why the edit cannot apply. */
async function planEdit(args: EditArgs, cwd: string, files?: FileBackend): Promise<PlannedEdit> {
  const abs = resolveToolPath(args.path, cwd);
  const oldStr = args.old_str ?? "";
  const newStr = args.new_str ?? "";
  const info = await statOrNull(abs);
  if (!info) {
    if (oldStr !== "") {
      throw new ToolError(`File ${abs} does not exist. To create it, use the create tool (or edit with an empty old_str).`, "not_found");
    }
    return { abs, before: "", after: newStr, created: true };
  }
  if (info.isDirectory()) throw new ToolError(`${abs} is a directory, not a file.`, "not_a_file");
  if (oldStr === "") {
    throw new ToolError(
      `old_str is empty but ${abs} already exists. Give the exact text to replace in old_str (view the file first if needed).`,
      "empty_old_str",
    );
  }
  if (oldStr === newStr) throw new ToolError("old_str and new_str are identical; there is nothing to change.", "no_change");

  const before = files ? await files.readTextFile(abs) : await readFile(abs, "utf8");
  let find = oldStr;
  let replacement = newStr;
  let matches = countOccurrences(before, find);
  if (matches === 0 && before.includes("\r\n") && oldStr.includes("\n") && !oldStr.includes("\r\n")) {
    // The file uses CRLF line endings and the model sent LF: match and replace in CRLF form.
    find = oldStr.replace(/\n/g, "\r\n");
    replacement = newStr.replace(/\r?\n/g, "\r\n");
    matches = countOccurrences(before, find);
  }
  if (matches === 0) {
    throw new ToolError(
      `No match found for old_str in ${abs}. old_str must match the file exactly, including whitespace, indentation and line breaks. View the file to copy the exact text.`,
      "no_match",
    );
  }
  if (matches > 1) {
    throw new ToolError(`old_str matched ${matches} times in ${abs}; include more surrounding lines so it is unique.`, "multiple_matches");
  }
  const at = before.indexOf(find);
  const after = before.slice(0, at) + replacement + before.slice(at + find.length);
  return { abs, before, after, created: false };
}

export const editTool = defineTool({
  name: "edit",
  description: [
    "Edit a file by replacing exactly one occurrence of old_str with new_str.",
    "old_str must match the file exactly (whitespace and indentation included) and must be unique in the file; if it matches zero or several times nothing is changed and the result says how many times it matched. Add surrounding lines to make it unique.",
    "An empty new_str deletes old_str.",
    "If the file does not exist and old_str is empty, the file is created with new_str as its content.",
    "Several edits to the same file in one response are applied in order, each to the result of the previous one.",
  ].join("\n"),
  parameters,
  kind: "write",
  readOnly: false,
  title: (args) => args.path,
  async permission(args, ctx) {
    const abs = resolveToolPath(args.path, ctx.cwd);
    try {
      const plan = await planEdit(args, ctx.cwd);
      return {
        kind: "write",
        fileName: abs,
        diff: await unifiedDiff(abs, plan.before, plan.after),
        intention: plan.created ? `Create ${abs}` : `Edit ${abs}`,
        newFileContents: plan.after,
      };
    } catch {
      // The edit cannot apply; execute() reports why.
      return { kind: "write", fileName: abs, diff: "", intention: `Edit ${abs}` };
    }
  },
  async execute(args, ctx) {
    const plan = await planEdit(args, ctx.cwd, ctx.files);
    try {
      if (plan.created) await makeParentFolders(plan.abs, ctx.sessionDir);
      if (ctx.files) await ctx.files.writeTextFile(plan.abs, plan.after);
      else if (plan.created) await writeNewFile(plan.abs, plan.after, ctx.sessionDir);
      else await writeFile(plan.abs, plan.after, { encoding: "utf8", flag: "w" });
    } catch (error) {
      throw new ToolError(`Cannot write ${plan.abs}: ${(error as Error).message}`, "write_failed");
    }
    const [diff, changes] = await Promise.all([unifiedDiff(plan.abs, plan.before, plan.after), countLineChanges(plan.before, plan.after)]);
    return {
      content: plan.created ? `Created file ${plan.abs} with ${plan.after.length} characters` : `File ${plan.abs} updated with changes.`,
      detailedContent: diff,
      codeChange: { path: plan.abs, ...changes },
    };
  },
});
