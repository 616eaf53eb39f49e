/** The part of an agent id made from the name it was given ("Parse config" → "parse-config"; the id adds "-<n>"). */
export function agentIdBase(seed: string): string {
  return (
    seed
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "agent"
  );
}
