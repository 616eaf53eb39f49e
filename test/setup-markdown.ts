// The TUI loads the Markdown lexer after its first frame; tests render Markdown from the start.
import { preloadMarkdown } from "../src/ui/markdown/render-markdown.js";

await preloadMarkdown();
