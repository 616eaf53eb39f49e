/**
 * A rule does not approve code the agent wrote (issue 17, item 12): once the agent has changed a file that
 * decides what a command runs (package scripts, a Makefile, a task runner's configuration, git's hooks and
 * configuration, the script itself), the allow rule for that command no longer approves it; a person must.
 * A corpus of runners, each through the real analysis, path gate and decision (test/support/permission-check.ts).
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChangedFile } from "../../src/permissions/agent-written-code.js";
import type { Decision } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("agent-code-");
const ws = path.join(root, "ws");
const home = path.join(root, "home");
for (const dir of [path.join(ws, ".git", "hooks"), path.join(ws, "sub"), path.join(ws, "dist"), home]) mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const changed = (file: string, extra: Partial<ChangedFile> = {}): ChangedFile => ({
  path: file.startsWith("~/") ? path.join(home, file.slice(2)) : path.join(ws, file),
  byUser: false,
  ...extra,
});

async function check(command: string, allow: string[], files: ChangedFile[], flags: Partial<PermissionFlags> = {}): Promise<Decision> {
  return checkShell(command, { cwd: ws, flags: { allowTool: allow, ...flags }, changedFiles: files, homeDir: home, env: { ...process.env, HOME: home } });
}

const confirms = (decision: Decision) => (decision.verdict === "ask" ? decision.needs.filter((need) => need.kind === "confirm") : []);

/** [command, the rules that approve it, a file the agent changed that decides what it runs]. */
const DEFINED: [string, string[], string][] = [
  // JavaScript package managers, their settings and the tools they run
  ["npm test", ["shell(npm test)"], "package.json"],
  ["npm run build", ["shell(npm run)"], "package.json"],
  ["npm install", ["shell(npm install)"], "package.json"],
  ["npm ci", ["shell(npm ci)"], "package.json"],
  ["npm test", ["shell(npm test)"], ".npmrc"],
  ["npm test", ["shell(npm test)"], "~/.npmrc"],
  ["npm --prefix sub test", ["shell(npm:*)"], "sub/package.json"],
  ["cd sub && npm test", ["shell(cd)", "shell(npm test)"], "sub/package.json"],
  ["cd sub && npm test", ["shell(cd)", "shell(npm test)"], "package.json"],
  ["npm test", ["shell(npm test)"], "packages/a/package.json"],
  ["npx jest", ["shell(npx)", "shell(jest)"], "jest.config.js"],
  ["npx vitest run", ["shell(npx)", "shell(vitest)"], "vitest.config.ts"],
  ["npx eslint .", ["shell(npx)", "shell(eslint)"], "eslint.config.js"],
  ["yarn test", ["shell(yarn:*)"], ".yarnrc.yml"],
  ["yarn build", ["shell(yarn:*)"], ".yarn/releases/yarn-4.1.0.cjs"],
  ["yarn build", ["shell(yarn:*)"], ".yarn/plugins/@yarnpkg/plugin-x.cjs"],
  ["pnpm install", ["shell(pnpm:*)"], ".pnpmfile.cjs"],
  ["pnpm test", ["shell(pnpm:*)"], "pnpm-workspace.yaml"],
  ["bun run test", ["shell(bun:*)"], "bunfig.toml"],
  ["deno task build", ["shell(deno:*)"], "deno.json"],
  ["deno run main.ts", ["shell(deno:*)"], "main.ts"],
  ["turbo run build", ["shell(turbo)"], "turbo.json"],
  ["nx test app", ["shell(nx)"], "apps/app/project.json"],
  ["lerna run test", ["shell(lerna)"], "lerna.json"],
  ["grunt", ["shell(grunt)"], "Gruntfile.js"],
  ["gulp build", ["shell(gulp)"], "gulpfile.mjs"],
  ["webpack", ["shell(webpack)"], "webpack.config.js"],
  // make and its kin
  ["make", ["shell(make)"], "Makefile"],
  ["make test", ["shell(make:*)"], "GNUmakefile"],
  ["make", ["shell(make)"], "rules.mk"],
  ["make -f build.mk all", ["shell(make:*)"], "build.mk"],
  ["make -C sub", ["shell(make:*)"], "sub/Makefile"],
  ["just build", ["shell(just)"], "justfile"],
  ["task build", ["shell(task)"], "Taskfile.yml"],
  ["task -t ci.yml build", ["shell(task)"], "ci.yml"],
  ["rake", ["shell(rake)"], "Rakefile"],
  ["rake test", ["shell(rake)"], "rakelib/deploy.rake"],
  ["bundle exec rake", ["shell(bundle:*)", "shell(rake)"], "Gemfile"],
  // Python
  ["tox", ["shell(tox)"], "tox.ini"],
  ["nox -s tests", ["shell(nox)"], "noxfile.py"],
  ["pytest", ["shell(pytest)"], "pytest.ini"],
  ["python3 -m pytest", ["shell(python3)"], "tests/conftest.py"],
  ["poetry run pytest", ["shell(poetry:*)", "shell(pytest)"], "pyproject.toml"],
  ["uv run pytest", ["shell(uv:*)", "shell(pytest)"], "uv.toml"],
  ["hatch run test", ["shell(hatch)"], "hatch.toml"],
  ["pdm run test", ["shell(pdm)"], "pyproject.toml"],
  ["pipenv run test", ["shell(pipenv)"], "Pipfile"],
  ["pip install -e .", ["shell(pip:*)"], "setup.py"],
  ["pip install requests", ["shell(pip:*)"], "~/.config/pip/pip.conf"],
  // Rust, Go, the JVM, PHP, .NET
  ["cargo build", ["shell(cargo build)"], "build.rs"],
  ["cargo test", ["shell(cargo test)"], ".cargo/config.toml"],
  ["cargo build", ["shell(cargo build)"], "Cargo.toml"],
  ["cargo build", ["shell(cargo build)"], "~/.cargo/config.toml"],
  ["cargo run --manifest-path sub/Cargo.toml", ["shell(cargo:*)"], "sub/Cargo.toml"],
  ["go build ./...", ["shell(go:*)"], "go.work"],
  ["mvn test", ["shell(mvn:*)"], "pom.xml"],
  ["./mvnw test", ["shell(mvnw)"], ".mvn/wrapper/maven-wrapper.properties"],
  ["gradle build", ["shell(gradle:*)"], "build.gradle.kts"],
  ["./gradlew build", ["shell(gradlew)"], "gradle/wrapper/gradle-wrapper.properties"],
  ["./gradlew build", ["shell(gradlew)"], "buildSrc/src/main/kotlin/convention.gradle.kts"],
  ["./gradlew build", ["shell(gradlew)"], "gradlew"],
  ["composer test", ["shell(composer)"], "composer.json"],
  ["dotnet test", ["shell(dotnet:*)"], "app.csproj"],
  ["dotnet build", ["shell(dotnet:*)"], "Directory.Build.props"],
  // git: hooks, the hook managers' configuration, aliases and programs in its configuration
  ["git commit -m x", ["shell(git:*)"], ".git/hooks/pre-commit"],
  ["git push", ["shell(git push)"], ".git/hooks/pre-push"],
  ["git commit -m x", ["shell(git:*)"], ".git/config"],
  ["git commit -m x", ["shell(git:*)"], ".pre-commit-config.yaml"],
  ["git commit -m x", ["shell(git:*)"], ".husky/pre-commit"],
  ["git commit -m x", ["shell(git:*)"], "~/.gitconfig"],
  ["pre-commit run --all-files", ["shell(pre-commit)"], ".pre-commit-config.yaml"],
  // shells and interpreters: the script itself, and what runs before it
  ["bash build.sh", ["shell(bash)"], "build.sh"],
  ["sh ./scripts/release.sh", ["shell(sh)"], "scripts/release.sh"],
  ["./build.sh", ["shell(build.sh)"], "build.sh"],
  ["python3 tool.py --fast", ["shell(python3)"], "tool.py"],
  ["node -r ./hook.js app.js", ["shell(node)"], "hook.js"],
  ["node app.js", ["shell(node)"], "app.js"],
  ["ruby task.rb", ["shell(ruby)"], "task.rb"],
  ["source env.sh", ["shell(source)"], "env.sh"],
];

