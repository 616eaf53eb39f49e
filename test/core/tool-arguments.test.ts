import { describe, expect, it } from "vitest";
import { MAX_ARGUMENT_DEPTH, nestingDepth, parseToolArguments } from "../../src/core/tool-arguments.js";

describe("tool arguments within bounds", () => {
  it("counts nesting outside strings only, escapes included", () => {
    expect(nestingDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(nestingDepth(JSON.stringify({ command: `echo "${"[".repeat(500)}" \\" {` }))).toBe(1);
  });

  it("reads ordinary arguments, even with brackets in their strings", () => {
    const args = { command: `echo '${"{[".repeat(300)}'`, description: "brackets" };
    expect(parseToolArguments("bash", JSON.stringify(args))).toEqual({ ok: true, value: args });
    expect(parseToolArguments("bash", "  ")).toEqual({ ok: true, value: {} });
  });

  it("refuses what is too deep, too large or not JSON, keeping a short copy", () => {
    const deep = parseToolArguments("view", `${"[".repeat(MAX_ARGUMENT_DEPTH + 1)}${"]".repeat(MAX_ARGUMENT_DEPTH + 1)}`);
    expect(deep).toMatchObject({ ok: false, code: "arguments_too_deep" });
    const large = parseToolArguments("create", JSON.stringify({ file_text: "x".repeat(1_000_001) }));
    expect(large).toMatchObject({ ok: false, code: "arguments_too_large" });
    expect(large.ok === false && large.kept.length).toBeLessThan(3_000);
    expect(parseToolArguments("view", "{nope")).toMatchObject({ ok: false, code: "invalid_json", kept: "{nope" });
  });
});
