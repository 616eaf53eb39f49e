/**
 * A scripted model for two agents working side by side: the main agent starts two sync general-purpose
 * agents in one response; each runs `touch` on its own file (so both permission questions wait at once, for
 * the same command), then answers; the main agent then says "Both made.".
 */
import path from "node:path";
import { text, toolCall, toolCalls, type CompletionRequest, type ScriptedResponse } from "./scripted-server.js";

export function twinTouchAgents(files: readonly string[]): (request: CompletionRequest) => ScriptedResponse {
  return (request) => {
    const messages = request.body.messages;
    const answered = messages.some((message) => message.role === "tool");
    if (request.headers["x-initiator"] !== "sub-agent") {
      if (answered) return text("Both made.");
      return toolCalls(
        files.map((file, index) => ({
          id: `task-${index}`,
          name: "task",
          arguments: { description: `make ${path.basename(file)}`, prompt: `Make ${file}`, agent_type: "general-purpose" },
        })),
      );
    }
    const file = files.find((candidate) => JSON.stringify(messages).includes(`Make ${candidate}`)) as string;
    return answered ? text(`Made ${path.basename(file)}.`) : toolCall("bash", { command: `touch ${file}`, description: "make the file" });
  };
}
