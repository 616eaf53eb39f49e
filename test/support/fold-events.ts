/** Events built by hand for tests of what folds them (the conversation, a face's mapping), and the conversation they fold into. */
import { Conversation } from "../../src/core/conversation.js";
import type { EventData, EventType, SessionEvent } from "../../src/protocol/events/index.js";

let counter = 0;

/** An event of `type` with `data`, as a subagent's when `agentId` is given; ids count up. */
export function event<T extends EventType>(type: T, data: EventData<T>, agentId?: string): SessionEvent {
  return { id: String(++counter), timestamp: "t", parentId: null, type, data, ...(agentId ? { agentId } : {}) } as SessionEvent;
}

/** The conversation of the agent `agentId` (the main one without it) after these events. */
export function fold(events: readonly SessionEvent[], agentId?: string): Conversation {
  const conversation = new Conversation(agentId);
  for (const item of events) conversation.apply(item);
  return conversation;
}
