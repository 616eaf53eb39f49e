import { z } from "zod";

/** Modes a session can be in. Copilot CLI's names; `shell` only appears on user messages run with `!`. */
/** An SDK app's limits on a session (its sessionLimits): Copilot's shape. */
export const sessionLimitsSchema = z.object({ maxAiCredits: z.number().optional() });
export type SessionLimits = z.infer<typeof sessionLimitsSchema>;

export const agentModeSchema = z.enum(["interactive", "plan", "autopilot"]);
export type AgentMode = z.infer<typeof agentModeSchema>;

export const workingDirectoryContextSchema = z.object({
  cwd: z.string(),
  gitRoot: z.string().optional(),
  repository: z.string().optional(),
  branch: z.string().optional(),
  headCommit: z.string().optional(),
  /** What a client reported (session.metadata.recordContextChange): where the repository is hosted, and the branch's base. */
  repositoryHost: z.string().optional(),
  hostType: z.string().optional(),
  baseCommit: z.string().optional(),
});
export type WorkingDirectoryContext = z.infer<typeof workingDirectoryContextSchema>;

export const toolRequestSchema = z.object({
  toolCallId: z.string(),
  name: z.string(),
  /** Parsed arguments; the raw string when the model sent JSON that does not parse. */
  arguments: z.unknown().optional(),
  type: z.enum(["function", "custom"]).optional(),
  toolTitle: z.string().optional(),
  intentionSummary: z.string().optional(),
});
export type ToolRequest = z.infer<typeof toolRequestSchema>;

export const codeChangesSchema = z.object({
  linesAdded: z.number(),
  linesRemoved: z.number(),
  filesModified: z.array(z.string()),
});
export type CodeChanges = z.infer<typeof codeChangesSchema>;

const textPosition = z.object({ line: z.number(), character: z.number() });

export const attachmentSchema = z.object({
  type: z.enum(["file", "directory", "selection", "blob", "github_reference"]),
  path: z.string().optional(),
  displayName: z.string().optional(),
  /** An image the model is shown ("image/png"): only its path is logged; the request carries its bytes. */
  mediaType: z.string().optional(),
  /** A file's lines the client points at (1-based, inclusive). */
  lineRange: z.object({ start: z.number(), end: z.number() }).optional(),
  /** A selection (an editor's): its file, its text and where it is (0-based lines, as editors count). */
  filePath: z.string().optional(),
  text: z.string().optional(),
  selection: z.object({ start: textPosition, end: textPosition }).optional(),
  /** A GitHub issue, pull request or discussion the client names. */
  number: z.number().optional(),
  referenceType: z.string().optional(),
  state: z.string().optional(),
  title: z.string().optional(),
  url: z.string().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** Why the gate asks, and what it asks about beyond the seed's fields. */
const needsApproval = {
  /** In plain words: what needs approval ("`rm` needs approval; /etc is outside the allowed directories"). */
  reason: z.string().optional(),
  /** Paths outside the allowed directories that the call touches. */
  outsidePaths: z.array(z.string()).optional(),
  /**
   * Exactly what "yes for this session" / "always in this directory" would store; absent when those cannot be
   * offered. The offered options' labels (permission.requested's `options`) name each of these.
   */
  grants: z
    .object({
      commands: z.array(z.string()),
      writes: z.array(z.string()),
      paths: z.array(z.string()),
      origins: z.array(z.string()),
      tools: z.array(z.string()),
    })
    .optional(),
};

/** What a tool asks permission for: the discriminated union of seed 002's `permissionRequest`. */
export const permissionRequestSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("shell"),
    toolCallId: z.string().optional(),
    fullCommandText: z.string(),
    intention: z.string(),
    commands: z.array(z.object({ identifier: z.string(), readOnly: z.boolean() })),
    possiblePaths: z.array(z.string()),
    possibleUrls: z.array(z.string()).optional(),
    hasWriteFileRedirection: z.boolean().optional(),
    canOfferSessionApproval: z.boolean().optional(),
    ...needsApproval,
  }),
  z.object({
    kind: z.literal("write"),
    toolCallId: z.string().optional(),
    fileName: z.string(),
    diff: z.string(),
    intention: z.string(),
    newFileContents: z.string().optional(),
    ...needsApproval,
  }),
  z.object({
    kind: z.literal("read"),
    toolCallId: z.string().optional(),
    path: z.string(),
    intention: z.string(),
    ...needsApproval,
  }),
  z.object({
    kind: z.literal("mcp"),
    toolCallId: z.string().optional(),
    serverName: z.string(),
    toolName: z.string(),
    toolTitle: z.string(),
    args: z.unknown().optional(),
    readOnly: z.boolean(),
    ...needsApproval,
  }),
  z.object({
    kind: z.literal("url"),
    toolCallId: z.string().optional(),
    url: z.string(),
    intention: z.string(),
    ...needsApproval,
  }),
  z.object({
    kind: z.literal("memory"),
    toolCallId: z.string().optional(),
    subject: z.string(),
    fact: z.string(),
    citations: z.string(),
    /** Ours, beside seed 002's fields: what happens to the memory (absent: it is stored). */
    action: z.enum(["store", "confirm", "retire"]).optional(),
    ...needsApproval,
  }),
  z.object({
    kind: z.literal("custom-tool"),
    toolCallId: z.string().optional(),
    toolName: z.string(),
    toolDescription: z.string(),
    args: z.unknown().optional(),
    ...needsApproval,
  }),
]);
export type PermissionRequest = z.infer<typeof permissionRequestSchema>;

export const permissionResultKindSchema = z.enum([
  "approved",
  "denied-by-rules",
  "denied-interactively-by-user",
  "denied-no-approval-rule-and-could-not-request-from-user",
  "denied-by-content-exclusion-policy",
]);
export type PermissionResultKind = z.infer<typeof permissionResultKindSchema>;

export const backgroundTasksSchema = z.object({
  agents: z.array(z.object({ agentId: z.string(), agentType: z.string(), description: z.string().optional() })),
  shells: z.array(z.object({ shellId: z.string(), description: z.string().optional() })),
});
export type BackgroundTasks = z.infer<typeof backgroundTasksSchema>;
