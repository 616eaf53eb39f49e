/** `agent --resume` with no id: a picker before anything else opens. Resolves with the chosen id, or undefined. */
import { render } from "ink";
import { PassThrough } from "node:stream";
import type { SessionMetadata } from "../session/session-metadata.js";
import { ResumePicker } from "./components/resume-picker.js";
import { loadDisplayWidths } from "./markdown/wrap.js";
import { InputBus } from "./terminal/input-bus.js";
import { InputContext } from "./terminal/input-context.js";
import { TerminalModes } from "./terminal/terminal-modes.js";
import type { Theme } from "./theme.js";

export async function pickSession(options: { sessions: SessionMetadata[]; cwd: string; theme: Theme }): Promise<string | undefined> {
  await loadDisplayWidths();
  const terminal = new TerminalModes({ stdin: process.stdin, stdout: process.stdout });
  const bus = new InputBus();
  terminal.enter();
  const detach = bus.attach(process.stdin);
  let done: (id: string | undefined) => void = () => undefined;
  const chosen = new Promise<string | undefined>((resolve) => (done = resolve));
  const instance = render(
    <InputContext.Provider value={bus}>
      <ResumePicker
        sessions={options.sessions}
        cwd={options.cwd}
        theme={options.theme}
        width={process.stdout.columns || 80}
        onSelect={(id) => done(id)}
        onCancel={() => done(undefined)}
      />
    </InputContext.Provider>,
    { stdin: new PassThrough() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
  );
  const id = await chosen;
  instance.unmount();
  detach();
  terminal.restore();
  return id;
}
