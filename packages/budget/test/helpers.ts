import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** ../shared/data/trajectories relative to the project root (read in place, never copied). */
export const TRAJECTORIES_DIR = fileURLToPath(new URL("../../../../shared/data/trajectories/", import.meta.url));

export function trajectoryFiles(): string[] {
  return readdirSync(TRAJECTORIES_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => `${TRAJECTORIES_DIR}${f}`);
}

/** Every message content of every trajectory (tool outputs, prompts, replies). */
export function trajectoryTexts(): string[] {
  const texts: string[] = [];
  for (const file of trajectoryFiles()) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      texts.push((JSON.parse(line) as { content: string }).content);
    }
  }
  return texts;
}
