/**
 * What a wget command reaches: its URLs (http:// when none is written), --base, proxies set with -e, and the
 * files it reads (--post-file, --body-file, -i, certificates, cookies) or writes (-O, -o, -P's downloads,
 * each URL saved under its name); -e commands it does not know, --config and --use-askpass are opaque.
 */
import { downloads, emptyUse, isUrl, withScheme, type FetcherUse } from "./fetch-use.js";
import { hasOption, lastValue, type OptionSpec, type ParsedCommand } from "./option-parser.js";

export const WGET: OptionSpec = {
  short: {
    e: "execute",
    o: "output-file",
    a: "append-output",
    i: "input-file",
    B: "base",
    t: "tries",
    O: "output-document",
    T: "timeout",
    w: "wait",
    Q: "quota",
    P: "directory-prefix",
    l: "level",
    A: "accept",
    R: "reject",
    D: "domains",
    I: "include-directories",
    X: "exclude-directories",
    U: "user-agent",
    n: "n",
    r: "recursive",
    m: "mirror",
    p: "page-requisites",
    x: "force-directories",
  },
  valued: new Set(
    (
      "execute output-file append-output input-file base config rejected-log tries retry-on-http-error output-document start-pos progress " +
      "timeout dns-timeout connect-timeout read-timeout wait waitretry quota bind-address bind-dns-address dns-servers limit-rate " +
      "restrict-file-names prefer-family user password use-askpass local-encoding remote-encoding directory-prefix cut-dirs http-user " +
      "http-password default-page header compression proxy-user proxy-password referer user-agent load-cookies save-cookies post-data " +
      "post-file method body-data body-file secure-protocol certificate certificate-type private-key private-key-type ca-certificate " +
      "ca-directory crl-file pinnedpubkey ciphers ftp-user ftp-password warc-file warc-header warc-max-size warc-dedup warc-tempdir level " +
      "backups accept reject accept-regex reject-regex regex-type domains exclude-domains follow-tags ignore-tags include-directories " +
      "exclude-directories max-redirect hsts-file input-metalink metalink-index preferred-location report-speed n"
    ).split(" "),
  ),
};

/** wgetrc commands (`-e name=value`, names without `_` and `-`) that name a file or a URL; the rest of those known change nothing the gate checks. */
const WGETRC: Readonly<Record<string, "read" | "write" | "dir" | "url" | "list" | "harmless">> = {
  outputdocument: "write",
  logfile: "write",
  savecookies: "write",
  hstsfile: "write",
  warcfile: "write",
  rejectedlog: "write",
  loadcookies: "read",
  postfile: "read",
  bodyfile: "read",
  certificate: "read",
  privatekey: "read",
  cacertificate: "read",
  cadirectory: "read",
  crlfile: "read",
  dirprefix: "dir",
  httpproxy: "url",
  httpsproxy: "url",
  ftpproxy: "url",
  input: "list",
  ...Object.fromEntries(
    (
      "robots tries timeout wait waitretry useragent checkcertificate verbose quiet continue timestamping header referer retryconnrefused " +
      "convertlinks noparent level maxredirect useproxy noproxy dnstimeout readtimeout connecttimeout limitrate progress showprogress " +
      "contentdisposition restrictfilenames adjustextension serverresponse httpkeepalive ignorelength inet4only inet6only preferfamily " +
      "secureprotocol httpsonly compression recursive mirror pagerequisites spanhosts"
    )
      .split(" ")
      .map((name) => [name, "harmless"]),
  ),
};

export function fetchWget(parsed: ParsedCommand): FetcherUse {
  const use = emptyUse();
  for (const { index, text } of parsed.positionals) use.urls.push({ index, text: withScheme(text, "http") });
  let output = lastValue(parsed, "output-document");
  let prefix = lastValue(parsed, "directory-prefix");
  let redirects = lastValue(parsed, "max-redirect") !== "0";
  let crawls = hasOption(parsed, "recursive", "mirror", "page-requisites");
  for (const option of parsed.options) {
    const { name, value, index } = option;
    if (value === undefined) continue;
    if (["post-file", "body-file", "certificate", "private-key", "ca-certificate", "ca-directory", "crl-file", "load-cookies", "warc-dedup"].includes(name))
      use.paths.push({ index, text: value, access: "read" });
    else if (name === "pinnedpubkey" && !value.startsWith("sha256//")) use.paths.push({ index, text: value, access: "read" });
    else if (["output-file", "append-output", "save-cookies", "rejected-log", "hsts-file", "warc-file"].includes(name))
      use.paths.push({ index, text: value, access: "write" });
    else if (name === "output-document" && value !== "-") use.paths.push({ index, text: value, access: "write" });
    else if (name === "base") use.urls.push({ index, text: withScheme(value, "http") });
    else if (name === "input-file" || name === "input-metalink") {
      if (isUrl(value)) use.urls.push({ index, text: value });
      else if (value !== "-") use.paths.push({ index, text: value, access: "read" });
      use.unknownUrls.push(`wget fetches the URLs listed in ${value === "-" ? "its input" : value}, which are only known when it runs`);
    } else if (name === "config") {
      use.paths.push({ index, text: value, access: "read" });
      use.opaque = `wget reads its options from ${value}`;
    } else if (name === "use-askpass") use.opaque = "wget runs the program --use-askpass names";
    else if (name === "execute") {
      const command = /^\s*([A-Za-z_-]+)\s*=?\s*(.*)$/s.exec(value);
      const key = command?.[1]?.replace(/[-_]/g, "").toLowerCase() ?? "";
      const setting = (command?.[2] ?? "").trim();
      const role = WGETRC[key];
      if (role === undefined) use.opaque = `wget -e runs the .wgetrc command "${value}", which the analysis does not follow`;
      else if (role === "read" || role === "write") use.paths.push({ index, text: setting, access: role });
      else if (role === "dir") prefix = setting;
      else if (role === "url") use.urls.push({ index, text: withScheme(setting, "http") });
      else if (role === "list") use.unknownUrls.push(`wget fetches the URLs listed in ${setting}, which are only known when it runs`);
      if (key === "outputdocument") output = setting;
      if (key === "maxredirect") redirects = setting !== "0";
      if (["recursive", "mirror", "pagerequisites"].includes(key) && /^(on|1|yes|true)$/i.test(setting)) crawls = true;
    }
  }
  // Without -O each URL is saved under its own name; -r, -p, -x and server-given names write files the command does not name.
  const unnamed = crawls || hasOption(parsed, "force-directories", "content-disposition", "trust-server-names");
  if (output === undefined && !hasOption(parsed, "spider")) {
    if (unnamed) use.paths.push({ index: -1, text: prefix ?? ".", access: "write", unnamedFiles: true });
    // URLs from a list are saved under their names too: files in the prefix directory, not below it.
    else if (use.unknownUrls.length > 0) use.paths.push({ index: -1, text: prefix ?? ".", access: "write" });
    else downloads({ ...use, urls: use.urls.filter((url) => parsed.positionals.some((positional) => positional.index === url.index)) }, prefix ?? ".");
  }
  if (crawls) use.follows = "wget follows the links of the pages it fetches";
  else if (redirects) use.follows = "wget follows redirects (--max-redirect=0 stops it)";
  return use;
}
