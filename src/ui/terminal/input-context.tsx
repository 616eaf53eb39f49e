import { createContext, useContext, useEffect, useRef } from "react";
import { InputBus, type KeyHandler, type PasteHandler } from "./input-bus.js";

export const InputContext = createContext<InputBus>(new InputBus());

export function useInputBus(): InputBus {
  return useContext(InputContext);
}

/** Receives keys while `active`; return true from the handler to consume a key. */
export function useKeys(handler: KeyHandler, priority: number, active = true): void {
  const bus = useInputBus();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => (active ? bus.onKey((key) => latest.current(key), priority) : undefined), [bus, priority, active]);
}

export function usePaste(handler: PasteHandler, priority: number, active = true): void {
  const bus = useInputBus();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => (active ? bus.onPaste((text) => latest.current(text), priority) : undefined), [bus, priority, active]);
}
