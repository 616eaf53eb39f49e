/**
 * The names of the permission-location and folder-trust methods (permission-location-methods.ts), kept apart
 * from their handlers so the AgentServer registers them at the handshake without loading the engine's side.
 */
export const PERMISSION_LOCATION_METHODS = [
  "session.permissions.locations.resolve",
  "session.permissions.locations.addToolApproval",
  "session.permissions.locations.apply",
  "session.permissions.folderTrust.isTrusted",
  "session.permissions.folderTrust.addTrusted",
] as const;
