/** Renders the Composer with an in-memory history, the real slash-command registry and recorded callbacks. */
import { slashCommands } from "../../../src/core/slash-commands/registry.js";
import { MemoryPromptHistory } from "../../../src/session/prompt-history.js";
import { Composer, type ComposerProps, type ComposerSubmission } from "../../../src/ui/components/composer/composer.js";
import { Priority } from "../../../src/ui/terminal/input-bus.js";
import type { Key } from "../../../src/ui/terminal/keys.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

export interface ComposerHarness {
  tui: TuiHarness;
  props: ComposerProps;
  history: MemoryPromptHistory;
  submissions: ComposerSubmission[];
  quickHelps: number[];
  /** Keys that reached an app-priority handler registered on the same bus (the composer did not consume them). */
  passedOn: Key[];
  rerender(overrides: Partial<ComposerProps>): void;
  /** The rows of the prompt box between the two rules. */
  box(): string[];
}

export async function renderComposer(overrides: Partial<ComposerProps> = {}, entries: readonly string[] = []): Promise<ComposerHarness> {
  const history = new MemoryPromptHistory(entries);
  const submissions: ComposerSubmission[] = [];
  const quickHelps: number[] = [];
  const passedOn: Key[] = [];
  let props: ComposerProps = {
    active: true,
    busy: false,
    theme: plainTheme,
    width: 60,
    history,
    commands: slashCommands,
    listFiles: async () => [],
    onSubmit: (submission) => submissions.push(submission),
    onQuickHelp: () => quickHelps.push(Date.now()),
    ...overrides,
  };
  const tui = renderTui(<Composer {...props} />);
  tui.bus.onKey((key) => {
    passedOn.push(key);
    return true;
  }, Priority.app);
  await tui.flush(); // the composer's key handlers are registered in an effect
  return {
    tui,
    get props() {
      return props;
    },
    history,
    submissions,
    quickHelps,
    passedOn,
    rerender(next) {
      props = { ...props, ...next };
      tui.rerender(<Composer {...props} />);
    },
    box() {
      const lines = tui.frame().split("\n");
      const rules = lines.flatMap((line, index) => (/^─+$/.test(line) ? [index] : []));
      return lines.slice((rules[0] ?? -1) + 1, rules[1] ?? lines.length);
    },
  };
}

export const lines = (count: number, prefix = "line") => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join("\n");
