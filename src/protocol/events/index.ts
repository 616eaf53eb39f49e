export * from "./catalog.js";
export * from "./shared-schemas.js";
export { toolResultSchema } from "./tool-events.js";
