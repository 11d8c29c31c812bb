import type { HotState } from "@artifact-refs/schema";

/**
 * Whether a hot state says nothing that a prompt carrying the whole transcript does not show:
 * it holds only its session id, an objective that repeats the task (tags and whitespace aside)
 * and index entries of artifacts the prompt shows. Then the whole-transcript ("verbatim")
 * prompt can leave it out and cost no more than the naive transcript.
 */
export function hotStateShown(state: HotState, taskText: string, shownArtifacts: ReadonlySet<string>): boolean {
  for (const key of Object.keys(state)) {
    if (key !== "session_id" && key !== "objective" && key !== "artifact_index") return false;
  }
  if (state.objective !== undefined && state.objective.length > 0) {
    const objective = normalize(state.objective).replace(/…$/, "");
    if (!normalize(taskText).includes(objective)) return false;
  }
  for (const entry of state.artifact_index ?? []) {
    if (!shownArtifacts.has(entry.artifact_id)) return false;
  }
  return true;
}

function normalize(text: string): string {
  return text
    .replace(/<[^>\n]{1,40}>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Parts of `next` extend `previous` part for part, byte for byte (an append-only prompt). */
export function extendsParts(previous: readonly { text: string }[], next: readonly { text: string }[]): boolean {
  if (next.length < previous.length) return false;
  for (let i = 0; i < previous.length; i++) if (previous[i]!.text !== next[i]!.text) return false;
  return true;
}

/**
 * Whether `answer` (an artifacts_get result) is taken from `text`: all of it, or a head and
 * tail excerpt of it (starts with its start and ends with its end).
 */
export function selectionOf(answer: string, text: string): boolean {
  if (answer.length === 0) return false;
  if (text.includes(answer)) return true;
  if (answer.length < 256) return false;
  return text.startsWith(answer.slice(0, 128)) && text.endsWith(answer.slice(-64));
}
