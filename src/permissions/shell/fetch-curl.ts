/**
 * What a curl command reaches: its URLs (a word without a scheme is http://, or ftp:// for ftp.host as curl
 * guesses), proxies and --resolve/--connect-to addresses, and the files its options read (`-d @f`, `-T f`,
 * `-F x=@f`, `-H @f`, `-K f`, certificates…) or write (`-o`, `-O` under --output-dir, `-c`, `-D`, --trace…).
 */
import { expandBraces } from "../../util/brace-expansion.js";
import { downloads, emptyUse, tcpUrl, withScheme, type FetcherUse } from "./fetch-use.js";
import { hasOption, lastValue, type OptionSpec, type ParsedCommand } from "./option-parser.js";

const VALUED =
  "abstract-unix-socket alt-svc aws-sigv4 cacert capath cert cert-type ciphers config connect-timeout connect-to continue-at cookie " +
  "cookie-jar create-file-mode crlfile curves data data-ascii data-binary data-raw data-urlencode delegation dns-interface " +
  "dns-ipv4-addr dns-ipv6-addr dns-servers doh-url dump-header egd-file engine etag-compare etag-save expect100-timeout form " +
  "form-string ftp-account ftp-alternative-to-user ftp-method ftp-port ftp-ssl-ccc-mode happy-eyeballs-timeout-ms header " +
  "hostpubmd5 hostpubsha256 hsts interface json keepalive-time key key-type krb libcurl limit-rate local-port login-options mail-auth " +
  "mail-from mail-rcpt max-filesize max-redirs max-time netrc-file noproxy oauth2-bearer output output-dir parallel-max pass " +
  "pinnedpubkey preproxy proto proto-default proto-redir proxy proxy-cacert proxy-capath proxy-cert proxy-cert-type proxy-ciphers " +
  "proxy-crlfile proxy-header proxy-key proxy-key-type proxy-pass proxy-pinnedpubkey proxy-service-name proxy-tls13-ciphers " +
  "proxy-tlsauthtype proxy-tlspassword proxy-tlsuser proxy-user proxy1.0 pubkey quote random-file range rate referer request " +
  "request-target resolve retry retry-delay retry-max-time sasl-authzid service-name socks4 socks4a socks5 socks5-gssapi-service " +
  "socks5-hostname speed-limit speed-time stderr telnet-option tftp-blksize time-cond tls-max tls13-ciphers tlsauthtype tlspassword " +
  "tlsuser trace trace-ascii unix-socket upload-file url url-query user user-agent write-out variable knownhosts ipfs-gateway " +
  "ssl-sessions trace-config ech ip-tos vlan-priority sigalgs upload-flags haproxy-clientip proxy-http2 max-time";

export const CURL: OptionSpec = {
  short: {
    A: "user-agent",
    b: "cookie",
    c: "cookie-jar",
    C: "continue-at",
    d: "data",
    D: "dump-header",
    e: "referer",
    E: "cert",
    F: "form",
    H: "header",
    K: "config",
    m: "max-time",
    o: "output",
    P: "ftp-port",
    Q: "quote",
    r: "range",
    t: "telnet-option",
    T: "upload-file",
    u: "user",
    U: "proxy-user",
    w: "write-out",
    x: "proxy",
    X: "request",
    y: "speed-time",
    Y: "speed-limit",
    z: "time-cond",
    L: "location",
    O: "remote-name",
    J: "remote-header-name",
    g: "globoff",
    q: "disable",
  },
  valued: new Set(VALUED.split(" ")),
  flags: new Set(["crlf", "ftp-ssl-ccc", "head", "netrc", "parallel", "socks5-gssapi"]),
};

