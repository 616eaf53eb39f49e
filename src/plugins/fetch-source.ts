/**
 * Where a plugin or marketplace is fetched from, as the user names it: a local folder, a git URL (https,
 * ssh, git@host:…, file://), or GitHub's `owner/repo`. A git source is cloned (shallow, never prompting for
 * credentials) into a folder of ours; nothing in it is run.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { makePrivateDir } from "../util/private-files.js";

export type SourceSpec = { kind: "local"; path: string } | { kind: "git"; url: string; ref?: string };

export class PluginSourceError extends Error {}

const GIT_URL = /^(?:https?|ssh|git|file):\/\//i;
const SCP_LIKE = /^[\w.-]+@[\w.-]+:(?!\/\/)/;
const GITHUB_SHORTHAND = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** A git URL may carry a ref after `#` (`https://host/repo.git#v1.2`). */
function withRef(url: string): { url: string; ref?: string } {
  const hash = url.lastIndexOf("#");
  return hash > 0 ? { url: url.slice(0, hash), ref: url.slice(hash + 1) } : { url };
}

export function looksLikeGitUrl(text: string): boolean {
  return GIT_URL.test(text) || SCP_LIKE.test(text);
}

/** What `text` names, resolved against `cwd`; undefined when it is neither an existing folder nor a git source. */
export function parseSource(text: string, cwd: string): SourceSpec | undefined {
  if (looksLikeGitUrl(text)) return { kind: "git", ...withRef(text) };
  const local = path.resolve(cwd, text.startsWith("~/") ? path.join(process.env.HOME ?? "", text.slice(2)) : text);
  if (existsSync(local)) {
    if (!statSync(local).isDirectory()) throw new PluginSourceError(`${local} is a file; give the plugin's folder.`);
    return { kind: "local", path: local };
  }
  if (GITHUB_SHORTHAND.test(text)) return { kind: "git", url: `https://github.com/${text}.git` };
  return undefined;
}

/** Clones `url` (at `ref` when given) into `dest`, which must not exist yet. */
export async function cloneRepository(url: string, dest: string, ref?: string): Promise<void> {
  const { execa } = await import("execa");
  makePrivateDir(path.dirname(dest)); // under AGENT_HOME/plugins: private, as everything the agent keeps there
  const args = ["clone", "--quiet", "--depth", "1", ...(ref ? ["--branch", ref] : []), "--", url, dest];
  const result = await execa("git", args, {
    reject: false,
    // A private repository fails instead of waiting for a password nobody will type.
    env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "" },
    stdin: "ignore",
    timeout: 5 * 60_000,
  });
  if (result.failed) {
    const said = String(result.stderr ?? "")
      .trim()
      .split("\n")
      .slice(-2)
      .join(" ");
    if ((result as { code?: string }).code === "ENOENT") throw new PluginSourceError("git is not installed; it is needed to install from a git URL.");
    throw new PluginSourceError(`git clone ${url} failed${said ? `: ${said}` : ""}`);
  }
}
