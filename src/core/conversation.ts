/**
 * The model's view of the session, folded from persisted events. The same fold runs live (as events are
 * emitted) and on resume (over the log), so a resumed session sends exactly what a live one would.
 *
 * A rewind (session.snapshot_rewind) puts the view back as it was just before a point (a user prompt, or an
 * earlier rewind). Each point remembers the message list then as a prefix of an array that is only appended
 * to (compactions and rewinds make a new one), so remembering costs no copy. A hook's rewrite of a call's
 * arguments replaces a message in place, but always one past every mark (the call came after its prompt).
 */
import type { ChatImage, ChatMessage, ChatToolCall } from "../provider/types.js";
import type { SessionEvent, ToolRequest } from "../protocol/events/index.js";
import { summaryMessage } from "./compaction/compaction-plan.js";
import { messageChars } from "./compaction/token-accounting.js";
import { skillContextMessage, skillsDroppedNote } from "./skills/skill-text.js";

export function toolCallArguments(request: ToolRequest): string {
  if (typeof request.arguments === "string") return request.arguments;
  return JSON.stringify(request.arguments ?? {});
}

export class Conversation {
  /** Whose conversation: the main agent's (undefined) or a subagent's; other agents' events are not folded. */
  constructor(readonly agentId?: string) {}

  private system: string | undefined;
  private items: ChatMessage[] = [];
  /** The view just before each point, by the point's event id. */
  private readonly marks = new Map<string, { items: ChatMessage[]; length: number; summarised: boolean }>();
  /** Tool calls of the latest assistant message that have no result yet. */
  private readonly pending = new Map<string, string>();
  /** Images tool results returned (view on a picture): shown in one user message once every call has its result. */
  private toolImages: ChatImage[] = [];
  /** Skills loaded by a tool call of the latest assistant message: their context follows the tool results. */
  private toolSkills: { name: string; content: string }[] = [];
  /** The `<skill-context>` messages, by skill name (a compaction that drops one says so in its summary). */
  private readonly skillMessages = new WeakMap<ChatMessage, string>();
  private chars = 0;
  /** The first message is a compaction's summary (every compaction replaces from the start). */
  private summarised = false;

  apply(event: SessionEvent): void {
    if (event.ephemeral || event.agentId !== this.agentId) return; // each agent keeps its own conversation
    switch (event.type) {
      case "system.message":
        this.system = event.data.content;
        break;
      case "user.message": {
        this.mark(event.id);
        const images = (event.data.attachments ?? []).flatMap((attachment) =>
          attachment.mediaType && attachment.path
            ? [{ path: attachment.path, mediaType: attachment.mediaType, ...(attachment.displayName ? { title: attachment.displayName } : {}) }]
            : [],
        );
        if (event.data.startContext) this.push({ role: "user", content: event.data.startContext });
        this.push({ role: "user", content: event.data.transformedContent ?? event.data.content, ...(images.length > 0 ? { images } : {}) });
        if (event.data.limitsStatus) this.push({ role: "user", content: event.data.limitsStatus });
        break;
      }
      case "assistant.message": {
        const toolCalls: ChatToolCall[] = (event.data.toolRequests ?? []).map((request) => ({
          id: request.toolCallId,
          name: request.name,
          arguments: toolCallArguments(request),
        }));
        this.pending.clear();
        this.toolImages = [];
        this.toolSkills = [];
        for (const call of toolCalls) this.pending.set(call.id, call.name);
        // The reasoning and its opaque part go back to the wire that made them (reasoning carries across turns).
        const { reasoningText, encryptedContent, reasoningOpaque } = event.data;
        const opaque = encryptedContent || reasoningOpaque ? { opaque: { encryptedContent, reasoningOpaque } } : {};
        this.push({
          role: "assistant",
          content: event.data.content,
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
          ...(reasoningText ? { reasoning: reasoningText } : {}),
          ...opaque,
        });
        break;
      }
      case "tool.execution_start":
        if (this.pending.has(event.data.toolCallId)) this.rewriteArguments(event.data.toolCallId, event.data.arguments);
        break;
      case "tool.execution_complete": {
        if (!this.pending.has(event.data.toolCallId)) break;
        this.pending.delete(event.data.toolCallId);
        const content = event.data.success
          ? (event.data.result?.content ?? "")
          : (event.data.error?.message ?? event.data.result?.content ?? "The tool failed.");
        this.push({ role: "tool", toolCallId: event.data.toolCallId, content });
        if (event.data.success) this.toolImages.push(...(event.data.result?.images ?? []));
        // Tool messages must follow their assistant message directly, and they carry only text: the pictures come after.
        if (this.pending.size === 0 && this.toolImages.length > 0) {
          const images = this.toolImages;
          this.toolImages = [];
          this.push({ role: "user", content: `The images the tools returned: ${images.map((image) => image.path).join(", ")}`, images });
        }
        if (this.pending.size === 0) for (const skill of this.toolSkills.splice(0)) this.pushSkill(skill.name, skill.content);
        break;
      }
      case "skill.invoked": {
        // A skill's instructions are a user message after the tool results (a tool call loaded it) or at once (the user did).
        // The main agent's own `skills:` are in its system prompt instead (agentPromptWithSkills), as Copilot's are.
        if (event.data.trigger === "context-load" && this.agentId === undefined) break;
        const content = skillContextMessage(event.data);
        if (this.pending.size > 0) this.toolSkills.push({ name: event.data.name, content });
        else this.pushSkill(event.data.name, content);
        break;
      }
      case "system.notification":
        this.push({ role: "user", content: `<system_notification>\n${event.data.content}\n</system_notification>` });
        break;
      case "session.compaction_complete": {
        // The same replacement live and on resume: the first messagesRemoved messages become the summary.
        const { success, summaryContent, messagesRemoved } = event.data;
        if (success && summaryContent !== undefined && messagesRemoved !== undefined) this.compact(summaryContent, messagesRemoved);
        break;
      }
      case "session.snapshot_rewind":
        this.mark(event.id);
        if (event.data.scope !== "files") this.rewind(event.data.upToEventId);
        break;
      default:
        break;
    }
  }

