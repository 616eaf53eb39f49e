/**
 * The memories one session can see: its repository's store and the user's. Every operation the tools, the
 * slash command and `agent memory` perform on memories is here, once: store (a fact stored again is
 * confirmed rather than copied), vote, forget, search, and the board.
 */
import { boardOf, type Board } from "./context-board.js";
import { rankMemories } from "./memory-ranking.js";
import { INITIAL_SCORE, MAX_SCORE, newMemoryId, type MemoryRecord, type MemoryScope, type MemorySource } from "./memory-record.js";
import { repositoryKey, repositoryStoreFile, userStoreFile, type RepositoryKey } from "./memory-location.js";
import { MemoryStore, type StoreContents } from "./memory-store.js";
import { secretReason } from "./secret-patterns.js";
import { StoreScan } from "./store-scan.js";

export class MemoryRefusal extends Error {}

export interface NewMemory {
  subject: string;
  fact: string;
  citations: readonly string[];
  scope: MemoryScope;
  source?: MemorySource;
}

export type StoreOutcome = { kind: "stored"; record: MemoryRecord } | { kind: "confirmed"; record: MemoryRecord };

const normalised = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/** Why a new memory cannot be kept, or undefined. */
export function refusalOf(memory: Pick<NewMemory, "subject" | "fact" | "citations">): string | undefined {
  if (memory.subject.trim() === "" || memory.fact.trim() === "") return "a memory needs a subject and a fact";
  if (memory.fact.length > 1_000) return "the fact is longer than 1,000 characters: keep one short, checkable fact per memory";
  if (memory.subject.length > 100) return "the subject is longer than 100 characters";
  const secret = secretReason([memory.subject, memory.fact, ...memory.citations].join("\n"));
  return secret ? `${secret}. Memories must never hold secrets: state the fact without the value (say where it is configured instead)` : undefined;
}

export class MemorySpace {
  readonly key: RepositoryKey;
  readonly repository: MemoryStore;
  readonly user: MemoryStore;

  constructor(
    readonly agentHome: string,
    cwd: string,
  ) {
    this.key = repositoryKey(cwd);
    this.repository = new MemoryStore(repositoryStoreFile(agentHome, this.key));
    this.user = new MemoryStore(userStoreFile(agentHome));
  }

  storeFor(scope: MemoryScope): MemoryStore {
    return scope === "user" ? this.user : this.repository;
  }

  /** Both stores' memories (repository first) and what is wrong in their files. */
  read(): { records: MemoryRecord[]; problems: (StoreContents["problems"][number] & { file: string })[] } {
    const stores = [this.repository, this.user];
    const contents = stores.map((store) => ({ store, contents: store.read() }));
    return {
      records: contents.flatMap(({ contents: read }) => read.records),
      problems: contents.flatMap(({ store, contents: read }) => read.problems.map((problem) => ({ ...problem, file: store.file }))),
    };
  }

  find(id: string): MemoryRecord | undefined {
    return this.read().records.find((record) => record.id === id);
  }

  /** Both stores as the board reads them (repository first): a record parsed only for a memory it shows. */
  scan(): StoreScan {
    const scan = new StoreScan();
    for (const store of [this.repository, this.user]) scan.add(store.text(), store.file);
    return scan;
  }

  board(budgetTokens?: number): Board {
    return boardOf(this.scan(), budgetTokens !== undefined ? { budgetTokens } : {});
  }

  /** Stores a fact; the same fact under the same subject is confirmed instead. Throws MemoryRefusal. */
  async store(memory: NewMemory): Promise<StoreOutcome> {
    const refusal = refusalOf(memory);
    if (refusal) throw new MemoryRefusal(refusal);
    const now = new Date().toISOString();
    const taken = new Set(this.read().records.map((record) => record.id));
    return this.storeFor(memory.scope).change<StoreOutcome>((records) => {
      const same = records.find((record) => normalised(record.fact) === normalised(memory.fact) && normalised(record.subject) === normalised(memory.subject));
      if (same) {
        const confirmed = {
          ...same,
          confirmedAt: now,
          score: Math.min(MAX_SCORE, same.score + 1),
          citations: [...new Set([...same.citations, ...memory.citations])],
        };
        return { records: records.map((record) => (record === same ? confirmed : record)), result: { kind: "confirmed", record: confirmed } };
      }
      const record: MemoryRecord = {
        id: newMemoryId((id) => taken.has(id) || records.some((existing) => existing.id === id)),
        subject: memory.subject.trim(),
        fact: memory.fact.trim(),
        citations: memory.citations.map((citation) => citation.trim()).filter((citation) => citation !== ""),
        scope: memory.scope,
        createdAt: now,
        confirmedAt: now,
        score: INITIAL_SCORE,
        ...(memory.source ? { source: memory.source } : {}),
      };
      return { records: [...records, record], result: { kind: "stored", record } };
    });
  }

  /** A useful vote confirms (score + 1, confirmed now); a not-useful one takes a point, and at 0 retires it. */
  async vote(id: string, useful: boolean): Promise<{ record: MemoryRecord; retired: boolean } | undefined> {
    const record = this.find(id);
    if (!record) return undefined;
    const now = new Date().toISOString();
    return this.storeFor(record.scope).change<{ record: MemoryRecord; retired: boolean } | undefined>((records) => {
      const current = records.find((candidate) => candidate.id === id);
      if (!current) return { records, result: undefined };
      const score = useful ? Math.min(MAX_SCORE, current.score + 1) : current.score - 1;
      const changed = { ...current, score, ...(useful ? { confirmedAt: now } : {}) };
      if (score <= 0) return { records: records.filter((candidate) => candidate !== current), result: { record: changed, retired: true } };
      return { records: records.map((candidate) => (candidate === current ? changed : candidate)), result: { record: changed, retired: false } };
    });
  }

  /** Removes memories by id from whichever store holds them; returns the ones removed. */
  async forget(ids: readonly string[]): Promise<MemoryRecord[]> {
    const removed: MemoryRecord[] = [];
    for (const store of [this.repository, this.user]) {
      if (!store.read().records.some((record) => ids.includes(record.id))) continue;
      removed.push(
        ...(await store.change((records) => {
          const gone = records.filter((record) => ids.includes(record.id));
          return { records: records.filter((record) => !ids.includes(record.id)), result: gone };
        })),
      );
    }
    return removed;
  }

  /** Memories matching every word of the query (subject, fact, citations), most relevant first; all of them without one. */
  search(query: string | undefined, limit = 30): MemoryRecord[] {
    const words = normalised(query ?? "")
      .split(" ")
      .filter((word) => word !== "");
    const matching = this.read().records.filter((record) => {
      const haystack = normalised([record.subject, record.fact, ...record.citations].join(" "));
      return words.every((word) => haystack.includes(word));
    });
    return rankMemories(matching, Date.now()).slice(0, limit);
  }
}
