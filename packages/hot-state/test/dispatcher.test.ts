import { hasErrorCode, MAX_LABEL_CHARS } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { createDispatcher } from "@artifact-refs/hot-state";
import { idOf } from "./helpers.js";

describe("dispatcher", () => {
  it("only the writer writes; the view is frozen and read-only", () => {
    const { writer, view } = createDispatcher({ session_id: "s1", state: { objective: "ship it" } });
    writer.addArtifact({ artifact_id: idOf(1), type: "code", label: "a.ts" });
    const built = writer.build();
    expect(view.current).toBe(built);
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(writer)).toBe(true);
    expect(Object.keys(view)).not.toContain("writer");
    expect(() => {
      (view as unknown as { current: unknown }).current = undefined;
    }).toThrow(TypeError);
    expect(() => {
      (view.fields() as { objective?: string }).objective = "hijack";
    }).toThrow(TypeError);
    expect(() => {
      (view.artifacts()[0] as { pinned?: boolean }).pinned = true;
    }).toThrow(TypeError);
    expect(() => {
      (view.current!.state.artifact_index as unknown[]).push({});
    }).toThrow(TypeError);
    expect(view.fields().objective).toBe("ship it");
  });

  it("validates every write and refuses an invalid one whole", () => {
    const { writer, view } = createDispatcher({ session_id: "s1" });
    let error: unknown;
    try {
      writer.update({ risk_level: "catastrophic" as never, objective: "x" });
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, "INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toMatch(/invalid hot state update: risk_level/);
    expect(view.fields().objective).toBeUndefined();
    expect(() => writer.addArtifact({ artifact_id: "abc", type: "log" })).toThrow(
      /invalid hot state artifact: artifact_id/,
    );
    expect(() => writer.addDecision("")).toThrow(/must not be empty/);
    expect(() => createDispatcher({ session_id: "" })).toThrow(/session_id/);
  });

  it("keeps entries in a stable order; new ones are appended; an unchanged state is byte-identical", () => {
    const { writer } = createDispatcher({ session_id: "s1", state: { objective: "o" } });
    writer.addArtifact({ artifact_id: idOf(1), type: "code", label: "a.ts" });
    writer.addArtifact({ artifact_id: idOf(2), type: "doc", label: "b.md" });
    const first = writer.build().json;
    expect(writer.build().json).toBe(first);
    writer.reference(idOf(1)); // recency changes priority, not position
    expect(writer.build().json).toBe(first);
    writer.addArtifact({ artifact_id: idOf(3), type: "log", label: "c.log" });
    const second = writer.build().json;
    const cut = first.lastIndexOf("]");
    expect(second.slice(0, cut)).toBe(first.slice(0, cut));
    expect(second.slice(cut)).toMatch(/^,\{"artifact_id":"art:[0-9a-f]{12}","type":"log","label":"c.log"\}\]/);
    // a per-step field comes last: changing it keeps the whole index prefix
    writer.update({ last_successful_step: "step 1" });
    const third = writer.build().json;
    expect(third.startsWith(second.slice(0, -1))).toBe(true);
  });

  it("references, pins and removes by full id, handle, short ref or prefix", () => {
    const { writer, view } = createDispatcher({ session_id: "s1" });
    for (let i = 0; i < 25; i++) writer.addArtifact({ artifact_id: idOf(i), type: "log", label: `l${i}` });
    expect(writer.pin(`art:${idOf(0).slice(0, 12)}`)).toBe(true);
    expect(writer.reference(`aref:v1:sha256:${idOf(1)}`)).toBe(true);
    expect(writer.reference(idOf(2).slice(0, 14))).toBe(true);
    expect(writer.reference(idOf(999))).toBe(false);
    const labels = writer.build().state.artifact_index!.map((e) => e.label);
    expect(labels.slice(0, 3)).toEqual(["l0", "l1", "l2"]);
    expect(labels).toHaveLength(20);
    expect(labels).not.toContain("l3");
    expect(writer.removeArtifact(idOf(0))).toBe(true);
    expect(view.artifacts()).toHaveLength(24);
    expect(writer.unpin(idOf(1))).toBe(true);
    expect(() => writer.reference("art:zz")).toThrow(/invalid artifact reference/);
  });

  it("re-adding an artifact refreshes it in place", () => {
    const { writer, view } = createDispatcher({ session_id: "s1" });
    writer.addArtifact({ artifact_id: idOf(1), type: "log", label: "old" });
    writer.addArtifact({ artifact_id: idOf(2), type: "log" });
    writer.addArtifact({ artifact_id: idOf(1), type: "log", label: "new" });
    expect(view.artifacts().map((a) => a.label)).toEqual(["new", undefined]);
    expect(view.artifacts()[0]!.last_referenced).toBeGreaterThan(0);
  });

  it("lists: decisions, questions (resolved ones go), constraints", () => {
    const { writer, view } = createDispatcher({ session_id: "s1" });
    writer.addDecision("use S3");
    writer.addQuestion("which region?");
    writer.addConstraint("no network in tests");
    expect(writer.resolveQuestion("which region?")).toBe(true);
    expect(writer.resolveQuestion("which region?")).toBe(false);
    expect(view.fields()).toEqual({
      session_id: "s1",
      accepted_decisions: ["use S3"],
      open_questions: [],
      constraints: ["no network in tests"],
    });
    writer.update({ objective: "x", constraints: undefined });
    expect(view.fields().constraints).toBeUndefined();
  });

  it("snapshots and restores, and refuses a snapshot of another session or a broken one", () => {
    const { writer } = createDispatcher({ session_id: "s1", state: { objective: "o" } });
    writer.addArtifact({ artifact_id: idOf(1), type: "code" }, { pinned: true });
    writer.addArtifact({ artifact_id: idOf(2), type: "doc" });
    const snap = JSON.parse(JSON.stringify(writer.snapshot()));
    const restored = createDispatcher({ session_id: "s1", snapshot: snap });
    expect(restored.writer.build().json).toBe(writer.build().json);
    expect(() => createDispatcher({ session_id: "s2", snapshot: snap })).toThrow(/not "s2"/);
    const broken = { ...snap, artifacts: [{ ...snap.artifacts[0], type: "nope" }] };
    expect(() => createDispatcher({ session_id: "s1", snapshot: broken })).toThrow(
      /invalid hot state snapshot: artifacts\.0\.type/,
    );
    // An entry is held to the artifact index entry's limits, and nothing else rides along.
    const long = { ...snap, artifacts: [{ ...snap.artifacts[0], label: "x".repeat(MAX_LABEL_CHARS + 1) }] };
    expect(() => createDispatcher({ session_id: "s1", snapshot: long })).toThrow(
      /invalid hot state snapshot: artifacts\.0\.label/,
    );
    const extra = { ...snap, artifacts: [{ ...snap.artifacts[0], secret: "x" }] };
    expect(() => createDispatcher({ session_id: "s1", snapshot: extra })).toThrow(/invalid hot state snapshot/);
  });
});
