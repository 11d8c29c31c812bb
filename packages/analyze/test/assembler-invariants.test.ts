/**
 * The quality bar, checked on every replayed call of every real trajectory in
 * ../shared/data/trajectories and ../shared/data/trajectories-more, for both strategies:
 *  - the system prompt and the first task message are kept (verbatim, or as a bootstrap ArtifactRef);
 *  - the hot state is kept (append: the full state plus updates add up to it), except in a
 *    prompt that carries the whole transcript when the state says nothing the messages do not;
 *  - the last two turns are kept (verbatim, or the tool result / long message by reference)
 *    unless the budget moved them into the checkpoint (a recorded cut);
 *  - the user's latest request is in the prompt (whole, or its head and tail by reference);
 *  - every message left out is reachable from the prompt's checkpoint reference;
 *  - the prompt is within maxPromptTokens with no violation.
 * Per file: window tokens and append cache-weighted cost at most naive's. Then the totals of
 * each set against the targets.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HotState } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { expect, it } from "vitest";
import {
  HOT_STATE_PREFIX,
  HOT_STATE_UPDATE_PREFIX,
  applyHotStateDelta,
  layoutHistory,
  readCheckpoint,
  stableJson,
  storedForm,
  type AssembledPrompt,
  type CheckpointMessage,
} from "@artifact-refs/context";
import {
  POLICY_NAMES,
  parseReplayTranscript,
  replayTranscript,
  totalReports,
  type ReplayCall,
  type ReplayReport,
} from "../src/index.js";
import { describeWithData, sharedDataFiles } from "@artifact-refs/tooling/testing/shared-data";
import { TRAJECTORY_DIR, TRAJECTORY_MORE_DIR } from "./helpers.js";

const SETS = [
  { name: "trajectories", dir: TRAJECTORY_DIR, min: 17 },
  { name: "trajectories-more", dir: TRAJECTORY_MORE_DIR, min: 30 },
].map((set) => ({ ...set, files: sharedDataFiles(set.name, ".jsonl") }));
const MAX_PROMPT_TOKENS = 8_000;

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Memoised walk of a checkpoint chain: each pack is read (and validated) once. */
class Reach {
  readonly #memo = new Map<string, Map<number, CheckpointMessage>>();
  constructor(
    readonly store: ArtifactStore,
    readonly session: string,
  ) {}
  async of(handle: string): Promise<Map<number, CheckpointMessage>> {
    const hit = this.#memo.get(handle);
    if (hit) return hit;
    const pack = await readCheckpoint(this.store, handle, this.session);
    const out = new Map(pack.previous ? await this.of(pack.previous) : []);
    for (const m of pack.messages) out.set(m.index, m);
    this.#memo.set(handle, out);
    return out;
  }
}

const verified = new Set<string>();
async function expectStored(store: ArtifactStore, id: string, original: string, what: string): Promise<void> {
  const key = `${id}:${sha(original)}`;
  if (verified.has(key)) return;
  const text = await store.getText(id);
  expect(text === original, `${what}: stored artifact ${id.slice(0, 12)} is byte-identical to the original`).toBe(true);
  verified.add(key);
}

function expectBootstrapOrVerbatim(content: string, original: string, what: string): void {
  if (content === original) return;
  const id = sha(original);
  expect(content, `${what} kept verbatim or as its bootstrap ArtifactRef`).toContain(
    `ArtifactRef: ${id} (type=text/plain, sha256=${id}, bytes=${Buffer.byteLength(original)}, `,
  );
}

function hotStateOf(prompt: AssembledPrompt): HotState {
  const parts = prompt.parts.filter((p) => p.kind === "hot_state").map((p) => p.message.content);
  expect(parts.length, "a hot state part").toBeGreaterThan(0);
  expect(parts[0]!.startsWith(HOT_STATE_PREFIX)).toBe(true);
  let state = JSON.parse(parts[0]!.slice(HOT_STATE_PREFIX.length)) as HotState;
  for (const update of parts.slice(1)) {
    expect(update.startsWith(HOT_STATE_UPDATE_PREFIX)).toBe(true);
    state = applyHotStateDelta(state, JSON.parse(update.slice(HOT_STATE_UPDATE_PREFIX.length)));
  }
  return state;
}

