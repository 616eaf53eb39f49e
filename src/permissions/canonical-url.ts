/**
 * One canonical form for URLs and hosts, shared by everything that compares them: URL rules (for web_fetch,
 * each redirect it follows, and the URLs shell commands fetch) and the origins approvals remember. A host is
 * compared as a connection would reach it: case and trailing dots dropped, percent-encoding decoded, IPv4 in
 * any form resolvers accept (2130706433, 0x7f.1, 0177.0.0.1, 127.1) written a.b.c.d, IPv4-mapped IPv6 written
 * as the IPv4 address, and every name or address of this machine (localhost, *.localhost, 127.0.0.0/8, ::1,
 * 0.0.0.0, ::) marked loopback. Parsers disagree on some URLs (to the WHATWG parser that fetch uses a
 * backslash ends the host; to RFC 3986, which curl follows, it does not), so a URL is read both ways: a deny
 * rule matches when either reading does, an allow rule only when both do.
 */

export interface UrlReading {
  /** Lower case, without the colon: "http", "tcp". */
  protocol: string;
  /** Canonical host ("" for a file: URL without one); IPv6 without brackets. */
  host: string;
  /** The host is this machine. */
  loopback: boolean;
  /** The port the connection uses: as written, else the protocol's default; undefined when neither is known. */
  port?: number;
  /** Path segments as the URL gives them (dot segments removed, percent-encoding kept), without trailing empty ones. */
  segments: string[];
  /** The path as a server that decodes it sees it: percent-decoded, `;params` dropped, split at / and \, dots resolved. */
  decoded: string[];
}

export interface UrlReadings {
  readings: UrlReading[];
  /** Every parser could read it (a deny rule matches a URL some parser cannot read). */
  complete: boolean;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
  ftps: 990,
  gopher: 70,
  dict: 2628,
  telnet: 23,
  tftp: 69,
  ldap: 389,
  ldaps: 636,
  imap: 143,
  imaps: 993,
  pop3: 110,
  pop3s: 995,
  smtp: 25,
  smtps: 465,
  rtsp: 554,
  mqtt: 1883,
  sftp: 22,
  scp: 22,
  socks4: 1080,
  socks4a: 1080,
  socks5: 1080,
  socks5h: 1080,
};

