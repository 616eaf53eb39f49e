/**
 * URL rules mean what they say (issue 17, item 9), as a corpus: each row is a web_fetch URL or a shell
 * command, a set of flags, and the expected decision, evaluated by the real analysis and decision function
 * (test/support/permission-check.ts). Hosts are compared after canonicalising (case, trailing dot, IPv4 in
 * every form, IPv4-mapped IPv6, localhost names, 0.0.0.0 and :: as this machine, default ports, userinfo,
 * percent-encoding, backslashes), paths by whole segments, and the same way for web_fetch and for every
 * fetcher the shell analysis knows. Nothing here is fetched or run; the only hosts named are loopback or
 * example ones.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Decision } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { canonicalOrigin } from "../../src/permissions/canonical-url.js";
import { parseRule, RuleSyntaxError } from "../../src/permissions/rules.js";
import { checkPermission, checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-urls-");
const ws = path.join(root, "ws");
const home = path.join(root, "home");
for (const dir of [path.join(ws, ".git"), home]) mkdirSync(dir, { recursive: true });
writeFileSync(path.join(ws, "README.md"), "r\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Flags = Partial<PermissionFlags>;
const env = { HOME: home, PATH: "/usr/bin:/bin" };
const options = (flags: Flags) => ({ cwd: ws, flags: { disallowTempDir: true, ...flags }, env, homeDir: home });
const fetchUrl = (url: string, flags: Flags) => checkPermission({ kind: "url", url, intention: "fetch" }, "web_fetch", options(flags));
const sh = (command: string, flags: Flags) => checkShell(command, options(flags));
const show = (decision: Decision) => `${decision.verdict}: ${decision.reason}`;

/** Every way of writing 127.0.0.1 (or another name of this machine) that a client would connect to. */
const LOOPBACK_URLS = [
  "http://127.0.0.1/",
  "http://127.0.0.1:8080/x",
  "http://127.0.0.1:80/",
  "http://127.0.0.1./",
  "HTTP://127.0.0.1/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[0:0:0:0:0:ffff:127.0.0.1]/",
  "http://[::127.0.0.1]/",
  "http://[::1]/",
  "http://[::]/",
  "http://0.0.0.0/",
  "http://0/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0x7f.1/",
  "http://0177.0.0.1/",
  "http://0177.1/",
  "http://127.1/",
  "http://127.0.1/",
  "http://127.000.000.001/",
  "http://127.0.0.2/",
  "http://%31%32%37.0.0.1/",
  "http://localhost/",
  "http://LOCALHOST./",
  "http://localhost:3000/api",
  "http://api.localhost/",
  "http://localhost.localdomain/",
  "http://user:pass@127.0.0.1/",
  "http://example.com@127.0.0.1/",
  "http://example.com\\@127.0.0.1/",
  "http://127.0.0.1\\@example.com/",
  "http:\\\\127.0.0.1\\x",
  "https://127.0.0.1/",
  "ws://127.0.0.1/",
  "wss://localhost/",
  "gopher://127.0.0.1:6379/_INFO",
  "dict://127.0.0.1:11211/stat",
  "tcp://127.0.0.1:5432",
];
/** Hosts that are not this machine, though they look alike. */
const NOT_LOOPBACK_URLS = [
  "http://example.com/",
  "http://128.0.0.1/",
  "http://10.0.0.1/",
  "http://127.0.0.1.example.com/",
  "http://localhost.example.com/",
  "http://notlocalhost/",
  "http://127.0.0.1@example.com/",
];

describe("--deny-url http://127.0.0.1 under --allow-all-tools --allow-all-urls", () => {
  const flags: Flags = { allowAllTools: true, allowAllUrls: true, denyUrl: ["http://127.0.0.1"] };
  it.each(LOOPBACK_URLS)("web_fetch %s is denied", async (url) => {
    const decision = await fetchUrl(url, flags);
    expect(decision.verdict, show(decision)).toBe("deny");
  });
  it.each(NOT_LOOPBACK_URLS)("web_fetch %s is another host: allowed", async (url) => {
    const decision = await fetchUrl(url, flags);
    expect(decision.verdict, show(decision)).toBe("allow");
  });
  it.each(["http://localhost", "http://[::1]", "http://0.0.0.0", "http://2130706433", "http://[::ffff:127.0.0.1]", "LOCALHOST.", "127.1"])(
    "a deny written as %s covers 127.0.0.1, ::1 and localhost alike",
    async (rule) => {
      for (const url of ["http://127.0.0.1/", "http://[::1]:8080/", "http://localhost/x"]) {
        const decision = await fetchUrl(url, { allowAllTools: true, allowAllUrls: true, denyUrl: [rule] });
        expect(decision.verdict, `${rule} → ${url}: ${show(decision)}`).toBe("deny");
      }
    },
  );
});

