/** The sink's plain list of ephemeral event types (kept apart so start-up need not build the catalog's schemas) matches the catalog. */
import { describe, expect, it } from "vitest";
import { eventCatalog, type EventType } from "../../src/protocol/events/catalog.js";
import { isEphemeralEventType } from "../../src/protocol/events/ephemeral.js";

describe("isEphemeralEventType", () => {
  it("agrees with the catalog's ephemeral flag for every event type", () => {
    for (const [type, spec] of Object.entries(eventCatalog)) {
      expect({ type, ephemeral: isEphemeralEventType(type as EventType) }).toEqual({ type, ephemeral: spec.ephemeral });
    }
  });
});