async function checkPrompt(
  c: ReplayCall,
  prompt: AssembledPrompt,
  reach: Reach,
  label: string,
  maxTokens = MAX_PROMPT_TOKENS,
): Promise<void> {
  const where = `${label} call ${c.call}`;
  expect(prompt.violations, `${where}: violations`).toEqual([]);
  expect(prompt.tokens, `${where}: tokens`).toBeLessThanOrEqual(maxTokens);
  const layout = layoutHistory(c.history);
  const bySource = new Map(prompt.parts.filter((p) => p.source !== undefined).map((p) => [p.source!, p]));

  // System prompt and first task message.
  const firstTask = layout.task.find((i) => c.original[i]!.role === "user");
  for (const i of [...layout.system, ...(firstTask === undefined ? [] : [firstTask])]) {
    const part = bySource.get(i);
    expect(part, `${where}: message #${i} (system/task) in the prompt`).toBeDefined();
    expectBootstrapOrVerbatim(part!.message.content, c.original[i]!.content, `${where}: message #${i}`);
    if (part!.ref) await expectStored(c.store, part!.ref, c.original[i]!.content, `${where}: bootstrap #${i}`);
  }

  // Hot state: kept, or left out of a whole-transcript prompt when it only repeats what is shown.
  if (prompt.parts.some((p) => p.kind === "hot_state"))
    expect(stableJson(hotStateOf(prompt)), `${where}: hot state`).toBe(stableJson(c.hotState));
  else {
    expect(prompt.omitted, `${where}: no hot state only in a whole-transcript prompt`).toEqual([]);
    expect(Object.keys(c.hotState).every((k) => ["session_id", "objective", "artifact_index"].includes(k))).toBe(true);
  }

  // The user's latest request (after the task) is in the prompt.
  const firstTurn = layout.turns[0]?.[0];
  if (firstTurn !== undefined) {
    let request = -1;
    for (let i = c.history.length - 1; i >= firstTurn; i--)
      if (c.history[i]!.role === "user") {
        request = i;
        break;
      }
    if (request >= 0) expect(bySource.has(request), `${where}: request #${request} in the prompt`).toBe(true);
  }

  // Last two turns: verbatim, or by reference to byte-identical content (or moved into the checkpoint by a recorded cut).
  const movedTurns = prompt.cuts.some((cut) => cut.what.startsWith("turn at message"));
  for (const i of layout.turns.slice(-2).flat()) {
    const part = bySource.get(i);
    if (part === undefined && movedTurns) continue;
    expect(part, `${where}: message #${i} of the last two turns`).toBeDefined();
    const h = c.history[i]!;
    if (part!.message.content === c.original[i]!.content) continue;
    if (part!.message.content === h.content) {
      if (h.artifactRef)
        await expectStored(c.store, h.artifactRef.artifact_id, c.original[i]!.content, `${where}: #${i}`);
      continue;
    }
    expect(part!.ref, `${where}: message #${i} shown by reference`).toBeDefined();
    await expectStored(c.store, part!.ref!, storedForm(c.original[i]!), `${where}: #${i}`);
  }

  // Everything left out is reachable from the checkpoint the prompt names.
  if (prompt.omitted.length > 0) {
    expect(prompt.checkpoint, `${where}: checkpoint`).toBeDefined();
    const ckpt = prompt.checkpoint!;
    expect(
      prompt.parts.some((p) => p.kind === "checkpoint" && p.message.content.includes(ckpt.shortRef)),
      `${where}: checkpoint ref in prompt`,
    ).toBe(true);
    const reachable = await reach.of(ckpt.handle);
    for (const i of prompt.omitted) {
      const m = reachable.get(i);
      expect(m, `${where}: omitted #${i} reachable`).toBeDefined();
      const original = c.original[i]!.content;
      if (m!.artifact_ref)
        await expectStored(
          c.store,
          m!.artifact_ref.artifact_id,
          c.original[i]!.role === "tool" ? original : storedForm(c.original[i]!),
          `${where}: omitted #${i}`,
        );
      else expect(m!.content === original, `${where}: omitted #${i} verbatim in the checkpoint`).toBe(true);
    }
  }
}

