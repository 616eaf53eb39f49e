/**
 * Text from the model or from tools made safe to print on the user's terminal: nothing in it may drive
 * the terminal (clear the screen, set the window title, plant a hyperlink, query or reprogram it, ring the
 * bell). Removed: CSI sequences (7- and 8-bit), the string sequences OSC, DCS, SOS, PM and APC with their
 * payload, other ESC sequences, lone ESC, C1 controls and every C0 control but newline and tab. A carriage
 * return becomes a line break (CRLF one line break): left alone it could hide the start of a line, such as
 * the dangerous half of a command in a permission dialog. Colour we add is applied after this.
 *
 * It runs on every streamed chunk, so text without a single control character is returned as it is after
 * one regex test. An unterminated sequence (cut at a chunk boundary) loses its introducer, so what is left
 * is harmless visible text.
 */

/** Any character that can start or be part of a control sequence. */
const SUSPECT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const CSI = String.raw`(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]`;
/**
 * OSC (ESC ]), DCS (ESC P), SOS (ESC X), PM (ESC ^), APC (ESC _) and their 8-bit forms, up to BEL or ST.
 * The payload stops at any ESC or C1 character, so a run of unterminated introducers cannot make the scan
 * quadratic; an unterminated one falls through to the rules below and only its introducer goes.
 */
const STRING_SEQUENCE = String.raw`(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u0080-\u009f]*(?:\u0007|\u001b\\|\u009c)`;
/** Two-character and intermediate-byte escapes (ESC c, ESC 7, ESC ( B…), and what is left of a cut sequence. */
const OTHER_ESCAPE = String.raw`\u001b[ -/]*[0-~]?`;
const CONTROL = String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f]`;

/** A carriage return, alone or in CRLF: it becomes a line break, so nothing before it can be overwritten. */
const CARRIAGE_RETURN = String.raw`\r\n?`;

const SEQUENCES = new RegExp(`${CSI}|${STRING_SEQUENCE}|${OTHER_ESCAPE}|${CARRIAGE_RETURN}|${CONTROL}`, "g");

export function neutraliseTerminalText(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text.replace(SEQUENCES, (match) => (match.charCodeAt(0) === 13 ? "\n" : ""));
}

/**
 * The same over every string inside a value (an event's data): objects and arrays are copied only where
 * something changed, so clean events cost one scan of their strings.
 */
export function neutraliseDeep<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === "string") return neutraliseTerminalText(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const cleaned = clean(item);
      if (cleaned !== item) (copy ??= [...value])[index] = cleaned;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === "object") {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const cleaned = clean(item);
      if (cleaned !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = cleaned;
    }
    return copy ?? value;
  }
  return value;
}

const CARRY_LIMIT = 4096;
/** A whole sequence: CSI, string sequence, or a two-character escape whose final byte starts none of those. */
const COMPLETE_AT_START = new RegExp(`^(?:${CSI}|${STRING_SEQUENCE}|${String.raw`\u001b[ -/]*[0-OQ-WYZ\\\`-~]`})`);
const STRING_INTRODUCER = /\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f]/g;
const ANY_INTRODUCER = /[\u001b\u009b\u0090\u0098\u009d-\u009f]/g;

/**
 * Splits streamed text into what can be neutralised now and an escape sequence cut off at its end, to be
 * put in front of the next chunk: neutralised alone, a cut sequence would leave its payload as visible
 * text ("2;title"). A tail longer than a few KB is not waited for.
 */
export function splitTrailingEscape(text: string): [complete: string, carry: string] {
  if (!SUSPECT.test(text)) return [text, ""];
  const from = Math.max(0, text.length - CARRY_LIMIT);
  const lastStart = (pattern: RegExp): number => {
    let found = -1;
    pattern.lastIndex = from;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) found = match.index;
    return found;
  };
  // An OSC/DCS/… whose terminator has not arrived yet.
  const stringStart = lastStart(STRING_INTRODUCER);
  if (stringStart >= 0 && !/[\u0007\u009c]|\u001b\\/.test(text.slice(stringStart + 1))) return [text.slice(0, stringStart), text.slice(stringStart)];
  // Otherwise the last introducer, when what follows it is not a whole sequence yet.
  const start = lastStart(ANY_INTRODUCER);
  if (start < 0) return [text, ""];
  const tail = text.slice(start);
  return COMPLETE_AT_START.test(tail) || tail.length > 64 ? [text, ""] : [text.slice(0, start), tail];
}