/** Shell commands that reach 127.0.0.1 by some name: the deny must reach every fetcher the analysis knows. */
const LOOPBACK_COMMANDS = [
  "curl http://127.0.0.1/",
  "curl 127.0.0.1",
  "curl -s 127.1:8080/x",
  "curl 2130706433",
  "curl 0x7f.1",
  "curl 0.0.0.0:9",
  "curl localhost:3000/x",
  "curl '[::1]:8080'",
  "curl 'http://[::ffff:127.0.0.1]/'",
  "curl -sSf --max-time 5 -H 'Accept: x' http://LOCALHOST./",
  "curl --url 127.0.0.1",
  "curl -x http://127.0.0.1:8080 https://example.com",
  "curl --proxy 127.0.0.1:3128 https://example.com",
  "curl --socks5-hostname localhost:1080 https://example.com",
  "curl --resolve example.com:80:127.0.0.1 http://example.com/",
  "curl --connect-to example.com:80:127.0.0.1:80 http://example.com/",
  "curl 'http://127.0.0.{1,2}/'",
  "curl 'http://127.0.0.[1-2]/'",
  "curl gopher://127.0.0.1:6379/_INFO",
  "curl dict://127.1:11211/stat",
  "curl -o out.txt http://[::]/",
  "curl 'http://example.com\\@127.0.0.1/'",
  "http_proxy=http://127.0.0.1:8080 curl http://example.com",
  "HTTPS_PROXY=127.0.0.1:8080 curl https://example.com",
  "sudo curl 127.0.0.1",
  "bash -c 'curl 127.0.0.1'",
  "echo x | xargs curl http://127.0.0.1/",
  "wget -qO- http://localhost/",
  "wget --max-redirect=0 -O- 127.0.0.1",
  "wget -e http_proxy=127.0.0.1:3128 -O- http://example.com",
  "http :3000/api",
  "http POST localhost:3000/api name=x",
  "https 127.0.0.1",
  "xh :8080",
  "aria2c http://127.0.0.1/file",
  "nc 127.0.0.1 80",
  "nc -zv localhost 20-30",
  "ncat 0.0.0.0 6379",
  "netcat -u 127.0.0.1 53",
  "nc -x 127.0.0.1:1080 example.com 80",
  "telnet 127.0.0.1 25",
  "telnet localhost",
  "socat - TCP:localhost:80",
  "git clone http://127.0.0.1/repo.git",
];

describe("the same deny reaches shell commands that fetch", () => {
  const flags: Flags = { allowAllTools: true, allowAllUrls: true, denyUrl: ["http://127.0.0.1"] };
  it.each(LOOPBACK_COMMANDS)("%j is denied", async (command) => {
    const decision = await sh(command, flags);
    expect(decision.verdict, show(decision)).toBe("deny");
  });
  it.each([
    "curl https://example.com/",
    "curl -o page.html https://example.com/x",
    "wget --max-redirect=0 https://example.com/x",
    "nc example.com 80",
    "nc -l 8080",
  ])("%j reaches no denied host: allowed", async (command) => {
    const decision = await sh(command, flags);
    expect(decision.verdict, show(decision)).toBe("allow");
  });
  it.each([
    ["curl -L https://example.com/", "curl -L follows redirects"],
    ["curl --location https://example.com/", "curl -L follows redirects"],
    ["wget https://example.com/x", "wget follows redirects"],
    ["wget -r --max-redirect=0 https://example.com/", "wget follows the links"],
    ["http --follow example.com", "follows redirects"],
    ["aria2c https://example.com/f.iso", "aria2c follows redirects"],
    ["wget -i urls.txt", "listed in urls.txt"],
    ["curl $URL", "only known when it runs"],
    ["xargs curl < urls.txt", "URLs read from its input"],
    ["http_proxy=$PROXY curl https://example.com", "proxy only known when it runs"],
  ])("%j goes where the deny rule cannot be checked: asks, whatever the flags", async (command, reason) => {
    const decision = await sh(command, flags);
    expect(decision.verdict, show(decision)).toBe("ask");
    expect(decision.reason).toContain(reason);
    expect(decision.reason).toContain("`url(http://127.0.0.1)` (--deny-url)");
  });
  it("a URL only known when the command runs is allowed by --allow-all-urls or a bare url rule, and no narrower rule", async () => {
    for (const command of ["curl $URL", "wget -i urls.txt"]) {
      expect((await sh(command, { allowAllTools: true, allowUrl: ["https://example.com"] })).verdict, command).toBe("ask");
      expect((await sh(command, { allowAllTools: true, allowTool: ["url"] })).verdict, command).toBe("allow");
      expect((await sh(command, { allowAllTools: true, allowAllUrls: true })).verdict, command).toBe("allow");
    }
  });
  it("without a URL deny rule, following redirects is what --allow-all-urls allows", async () => {
    for (const command of ["curl -L https://example.com/", "wget https://example.com/x"]) {
      const decision = await sh(command, { allowAllTools: true, allowAllUrls: true });
      expect(decision.verdict, show(decision)).toBe("allow");
    }
  });
});

