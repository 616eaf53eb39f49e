/**
 * Images the model can be shown: PNG, JPEG, GIF and WebP, told apart by their first bytes (an extension can
 * lie, and a screenshot saved without one is still a picture).
 */
import { closeSync, openSync, readSync } from "node:fs";

/** The media type of an image by its leading bytes, or undefined when it is none of the four. */
export function sniffImageBytes(head: Uint8Array): string | undefined {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif"; // GIF8(7|9)a
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

/** The media type of an image file, or undefined when it is not one (or cannot be read). */
export function sniffImageFile(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(16);
    const read = readSync(fd, head, 0, head.length, 0);
    return sniffImageBytes(head.subarray(0, read));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
