import { type ArtifactType, ARTIFACT_ID_RE, MIN_PREFIX_LENGTH, SHORT_REF_PREFIX } from "@artifact-refs/schema";

/** An artifact that may go into the hot state's index. */
export interface IndexCandidate {
  /** The full 64-hex id (shown as a short ref), or a short ref already (shown as is). */
  artifact_id: string;
  type: ArtifactType;
  label?: string;
  version?: string;
  summary?: string;
  /** Pinned entries are kept before any other. */
  pinned?: boolean;
  /** Logical time of the last reference (a turn number or a counter); higher is more recent. */
  last_referenced?: number;
  /** Logical creation time; higher is newer. Default: the candidate's position in the list. */
  created?: number;
}

/**
 * The eviction policy, as an order of priority (the first kept, the last evicted):
 * 1. pinned before unpinned;
 * 2. then the most recently referenced (never referenced counts as least recent);
 * 3. then the newest (`created`, or the position in the list);
 * 4. then the later position in the list (a total order, so the choice is deterministic).
 * Returns a negative number when candidate `a` (at index ia) has the higher priority.
 */
export function comparePriority(a: IndexCandidate, ia: number, b: IndexCandidate, ib: number): number {
  const pa = a.pinned === true ? 1 : 0;
  const pb = b.pinned === true ? 1 : 0;
  if (pa !== pb) return pb - pa;
  const ra = a.last_referenced ?? Number.NEGATIVE_INFINITY;
  const rb = b.last_referenced ?? Number.NEGATIVE_INFINITY;
  if (ra !== rb) return ra > rb ? -1 : 1;
  const ca = a.created ?? ia;
  const cb = b.created ?? ib;
  if (ca !== cb) return ca > cb ? -1 : 1;
  return ib - ia;
}

/**
 * Indices of the `k` highest-priority candidates, highest first. One pass with a
 * bounded heap: O(n log k) time, O(k) memory, so 100k candidates cost little more
 * than a scan. Candidates whose id repeats an earlier selected one are skipped (the
 * higher-priority copy wins) and the next one takes its place.
 */
export function selectTop(candidates: readonly IndexCandidate[], k: number): number[] {
  if (k <= 0 || candidates.length === 0) return [];
  let want = k;
  for (;;) {
    const picked = topK(candidates, want);
    const seen = new Set<string>();
    const unique: number[] = [];
    for (const i of picked) {
      const id = candidates[i]!.artifact_id;
      if (seen.has(id)) continue;
      seen.add(id);
      unique.push(i);
      if (unique.length === k) break;
    }
    // Duplicates took slots: ask for more, unless every candidate was already considered.
    if (unique.length === k || picked.length < want) return unique;
    want += k - unique.length;
  }
}

/** Bounded min-heap (root = lowest priority kept so far). */
function topK(candidates: readonly IndexCandidate[], k: number): number[] {
  const heap: number[] = [];
  // worse(x, y): candidate x has lower priority than y
  const worse = (x: number, y: number) => comparePriority(candidates[x]!, x, candidates[y]!, y) > 0;
  const siftUp = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(heap[at]!, heap[parent]!)) break;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
  };
  const siftDown = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let worst = at;
      if (l < heap.length && worse(heap[l]!, heap[worst]!)) worst = l;
      if (r < heap.length && worse(heap[r]!, heap[worst]!)) worst = r;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
      at = worst;
    }
  };
  // Newest first: candidates are usually appended in creation order, so the newest fill the
  // heap at once and most older ones are rejected with a single comparison.
  for (let i = candidates.length - 1; i >= 0; i--) {
    if (heap.length < k) {
      heap.push(i);
      siftUp(heap.length - 1);
    } else if (worse(heap[0]!, i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((x, y) => comparePriority(candidates[x]!, x, candidates[y]!, y));
}

const NIBBLE = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) NIBBLE[48 + c] = c;
for (let c = 0; c < 6; c++) NIBBLE[97 + c] = 10 + c;
/** The first four hex digits of an id as a number (0..65535), or -1. */
function key4(id: string): number {
  const a = NIBBLE[id.charCodeAt(0) & 127]!;
  const b = NIBBLE[id.charCodeAt(1) & 127]!;
  const c = NIBBLE[id.charCodeAt(2) & 127]!;
  const d = NIBBLE[id.charCodeAt(3) & 127]!;
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * The short ref (`art:<prefix>`) of each selected id: the shortest prefix of at least 12
 * hex chars that no other candidate id shares. One cheap pass over the candidates: ids are
 * bucketed by their first four hex digits, and only those in a selected id's bucket are compared.
 */
export function shortRefsFor(
  selectedIds: readonly string[],
  candidates: readonly IndexCandidate[],
): Map<string, string> {
  const refs = new Map<string, string>();
  const full = selectedIds.filter((id) => ARTIFACT_ID_RE.test(id));
  for (const id of selectedIds) if (!ARTIFACT_ID_RE.test(id)) refs.set(id, id);
  if (full.length === 0) return refs;
  const buckets = new Uint8Array(1 << 16);
  for (const id of full) buckets[key4(id)] = 1;
  const neighbours = new Map<string, Set<string>>();
  for (let i = 0, n = candidates.length; i < n; i++) {
    const other = candidates[i]!.artifact_id;
    const key = key4(other);
    if (key < 0 || buckets[key] === 0) continue;
    for (const id of full) {
      if (other !== id && other.startsWith(id.slice(0, 4))) {
        let set = neighbours.get(id);
        if (!set) neighbours.set(id, (set = new Set()));
        set.add(other);
      }
    }
  }
  for (const id of full) {
    let length = MIN_PREFIX_LENGTH;
    for (const other of neighbours.get(id) ?? []) {
      let common = 0;
      while (common < 64 && id.charCodeAt(common) === other.charCodeAt(common)) common++;
      length = Math.max(length, Math.min(64, common + 1));
    }
    refs.set(id, `${SHORT_REF_PREFIX}${id.slice(0, length)}`);
  }
  return refs;
}
