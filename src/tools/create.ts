// The `create` tool: writes a new file (never overwrites), creating missing parent directories.
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";
import { makeParentFolders, writeNewFile } from "./new-file.js";
import { countLineChanges, resolveToolPath, statOrNull, unifiedDiff } from "./resolve-path.js";

const parameters = lazyParameters(() =>
  z.object({
    path: z.string().describe("Absolute path of the file to create. A relative path is resolved against the working directory. The file must not exist yet."),
    file_text: z.string().describe("The full content of the new file."),
  }),
);

export const createTool = defineTool({
  name: "create",
  description: [
    "Create a new file with the given content.",
    "Fails if anything already exists at the path: use the edit tool to change an existing file.",
    "Missing parent directories are created.",
  ].join("\n"),
  parameters,
  kind: "write",
  readOnly: false,
  title: (args) => args.path,
  async permission(args, ctx) {
    const abs = resolveToolPath(args.path, ctx.cwd);
    return {
      kind: "write",
      fileName: abs,
      diff: await unifiedDiff(abs, "", args.file_text),
      intention: `Create ${abs}`,
      newFileContents: args.file_text,
    };
  },
  async execute(args, ctx) {
    const abs = resolveToolPath(args.path, ctx.cwd);
    const existing = await statOrNull(abs);
    if (existing) {
      const what = existing.isDirectory() ? "a directory" : "a file";
      throw new ToolError(`Cannot create ${abs}: ${what} already exists at that path. Use the edit tool to modify an existing file.`, "already_exists");
    }
    try {
      await makeParentFolders(abs, ctx.sessionDir);
      // Fails (EEXIST) if the file appeared since the check above.
      if (ctx.files) await ctx.files.writeTextFile(abs, args.file_text);
      else await writeNewFile(abs, args.file_text, ctx.sessionDir);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      if (err.code === "EEXIST") throw new ToolError(`Cannot create ${abs}: a file already exists at that path.`, "already_exists");
      throw new ToolError(`Cannot create ${abs}: ${err.message}`, "write_failed");
    }
    const { linesAdded } = await countLineChanges("", args.file_text);
    return {
      content: `Created file ${abs} with ${args.file_text.length} characters`,
      detailedContent: await unifiedDiff(abs, "", args.file_text),
      codeChange: { path: abs, linesAdded, linesRemoved: 0 },
    };
  },
});
