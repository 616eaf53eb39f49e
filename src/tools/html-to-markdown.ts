/**
 * A compact HTML → Markdown conversion for web_fetch: a lenient parser builds a small tree (void elements,
 * raw-text elements, implied ends of p/li/td…), then the tree is written as Markdown: headings, paragraphs,
 * links (made absolute), emphasis, code and fenced blocks, lists, quotes, simple tables. Scripts, styles,
 * navigation chrome and forms are dropped. It aims at what a model needs to read a page, not at fidelity.
 */

interface ElementNode {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
type HtmlNode = ElementNode | string;

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "noscript", "template"]);
const DROPPED = new Set(["script", "style", "noscript", "template", "head", "svg", "canvas", "iframe", "form", "button", "select", "input", "nav", "footer"]);
/** An opening tag of the key closes an open element of the listed tags first (HTML's implied end tags). */
const CLOSED_BY: Record<string, readonly string[]> = {
  li: ["li"],
  dt: ["dt", "dd"],
  dd: ["dt", "dd"],
  tr: ["tr", "td", "th"],
  td: ["td", "th"],
  th: ["td", "th"],
  option: ["option"],
};
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "aside",
  "figure",
  "figcaption",
  "address",
  "details",
  "summary",
  "dl",
  "body",
  "html",
]);

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", mdash: "—", ndash: "–", hellip: "…", copy: "©" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of text.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attrs[(match[1] as string).toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attrs;
}

export function parseHtml(html: string): ElementNode {
  const root: ElementNode = { tag: "#root", attrs: {}, children: [] };
  const stack: ElementNode[] = [root];
  const current = () => stack[stack.length - 1] as ElementNode;
  const tagPattern = /<!--[\s\S]*?-->|<![^>]*>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
  let last = 0;
  for (let match = tagPattern.exec(html); match; match = tagPattern.exec(html)) {
    if (match.index > last) current().children.push(decodeEntities(html.slice(last, match.index)));
    last = tagPattern.lastIndex;
    const [, closing, opening, attrText, selfClosing] = match;
    if (closing) {
      const name = closing.toLowerCase();
      const at = stack.map((node) => node.tag).lastIndexOf(name);
      if (at > 0) stack.length = at;
      continue;
    }
    if (!opening) continue; // a comment or doctype
    const tag = opening.toLowerCase();
    const closes = CLOSED_BY[tag];
    if (closes && closes.includes(current().tag)) stack.pop();
    if (tag !== "p" && BLOCKS.has(tag) && current().tag === "p") stack.pop();
    const node: ElementNode = { tag, attrs: parseAttributes(attrText ?? ""), children: [] };
    current().children.push(node);
    if (RAW_TEXT.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, last);
      const stop = end === -1 ? html.length : end;
      node.children.push(decodeEntities(html.slice(last, stop)));
      const after = html.indexOf(">", stop);
      last = tagPattern.lastIndex = end === -1 || after === -1 ? html.length : after + 1;
      continue;
    }
    if (!VOID.has(tag) && !selfClosing) stack.push(node);
  }
  if (last < html.length) current().children.push(decodeEntities(html.slice(last)));
  return root;
}

function find(node: ElementNode, tag: string): ElementNode | undefined {
  for (const child of node.children) {
    if (typeof child === "string") continue;
    if (child.tag === tag) return child;
    const inner = find(child, tag);
    if (inner) return inner;
  }
  return undefined;
}

function textOf(node: HtmlNode): string {
  return typeof node === "string" ? node : node.children.map(textOf).join("");
}

/** A list item's inner lines are indented with this until the end, so tidying lines does not undo it. */
const INDENT = "\u0001";

/** Fenced blocks are kept aside while whitespace is tidied, then put back. */
interface RenderState {
  base: URL | undefined;
  fences: string[];
}

function absolute(href: string, base: URL | undefined): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

const block = (text: string) => `\n\n${text.trim()}\n\n`;

function renderChildren(node: ElementNode, state: RenderState): string {
  return node.children.map((child) => render(child, state)).join("");
}

function renderList(node: ElementNode, state: RenderState): string {
  const ordered = node.tag === "ol";
  let index = Number.parseInt(node.attrs.start ?? "1", 10) || 1;
  const items = node.children.filter((child): child is ElementNode => typeof child !== "string" && child.tag === "li");
  const lines = items.map((item) => {
    const marker = ordered ? `${index++}. ` : "- ";
    const body = tidy(renderChildren(item, state)).replace(/\n{2,}/g, "\n");
    return marker + body.split("\n").join(`\n${INDENT.repeat(marker.length)}`);
  });
  return block(lines.join("\n"));
}

