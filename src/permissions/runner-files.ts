/**
 * Which files decide what a command runs: package scripts for `npm test`, the Makefile for `make`, git's hooks
 * and configuration for `git commit`, the script for `bash build.sh`. One table, as data: a rule that approves
 * `shell(npm test)` approved the scripts as they were, not as the agent rewrote them (agent-written-code.ts).
 * Leaving a file out costs a check; putting one in costs at most a question, so when in doubt it is in.
 */
import { SHELLS } from "./shell/wrappers.js";

export interface RunnerFiles {
  /** Programs (base names; `python3.12` is `python`) the row is about. */
  programs: readonly string[];
  /**
   * Files, relative to a directory the command looks in: where it runs, a directory above (npm, make and git
   * look upwards) or below (workspaces, recursive make). A component may hold `*`; `**` is any depth.
   */
  files?: readonly string[];
  /** Files relative to the user's home (user-wide settings). */
  home?: readonly string[];
  /** Options whose value names a file that takes the place of `files` (`make -f build.mk`). */
  fileOptions?: readonly string[];
  /** Options whose value is the directory the program works in (`make -C sub`). */
  dirOptions?: readonly string[];
  /** The first operand (after `subcommand`, when given) is the program's script: `bash build.sh`. */
  script?: boolean;
  /** The script form only after this subcommand: `deno run x.ts`. */
  subcommand?: string;
}

const NPM_SETTINGS = [".npmrc"];

