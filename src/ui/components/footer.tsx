/**
 * The status line under the composer: mode · permission mode · model · context use, then cwd (branch) and
 * the background count. One line when it fits, two when the terminal is narrow; each line is cut to the
 * width. A hint ("Press Ctrl+C again to exit") takes the place of the right-hand part while it is set.
 */
import { Box, Text } from "ink";
import stringWidth from "string-width";
import type { Theme } from "../theme.js";
import { footerSegments, formatUsage, plain, SEPARATOR, type FooterProps, type Segment } from "./footer-segments.js";

export { footerSegments, formatTokens, formatUsage, shortenPath, type FooterProps, type PermissionModeLabel } from "./footer-segments.js";

function Line({ segments, theme, width }: { segments: Segment[]; theme: Theme; width: number }) {
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        {segments.map((segment, index) => (
          <Text key={index}>
            {index > 0 ? <Text color={theme.muted}>{SEPARATOR}</Text> : null}
            <Text color={segment.color} bold={segment.bold ?? false}>
              {segment.text}
            </Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}

export function Footer(props: FooterProps) {
  const { left, right } = footerSegments(props);
  const width = Math.max(1, props.width);
  const oneLine = stringWidth(plain([...left, ...right])) <= width;
  if (oneLine) return <Line segments={[...left, ...right]} theme={props.theme} width={width} />;
  // Narrow: keep the percentage (without the token counts) ahead of the model, so a long model name is
  // what gets cut.
  const usage = props.usage;
  if (usage && usage.tokenLimit > 0 && stringWidth(plain(left)) > width) {
    const [mode, permission, model, use] = left;
    if (mode && permission && model && use) left.splice(0, 4, mode, permission, { ...use, text: formatUsage(usage).replace(/ \(.*\)$/, "") }, model);
  }
  return (
    <Box flexDirection="column" width={width}>
      <Line segments={left} theme={props.theme} width={width} />
      <Line segments={right} theme={props.theme} width={width} />
    </Box>
  );
}
