/**
 * What programs that fetch or connect reach: their URLs (a word without a scheme gets the one the program
 * assumes: curl and wget http, httpie's `:3000` localhost), the files their options read or write (`curl -d
 * @f`, `-T f`, `-F x=@f`, `-K f`, `wget --post-file f`, `-i f`, `-o`/`-O`), raw connections (`nc host
 * port` as tcp://host:port, curl --resolve/--connect-to addresses, proxies), what they follow that is only
 * known when they run (redirects, links, URL lists), and what they do that cannot be seen (a config file of
 * options, a program they run). Known: curl, wget, httpie (http, https, xh, xhs), aria2c, nc/netcat/ncat,
 * telnet, socat. Any other program's `scheme://` words are URLs too (analyze.ts); its own options are not read.
 */
import { CURL, fetchCurl } from "./fetch-curl.js";
import { fetchWget, WGET } from "./fetch-wget.js";
import { downloads, emptyUse, isUrl, splitHostPort, tcpUrl, withScheme, type FetcherUse } from "./fetch-use.js";
import { hasOption, lastValue, parseOptions, type OptionSpec, type ParsedCommand } from "./option-parser.js";

export type { FetcherUse } from "./fetch-use.js";

export function fetcherUse(program: string, args: readonly string[]): FetcherUse | undefined {
  switch (program) {
    case "curl":
      return fetchCurl(parseOptions(args, CURL));
    case "wget":
      return fetchWget(parseOptions(args, WGET));
    case "http":
    case "https":
    case "xh":
    case "xhs":
      return fetchHttpie(parseOptions(args, HTTPIE), program.startsWith("https") || program === "xhs" ? "https" : "http");
    case "aria2c":
      return fetchAria2(parseOptions(args, ARIA2));
    case "nc":
    case "netcat":
    case "ncat":
    case "telnet":
      return fetchNetcat(program, args);
    case "socat":
      return fetchSocat(args);
    default:
      return undefined;
  }
}

const HTTPIE: OptionSpec = {
  short: { a: "auth", A: "auth-type", o: "output", p: "print", P: "history-print", s: "style", d: "download", F: "follow" },
  valued: new Set(
    (
      "auth auth-type output print history-print style session session-read-only cert cert-key cert-key-pass verify proxy timeout " +
      "max-redirects max-headers default-scheme format-options pretty boundary raw ssl ciphers response-charset response-mime"
    ).split(" "),
  ),
};

/** httpie's request items, by separator; `@` forms read a file. Longest first where they start at the same place. */
const ITEM_SEPARATORS = [":=@", "=@", "==", ":=", ":@", "@", "=", ":"];

function fetchHttpie(parsed: ParsedCommand, programScheme: string): FetcherUse {
  const use = emptyUse();
  const scheme = lastValue(parsed, "default-scheme") ?? programScheme;
  const positionals = parsed.positionals;
  const urlAt = positionals.length > 1 && /^[A-Z]+$/.test(positionals[0]?.text ?? "") ? 1 : 0;
  const url = positionals[urlAt];
  if (url) {
    // `:3000/x` is localhost:3000, `:/x` localhost.
    const shorthand = /^:(\d*)(.*)$/.exec(url.text);
    const text = shorthand ? `localhost${shorthand[1] ? `:${shorthand[1]}` : ""}${shorthand[2] ?? ""}` : url.text;
    use.urls.push({ index: url.index, text: withScheme(text, scheme) });
  }
  for (const item of positionals.slice(urlAt + 1)) {
    const unescaped = item.text.replace(/\\./g, "__");
    let best: { at: number; separator: string } | undefined;
    for (const separator of ITEM_SEPARATORS) {
      const at = unescaped.indexOf(separator);
      if (at >= 0 && (best === undefined || at < best.at)) best = { at, separator };
    }
    if (best && best.separator.endsWith("@")) use.paths.push({ index: item.index, text: item.text.slice(best.at + best.separator.length), access: "read" });
  }
  for (const { name, value, index } of parsed.options) {
    if (value === undefined) continue;
    if (name === "output") use.paths.push({ index, text: value, access: "write" });
    else if ((name === "session" || name === "session-read-only") && /[/\\]/.test(value))
      use.paths.push({ index, text: value, access: name === "session" ? "write" : "read" });
    else if (name === "cert" || name === "cert-key" || (name === "verify" && !/^(yes|no|true|false)$/i.test(value)))
      use.paths.push({ index, text: value, access: "read" });
    else if (name === "proxy") use.urls.push({ index, text: withScheme(value.replace(/^[a-z]+:(?=[a-z][a-z0-9+.-]*:\/\/)/i, ""), "http") });
  }
  if (hasOption(parsed, "download") && !hasOption(parsed, "output") && url)
    downloads({ ...use, urls: use.urls.filter((each) => each.index === url.index) }, ".");
  if (hasOption(parsed, "follow")) use.follows = "http --follow follows redirects";
  return use;
}