  private mark(eventId: string): void {
    this.marks.set(eventId, { items: this.items, length: this.items.length, summarised: this.summarised });
  }

  /** Back to the view just before a point; the system prompt stays the current one. */
  private rewind(eventId: string): void {
    const mark = this.marks.get(eventId);
    if (!mark) return;
    this.items = mark.items.slice(0, mark.length);
    this.summarised = mark.summarised;
    this.pending.clear();
    this.toolImages = [];
    this.chars = this.items.reduce((sum, message) => sum + messageChars(message), 0);
  }

  /**
   * A preToolUse hook rewrote a call's arguments: the history shows what ran, as Copilot's does (the start event
   * carries them). Arguments the model sent stay as they were written.
   */
  private rewriteArguments(toolCallId: string, args: unknown): void {
    if (args === undefined || typeof args === "string") return;
    const text = JSON.stringify(args);
    for (let index = this.items.length - 1; index >= 0; index--) {
      const message = this.items[index] as ChatMessage;
      if (message.role !== "assistant" || !message.toolCalls?.some((call) => call.id === toolCallId)) continue;
      if (message.toolCalls.every((call) => call.id !== toolCallId || call.arguments === text)) return;
      const updated = { ...message, toolCalls: message.toolCalls.map((call) => (call.id === toolCallId ? { ...call, arguments: text } : call)) };
      this.items[index] = updated;
      this.chars += messageChars(updated) - messageChars(message);
      return;
    }
  }

  private push(message: ChatMessage): void {
    this.items.push(message);
    this.chars += messageChars(message);
  }

  private pushSkill(name: string, content: string): void {
    const message: ChatMessage = { role: "user", content };
    this.skillMessages.set(message, name);
    this.push(message);
  }

  private compact(summary: string, removed: number): void {
    // A new array: points made before the compaction keep the messages it replaced.
    const dropped = this.items.slice(0, Math.min(removed, this.items.length));
    // Skills whose instructions the summary replaces: the model is told, and loads them again when it needs them.
    const skills = [...new Set(dropped.flatMap((message) => this.skillMessages.get(message) ?? []))];
    const content = skills.length > 0 ? `${summaryMessage(summary)}\n\n${skillsDroppedNote(skills)}` : summaryMessage(summary);
    this.items = [{ role: "user", content }, ...this.items.slice(dropped.length)];
    this.summarised = true;
    for (const message of dropped) if (message.role === "assistant") for (const call of message.toolCalls ?? []) this.pending.delete(call.id);
    this.chars = this.items.reduce((sum, message) => sum + messageChars(message), 0);
  }

  /** The messages after the system prompt (a copy). */
  history(): ChatMessage[] {
    return [...this.items];
  }

  get systemPrompt(): string | undefined {
    return this.system;
  }

  /** Characters of the messages after the system prompt. */
  get messagesChars(): number {
    return this.chars;
  }

  /** Characters of everything a request carries but the tools: system prompt and messages. */
  get size(): number {
    return this.chars + (this.system?.length ?? 0);
  }

  get hasSystemPrompt(): boolean {
    return this.system !== undefined;
  }

  /** The messages for the next request: the system prompt, then the conversation. */
  messages(): ChatMessage[] {
    return this.system === undefined ? [...this.items] : [{ role: "system", content: this.system }, ...this.items];
  }

  /** What was added since the last compaction (everything when there was none): what a /compact would newly summarise. */
  sinceCompaction(): { messages: number; chars: number } {
    const summary = this.summarised ? messageChars(this.items[0] as ChatMessage) : 0;
    return { messages: this.items.length - (this.summarised ? 1 : 0), chars: this.chars - summary };
  }

  get length(): number {
    return this.items.length + (this.system === undefined ? 0 : 1);
  }

  /** Tool calls still waiting for a result (after a crash or kill, on resume). */
  unansweredToolCalls(): { toolCallId: string; toolName: string }[] {
    return [...this.pending].map(([toolCallId, toolName]) => ({ toolCallId, toolName }));
  }

  /** A rough token count (4 characters a token) for when the endpoint reports no usage. */
  estimateTokens(): number {
    return Math.ceil((this.chars + (this.system?.length ?? 0)) / 4);
  }
}
