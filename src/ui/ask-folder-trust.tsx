/** The folder-trust question on its own screen, before the TUI starts (as the --resume picker is). */
import { render } from "ink";
import { PassThrough } from "node:stream";
import { FolderTrustDialog, type FolderTrustAnswer } from "./components/folder-trust-dialog.js";
import { loadDisplayWidths } from "./markdown/wrap.js";
import { InputBus } from "./terminal/input-bus.js";
import { InputContext } from "./terminal/input-context.js";
import { TerminalModes } from "./terminal/terminal-modes.js";
import type { Theme } from "./theme.js";

export async function askFolderTrust(options: { folder: string; commands: readonly string[]; theme: Theme }): Promise<FolderTrustAnswer> {
  await loadDisplayWidths();
  const terminal = new TerminalModes({ stdin: process.stdin, stdout: process.stdout });
  const bus = new InputBus();
  terminal.enter();
  const detach = bus.attach(process.stdin);
  let done: (answer: FolderTrustAnswer) => void = () => undefined;
  const answered = new Promise<FolderTrustAnswer>((resolve) => (done = resolve));
  const instance = render(
    <InputContext.Provider value={bus}>
      <FolderTrustDialog
        folder={options.folder}
        commands={options.commands}
        theme={options.theme}
        width={Math.min(process.stdout.columns || 80, 100)}
        onAnswer={(answer) => done(answer)}
      />
    </InputContext.Provider>,
    { stdin: new PassThrough() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
  );
  const answer = await answered;
  instance.unmount();
  detach();
  terminal.restore();
  return answer;
}