export const RUNNER_FILES: readonly RunnerFiles[] = [
  // JavaScript package managers: package scripts (and the lifecycle scripts install runs), settings that name programs.
  { programs: ["npm", "npx"], files: ["package.json", ...NPM_SETTINGS], home: NPM_SETTINGS, dirOptions: ["--prefix", "-C"] },
  {
    programs: ["yarn", "yarnpkg"],
    files: ["package.json", ".yarnrc", ".yarnrc.yml", ".pnp.cjs", ".yarn/releases/*", ".yarn/plugins/**", ...NPM_SETTINGS],
    home: [".yarnrc", ".yarnrc.yml", ...NPM_SETTINGS],
    dirOptions: ["--cwd"],
  },
  {
    programs: ["pnpm", "pnpx"],
    files: ["package.json", "pnpm-workspace.yaml", ".pnpmfile.cjs", ...NPM_SETTINGS],
    home: NPM_SETTINGS,
    dirOptions: ["-C", "--dir"],
  },
  { programs: ["bun", "bunx"], files: ["package.json", "bunfig.toml", ...NPM_SETTINGS], home: [".bunfig.toml"], dirOptions: ["--cwd"] },
  { programs: ["deno"], files: ["deno.json", "deno.jsonc", "package.json"], fileOptions: ["--config", "-c"] },
  // Monorepo task runners: their configuration, and the package scripts they run.
  { programs: ["turbo"], files: ["turbo.json", "package.json"] },
  { programs: ["nx"], files: ["nx.json", "project.json", "package.json"] },
  { programs: ["lerna"], files: ["lerna.json", "package.json"] },
  // JavaScript tools whose configuration is code.
  { programs: ["jest"], files: ["jest.config.*", "package.json"], fileOptions: ["--config", "-c"] },
  { programs: ["vitest"], files: ["vitest.config.*", "vite.config.*", "vitest.workspace.*"], fileOptions: ["--config", "-c"] },
  { programs: ["vite"], files: ["vite.config.*"], fileOptions: ["--config", "-c"] },
  { programs: ["mocha"], files: [".mocharc.*", "package.json"], fileOptions: ["--config"] },
  { programs: ["eslint"], files: ["eslint.config.*", ".eslintrc.*", "package.json"], fileOptions: ["--config", "-c"] },
  { programs: ["webpack"], files: ["webpack.config.*"], fileOptions: ["--config", "-c"] },
  { programs: ["rollup"], files: ["rollup.config.*"], fileOptions: ["--config", "-c"] },
  { programs: ["grunt"], files: ["Gruntfile.*", "gruntfile.*"], fileOptions: ["--gruntfile"] },
  { programs: ["gulp"], files: ["gulpfile.*", "Gulpfile.*"], fileOptions: ["--gulpfile", "-f"] },
  // make and its kin.
  {
    programs: ["make", "gmake"],
    files: ["Makefile", "makefile", "GNUmakefile", "*.mk"],
    fileOptions: ["-f", "--file", "--makefile"],
    dirOptions: ["-C", "--directory"],
  },
  { programs: ["just"], files: ["justfile", "Justfile", ".justfile", "JUSTFILE"], fileOptions: ["-f", "--justfile"] },
  {
    programs: ["task", "go-task"],
    files: [
      "Taskfile.yml",
      "Taskfile.yaml",
      "taskfile.yml",
      "taskfile.yaml",
      "Taskfile.dist.yml",
      "Taskfile.dist.yaml",
      "taskfile.dist.yml",
      "taskfile.dist.yaml",
    ],
    fileOptions: ["-t", "--taskfile"],
    dirOptions: ["-d", "--dir"],
  },
  {
    programs: ["rake"],
    files: ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb", "rakelib/*.rake"],
    fileOptions: ["-f", "--rakefile"],
    dirOptions: ["-C", "--directory"],
  },
  { programs: ["bundle"], files: ["Gemfile", "gems.rb", ".bundle/config"], home: [".bundle/config"] },
  // Python.
  { programs: ["tox"], files: ["tox.ini", "setup.cfg", "pyproject.toml"], fileOptions: ["-c", "--conf"] },
  { programs: ["nox"], files: ["noxfile.py"], fileOptions: ["-f", "--noxfile"] },
  { programs: ["pytest", "py.test"], files: ["pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "conftest.py"], fileOptions: ["-c"] },
  { programs: ["poetry"], files: ["pyproject.toml", "poetry.toml"], dirOptions: ["-C", "--directory"] },
  { programs: ["uv", "uvx"], files: ["pyproject.toml", "uv.toml"], home: [".config/uv/uv.toml"], dirOptions: ["--directory", "--project"] },
  { programs: ["hatch"], files: ["pyproject.toml", "hatch.toml"] },
  { programs: ["pdm"], files: ["pyproject.toml", "pdm.toml"], dirOptions: ["-p", "--project"] },
  { programs: ["pipenv"], files: ["Pipfile"] },
  { programs: ["pip", "pip3"], files: ["pyproject.toml", "setup.py", "setup.cfg", "pip.conf"], home: [".config/pip/pip.conf", ".pip/pip.conf"] },
  // Rust, Go, the JVM, PHP, .NET.
  {
    programs: ["cargo"],
    files: ["Cargo.toml", "build.rs", ".cargo/config.toml", ".cargo/config", "rust-toolchain.toml", "rust-toolchain"],
    home: [".cargo/config.toml", ".cargo/config"],
    fileOptions: ["--manifest-path"],
  },
  { programs: ["go"], files: ["go.mod", "go.work"] },
  {
    programs: ["mvn", "mvnw"],
    files: ["pom.xml", ".mvn/maven.config", ".mvn/jvm.config", ".mvn/extensions.xml", ".mvn/wrapper/maven-wrapper.properties"],
    home: [".m2/settings.xml"],
    fileOptions: ["-f", "--file"],
  },
  {
    programs: ["gradle", "gradlew"],
    files: [
      "build.gradle",
      "build.gradle.kts",
      "settings.gradle",
      "settings.gradle.kts",
      "gradle.properties",
      "gradle/wrapper/gradle-wrapper.properties",
      "gradle/libs.versions.toml",
      "buildSrc/**",
    ],
    home: [".gradle/init.gradle", ".gradle/init.gradle.kts", ".gradle/init.d/*", ".gradle/gradle.properties"],
    fileOptions: ["-b", "--build-file", "-c", "--settings-file"],
    dirOptions: ["-p", "--project-dir"],
  },
  { programs: ["composer"], files: ["composer.json"], dirOptions: ["-d", "--working-dir"] },
  {
    programs: ["dotnet", "msbuild"],
    files: ["*.csproj", "*.fsproj", "*.vbproj", "*.sln", "Directory.Build.props", "Directory.Build.targets", "global.json", "NuGet.Config", "nuget.config"],
  },
  // git: hooks (and the hook managers' configuration), aliases and programs named in its configuration.
  {
    programs: ["git"],
    files: [
      ".git/hooks/*",
      ".git/config",
      ".git/config.worktree",
      ".gitattributes",
      ".gitmodules",
      ".husky/*",
      ".pre-commit-config.yaml",
      "lefthook.yml",
      ".lefthook.yml",
    ],
    home: [".gitconfig", ".config/git/config", ".config/git/attributes"],
  },
  { programs: ["pre-commit"], files: [".pre-commit-config.yaml"], fileOptions: ["-c", "--config"] },
  // Interpreters and shells: the script they are given.
  { programs: [...SHELLS, "python", "node", "perl", "ruby", "php", "lua", "Rscript", "tsx", "ts-node", "source", "."], script: true },
  { programs: ["deno", "bun"], script: true, subcommand: "run" },
  { programs: ["bun"], script: true },
];
