import { ArefError, ResolutionExecutionSchema } from "@artifact-refs/schema";
import { z } from "zod";
import { type Resolution, resolveReferences } from "./resolve.js";

/** The reference-resolution data set format (shared/data/references/README.md). */
export const ReferenceSetSchema = z.object({
  version: z.number(),
  scenarios: z.array(
    z.object({
      id: z.string(),
      executions: z.array(ResolutionExecutionSchema),
      queries: z.array(
        z.object({
          id: z.string(),
          after: z.string(),
          text: z.string(),
          expected: z.array(z.string()),
          kind: z.string(),
        }),
      ),
    }),
  ),
});
export type ReferenceSet = z.infer<typeof ReferenceSetSchema>;

export interface QueryOutcome {
  id: string;
  kind: string;
  text: string;
  expected: string[];
  got: string[];
  ambiguous: boolean;
  correct: boolean;
  /** For plural queries: every expected id is in the top len(expected). */
  pluralAll?: boolean;
}

export interface KindFigures {
  correct: number;
  total: number;
}

export interface EvaluationReport {
  /** Top-1 accuracy over the queries that are neither `none` nor `ambiguous`. */
  top1: KindFigures;
  /** `none` queries answered with no candidate. */
  none: KindFigures;
  /** `ambiguous` queries whose answer holds every expected id and is flagged or has several. */
  ambiguous: KindFigures;
  byKind: Record<string, KindFigures>;
  plural: KindFigures;
  /** Candidates returned for `none` queries (invented references). */
  invented: number;
  outcomes: QueryOutcome[];
}

/** Scores the resolver on a reference set with the data set's own rules. */
export function evaluateReferenceSet(
  data: unknown,
  resolve: (
    text: string,
    executions: ReturnType<typeof ResolutionExecutionSchema.parse>[],
  ) => Resolution = resolveReferences,
): EvaluationReport {
  const parsed = ReferenceSetSchema.safeParse(data);
  if (!parsed.success) {
    throw new ArefError("INVALID_INPUT", `not a reference set: ${parsed.error.issues[0]?.message ?? "invalid"}`, {
      hint: "see shared/data/references/README.md for the format",
    });
  }
  const report: EvaluationReport = {
    top1: z0(),
    none: z0(),
    ambiguous: z0(),
    byKind: {},
    plural: z0(),
    invented: 0,
    outcomes: [],
  };
  for (const scenario of parsed.data.scenarios) {
    for (const q of scenario.queries) {
      const at = scenario.executions.findIndex((e) => e.id === q.after);
      if (at === -1)
        throw new ArefError("INVALID_INPUT", `query ${q.id}: no execution ${q.after} in scenario ${scenario.id}`);
      const r = resolve(q.text, scenario.executions.slice(0, at + 1));
      const got = r.candidates.map((c) => c.id);
      let correct: boolean;
      if (q.kind === "none") {
        correct = got.length === 0;
        report.invented += got.length > 0 ? 1 : 0;
        bump(report.none, correct);
      } else if (q.kind === "ambiguous") {
        correct = q.expected.every((id) => got.includes(id)) && (r.ambiguous || got.length > 1);
        bump(report.ambiguous, correct);
      } else {
        correct = got[0] === q.expected[0];
        bump(report.top1, correct);
      }
      const outcome: QueryOutcome = {
        id: q.id,
        kind: q.kind,
        text: q.text,
        expected: q.expected,
        got,
        ambiguous: r.ambiguous,
        correct,
      };
      if (q.expected.length > 1 && q.kind !== "ambiguous") {
        outcome.pluralAll = q.expected.every((id) => got.slice(0, q.expected.length).includes(id));
        bump(report.plural, outcome.pluralAll);
      }
      report.byKind[q.kind] ??= z0();
      bump(report.byKind[q.kind]!, correct);
      report.outcomes.push(outcome);
    }
  }
  return report;
}

function z0(): KindFigures {
  return { correct: 0, total: 0 };
}
function bump(f: KindFigures, ok: boolean): void {
  f.total++;
  if (ok) f.correct++;
}

/** The report as a markdown table (per kind, then the three headline figures). */
export function formatEvaluation(report: EvaluationReport, title = "Reference resolution"): string {
  const pct = (f: KindFigures) => (f.total ? `${((100 * f.correct) / f.total).toFixed(1)}%` : "–");
  const lines = [`### ${title}`, "", "| kind | correct | total | rate |", "|---|---:|---:|---:|"];
  for (const kind of Object.keys(report.byKind).sort()) {
    const f = report.byKind[kind]!;
    lines.push(`| ${kind} | ${f.correct} | ${f.total} | ${pct(f)} |`);
  }
  lines.push(
    "",
    `- top-1 on resolvable queries: **${report.top1.correct}/${report.top1.total} (${pct(report.top1)})**`,
    `- \`none\` answered with nothing: **${report.none.correct}/${report.none.total}** (invented references: ${report.invented})`,
    `- \`ambiguous\` flagged with every expected id: **${report.ambiguous.correct}/${report.ambiguous.total}**`,
    `- plural queries with every target in the top len(expected): ${report.plural.correct}/${report.plural.total}`,
  );
  return lines.join("\n");
}
