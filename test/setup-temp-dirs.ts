// Every test file removes the temp folders its tests made (test/support/temp-dirs.ts) once its own afterAll
// hooks have stopped what might still write there (after-hooks run in reverse order of registration).
import { afterAll } from "vitest";
import { removeTempDirs } from "./support/temp-dirs.js";

afterAll(() => {
  removeTempDirs();
});
