/**
 * Copying through the terminal (OSC 52): the text travels base64-encoded inside one escape sequence, so
 * whatever it holds (an answer may hold escape sequences of its own) never reaches the terminal as text.
 * Terminals that do not support it ignore the sequence; the notice says so.
 */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, "utf8").toString("base64")}\u0007`;
}
