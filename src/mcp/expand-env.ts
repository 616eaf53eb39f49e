/** `${VAR}` and `$VAR` in a server's env, headers and args, filled in from the environment (unset → empty). */
export function expandEnv(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_match, braced: string | undefined, bare: string | undefined) => env[(braced ?? bare) as string] ?? "",
  );
}

export function expandRecord(record: Readonly<Record<string, string>> | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, expandEnv(value, env)]));
}

/**
 * How a server's `env` values are read: `direct` as written (with `${VAR}` filled in), `indirect` (an SDK
 * client's choice) as references, so a value that is the name of a variable set in the environment is that
 * variable's value; any other value is read as in direct.
 */
export type EnvValueMode = "direct" | "indirect";

export function serverEnv(record: Readonly<Record<string, string>> | undefined, env: NodeJS.ProcessEnv, mode: EnvValueMode): Record<string, string> {
  if (mode === "direct") return expandRecord(record, env);
  return Object.fromEntries(
    Object.entries(record ?? {}).map(([key, value]) => {
      const named = /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) ? env[value] : undefined;
      return [key, named ?? expandEnv(value, env)];
    }),
  );
}