const LOOPBACK_NAMES = new Set(["localhost", "localhost.localdomain", "localhost6", "localhost6.localdomain6", "ip6-localhost", "ip6-loopback"]);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** The host as a connection reaches it, or undefined when it is not a host. `raw` may be bracketed IPv6. */
export function canonicalHost(raw: string): { host: string; loopback: boolean } | undefined {
  if (raw === "" || /[/?#@\\\s]/.test(raw)) return undefined;
  let host: string;
  try {
    // The WHATWG host parser of a special scheme decodes %XX, lower-cases, applies IDNA, reads every IPv4 form.
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    return undefined;
  }
  if (host.startsWith("[")) {
    const inner = host.slice(1, -1);
    // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) reach the IPv4 address; ::1 and :: are themselves.
    const embedded = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(inner);
    if (embedded) {
      const high = Number.parseInt(embedded[1] as string, 16);
      const low = Number.parseInt(embedded[2] as string, 16);
      host = [high >> 8, high & 255, low >> 8, low & 255].join(".");
    } else return { host: inner, loopback: inner === "::1" || inner === "::" };
  }
  host = host.replace(/\.+$/, "");
  // What no resolver takes for a name (curl's {a,b} globs, `*`): not a host this can compare.
  if (!/^[a-z0-9._-]+$/.test(host)) return undefined;
  const ipv4 = /^(\d+)\.\d+\.\d+\.\d+$/.exec(host);
  if (ipv4) return { host, loopback: ipv4[1] === "127" || ipv4[1] === "0" };
  return { host, loopback: LOOPBACK_NAMES.has(host) || host.endsWith(".localhost") };
}

/** Percent-decodes as UTF-8 where it can, byte by byte where it cannot. */
function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
}

/** RFC 3986's remove_dot_segments over a list of segments; a `..` at the root stays at the root. */
function resolveDots(segments: readonly string[]): string[] {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out;
}

function readPath(pathname: string): Pick<UrlReading, "segments" | "decoded"> {
  const segments = resolveDots(pathname.replace(/^\//, "").split("/"));
  while (segments.at(-1) === "") segments.pop();
  // What a server that decodes sees: `..%2F` climbs, and Tomcat-style `..;x` is `..`.
  const pieces = segments.flatMap((segment) =>
    percentDecode(segment)
      .split(/[\\/]/)
      .map((piece) => piece.replace(/;.*$/s, "")),
  );
  const decoded = resolveDots(pieces).filter((piece) => piece !== "");
  return { segments, decoded };
}

function portOf(protocol: string, written: string | undefined): number | undefined {
  return written !== undefined && written !== "" ? Number(written) : DEFAULT_PORTS[protocol];
}

/** The URL as fetch (WHATWG) reads it. */
function whatwgReading(text: string): UrlReading | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const protocol = url.protocol.slice(0, -1).toLowerCase();
  const host = url.hostname === "" ? { host: "", loopback: protocol === "file" } : canonicalHost(url.hostname);
  if (!host) return undefined;
  const port = portOf(protocol, url.port);
  return { protocol, ...host, ...(port !== undefined ? { port } : {}), ...readPath(url.pathname) };
}

/** The URL as RFC 3986 (and curl) reads it: the authority ends at the first / ? or #, the host after its last @. */
function rfcReading(text: string): UrlReading | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/is.exec(text);
  if (!match) return undefined;
  const protocol = (match[1] as string).toLowerCase();
  const authority = match[2] as string;
  const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority.slice(authority.lastIndexOf("@") + 1));
  if (!hostPort) return undefined;
  const written = hostPort[1] as string;
  const host = written === "" && protocol === "file" ? { host: "", loopback: true } : canonicalHost(written);
  if (!host) return undefined;
  const port = portOf(protocol, hostPort[2]);
  return { protocol, ...host, ...(port !== undefined ? { port } : {}), ...readPath(match[3] as string) };
}

const sameReading = (a: UrlReading, b: UrlReading) => JSON.stringify(a) === JSON.stringify(b);

/** Every way the URL is read; `complete` false when some parser cannot read it. */
export function readUrl(text: string): UrlReadings {
  const whatwg = whatwgReading(text);
  const rfc = rfcReading(text);
  const readings = [whatwg, rfc].filter((reading): reading is UrlReading => reading !== undefined);
  const unique = readings.filter((reading, index) => readings.findIndex((other) => sameReading(other, reading)) === index);
  return { readings: unique, complete: whatwg !== undefined && rfc !== undefined };
}

/** `scheme://host[:port]` with the host canonical and a default port left out. */
export function readingOrigin(reading: UrlReading): string {
  const host = reading.host.includes(":") ? `[${reading.host}]` : reading.host;
  const port = reading.port === undefined || reading.port === DEFAULT_PORTS[reading.protocol] ? "" : `:${reading.port}`;
  return `${reading.protocol}://${host}${port}`;
}

/** The canonical origin, when every reading of the URL agrees on one. */
export function canonicalOrigin(text: string): string | undefined {
  const { readings, complete } = readUrl(text);
  if (!complete || readings[0]?.host === "") return undefined;
  const origins = new Set(readings.map(readingOrigin));
  return origins.size === 1 ? [...origins][0] : undefined;
}

/**
 * The local paths a file: URL names: as written (the kernel resolves `..` after links) and with dot segments
 * removed (as curl does unless --path-as-is). Undefined for a URL that is not file:, or names another host.
 */
export function fileUrlPaths(text: string): string[] | undefined {
  const match = /^file:(?:\/\/([^/?#]*))?([^?#]*)/i.exec(text);
  if (!match || SCHEME.exec(text)?.[1]?.toLowerCase() !== "file") return undefined;
  const host = match[1];
  if (host !== undefined && host !== "" && !canonicalHost(host)?.loopback) return undefined;
  const written = percentDecode(match[2] as string);
  const absolute = written.startsWith("/") ? written : `/${written}`;
  const lexical = `/${resolveDots(absolute.slice(1).split("/")).join("/")}`;
  return lexical === absolute ? [absolute] : [absolute, lexical];
}
