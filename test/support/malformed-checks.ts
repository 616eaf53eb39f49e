/** The check every malformed-response corpus makes of a response that holds no answer, on whichever wire. */
import { expect } from "vitest";
import type { Harness } from "./engine-harness.js";
import type { ScriptedResponse } from "./scripted-responses.js";

/** The turn ends in a session.error of `errorType` whose message matches, and the turn closes properly. */
export async function expectClearError(harness: Harness, response: ScriptedResponse, errorType: string, message: RegExp): Promise<void> {
  harness.server.enqueue(response);
  const result = await harness.session.send("hi");
  expect(result.outcome).toBe("error");
  const error = harness.ofType("session.error")[0];
  expect(error?.data.errorType).toBe(errorType);
  expect(error?.data.message).toMatch(message);
  expect(harness.types().slice(-3)).toEqual(["session.error", "assistant.turn_end", "session.idle"]);
}
