import { createHash } from "node:crypto";
import type { IndexCandidate } from "@artifact-refs/hot-state";

export const idOf = (seed: string | number): string => createHash("sha256").update(String(seed)).digest("hex");

export function candidates(n: number, extra: (i: number) => Partial<IndexCandidate> = () => ({})): IndexCandidate[] {
  return Array.from({ length: n }, (_, i) => ({
    artifact_id: idOf(i),
    type: "log",
    label: `out-${i}.log`,
    ...extra(i),
  }));
}
