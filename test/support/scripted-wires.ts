/**
 * The three wires the scripted server speaks, and the wire-neutral form every request is recorded in.
 * Tests assert on one shape whatever the agent sent: a Responses request (`POST /v1/responses`) or an
 * Anthropic Messages request (`POST /v1/messages`) is read back into the Chat Completions shape
 * (`messages` with system/user/assistant/tool roles, `tool_calls`, function `tools`), so an end-to-end
 * test written against Chat Completions runs unchanged on each wire. What a wire carries beyond that
 * (reasoning passed back, cache_control) is kept on the assistant messages and in `wireBody`.
 */
import type { ChatMessageLike, ChatRequestBody } from "./scripted-responses.js";

export type Wire = "chat" | "responses" | "anthropic";
export const WIRES: readonly Wire[] = ["chat", "responses", "anthropic"];

/** The route of each wire, under the server's `/v1`. */
export const WIRE_PATHS: Record<Wire, string> = { chat: "/v1/chat/completions", responses: "/v1/responses", anthropic: "/v1/messages" };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** A content part list as Chat Completions has it: a string for one text part, else text and image_url parts. */
function chatContent(parts: Json[]): string | Json[] {
  const [only] = parts;
  if (parts.length === 1 && only?.type === "text") return str(only.text);
  return parts;
}

function responsesPart(part: unknown): Json | undefined {
  if (!isObject(part)) return undefined;
  if (part.type === "input_text" || part.type === "output_text") return { type: "text", text: str(part.text) };
  if (part.type === "refusal") return { type: "text", text: str(part.refusal) };
  if (part.type === "input_image") return { type: "image_url", image_url: { url: str(part.image_url) } };
  return undefined;
}

/** Function tools as Chat Completions declares them, from a wire that names the schema field otherwise. */
function neutralTools(tools: unknown, schemaField: "parameters" | "input_schema"): { tools?: unknown[] } {
  if (!Array.isArray(tools)) return {};
  return {
    tools: tools.map((tool: unknown) =>
      isObject(tool) ? { type: "function", function: { name: tool.name, description: tool.description, parameters: tool[schemaField] } } : tool,
    ),
  };
}

/** A Responses request (`instructions` + `input` items) in the Chat Completions shape. */
export function neutralFromResponses(body: Json): ChatRequestBody {
  const messages: ChatMessageLike[] = [];
  if (typeof body.instructions === "string") messages.push({ role: "system", content: body.instructions });
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : asArray(body.input);
  let reasoning: Json[] = [];
  /** The assistant message function calls join (the one just before them, or one they open). */
  let open: ChatMessageLike | undefined;
  for (const item of input) {
    if (!isObject(item)) continue;
    const type = item.type ?? "message";
    if (type === "reasoning") {
      reasoning.push(item);
      continue;
    }
    if (type === "function_call") {
      if (!open) {
        open = { role: "assistant", content: null };
        messages.push(open);
      }
      const calls = (open.tool_calls ??= []) as Json[];
      calls.push({ id: str(item.call_id), type: "function", function: { name: str(item.name), arguments: str(item.arguments) } });
      if (reasoning.length > 0) open.reasoning_items = [...asArray(open.reasoning_items), ...reasoning];
      reasoning = [];
      continue;
    }
    if (type === "function_call_output") {
      open = undefined;
      messages.push({ role: "tool", tool_call_id: str(item.call_id), content: typeof item.output === "string" ? item.output : JSON.stringify(item.output) });
      continue;
    }
    if (type !== "message") continue;
    const role = str(item.role) === "developer" ? "system" : str(item.role);
    const content =
      typeof item.content === "string"
        ? item.content
        : chatContent(
            asArray(item.content).flatMap((part): Json[] => {
              const mapped = responsesPart(part);
              return mapped ? [mapped] : [];
            }),
          );
    const message: ChatMessageLike = { role, content };
    if (role === "assistant" && reasoning.length > 0) message.reasoning_items = reasoning;
    if (role === "assistant") reasoning = [];
    messages.push(message);
    open = role === "assistant" ? message : undefined;
  }
  return {
    ...(typeof body.model === "string" ? { model: body.model } : {}),
    messages,
    ...neutralTools(body.tools, "parameters"),
    ...(body.tool_choice !== undefined ? { tool_choice: body.tool_choice } : {}),
    ...(typeof body.max_output_tokens === "number" ? { max_tokens: body.max_output_tokens } : {}),
    stream: body.stream === true,
    // Responses always end with their usage: as if Chat Completions had asked for it.
    stream_options: { include_usage: true },
  };
}

