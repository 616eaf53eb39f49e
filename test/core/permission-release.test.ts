/**
 * The permission broker with the interaction broker, as the session builds them, and nothing else: the
 * answers it offers are on the request event, and "yes for this session / always" answers the other waiting
 * questions that the new approval covers (each decided again as a fresh check would be), and no others; so
 * do the allow rules a loaded skill brings (its allowed-tools).
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { InteractionBroker } from "../../src/core/interaction-broker.js";
import { PermissionBroker, type PermissionOutcome, type PermissionSteer } from "../../src/core/permission-broker.js";
import { emptyApprovals, type Approvals } from "../../src/permissions/approvals.js";
import { PathGate } from "../../src/permissions/paths.js";
import { parseRule } from "../../src/permissions/rules.js";
import type { EventData, EventType, SessionEvent, SessionEventOf } from "../../src/protocol/events/index.js";
import type { PermissionReply } from "../../src/protocol/interactions.js";
import { shell } from "../support/permission-check.js";
import { tempDir } from "../support/engine-harness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function brokers() {
  const cwd = tempDir("agent-release-");
  dirs.push(cwd);
  const events: SessionEvent[] = [];
  const emit = <T extends EventType>(type: T, data: EventData<T>) => {
    const event = { id: `e${events.length}`, timestamp: "", parentId: null, type, data } as SessionEventOf<T>;
    events.push(event);
    return event;
  };
  const remembered: Approvals[] = [];
  const interactions = new InteractionBroker({ canAnswer: () => true });
  const permissions = new PermissionBroker({
    policy: { rules: [], allowAllTools: false, allowAllPaths: false, allowAllUrls: false, disabledFloorChecks: new Set() },
    environment: { cwd, env: process.env, gate: new PathGate({ cwd }) },
    remembered: { current: () => emptyApprovals(), remember: (approvals) => void remembered.push(approvals) },
    interactions,
  });
  const gate = permissions.forAgent(emit);
  const signal = new AbortController().signal;
  const requested = () => events.filter((event): event is SessionEventOf<"permission.requested"> => event.type === "permission.requested");
  const completed = () => events.filter((event): event is SessionEventOf<"permission.completed"> => event.type === "permission.completed");
  return {
    events,
    permissions,
    remembered,
    requested,
    completed,
    /** Starts a check of this command; resolves once its question is asked (or it is decided without one). */
    async check(command: string, steer?: PermissionSteer): Promise<{ outcome: Promise<PermissionOutcome>; requestId: string | undefined }> {
      const before = requested().length;
      const outcome = gate.check(shell(command), "bash", signal, steer);
      const asked = await Promise.race([
        outcome.then(() => undefined),
        new Promise<string>((resolve) => {
          const poll = () =>
            requested().length > before ? resolve((requested()[before] as SessionEventOf<"permission.requested">).data.requestId) : setImmediate(poll);
          poll();
        }),
      ]);
      return { outcome, requestId: asked };
    },
    answer: (requestId: string | undefined, reply: PermissionReply) => expect(interactions.respond(requestId as string, reply)).toBeUndefined(),
    pending: () => interactions.pendingRequests.map((pending) => pending.requestId),
  };
}

