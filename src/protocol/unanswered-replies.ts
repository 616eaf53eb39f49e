/**
 * What a question that nobody answered gets, apart from the reply schemas (interactions.ts) so that what only
 * needs these answers (the remote-question broker the faces share) does not load zod.
 */
import type { InteractionKind, InteractionReplies } from "./interactions.js";

/**
 * Why a question got no answer from anyone: nobody can answer this kind (`agent -p`), the turn was
 * interrupted, the client let it lapse, or no client could be asked (no handler, an error).
 */
export type Unanswered = "headless" | "aborted" | "lapsed" | "unavailable";

/** What the engine is told when a question gets no answer: one table for the broker and every face. */
const UNANSWERED: { [K in InteractionKind]: Record<Unanswered, InteractionReplies[K]> } = {
  permission: {
    headless: { kind: "deny", message: "No one is available to approve it." },
    aborted: { kind: "deny", message: "The user interrupted." },
    lapsed: { kind: "deny", message: "The client did not answer the permission request in time." },
    unavailable: { kind: "deny", message: "The client could not be asked." },
  },
  user_input: { headless: { cancelled: true }, aborted: { cancelled: true }, lapsed: { cancelled: true }, unavailable: { cancelled: true } },
  exit_plan_mode: { headless: { approved: false }, aborted: { approved: false }, lapsed: { approved: false }, unavailable: { approved: false } },
  external_tool: {
    headless: { content: "No client is connected to run this tool.", success: false },
    aborted: { content: "The user interrupted before the client answered.", success: false },
    lapsed: { content: "The client did not run the tool in time.", success: false },
    unavailable: { content: "The client could not run the tool.", success: false },
  },
  elicitation: { headless: { action: "decline" }, aborted: { action: "cancel" }, lapsed: { action: "cancel" }, unavailable: { action: "cancel" } },
};

export function unansweredReply<K extends InteractionKind>(kind: K, why: Unanswered): InteractionReplies[K] {
  return UNANSWERED[kind][why] as InteractionReplies[K];
}
