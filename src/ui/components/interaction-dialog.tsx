/**
 * The question shown when the engine asks something other than a permission: the plan review
 * (exit_plan_mode), an ask_user form (elicitation), or a plain question (user_input, shown as a one-field
 * form). Each answer goes back as a `respond` command for its request.
 */
import type { ElicitationReply, InteractionReply } from "../../protocol/interactions.js";
import type { PendingInteraction } from "../state/transcript-types.js";
import type { Theme } from "../theme.js";
import { AskUserForm } from "./ask-user/ask-user-form.js";
import { PlanReviewDialog } from "./plan-review-dialog.js";

export interface InteractionDialogProps {
  interaction: PendingInteraction;
  theme: Theme;
  width: number;
  maxHeight?: number;
  respond(reply: InteractionReply): void;
  /** Stops the turn (Esc in the plan review). */
  interrupt(): void;
  showPlan(): void;
}

export function InteractionDialog({ interaction, theme, width, maxHeight, respond, interrupt, showPlan }: InteractionDialogProps) {
  const sizing = { theme, width, ...(maxHeight !== undefined ? { maxHeight } : {}) };
  switch (interaction.kind) {
    case "exit_plan_mode":
      return (
        <PlanReviewDialog
          key={interaction.requestId}
          {...sizing}
          summary={interaction.summary}
          recommendedAction={interaction.recommendedAction}
          actions={interaction.actions}
          onShowPlan={showPlan}
          onAnswer={(reply, options) => {
            respond(reply);
            if (options?.stop) interrupt();
          }}
        />
      );
    case "elicitation":
      return (
        <AskUserForm
          key={interaction.requestId}
          {...sizing}
          message={interaction.message}
          properties={interaction.properties}
          {...(interaction.required ? { required: interaction.required } : {})}
          {...(interaction.agentId ? { agentId: interaction.agentId } : {})}
          {...(interaction.server ? { server: interaction.server } : {})}
          onAnswer={respond}
        />
      );
    case "user_input": {
      const answer = interaction.choices ? { type: "string", title: "Answer", enum: interaction.choices } : { type: "string", title: "Answer" };
      const toUserInput = (reply: ElicitationReply) => {
        const value = reply.content?.answer;
        if (reply.action !== "accept" || value === undefined) return respond({ cancelled: true });
        const text = String(value);
        respond({ answer: text, wasFreeform: !(interaction.choices ?? []).includes(text) });
      };
      return (
        <AskUserForm
          key={interaction.requestId}
          {...sizing}
          message={interaction.question}
          properties={{ answer }}
          required={["answer"]}
          {...(interaction.agentId ? { agentId: interaction.agentId } : {})}
          onAnswer={toUserInput}
        />
      );
    }
  }
}
