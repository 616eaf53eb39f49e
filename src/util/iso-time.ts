/**
 * `new Date(ms).toISOString()` without V8's Date formatting: on Node 20 its first call sets up ICU's time-zone
 * and calendar data, about 0.8 MB of peak RSS in a `-p` run that needs none of it (docs/benchmarks.md). The
 * UTC getters compute from the time value alone. Years outside 0000–9999 (which the standard writes with a
 * sign and six digits) and invalid times are left to Date itself.
 * test/util/iso-time.test.ts holds it to toISOString.
 */
const pad2 = (value: number): string => (value < 10 ? `0${value}` : String(value));

export function isoTime(ms: number = Date.now()): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const millis = date.getUTCMilliseconds();
  return (
    `${String(year).padStart(4, "0")}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}` +
    `T${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${String(millis).padStart(3, "0")}Z`
  );
}