const ARIA2: OptionSpec = {
  short: { d: "dir", o: "out", l: "log", i: "input-file", T: "torrent-file", M: "metalink-file", s: "split", x: "max-connection-per-server" },
  valued: new Set(
    (
      "dir out log input-file torrent-file metalink-file split max-connection-per-server min-split-size max-concurrent-downloads timeout " +
      "max-tries user-agent conf-path save-session load-cookies save-cookies certificate private-key ca-certificate dht-file-path " +
      "dht-file-path6 server-stat-of server-stat-if netrc-path all-proxy http-proxy https-proxy ftp-proxy header referer " +
      "on-download-start on-download-pause on-download-stop on-download-complete on-download-error on-bt-download-complete"
    ).split(" "),
  ),
};

function fetchAria2(parsed: ParsedCommand): FetcherUse {
  const use = emptyUse();
  const dir = lastValue(parsed, "dir") ?? ".";
  for (const { index, text } of parsed.positionals) {
    if (isUrl(text)) use.urls.push({ index, text });
    else {
      use.paths.push({ index, text, access: "read" });
      use.unknownUrls.push(`aria2c downloads what ${text} names, which is only known when it runs`);
    }
  }
  for (const { name, value, index } of parsed.options) {
    if (value === undefined) continue;
    if (["input-file", "torrent-file", "metalink-file", "conf-path"].includes(name)) {
      use.paths.push({ index, text: value, access: "read" });
      if (name === "conf-path" || name === "input-file") use.opaque = `aria2c reads its options from ${value}`;
      else use.unknownUrls.push(`aria2c downloads what ${value} names, which is only known when it runs`);
    } else if (["load-cookies", "certificate", "private-key", "ca-certificate", "server-stat-if", "netrc-path"].includes(name))
      use.paths.push({ index, text: value, access: "read" });
    else if (["log", "save-session", "save-cookies", "dht-file-path", "dht-file-path6", "server-stat-of"].includes(name))
      use.paths.push({ index, text: value, access: "write" });
    else if (name === "out") use.paths.push({ index, text: value.startsWith("/") ? value : `${dir.replace(/\/+$/, "")}/${value}`, access: "write" });
    else if (name.endsWith("-proxy")) use.urls.push({ index, text: withScheme(value, "http") });
    else if (name.startsWith("on-")) use.opaque = `aria2c runs the command --${name} names`;
  }
  if (hasOption(parsed, "enable-rpc")) use.opaque = "aria2c --enable-rpc takes further commands over the network";
  // A torrent, a metalink or a list names its own files; a URL is saved under its name in --dir.
  if (use.unknownUrls.length > 0 || use.opaque) use.paths.push({ index: -1, text: dir, access: "write", unnamedFiles: true });
  else if (!hasOption(parsed, "out")) downloads(use, dir);
  use.follows = "aria2c follows redirects";
  return use;
}

