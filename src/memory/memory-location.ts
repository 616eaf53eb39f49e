/**
 * Where memories live: `$AGENT_HOME/memory/user.jsonl` for the user's (every repository), and
 * `$AGENT_HOME/memory/repositories/<name>-<hash>.jsonl` for one repository's. A repository is keyed by its
 * `origin` remote, normalised (`git@github.com:Org/Repo.git`, `https://github.com/org/repo` and
 * `ssh://git@github.com/org/repo.git` are one key; credentials never enter it), so every clone and worktree
 * shares its memories; without a remote, by the git root's real path; outside git, by the directory's real
 * path. Nothing is ever read from the repository itself except `.git/config`'s remote URL.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../util/digest.js";
import { findGitRoot, originRemoteUrl } from "../util/git-root.js";

export function memoryDir(agentHome: string): string {
  return path.join(agentHome, "memory");
}

export function userStoreFile(agentHome: string): string {
  return path.join(memoryDir(agentHome), "user.jsonl");
}

export interface RepositoryKey {
  /** What the key was made from, for people: `github.com/org/repo` or a path. */
  identity: string;
  kind: "remote" | "git-root" | "directory";
  /** The store's file name, without folder: readable name, then a hash of the identity. */
  fileName: string;
}

/**
 * A remote URL as a key: host and path, lower case, without scheme, user, password, port for ssh, `.git` or
 * trailing slashes. Undefined for something that is no URL a host could serve.
 */
export function normaliseRemoteUrl(url: string): string | undefined {
  const trimmed = url.trim();
  let host: string;
  let pathname: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(trimmed);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      return undefined;
    }
    if (parsed.protocol === "file:") return undefined;
    host = parsed.hostname;
    // An ssh port is how one reaches the host, not which repository it is; an http port may be part of it.
    if (parsed.port && parsed.protocol.startsWith("http")) host = `${host}:${parsed.port}`;
    pathname = decodeURIComponent(parsed.pathname);
  } else if (scp) {
    host = scp[1] as string;
    pathname = scp[2] as string;
  } else return undefined;
  const cleaned = pathname
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "")
    .replace(/^\/+/, "")
    .replace(/^~[^/]*\//, "");
  if (host === "" || cleaned === "") return undefined;
  return `${host}/${cleaned}`.toLowerCase();
}

function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function slug(identity: string): string {
  const words = identity
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return words.slice(-48).replace(/^-+/, "") || "repository";
}

export function keyFor(identity: string, kind: RepositoryKey["kind"]): RepositoryKey {
  const hash = sha256Hex(`${kind}\n${identity}`).slice(0, 12);
  return { identity, kind, fileName: `${slug(identity)}-${hash}.jsonl` };
}

/** The key of the repository (or directory) `cwd` is in. */
export function repositoryKey(cwd: string): RepositoryKey {
  const git = findGitRoot(cwd);
  if (!git) return keyFor(realPath(cwd), "directory");
  const remote = originRemoteUrl(git.gitDir);
  const normalised = remote ? normaliseRemoteUrl(remote) : undefined;
  return normalised ? keyFor(normalised, "remote") : keyFor(realPath(git.root), "git-root");
}

export function repositoryStoreFile(agentHome: string, key: RepositoryKey): string {
  return path.join(memoryDir(agentHome), "repositories", key.fileName);
}
