/**
 * A column that never takes more than `maxHeight` rows: taller content is cut at the bottom. Ink repaints
 * the whole screen (scrollback included) when its live output is taller than the terminal, so a dialog
 * (the /help overlay on a small screen) must not grow past the room it has. The content is measured after
 * each render; until the first measurement it is assumed to be too tall, so no frame ever overflows.
 */
import { Box, measureElement, type DOMElement } from "ink";
import { useEffect, useRef, useState, type ReactNode } from "react";

export function FitBox({ maxHeight, children }: { maxHeight: number; children: ReactNode }) {
  const inner = useRef<DOMElement>(null);
  const [natural, setNatural] = useState(Number.POSITIVE_INFINITY);
  useEffect(() => {
    if (!inner.current) return;
    const { height } = measureElement(inner.current);
    if (height !== natural) setNatural(height);
  });
  const clip = natural > maxHeight;
  return (
    <Box flexDirection="column" {...(clip ? { height: Math.max(1, maxHeight), overflow: "hidden" as const } : {})}>
      <Box ref={inner} flexDirection="column" flexShrink={0}>
        {children}
      </Box>
    </Box>
  );
}
