export { createSqlTool } from "./sql-tool.js";
export { SessionDatabase, TODO_SCHEMA, type StatementResult } from "./session-database.js";
export { sqlJsLoaded } from "./sql-runtime.js";
