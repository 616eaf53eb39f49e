/**
 * `ask_user`, in Copilot CLI's two shapes. With a person present it is an elicitation form (a message and a
 * schema of fields: text, number, yes/no, one choice, several choices); the person accepts, declines or
 * cancels, and the answer is the tool result. Where nobody can answer (`-p`, autopilot) it is the simple
 * question-and-choices variant and answers at once that the user is away: the model decides and says what
 * it assumed. It never waits for nobody.
 */
import { z } from "zod";
import { defineTool, type ToolOutcome } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";

/** What the model is told when nobody can answer. */
export const USER_NOT_AVAILABLE =
  "The user is not available to answer questions right now. Decide for yourself: make the most reasonable choice, state the assumption you made in your reply, and keep working.";

const DESCRIPTION_FORM = [
  "Ask the user a question when you cannot proceed well without their answer (a choice that changes the result, missing information). Do not ask for confirmation of things you can decide yourself.",
  "The question is a form: `message` says what you need and why; `requestedSchema.properties` holds one or more fields.",
  "Field types: string (free text), number or integer, boolean (yes/no), a single choice (type string with `enum`, optionally `enumNames`, or `oneOf` of {const, title}), several choices (type array with `items.enum`). The user may answer any field in their own words instead.",
].join("\n");

/** The form's parameters, a subset of JSON Schema as MCP elicitation uses it: the largest of the tools' schemas. */
function formParameters() {
  const choiceSchema = z.object({ const: z.string(), title: z.string().optional() });
  /** One form field. */
  const formFieldSchema = z.object({
    type: z.enum(["string", "number", "integer", "boolean", "array"]),
    title: z.string().optional(),
    description: z.string().optional(),
    enum: z.array(z.string()).optional().describe("single choice: the values"),
    enumNames: z.array(z.string()).optional().describe("single choice: labels for the values"),
    oneOf: z.array(choiceSchema).optional().describe("single choice with labels"),
    items: z
      .object({ type: z.literal("string").optional(), enum: z.array(z.string()).optional(), anyOf: z.array(choiceSchema).optional() })
      .optional()
      .describe("multiple choice (type array): the values to choose from"),
    default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  });
  const formSchema = z.object({
    type: z.literal("object").default("object"),
    properties: z.record(z.string(), formFieldSchema),
    required: z.array(z.string()).optional(),
  });

  return z.object({
    message: z.string().describe("What you need to know and why."),
    requestedSchema: formSchema.describe("The form's fields."),
  });
}

/** The form variant (a person can answer). Its parameters are built at its first call, and the request offers the build's JSON Schema of them. */
export const askUserFormTool = defineTool({
  name: "ask_user",
  description: DESCRIPTION_FORM,
  parameters: lazyParameters(formParameters),
  kind: "control",
  readOnly: false,
  title: ({ message }) => message.split("\n")[0] ?? "Question",
  permission: () => null,
  async execute({ message, requestedSchema }, ctx): Promise<ToolOutcome> {
    const answer = await ctx.ask("elicitation", {
      message,
      toolCallId: ctx.toolCallId,
      elicitationSource: "ask_user",
      mode: "form",
      requestedSchema: {
        type: "object",
        properties: requestedSchema.properties,
        ...(requestedSchema.required ? { required: requestedSchema.required } : {}),
      },
    });
    if (answer.source === "headless") return { content: USER_NOT_AVAILABLE };
    if (answer.source === "aborted") return { content: "The user interrupted before answering.", success: false };
    const { action, content } = answer.reply;
    if (action === "accept") return { content: `The user answered:\n${JSON.stringify(content ?? {}, null, 2)}` };
    if (action === "decline") return { content: "The user declined to answer. Proceed with your best judgement and state the assumptions you make." };
    return { content: "The user cancelled the question. Do not ask it again; stop and wait for the user's next message.", success: false };
  },
});

export const askUserChoicesTool = defineTool({
  name: "ask_user",
  description: "Ask the user a question, optionally with choices. In this mode the user is usually away: expect to decide yourself.",
  parameters: lazyParameters(() =>
    z.object({
      question: z.string().describe("The question."),
      choices: z.array(z.string()).optional().describe("Answers to choose from."),
    }),
  ),
  kind: "control",
  readOnly: true,
  title: ({ question }) => question.split("\n")[0] ?? "Question",
  permission: () => null,
  async execute(): Promise<ToolOutcome> {
    return { content: USER_NOT_AVAILABLE };
  },
});

/**
 * The question/choices variant for a client that answers plain questions but no forms (the Copilot SDK's
 * onUserInputRequest): the question is asked and waited for.
 */
export const askUserQuestionTool = defineTool({
  ...askUserChoicesTool,
  description: "Ask the user a question, optionally with choices, when you cannot proceed well without their answer.",
  async execute({ question, choices }, ctx): Promise<ToolOutcome> {
    const answer = await ctx.ask("user_input", { question, ...(choices ? { choices } : {}), allowFreeform: true, toolCallId: ctx.toolCallId });
    if (answer.source === "headless") return { content: USER_NOT_AVAILABLE };
    if ("cancelled" in answer.reply) return { content: "The user did not answer. Proceed with your best judgement and state the assumptions you make." };
    // Copilot's words: the model is told whether the answer is one of its choices or the user's own.
    return { content: `${answer.reply.wasFreeform ? "User responded" : "User selected"}: ${answer.reply.answer}` };
  },
});