for (const set of SETS) {
  const reports: ReplayReport[] = [];
  const FILES = set.files;
  describeWithData(set.name, `assembler invariants on every replayed call of ${set.name}`, () => {
    it("finds the trajectories", () => {
      expect(FILES.length).toBeGreaterThanOrEqual(set.min);
    });

    for (const file of FILES) {
      it(file, async () => {
        const parsed = parseReplayTranscript(readFileSync(join(set.dir, file), "utf8"), file);
        let reach: Reach | undefined;
        let checked = 0;
        const report = await replayTranscript(parsed.messages, {
          maxPromptTokens: MAX_PROMPT_TOKENS,
          onCall: async (c) => {
            reach ??= new Reach(c.store, c.session);
            await checkPrompt(c, c.window, reach, "window");
            await checkPrompt(c, c.append, reach, "append");
            checked++;
          },
        });
        expect(checked).toBe(report.calls);
        expect(report.calls).toBe(parsed.messages.filter((m) => m.role === "assistant").length);
        expect(report.rehydration_mismatches).toBe(0);
        expect(report.budget_violations).toBe(0);
        // Never costlier than naive, per file: window tokens and append cache-weighted cost.
        expect(report.strategies.window.tokens).toBeLessThanOrEqual(report.naive_tokens);
        expect(report.strategies.append.cost).toBeLessThanOrEqual(report.naive_cost * (1 + 1e-9));
        reports.push(report);
      }, 240_000);
    }

    for (const file of FILES.filter((f) =>
      /django-16950|pydicom|marshmallow|swe-play-2|nnetnav-live__openweb_4613/.test(f),
    )) {
      it(`${file} with appendCompaction "cost" and a 16,000-token budget`, async () => {
        const parsed = parseReplayTranscript(readFileSync(join(set.dir, file), "utf8"), file);
        let reach: Reach | undefined;
        const report = await replayTranscript(parsed.messages, {
          maxPromptTokens: 16_000,
          appendCompaction: "cost",
          onCall: async (c) => {
            reach ??= new Reach(c.store, c.session);
            await checkPrompt(c, c.append, reach, "append(cost)", 16_000);
          },
        });
        expect(report.budget_violations).toBe(0);
        expect(report.rehydration_mismatches).toBe(0);
      }, 240_000);
    }

    it("meets the targets in total: window ≤ 15% of naive tokens, append ≤ 40% of naive cost, both below every peer", () => {
      expect(reports).toHaveLength(FILES.length);
      const t = totalReports(reports);
      const floor = t.floor_tokens / t.naive_tokens;
      expect(floor).toBeGreaterThan(0.03);
      expect(floor).toBeLessThan(0.1);
      expect(t.strategies.window.tokens / t.naive_tokens).toBeLessThanOrEqual(0.15);
      expect(t.strategies.append.cost / t.naive_cost).toBeLessThanOrEqual(0.4);
      for (const name of POLICY_NAMES) {
        expect(t.strategies.window.tokens, `window below ${name} on tokens`).toBeLessThan(t.policies[name].tokens);
        expect(t.strategies.append.cost, `append below ${name} on cost`).toBeLessThan(t.policies[name].cost);
      }
      expect(t.rehydration_mismatches).toBe(0);
      expect(t.budget_violations).toBe(0);
    });
  });
}