const NETCAT: OptionSpec = {
  short: {
    e: "exec",
    c: "sh-exec",
    o: "output",
    x: "x",
    X: "X",
    p: "p",
    s: "s",
    w: "w",
    i: "i",
    q: "q",
    I: "I",
    O: "O",
    T: "T",
    V: "V",
    M: "M",
    m: "m",
    P: "P",
  },
  valued: new Set([
    "exec",
    "sh-exec",
    "lua-exec",
    "output",
    "x",
    "X",
    "p",
    "s",
    "w",
    "i",
    "q",
    "I",
    "O",
    "T",
    "V",
    "M",
    "m",
    "P",
    "proxy",
    "proxy-type",
    "hex-dump",
    "append-output",
  ]),
};

function fetchNetcat(program: string, args: readonly string[]): FetcherUse {
  const use = emptyUse();
  // telnet's -l (user), -b (address) and -n (trace file) take values; nc's -l listens and -n is a flag.
  const spec: OptionSpec =
    program === "telnet" ? { short: { b: "b", e: "e", l: "user", n: "tracefile", X: "X" }, valued: new Set(["b", "e", "user", "tracefile", "X"]) } : NETCAT;
  const parsed = parseOptions(args, spec);
  for (const { name, value, index } of parsed.options) {
    if (value === undefined) continue;
    if (name === "exec" || name === "sh-exec" || name === "lua-exec") use.opaque = `${program} runs a program connected to the network`;
    else if (name === "tracefile" || name === "output" || name === "append-output" || (name === "x" && program === "ncat") || name === "hex-dump")
      use.paths.push({ index, text: value, access: "write" });
    else if (name === "proxy" || (name === "x" && program !== "ncat")) {
      const [host, port] = splitHostPort(value);
      use.urls.push({ index, text: tcpUrl(host, port) });
    }
  }
  const listening = program !== "telnet" && hasOption(parsed, "-l", "listen");
  const [host, port] = parsed.positionals;
  if (hasOption(parsed, "-U", "unixsock")) {
    if (host) use.paths.push({ index: host.index, text: host.text, access: "read" });
  } else if (host && !listening) {
    const protocol = hasOption(parsed, "-u", "udp") ? "udp" : "tcp";
    use.urls.push({ index: host.index, text: tcpUrl(host.text, port?.text ?? (program === "telnet" ? "23" : undefined), protocol) });
  }
  return use;
}

/** socat's addresses: TCP:host:port and its kin are connections; EXEC and SYSTEM run programs; files are paths. */
function fetchSocat(args: readonly string[]): FetcherUse {
  const use = emptyUse();
  args.forEach((arg, index) => {
    if (arg.startsWith("-") && arg !== "-") return;
    const [type = "", ...fields] = arg.split(",")[0]?.split(":") ?? [];
    const kind = type.toUpperCase();
    if (/^(TCP|TCP4|TCP6|TCP-CONNECT|UDP|UDP4|UDP6|UDP-CONNECT|OPENSSL|SSL|OPENSSL-CONNECT)$/.test(kind) && fields.length >= 2)
      use.urls.push({ index, text: tcpUrl(fields.slice(0, -1).join(":"), fields.at(-1), kind.startsWith("UDP") ? "udp" : "tcp") });
    else if (/^(EXEC|SYSTEM)$/.test(kind)) use.opaque = "socat runs a program";
    else if (/^(OPEN|CREATE|GOPEN|PIPE|UNIX-CONNECT|UNIX-CLIENT)$/.test(kind))
      use.paths.push({ index, text: fields.join(":"), access: kind === "OPEN" ? "read" : "write" });
    else if (!/^(STDIO|STDIN|STDOUT|STDERR|-|TCP-LISTEN|TCP4-LISTEN|TCP6-LISTEN|UDP-LISTEN)$/.test(kind))
      use.opaque = `socat's address ${arg} is beyond what the analysis follows`;
  });
  return use;
}