/** [command, rules, a file the agent changed that does not decide what it runs]. */
const NOT_DEFINED: [string, string[], string][] = [
  ["npm test", ["shell(npm test)"], "src/index.ts"],
  ["npm test", ["shell(npm test)"], "README.md"],
  ["make", ["shell(make)"], "src/main.c"],
  ["cargo build", ["shell(cargo build)"], "src/main.rs"],
  ["git commit -m x", ["shell(git:*)"], "src/x.ts"],
  ["python3 tool.py", ["shell(python3)"], "other.py"],
  ["python3 tool.py data.json", ["shell(python3)"], "data.json"],
  ["bash build.sh", ["shell(bash)"], "other.sh"],
];

describe("a rule does not approve code the agent wrote", () => {
  it.each(DEFINED)("%j (allowed by %j) asks once the agent changed %s", async (command, allow, file) => {
    expect((await check(command, allow, [])).verdict, "approved by the rules before").toBe("allow");
    const decision = await check(command, allow, [changed(file)]);
    expect(decision.verdict, decision.reason).toBe("ask");
    const [need] = confirms(decision);
    expect(need?.kind === "confirm" && need.reason).toContain(changed(file).path);
    expect(decision.reason).toContain("the agent changed in this session");
  });

  it.each(NOT_DEFINED)("%j (allowed by %j) still runs when the agent changed %s", async (command, allow, file) => {
    expect(await check(command, allow, [changed(file)])).toMatchObject({ verdict: "allow" });
  });

  it("a change a person approved in a dialog is theirs: the rule approves again", async () => {
    expect((await check("npm test", ["shell(npm test)"], [changed("package.json", { byUser: true })])).verdict).toBe("allow");
  });

  it("a package.json elsewhere does not decide what npm runs here", async () => {
    const elsewhere: ChangedFile = { path: path.join(root, "other", "package.json"), byUser: false };
    expect((await check("npm test", ["shell(npm test)"], [elsewhere])).verdict).toBe("allow");
  });

  it("an earlier approval of the command (yes for this session) does not cover it either", async () => {
    const decision = await checkShell("npm test", {
      cwd: ws,
      approvals: { commands: new Set(["npm test"]) },
      changedFiles: [changed("package.json")],
    });
    expect(decision.verdict).toBe("ask");
  });

  it("--allow-all-tools still approves; with a deny rule in force it asks, naming the rule", async () => {
    expect((await check("npm test", [], [changed("package.json")], { allowAllTools: true })).verdict).toBe("allow");
    const denied = await check("npm test", [], [changed("package.json")], { allowAllTools: true, denyTool: ["shell(rm)"] });
    expect(denied.verdict).toBe("ask");
    expect(denied.reason).toContain("`shell(rm)` (--deny-tool)");
  });

  it("a directory the agent wrote unnamed files under: where the command runs or above it, or its own folders below", async () => {
    const asks = async (command: string, allow: string[], dir: string) => (await check(command, allow, [{ ...changed(dir), anyName: true }])).verdict;
    expect(await asks("npm test", ["shell(npm test)"], ".")).toBe("ask");
    expect(await asks("cd sub && npm test", ["shell(cd)", "shell(npm test)"], ".")).toBe("ask");
    expect(await asks("git commit -m x", ["shell(git:*)"], ".git")).toBe("ask");
    expect(await asks("./gradlew build", ["shell(gradlew)"], "buildSrc/src")).toBe("ask");
    expect(await asks("npm test", ["shell(npm test)"], "dist")).toBe("allow");
  });

  it("a file the same command writes counts: writing the Makefile and running make in one go asks", async () => {
    const command = "cat > Makefile <<'EOF'\nall:\n\ttouch pwned\nEOF\nmake";
    const decision = await check(command, ["shell(cat)", "shell(make)", "write"], []);
    expect(decision.verdict).toBe("ask");
    expect(confirms(decision)).toHaveLength(1);
    expect(decision.reason).toContain(path.join(ws, "Makefile"));
  });

  it("read-only commands are not affected: they run nothing a file defines", async () => {
    expect(await check("cat package.json", [], [changed("package.json")])).toEqual({ verdict: "allow", reason: "read-only" });
    expect(await check("git status", [], [changed(".git/hooks/pre-commit")])).toEqual({ verdict: "allow", reason: "read-only" });
  });
});
