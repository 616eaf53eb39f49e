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
