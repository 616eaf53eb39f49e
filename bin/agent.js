#!/usr/bin/env node
// The whole program lives in dist/ (built by `npm install`); this shim only hands over.
const program = new URL("../dist/cli.js", import.meta.url);
import(program.href).catch((error) => {
  // Only a build that is not there is fixed by building; anything else is reported as what it is.
  const missingBuild = error?.code === "ERR_MODULE_NOT_FOUND" && error?.url === program.href;
  process.stderr.write(
    missingBuild
      ? `agent: the program is not built (${program.pathname} is missing). Run \`npm install\` to build it.\n`
      : `agent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