describe("the answers a permission question offers", () => {
  it("are on the request event, naming what a remembering answer would store", async () => {
    const b = brokers();
    const { outcome, requestId } = await b.check("touch a.txt");
    expect(b.requested()[0]?.data.options).toEqual([
      { id: "allow-once", kind: "allow_once", label: "Yes" },
      { id: "allow-session", kind: "allow_session", label: "Yes, and don't ask again this session for `touch`" },
      { id: "allow-always", kind: "allow_always", label: "Yes, and always allow `touch` in this directory" },
      { id: "reject", kind: "reject_once", label: "No" },
    ]);
    b.answer(requestId, { kind: "approve-always" });
    expect(await outcome).toMatchObject({ approved: true });
    expect(b.remembered.map((approvals) => [...approvals.commands])).toEqual([["touch"]]);
  });

  it("offer only yes once and no for what cannot be remembered, and a remembering answer then stores nothing", async () => {
    const b = brokers();
    const first = await b.check("eval $SOMETHING");
    expect(b.requested()[0]?.data.options?.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
    b.answer(first.requestId, { kind: "approve-always" });
    expect(await first.outcome).toMatchObject({ approved: true });
    expect(b.remembered).toEqual([]);
    // Nothing was stored: the same call asks again.
    const again = await b.check("eval $SOMETHING");
    expect(again.requestId).toBeDefined();
    b.answer(again.requestId, { kind: "deny" });
    expect(await again.outcome).toMatchObject({ approved: false });
  });
});

describe("a remembering answer releases the other questions it covers", () => {
  it.each([["approve-for-session"], ["approve-always"]] as const)(
    "%s: the waiting question for the same command is approved by the rule, the other still waits",
    async (kind) => {
      const b = brokers();
      const first = await b.check("touch a.txt");
      const second = await b.check("touch b.txt");
      const other = await b.check("rm c.txt");
      expect(b.pending()).toHaveLength(3);

      b.answer(first.requestId, { kind });
      expect(await first.outcome).toMatchObject({ approved: true });
      // Released: approved, and not as a person's approval (nobody saw this call).
      const released = await second.outcome;
      expect(released).toMatchObject({ approved: true });
      expect((released as { approvedByUser?: boolean }).approvedByUser).toBeUndefined();
      expect(b.completed().map((event) => [event.data.requestId, event.data.result.kind, event.data.decisionSource])).toEqual([
        [first.requestId, "approved", "human_response"],
        [second.requestId, "approved", "session_approval"],
      ]);
      // `rm` is not covered by an approval of `touch`.
      expect(b.pending()).toEqual([other.requestId]);
      b.answer(other.requestId, { kind: "deny" });
      expect(await other.outcome).toMatchObject({ approved: false });
    },
  );

  it("yes once releases nothing", async () => {
    const b = brokers();
    const first = await b.check("touch a.txt");
    const second = await b.check("touch b.txt");
    b.answer(first.requestId, { kind: "approve-once" });
    await first.outcome;
    expect(b.pending()).toEqual([second.requestId]);
    b.answer(second.requestId, { kind: "deny" });
    expect(await second.outcome).toMatchObject({ approved: false });
  });

  it("a question a preToolUse hook asked a person about stays with the person", async () => {
    const b = brokers();
    const first = await b.check("touch a.txt");
    const hooked = await b.check("touch b.txt", { hookDecision: "ask" });
    b.answer(first.requestId, { kind: "approve-for-session" });
    await first.outcome;
    expect(b.pending()).toEqual([hooked.requestId]);
    b.answer(hooked.requestId, { kind: "approve-once" });
    expect(await hooked.outcome).toMatchObject({ approved: true });
  });

  it("after the approval a new check of the same command is not asked at all", async () => {
    const b = brokers();
    const first = await b.check("touch a.txt");
    b.answer(first.requestId, { kind: "approve-for-session" });
    await first.outcome;
    const later = await b.check("touch z.txt");
    expect(later.requestId).toBeUndefined();
    expect(await later.outcome).toMatchObject({ approved: true });
  });
});

describe("a skill's allow rules release the questions they cover", () => {
  it("a waiting `touch` is approved by the rule once the skill's shell(touch:*) joins the policy; `rm` still waits", async () => {
    const b = brokers();
    const covered = await b.check("touch a.txt");
    const other = await b.check("rm c.txt");
    b.permissions.setSkillRules([parseRule("shell(touch:*)", "allow", "skill tidy")]);
    const released = await covered.outcome;
    expect(released).toMatchObject({ approved: true });
    expect((released as { approvedByUser?: boolean }).approvedByUser).toBeUndefined();
    expect(b.pending()).toEqual([other.requestId]);
    b.answer(other.requestId, { kind: "deny" });
    expect(await other.outcome).toMatchObject({ approved: false });
  });
});
