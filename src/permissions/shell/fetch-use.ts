/** What a program that fetches or connects reaches (fetchers.ts), and the helpers its readers share. */
import type { PathAccess } from "./analysis-types.js";

export interface FetcherUse {
  /** URLs as the program reads them (default scheme added), with the word each came from. */
  urls: { index: number; text: string }[];
  paths: { index: number; text: string; access: PathAccess; unnamedFiles?: boolean }[];
  /** Why it reaches URLs only known when it runs (a list it reads, a torrent). */
  unknownUrls: string[];
  /** It follows redirects or links: URLs only known when it runs. */
  follows?: string;
  /** Why what it does cannot be seen. */
  opaque?: string;
}

export function emptyUse(): FetcherUse {
  return { urls: [], paths: [], unknownUrls: [] };
}

/** `host:port` → tcp://host:port (a bare IPv6 address is bracketed; a range of ports is no one port). */
export function tcpUrl(host: string, port: string | undefined, protocol = "tcp"): string {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `${protocol}://${bracketed}${port !== undefined && /^\d+$/.test(port) ? `:${port}` : ""}`;
}

/** `host:port`, `[v6]:port`, `host`. */
export function splitHostPort(value: string): [string, string | undefined] {
  const bare = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/.*$/s, "");
  const match = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(bare);
  return [match?.[1] ?? bare, match?.[2]];
}

export function isUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

export function withScheme(text: string, scheme: string): string {
  return isUrl(text) || /^file:/i.test(text) ? text : `${scheme}://${text}`;
}

/**
 * Where a download without a named output lands: DIR/ plus the last segment of the URL's path (index.html
 * when it has none). Programs strip directories from the names they pick, so this is the file they write.
 */
export function savedAs(url: string, dir: string): string {
  const last = url
    .replace(/[?#].*$/s, "")
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
    .split("/")
    .filter(Boolean)
    .at(-1);
  let name = last ?? "index.html";
  try {
    name = decodeURIComponent(name);
  } catch {
    // kept as written
  }
  return `${dir.replace(/\/+$/, "") || "/"}/${name.replace(/\//g, "_")}`;
}

/** Each URL's download, as a write in `dir`. */
export function downloads(use: FetcherUse, dir: string): void {
  for (const { index, text } of use.urls.filter((url) => !/^(tcp|udp|socks[45][ah]?):/.test(url.text)))
    use.paths.push({ index, text: savedAs(text, dir), access: "write" });
}
