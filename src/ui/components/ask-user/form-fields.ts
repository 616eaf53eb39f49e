/**
 * The fields of an ask_user form (an elicitation schema), reduced to what the form asks for: free text, a
 * number, yes/no, one choice, several choices. The schema comes from the model, so anything unexpected is
 * read as free text rather than refused.
 */
export interface Choice {
  value: string;
  label: string;
}

export type FieldKind = "text" | "number" | "boolean" | "single" | "multi";

export interface FormField {
  name: string;
  title: string;
  description?: string;
  kind: FieldKind;
  /** For boolean (Yes/No), single and multi. */
  choices: Choice[];
  required: boolean;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.map((item) => String(item)) : undefined);

function choicesOf(spec: Record<string, unknown>): Choice[] | undefined {
  const values = strings(spec.enum);
  if (values) {
    const names = strings(spec.enumNames);
    return values.map((value, index) => ({ value, label: names?.[index] ?? value }));
  }
  const options = Array.isArray(spec.oneOf) ? spec.oneOf : Array.isArray(spec.anyOf) ? spec.anyOf : undefined;
  if (options)
    return options.map(record).map((option) => ({ value: String(option.const ?? option.title ?? ""), label: String(option.title ?? option.const ?? "") }));
  return undefined;
}

export function formFields(properties: Record<string, unknown>, required: readonly string[] = []): FormField[] {
  return Object.entries(properties).map(([name, raw]) => {
    const spec = record(raw);
    const base = {
      name,
      title: typeof spec.title === "string" ? spec.title : name,
      ...(typeof spec.description === "string" ? { description: spec.description } : {}),
      required: required.includes(name),
    };
    if (spec.type === "boolean")
      return {
        ...base,
        kind: "boolean" as const,
        choices: [
          { value: "true", label: "Yes" },
          { value: "false", label: "No" },
        ],
      };
    if (spec.type === "number" || spec.type === "integer") return { ...base, kind: "number" as const, choices: [] };
    if (spec.type === "array") {
      const choices = choicesOf(record(spec.items));
      return choices ? { ...base, kind: "multi" as const, choices } : { ...base, kind: "text" as const, choices: [] };
    }
    const choices = choicesOf(spec);
    return choices ? { ...base, kind: "single" as const, choices } : { ...base, kind: "text" as const, choices: [] };
  });
}

/** A typed answer as the field's type: a number when it reads as one, yes/no as a boolean, else the words as given. */
export function typedAnswer(field: FormField, text: string): unknown {
  const trimmed = text.trim();
  if (field.kind === "number" && trimmed !== "" && Number.isFinite(Number(trimmed))) return Number(trimmed);
  if (field.kind === "boolean" && /^(y|yes|true)$/i.test(trimmed)) return true;
  if (field.kind === "boolean" && /^(n|no|false)$/i.test(trimmed)) return false;
  if (field.kind === "multi")
    return trimmed
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
  return trimmed;
}