function anthropicText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((block) => (isObject(block) && block.type === "text" ? str(block.text) : ""))
    .join("");
}

function anthropicImage(block: Json): Json {
  const source = isObject(block.source) ? block.source : {};
  const url = source.type === "base64" ? `data:${str(source.media_type)};base64,${str(source.data)}` : str(source.url);
  return { type: "image_url", image_url: { url } };
}

/** An Anthropic Messages request (`system` + `messages` of content blocks) in the Chat Completions shape. */
export function neutralFromAnthropic(body: Json): ChatRequestBody {
  const messages: ChatMessageLike[] = [];
  const system = anthropicText(body.system);
  if (body.system !== undefined) messages.push({ role: "system", content: system });
  for (const message of asArray(body.messages)) {
    if (!isObject(message)) continue;
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : asArray(message.content).filter(isObject);
    if (message.role === "assistant") {
      const text = blocks.filter((block) => block.type === "text").map((block) => str(block.text));
      const calls = blocks
        .filter((block) => block.type === "tool_use")
        .map((block) => ({ id: str(block.id), type: "function", function: { name: str(block.name), arguments: JSON.stringify(block.input ?? {}) } }));
      const thinking = blocks.filter((block) => block.type === "thinking" || block.type === "redacted_thinking");
      messages.push({
        role: "assistant",
        content: calls.length > 0 && text.length === 0 ? null : text.join(""),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(thinking.length > 0 ? { reasoning_items: thinking } : {}),
      });
      continue;
    }
    // Anthropic wants roles to alternate, so consecutive user messages arrive merged into one turn: each text
    // block opens a message of its own again (its images, or the notes standing for them, follow it), as Chat
    // Completions would have them.
    let parts: Json[] | undefined;
    const flush = () => {
      if (parts) messages.push({ role: "user", content: chatContent(parts) });
      parts = undefined;
    };
    for (const block of blocks) {
      if (block.type === "tool_result") {
        flush();
        messages.push({ role: "tool", tool_call_id: str(block.tool_use_id), content: anthropicText(block.content) });
      } else if (block.type === "text" && parts && str(block.text).startsWith("[image ")) {
        parts.push({ type: "text", text: str(block.text) }); // the note the agent sends for an image it could not send
      } else if (block.type === "text") {
        flush();
        parts = [{ type: "text", text: str(block.text) }];
      } else if (block.type === "image") {
        (parts ??= []).push(anthropicImage(block));
      }
    }
    flush();
  }
  const choice = isObject(body.tool_choice) ? body.tool_choice.type : undefined;
  return {
    ...(typeof body.model === "string" ? { model: body.model } : {}),
    messages,
    ...neutralTools(body.tools, "input_schema"),
    ...(choice === "none" ? { tool_choice: "none" } : {}),
    ...(typeof body.max_tokens === "number" ? { max_tokens: body.max_tokens } : {}),
    stream: body.stream === true,
    stream_options: { include_usage: true },
  };
}

/** The request in the wire-neutral shape, or undefined when it is not a request of that wire at all. */
export function neutralRequest(wire: Wire, body: unknown): ChatRequestBody | undefined {
  if (!isObject(body)) return undefined;
  if (body.model !== undefined && typeof body.model !== "string") return undefined;
  if (wire === "responses") return body.input === undefined ? undefined : neutralFromResponses(body);
  if (wire === "anthropic") return Array.isArray(body.messages) ? neutralFromAnthropic(body) : undefined;
  return body as ChatRequestBody;
}
