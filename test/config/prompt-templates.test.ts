import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fillTemplate, promptsDir } from "../../src/config/prompt-templates.js";

describe("prompt templates", () => {
  it("finds the package's prompts folder", () => {
    expect(existsSync(path.join(promptsDir(), "README.md"))).toBe(true);
  });

  it("fills placeholders and empties the unknown ones", () => {
    expect(fillTemplate("Review {{ target }} {{missing}}now", { target: "main..HEAD" })).toBe("Review main..HEAD now");
  });
});
