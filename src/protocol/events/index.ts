export * from "./catalog.js";
export * from "./shared-schemas.js";
export { toolResultSchema } from "./tool-events.js";
export { permissionOptionSchema, type PermissionOption } from "./interaction-events.js";