describe("ports: a rule without one covers every port; one written out is compared with the default filled in", () => {
  it.each([
    ["http://127.0.0.1:8080", "http://localhost:8080/", "deny"],
    ["http://127.0.0.1:8080", "http://[::1]:8080/", "deny"],
    ["http://127.0.0.1:8080", "https://2130706433:8080/", "deny"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:9090/", "allow"],
    ["http://127.0.0.1:8080", "http://127.0.0.1/", "allow"],
    ["http://127.0.0.1:80", "http://127.0.0.1/", "deny"],
    ["http://127.0.0.1:80", "http://localhost:80/x", "deny"],
    ["https://example.com:443", "https://example.com/", "deny"],
    ["https://example.com:443", "http://example.com/", "allow"],
  ] as const)("--deny-url %s: %s is %s", async (rule, url, verdict) => {
    const decision = await fetchUrl(url, { allowAllTools: true, allowAllUrls: true, denyUrl: [rule] });
    expect(decision.verdict, show(decision)).toBe(verdict);
  });
  it("the port of a raw connection is checked too", async () => {
    const flags: Flags = { allowAllTools: true, allowAllUrls: true, denyUrl: ["http://127.0.0.1:6379"] };
    expect((await sh("nc localhost 6379", flags)).verdict).toBe("deny");
    expect((await sh("nc localhost 6380", flags)).verdict).toBe("allow");
    expect((await sh("nc -z localhost 6000-7000", flags)).verdict).toBe("deny"); // a range is no one port
  });
});

describe("paths match by whole segments", () => {
  const allow: Flags = { allowTool: ["web_fetch"], allowUrl: ["http://example.com/public/"] };
  it.each([
    "http://example.com/public",
    "http://example.com/public/",
    "http://example.com/public/x",
    "http://example.com/public/x/y.html",
    "http://example.com/public?x=1",
    "http://example.com/public/x#part",
    "http://example.com:8080/public/x",
    "http://EXAMPLE.com./public/x",
    "http://example.com/public/a%20b",
  ])("--allow-url http://example.com/public/ allows %s", async (url) => {
    const decision = await fetchUrl(url, allow);
    expect(decision.verdict, show(decision)).toBe("allow");
  });
  it.each([
    "http://example.com/private/x",
    "http://example.com/publicity",
    "http://example.com/public-x",
    "http://example.com/",
    "http://example.com/PUBLIC/x",
    "http://example.com/public/../private",
    "http://example.com/public/%2e%2e/private",
    "http://example.com/public/..%2fprivate",
    "http://example.com/public/..%2Fprivate",
    "http://example.com/public%2F..%2Fprivate",
    "http://example.com/public/..;/private",
    "http://example.com/public\\..\\private",
    "http://example.com//public/x",
    "https://example.com/public/x",
    "http://example.com.evil.test/public/x",
    "http://evil.test/public/x",
    "http://example.com@evil.test/public/x",
    "http://evil.test\\@example.com/public/x",
  ])("--allow-url http://example.com/public/ does not allow %s", async (url) => {
    const decision = await fetchUrl(url, allow);
    expect(decision.verdict, show(decision)).toBe("ask");
  });
  it.each(["http://example.com/public", "http://example.com/public/", "http://example.com/public//"])("%s as a rule means the same", async (rule) => {
    const flags: Flags = { allowTool: ["web_fetch"], allowUrl: [rule] };
    expect((await fetchUrl("http://example.com/public/x", flags)).verdict).toBe("allow");
    expect((await fetchUrl("http://example.com/private/x", flags)).verdict).toBe("ask");
    expect((await fetchUrl("http://example.com/publicity", flags)).verdict).toBe("ask");
  });
  const deny: Flags = { allowAllTools: true, allowAllUrls: true, denyUrl: ["http://example.com/private"] };
  it.each([
    "http://example.com/private",
    "http://example.com/private/x",
    "http://example.com/PRIVATE/x",
    "http://example.com/%70rivate/x",
    "http://example.com/public/../private/x",
    "http://example.com/public/..%2fprivate",
    "http://example.com/x/..;/private",
    "http://example.com//private",
    "https://example.com/private",
  ])("--deny-url http://example.com/private denies %s", async (url) => {
    const decision = await fetchUrl(url, deny);
    expect(decision.verdict, show(decision)).toBe("deny");
  });
  it.each(["http://example.com/privateer", "http://example.com/public/private", "http://example.com/"])(
    "--deny-url http://example.com/private leaves %s alone",
    async (url) => {
      const decision = await fetchUrl(url, deny);
      expect(decision.verdict, show(decision)).toBe("allow");
    },
  );
});

describe("allow rules: one canonical host, and every reading of the URL must be inside", () => {
  it.each([
    ["http://127.0.0.1:8080", "http://2130706433:8080/x", "allow"],
    ["http://127.0.0.1:8080", "http://[::ffff:127.0.0.1]:8080/", "allow"],
    ["http://127.0.0.1:8080", "http://127.1:8080/", "allow"],
    ["http://127.0.0.1:8080", "http://localhost:8080/", "ask"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8081/", "ask"],
    ["http://2130706433", "http://127.0.0.1/", "allow"],
    ["example.com", "https://EXAMPLE.COM./x", "allow"],
    ["example.com", "https://example.com:443/x", "allow"],
    ["example.com", "http://example.com/", "ask"],
    ["example.com", "https://example.com.evil.test/", "ask"],
    ["example.com", "https://evil.test/example.com", "ask"],
    ["example.com", "https://example.com\\@evil.test/", "ask"],
    ["https://*.example.com", "https://API.example.com./v1", "allow"],
    ["https://*.example.com", "https://example.com/", "ask"],
    ["https://*.example.com", "https://evil.test\\@api.example.com/", "ask"],
  ] as const)("--allow-url %s: %s is %s", async (rule, url, verdict) => {
    const decision = await fetchUrl(url, { allowTool: ["web_fetch"], allowUrl: [rule] });
    expect(decision.verdict, show(decision)).toBe(verdict);
  });

  const curlPublic: Flags = { allowTool: ["shell(curl)"], allowUrl: ["http://example.com/public/"] };
  it.each(["curl http://example.com/public/x", "curl example.com/public/x", "curl -s 'http://example.com/public/a?b=1'"])(
    "shell(curl) + the rule allows %j",
    async (command) => {
      const decision = await sh(command, curlPublic);
      expect(decision.verdict, show(decision)).toBe("allow");
    },
  );
  it.each([
    "curl http://example.com/private/x",
    "curl example.com/publicity",
    "curl http://example.com/public/..%2fprivate",
    "curl 'http://evil.test\\@example.com/public/x'",
    "curl -x http://proxy.test:8080 http://example.com/public/x",
    "curl --resolve example.com:80:10.0.0.1 http://example.com/public/x",
    "curl $URL",
    "curl 'http://example.com/{public,private}/x'",
  ])("shell(curl) + the rule does not allow %j", async (command) => {
    const decision = await sh(command, curlPublic);
    expect(decision.verdict, show(decision)).toBe("ask");
    expect(decision.verdict === "ask" && decision.needs.some((need) => need.kind === "url")).toBe(true);
  });
});

describe("approvals remember canonical origins", () => {
  it.each([
    ["http://2130706433:8080/x", "http://127.0.0.1:8080"],
    ["http://[::ffff:127.0.0.1]:8080/", "http://127.0.0.1:8080"],
    ["HTTP://Example.COM.:80/a", "http://example.com"],
    ["https://example.com:443/", "https://example.com"],
    ["http://[::1]:3000/", "http://[::1]:3000"],
    ["tcp://localhost:5432", "tcp://localhost:5432"],
  ])("%s has the origin %s", (url, origin) => {
    expect(canonicalOrigin(url)).toBe(origin);
  });
  it("a URL parsers read as two hosts has no origin an approval could cover", async () => {
    expect(canonicalOrigin("http://example.com\\@127.0.0.1/")).toBeUndefined();
    const approvals = { origins: new Set(["http://example.com"]) };
    const decision = await checkPermission({ kind: "url", url: "http://example.com\\@127.0.0.1/", intention: "x" }, "web_fetch", {
      ...options({ allowTool: ["web_fetch"] }),
      approvals,
    });
    expect(decision.verdict, show(decision)).toBe("ask");
  });
  it("an approved origin covers the other spellings of its host", async () => {
    const approvals = { origins: new Set(["http://127.0.0.1:8080"]) };
    for (const url of ["http://2130706433:8080/x", "http://[::ffff:7f00:1]:8080/y"]) {
      const decision = await checkPermission({ kind: "url", url, intention: "x" }, "web_fetch", { ...options({ allowTool: ["web_fetch"] }), approvals });
      expect(decision.verdict, show(decision)).toBe("allow");
    }
  });
});

describe("URL rules that are not rules", () => {
  it.each(["url(http://user@example.com)", "url(https://*)", "url(http://a b)", "url(http://example.com:80:*)", "url(http://exa*mple.com)"])(
    "%s is refused with a clear error",
    (rule) => {
      expect(() => parseRule(rule, "allow", "test")).toThrow(RuleSyntaxError);
    },
  );
});
