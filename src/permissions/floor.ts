/**
 * The floor: catastrophic commands refused even under --yolo / --allow-all-tools. Each check has an id that
 * settings.json can switch off (`permissions.floor.disable`); anything else the user wants refused always
 * goes in deny rules, which also win over everything.
 */
import path from "node:path";
import type { PermissionFacts } from "./facts.js";
import type { CheckedPath } from "./paths.js";

export type FloorOutcome = { verdict: "deny"; check: string; reason: string } | { verdict: "confirm"; check: string; reason: string };

export interface FloorCheck {
  id: string;
  description: string;
  check(facts: PermissionFacts): FloorOutcome | undefined;
}

const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper\/|md|loop|sr|dm-)/;
const DISK_TOOLS = /^(mkfs(\.\w+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|parted|gdisk|sgdisk|blkdiscard)$/;

function isRecursive(args: readonly string[]): boolean {
  return args.some((arg) => arg === "--recursive" || /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(arg));
}

/** What makes deleting (or changing) this target catastrophic; `wholeRoots`: removing an allowed directory counts. */
function dangerousTarget(target: CheckedPath, facts: PermissionFacts, wholeRoots: boolean): string | undefined {
  if (!target.resolved) return undefined;
  if (target.resolved === path.parse(target.resolved).root) return "the root directory";
  if (target.resolved === facts.homeDir) return "your home directory";
  if (!target.inside) return `${target.resolved}, outside the allowed directories`;
  if (wholeRoots && facts.roots.includes(target.resolved))
    return `${target.resolved}, an allowed directory (the workspace, the temp dir or an added one) as a whole`;
  return undefined;
}

function recursiveOver(programs: RegExp, verb: string, id: string): FloorCheck["check"] {
  return (facts) => {
    const shell = facts.shell;
    if (!shell) return undefined;
    for (const [index, segment] of shell.analysis.segments.entries()) {
      const program = path.basename(segment.argv[0] ?? "");
      const deleting = id === "recursive-delete";
      const findDelete = deleting && program === "find" && segment.argv.includes("-delete");
      const rsyncDelete = deleting && program === "rsync" && segment.argv.some((arg) => arg.startsWith("--delete"));
      if (!findDelete && !rsyncDelete && !(programs.test(program) && isRecursive(segment.argv.slice(1)))) continue;
      const targets = shell.operands[index] ?? [];
      // find deletes below its starting point; rsync --delete empties its destination (the last operand).
      const checked = findDelete ? targets.slice(0, 1) : rsyncDelete ? targets.slice(-1) : targets;
      for (const target of checked) {
        if (!target.resolved) {
          return { verdict: "confirm", check: id, reason: `cannot tell what \`${segment.argv.join(" ")}\` would ${verb} until it runs` };
        }
        const danger = dangerousTarget(target, facts, program === "rm" || rsyncDelete);
        if (danger) return { verdict: "deny", check: id, reason: `\`${segment.argv.join(" ")}\` would ${verb} ${danger}` };
      }
    }
    return undefined;
  };
}

export const FLOOR_CHECKS: readonly FloorCheck[] = [
  {
    id: "recursive-delete",
    description:
      "recursive deletes (rm -r, find -delete, rsync --delete) of /, your home directory, a whole allowed directory, or anything outside the allowed directories",
    check: recursiveOver(/^(rm)$/, "delete", "recursive-delete"),
  },
  {
    id: "recursive-permissions",
    description: "chmod, chown or chgrp -R on /, your home directory, or anything outside the allowed directories",
    check: recursiveOver(/^(chmod|chown|chgrp)$/, "change the permissions of", "recursive-permissions"),
  },
  {
    id: "block-device-write",
    description: "writing to a disk device (/dev/sda, /dev/nvme0n1, …), by redirection, dd of= or a file tool",
    check: (facts) => {
      const target = facts.paths.find((mention) => mention.access === "write" && BLOCK_DEVICE.test(mention.resolved ?? mention.text));
      return target ? { verdict: "deny", check: "block-device-write", reason: `writing to the disk device ${target.text}` } : undefined;
    },
  },
  {
    id: "disk-tools",
    description: "formatting, wiping or partitioning a disk device (mkfs, wipefs, fdisk, parted, … on /dev/…)",
    check: (facts) => {
      for (const segment of facts.shell?.analysis.segments ?? []) {
        const program = path.basename(segment.argv[0] ?? "");
        if (DISK_TOOLS.test(program) && segment.operands.some((operand) => !operand.literal || operand.text.startsWith("/dev/"))) {
          return { verdict: "deny", check: "disk-tools", reason: `\`${segment.argv.join(" ")}\` would format or partition a disk` };
        }
      }
      return undefined;
    },
  },
];

export function checkFloor(facts: PermissionFacts, disabled: ReadonlySet<string>): FloorOutcome | undefined {
  for (const floor of FLOOR_CHECKS) {
    if (disabled.has(floor.id)) continue;
    const outcome = floor.check(facts);
    if (outcome) return outcome;
  }
  return undefined;
}
