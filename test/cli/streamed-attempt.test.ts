import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { StreamedAttempt } from "../../src/cli/streamed-attempt.js";

describe("erasing an abandoned attempt from the terminal", () => {
  const screen = { columns: 10, rows: 24, width: stringWidth };

  it("moves up over every row the attempt took, wrapped lines included", () => {
    const attempt = new StreamedAttempt();
    attempt.wrote("a", "0123456789abc\n", true);
    attempt.wrote("a", "xy", true);
    // "0123456789abc" takes 2 rows at 10 columns, "xy" one: up 2 from the last.
    expect(attempt.erase("a", screen)).toBe("\r\u001b[2A\u001b[J");
  });

  it("clears the line alone when the attempt stayed on one row", () => {
    const attempt = new StreamedAttempt();
    attempt.wrote("a", "partial", true);
    expect(attempt.erase("a", screen)).toBe("\r\u001b[J");
  });

  it("gives up when it cannot be exact, or for another message", () => {
    const attempt = new StreamedAttempt();
    attempt.wrote("a", "tab\there", true);
    expect(attempt.erase("a", screen)).toBeUndefined();
    attempt.wrote("b", "began mid-line", false);
    expect(attempt.erase("b", screen)).toBeUndefined();
    attempt.wrote("c", "x\n".repeat(30), true);
    expect(attempt.erase("c", screen)).toBeUndefined();
    expect(attempt.erase("other", screen)).toBeUndefined();
  });
});