const READS = new Set([
  "cacert",
  "capath",
  "cert",
  "key",
  "proxy-cacert",
  "proxy-capath",
  "proxy-cert",
  "proxy-key",
  "crlfile",
  "proxy-crlfile",
  "netrc-file",
  "egd-file",
  "random-file",
  "pubkey",
  "etag-compare",
  "knownhosts",
  "unix-socket",
  "time-cond",
]);
const WRITES = new Set(["output", "cookie-jar", "dump-header", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc", "ssl-sessions"]);
/** Options whose value `@file` (or `name@file`) is read from a file. */
const AT_FILE = new Set(["data", "data-ascii", "data-binary", "json", "header", "proxy-header", "write-out"]);
const NAME_AT_FILE = new Set(["data-urlencode", "url-query", "variable"]);
const PROXIES: Readonly<Record<string, string>> = {
  proxy: "http",
  preproxy: "http",
  "proxy1.0": "http",
  socks4: "socks4",
  socks4a: "socks4a",
  socks5: "socks5",
  "socks5-hostname": "socks5h",
  "doh-url": "https",
  "ipfs-gateway": "http",
};

/** The scheme curl assumes for a URL without one: ftp.example.com is ftp, and so on; else --proto-default or http. */
function guessScheme(text: string, fallback: string | undefined): string {
  const prefix = /^(ftp|dict|ldap|imap|smtp|pop3)\./i.exec(text)?.[1];
  return fallback ?? prefix?.toLowerCase() ?? "http";
}

/** `name@file` / `@file` (the first of `=` and `@` decides), `-F name=@file;type=x` and `name=<file`. */
function fileOf(name: string, value: string): string | undefined {
  if (AT_FILE.has(name)) return value.startsWith("@") ? value.slice(1) : undefined;
  if (NAME_AT_FILE.has(name)) {
    const separator = /[=@]/.exec(value.replace(/^%/, ""));
    return separator?.[0] === "@" ? value.replace(/^%/, "").slice(separator.index + 1) : undefined;
  }
  if (name === "form") {
    const file = /^[^=]*=\s*[@<]("([^"]*)"|[^;]*)/.exec(value);
    return file ? (file[2] ?? file[1]) : undefined;
  }
  return undefined;
}

export function fetchCurl(parsed: ParsedCommand): FetcherUse {
  const use = emptyUse();
  const fallback = lastValue(parsed, "proto-default");
  const uploading = hasOption(parsed, "upload-file");
  const globbing = !hasOption(parsed, "globoff");
  const addUrl = (index: number, written: string) => {
    // curl expands {a,b} in URLs (unless -g); file: URLs are paths (read, or written by an upload), not URLs.
    for (const text of globbing ? expandBraces(written) : [written]) {
      if (/^file:/i.test(text)) use.paths.push({ index, text, access: uploading ? "write" : "read" });
      else use.urls.push({ index, text: withScheme(text, guessScheme(text, fallback)) });
    }
  };
  for (const { index, text } of parsed.positionals) addUrl(index, text);
  for (const { name, value, index } of parsed.options) {
    if (name.startsWith("expand-")) use.opaque = `curl --${name} expands variables only known when it runs`;
    if (value === undefined) continue;
    const file = fileOf(name, value);
    if (file !== undefined) {
      if (file !== "-" && file !== "") use.paths.push({ index, text: file, access: "read" });
    } else if (name === "url") addUrl(index, value);
    else if (name === "config") {
      if (value !== "-") use.paths.push({ index, text: value, access: "read" });
      use.opaque = `curl reads its options from ${value === "-" ? "its input" : value}`;
    } else if (name === "upload-file") {
      if (value !== "-" && value !== ".") use.paths.push({ index, text: value, access: "read" });
    } else if (name === "cookie") {
      if (!value.includes("=") && value !== "-") use.paths.push({ index, text: value, access: "read" });
    } else if ((name === "pinnedpubkey" || name === "proxy-pinnedpubkey") && !value.startsWith("sha256//")) {
      use.paths.push({ index, text: value.split(";")[0] ?? value, access: "read" });
    } else if (READS.has(name))
      use.paths.push({ index, text: name === "cert" || name === "proxy-cert" ? value.replace(/:[^/]*$/, "") : value, access: "read" });
    else if (WRITES.has(name) && value !== "-") use.paths.push({ index, text: value, access: "write" });
    else if (PROXIES[name] !== undefined) use.urls.push({ index, text: withScheme(value, PROXIES[name] as string) });
    else if (name === "resolve" || name === "connect-to") {
      // --resolve host:port:addr[,addr]… and --connect-to host:port:host2:port2 send the connection elsewhere.
      const resolve = /^[+-]?[^:]*:(\d*):(.*)$/s.exec(value);
      const connect = /^[^:]*:(\d*):(\[[^\]]*\]|[^:]*):?(\d*)$/.exec(value);
      if (name === "resolve" && resolve)
        for (const address of (resolve[2] as string).split(",")) use.urls.push({ index, text: tcpUrl(address.replace(/^\[|\]$/g, ""), resolve[1]) });
      else if (name === "connect-to" && connect?.[2]) use.urls.push({ index, text: tcpUrl(connect[2], connect[3] || connect[1]) });
    }
    if (name === "write-out") {
      for (const match of value.matchAll(/%output\{>?>?([^}]*)\}/g)) use.paths.push({ index, text: match[1] as string, access: "write" });
    }
  }
  // -O saves each URL under its own name (-J under the name the server gives, without directories).
  if (hasOption(parsed, "remote-name", "remote-name-all", "remote-header-name")) downloads(positionalUse(use, parsed), lastValue(parsed, "output-dir") ?? ".");
  if (hasOption(parsed, "location", "location-trusted")) use.follows = "curl -L follows redirects";
  return use;
}

/** The use with only the URLs given as operands (what -O saves), sharing its paths. */
function positionalUse(use: FetcherUse, parsed: ParsedCommand): FetcherUse {
  const operands = new Set(parsed.positionals.map((positional) => positional.index));
  const urlOptions = new Set(parsed.options.filter((option) => option.name === "url").map((option) => option.index));
  return { ...use, urls: use.urls.filter((url) => operands.has(url.index) || urlOptions.has(url.index)) };
}
