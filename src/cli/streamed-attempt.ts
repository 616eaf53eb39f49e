/**
 * On a terminal the answer streams as it comes, so an attempt that is cut off and retried has already been
 * shown. This remembers what the current attempt printed and, when it is abandoned, gives the sequence
 * that moves the cursor back to where it began and clears the rest of the screen, so only the answer that
 * completes stays. When that cannot be done exactly (text with tabs or escapes, more rows than the screen,
 * an attempt that began mid-line) it gives nothing, and the retry note on stderr says what happened.
 */
export class StreamedAttempt {
  private messageId: string | undefined;
  private text = "";
  private startedAtLineStart = true;

  /** A delta is about to be written; `atLineStart` is where the cursor was before it. */
  wrote(messageId: string, delta: string, atLineStart: boolean): void {
    if (messageId !== this.messageId) {
      this.messageId = messageId;
      this.text = "";
      this.startedAtLineStart = atLineStart;
    }
    this.text += delta;
  }

  /** The attempt completed (or was abandoned and handled). */
  reset(): void {
    this.messageId = undefined;
    this.text = "";
  }

  /** The message whose text is on screen and not yet complete. */
  get current(): string | undefined {
    return this.messageId;
  }

  /** The sequence that erases what `messageId` printed, or undefined when it cannot be erased exactly. */
  erase(messageId: string | undefined, screen: { columns: number; rows: number; width(text: string): number }): string | undefined {
    if (messageId === undefined || messageId !== this.messageId || this.text === "") return undefined;
    if (!this.startedAtLineStart || /[\t\u001b\r\u0007\u0008]/.test(this.text) || screen.columns <= 0) return undefined;
    let rows = 0;
    for (const line of this.text.split("\n")) rows += Math.max(1, Math.ceil(screen.width(line) / screen.columns));
    if (rows >= screen.rows) return undefined;
    const up = rows - 1;
    return `\r${up > 0 ? `\u001b[${up}A` : ""}\u001b[J`;
  }
}
