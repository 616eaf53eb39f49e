import type { z } from "zod";

/** One entry of the event catalog: the data schema and whether the event is ephemeral (never persisted). */
export interface EventSpec<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  readonly ephemeral: boolean;
}

export function persisted<S extends z.ZodType>(schema: S): EventSpec<S> {
  return { schema, ephemeral: false };
}

export function ephemeral<S extends z.ZodType>(schema: S): EventSpec<S> {
  return { schema, ephemeral: true };
}
