import { ARTIFACT_ID_RE, MIN_PREFIX_LENGTH, SHORT_REF_PREFIX } from "@artifact-refs/schema";
import { type IndexCandidate, comparePriority, shortRefsFor } from "./select.js";

export type StoredCandidate = IndexCandidate & { created: number };

interface Node {
  item: StoredCandidate;
  prev: Node | undefined;
  next: Node | undefined;
  list: List;
}
interface List {
  head: Node | undefined;
}

/**
 * The dispatcher's index candidates, kept in priority order as they change, so a build
 * selects its top k in O(k + pinned) whatever the number of candidates:
 * - referenced candidates in a list ordered by last reference (a reference moves one to the front);
 * - never-referenced candidates in a list ordered by creation (a new one goes to the front);
 * - pinned candidates in a set (sorted when selecting; there are few).
 * A count of 12-hex prefixes makes short refs O(1) each (a full scan only on a collision).
 */
export class OrderedCandidates {
  readonly #byId = new Map<string, Node>();
  readonly #referenced: List = { head: undefined };
  readonly #fresh: List = { head: undefined };
  readonly #pinned = new Set<Node>();
  readonly #prefixes = new Map<string, number>();
  /** Every candidate in creation order (the stable display order). */
  readonly all: StoredCandidate[] = [];

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): StoredCandidate | undefined {
    return this.#byId.get(id)?.item;
  }

  /** Adds a new candidate (its id must not be present). */
  add(item: StoredCandidate): void {
    const list = item.last_referenced === undefined ? this.#fresh : this.#referenced;
    const node: Node = { item, prev: undefined, next: undefined, list };
    this.#byId.set(item.artifact_id, node);
    this.all.push(item);
    this.#pushFront(node, list);
    if (item.pinned) this.#pinned.add(node);
    const p = prefixOf(item.artifact_id);
    this.#prefixes.set(p, (this.#prefixes.get(p) ?? 0) + 1);
  }

  /** Restores many candidates at once (from a snapshot), in creation order. */
  static from(items: readonly StoredCandidate[]): OrderedCandidates {
    const out = new OrderedCandidates();
    const sorted = [...items].sort((a, b) => a.created - b.created);
    const referenced = sorted
      .filter((i) => i.last_referenced !== undefined)
      .sort((a, b) => a.last_referenced! - b.last_referenced! || a.created - b.created);
    for (const item of sorted.filter((i) => i.last_referenced === undefined)) out.add(item);
    for (const item of referenced) out.add(item);
    // creation order for display, whatever the insertion order above
    out.all.sort((a, b) => a.created - b.created);
    return out;
  }

  /** Marks a candidate referenced at `clock` (moves it to the front of the referenced list). */
  touch(id: string, clock: number): void {
    const node = this.#byId.get(id);
    if (!node) return;
    node.item.last_referenced = clock;
    this.#unlink(node);
    this.#pushFront(node, this.#referenced);
  }

  setPinned(id: string, pinned: boolean): void {
    const node = this.#byId.get(id);
    if (!node) return;
    if (pinned) {
      node.item.pinned = true;
      this.#pinned.add(node);
    } else {
      delete node.item.pinned;
      this.#pinned.delete(node);
    }
  }

  remove(id: string): boolean {
    const node = this.#byId.get(id);
    if (!node) return false;
    this.#unlink(node);
    this.#pinned.delete(node);
    this.#byId.delete(id);
    this.all.splice(this.all.indexOf(node.item), 1);
    const p = prefixOf(id);
    const n = (this.#prefixes.get(p) ?? 1) - 1;
    if (n <= 0) this.#prefixes.delete(p);
    else this.#prefixes.set(p, n);
    return true;
  }

  /** The k candidates of highest priority, highest first (the order of comparePriority). */
  top(k: number): StoredCandidate[] {
    if (k <= 0) return [];
    const out: StoredCandidate[] = [...this.#pinned]
      .map((n) => n.item)
      .sort((a, b) => comparePriority(a, a.created, b, b.created));
    if (out.length >= k) return out.slice(0, k);
    for (const list of [this.#referenced, this.#fresh]) {
      for (let node = list.head; node && out.length < k; node = node.next) if (!node.item.pinned) out.push(node.item);
    }
    return out;
  }

  /** Short refs of the given ids: 12 hex when no other candidate shares the prefix, else longer. */
  shortRefs(ids: readonly string[]): Map<string, string> {
    const refs = new Map<string, string>();
    const colliding: string[] = [];
    for (const id of ids) {
      if (!ARTIFACT_ID_RE.test(id)) refs.set(id, id);
      else if ((this.#prefixes.get(prefixOf(id)) ?? 0) <= 1)
        refs.set(id, `${SHORT_REF_PREFIX}${id.slice(0, MIN_PREFIX_LENGTH)}`);
      else colliding.push(id);
    }
    if (colliding.length > 0) for (const [id, ref] of shortRefsFor(colliding, this.all)) refs.set(id, ref);
    return refs;
  }

  #pushFront(node: Node, list: List): void {
    node.list = list;
    node.prev = undefined;
    node.next = list.head;
    if (list.head) list.head.prev = node;
    list.head = node;
  }

  #unlink(node: Node): void {
    if (node.prev) node.prev.next = node.next;
    else node.list.head = node.next;
    if (node.next) node.next.prev = node.prev;
    node.prev = undefined;
    node.next = undefined;
  }
}

function prefixOf(id: string): string {
  return id.startsWith(SHORT_REF_PREFIX)
    ? id.slice(SHORT_REF_PREFIX.length, SHORT_REF_PREFIX.length + MIN_PREFIX_LENGTH)
    : id.slice(0, MIN_PREFIX_LENGTH);
}