function renderTable(node: ElementNode, state: RenderState): string {
  const rows: ElementNode[] = [];
  const collect = (parent: ElementNode) => {
    for (const child of parent.children) {
      if (typeof child === "string") continue;
      if (child.tag === "tr") rows.push(child);
      else if (child.tag !== "table") collect(child);
    }
  };
  collect(node);
  const lines = rows.map((row) => {
    const cells = row.children.filter((cell): cell is ElementNode => typeof cell !== "string" && (cell.tag === "td" || cell.tag === "th"));
    return `| ${cells
      .map((cell) =>
        tidy(renderChildren(cell, state))
          .replace(/\s*\n\s*/g, " ")
          .replace(/\|/g, "\\|"),
      )
      .join(" | ")} |`;
  });
  if (lines.length === 0) return "";
  const columns = (lines[0]?.match(/ \| /g)?.length ?? 0) + 1;
  lines.splice(1, 0, `|${" --- |".repeat(columns)}`);
  return block(lines.join("\n"));
}

function render(node: HtmlNode, state: RenderState): string {
  if (typeof node === "string") return node.replace(/\s+/g, " ");
  const { tag } = node;
  if (DROPPED.has(tag) || node.attrs.hidden !== undefined || node.attrs["aria-hidden"] === "true") return "";
  const inner = () => renderChildren(node, state);
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) return block(`${"#".repeat(Number(heading[1]))} ${inner().replace(/\s+/g, " ").trim()}`);
  switch (tag) {
    case "br":
      return "  \n";
    case "hr":
      return block("---");
    case "pre": {
      const code = textOf(node).replace(/^\n/, "").replace(/\s+$/, "");
      const language = /language-([\w+-]+)/.exec(`${node.attrs.class ?? ""} ${find(node, "code")?.attrs.class ?? ""}`)?.[1] ?? "";
      state.fences.push(`\`\`\`${language}\n${code}\n\`\`\``);
      return block(`\u0000${state.fences.length - 1}\u0000`);
    }
    case "code":
    case "kbd":
    case "samp": {
      const code = textOf(node).replace(/\s+/g, " ");
      const ticks = code.includes("`") ? "``" : "`";
      return code.trim() === "" ? "" : `${ticks}${code}${ticks}`;
    }
    case "strong":
    case "b": {
      const text = inner();
      return text.trim() === "" ? text : `**${text.trim()}**`;
    }
    case "em":
    case "i": {
      const text = inner();
      return text.trim() === "" ? text : `_${text.trim()}_`;
    }
    case "a": {
      const text = inner().replace(/\s+/g, " ").trim();
      const href = node.attrs.href;
      if (!href || href.startsWith("#") || href.startsWith("javascript:")) return text;
      return text === "" ? "" : `[${text}](${absolute(href, state.base)})`;
    }
    case "img": {
      const alt = (node.attrs.alt ?? "").trim();
      return alt === "" || !node.attrs.src ? "" : `![${alt}](${absolute(node.attrs.src, state.base)})`;
    }
    case "ul":
    case "ol":
      return renderList(node, state);
    case "table":
      return renderTable(node, state);
    case "blockquote":
      return block(
        tidy(inner())
          .split("\n")
          .map((line) => (line === "" ? ">" : `> ${line}`))
          .join("\n"),
      );
    case "li":
      return block(`- ${tidy(inner())}`);
    case "dt":
      return block(`**${tidy(inner())}**`);
    case "title":
      return "";
    default:
      return BLOCKS.has(tag) || tag === "dd" ? block(inner()) : inner();
  }
}

/** Trims each line, keeps at most one blank line between blocks. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => (line.endsWith("  ") && line.trim() !== "" ? `${line.trim()}  ` : line.trim()))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The page as Markdown: its title as a heading, then its main content (or body). */
export function htmlToMarkdown(html: string, baseUrl?: string): string {
  const root = parseHtml(html);
  let base: URL | undefined;
  try {
    base = baseUrl ? new URL(find(root, "base")?.attrs.href ?? baseUrl, baseUrl) : undefined;
  } catch {
    base = undefined;
  }
  const state: RenderState = { base, fences: [] };
  const title = textOf(find(root, "title") ?? "")
    .replace(/\s+/g, " ")
    .trim();
  const content = find(root, "main") ?? find(root, "article") ?? find(root, "body") ?? root;
  let markdown = tidy(render(content, state));
  markdown = markdown.replace(/\u0000(\d+)\u0000/g, (_, index: string) => state.fences[Number(index)] ?? "").replaceAll(INDENT, " ");
  if (title !== "" && !markdown.startsWith("# ")) markdown = `# ${title}\n\n${markdown}`;
  return markdown;
}
