import { readFile } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import {
  ArefError,
  ResolutionExecutionSchema,
  ResolveReceiptSchema,
  hasErrorCode,
  receiptName,
  type SessionReference,
} from "@artifact-refs/schema";
import type { ExecutionLike } from "@artifact-refs/resolve";
import { mapLimit } from "@artifact-refs/store/internal";
import type { Command } from "commander";
import { z } from "zod";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { oneLine, table } from "../format.js";
import { DEFAULT_SESSION, examples, sessionOf } from "./shared.js";

interface ResolveOptions {
  session?: string;
  executions?: string;
  after?: string;
  limit?: string;
  previous?: string;
}

/** Reads --executions FILE: a JSON array of executions in the reference data set's format. */
async function readExecutions(ctx: CliContext, file: string): Promise<ExecutionLike[]> {
  let text: string;
  try {
    text = await readFile(resolvePath(ctx.io.cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new ArefError("NOT_FOUND", `no such file: ${file}`, {
        hint: "pass a JSON file with an array of executions",
      });
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ArefError("INVALID_INPUT", `${file} is not JSON: ${(error as Error).message}`, {
      hint: 'expected [{"id": "e1", "tool_name": "read_file", "tool_args": {...}, ...}]',
    });
  }
  const parsed = z.array(ResolutionExecutionSchema).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ArefError(
      "INVALID_INPUT",
      `${file} is not an array of executions: ${issue.path.join(".") || "top level"}: ${issue.message}`,
      {
        hint: 'each execution needs "id" and "tool_name" (and may have tool_args, label, summary, size_bytes, result_type)',
      },
    );
  }
  const ids = new Set<string>();
  for (const e of parsed.data) {
    if (ids.has(e.id))
      throw new ArefError("INVALID_INPUT", `${file}: execution id ${JSON.stringify(e.id)} appears twice`, {
        hint: "give each execution a unique id",
      });
    ids.add(e.id);
  }
  return parsed.data;
}

/** A session's live artifacts as executions: the tool and arguments they were stored with, label and summary. */
async function sessionExecutions(ctx: CliContext, cmd: Command, session: string): Promise<ExecutionLike[]> {
  const store = await ctx.openStore(cmd);
  let references: SessionReference[];
  try {
    references = await store.listReferences(session);
  } catch (error) {
    if (hasErrorCode(error, "UNKNOWN_SESSION")) return [];
    throw error;
  }
  return mapLimit(references, 8, async (reference) => {
    let summary: string | undefined;
    try {
      summary = (await store.getRecord(reference.artifact_id)).summary;
    } catch (error) {
      if (!hasErrorCode(error, "NOT_FOUND") && !hasErrorCode(error, "CORRUPT_METADATA")) throw error;
    }
    return {
      id: await ctx.shortRefOf(store, reference.artifact_id, session),
      tool_name: reference.tool?.name ?? reference.type,
      tool_args: reference.tool?.args ?? {},
      ...(reference.label === undefined ? {} : { label: reference.label }),
      ...(summary === undefined ? {} : { summary }),
      timestamp: reference.created_at,
      // Every reference of a session is an artifact in the store: "what I just stashed" may mean any of them.
      stashed: true,
    };
  });
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("resolve")
    .summary("find the executions or artifacts a user's words refer to")
    .description(
      'Resolve natural-language references ("what I just loaded", "the test run", "the package.json", "the log before the last one") ' +
        "to ranked candidates with the reasons for each. Resolves over a session's artifacts (--session, the default session when neither flag is given) " +
        "or over a JSON array of executions (--executions FILE, the reference data set's format). " +
        "Returns no candidate when the words refer to nothing, and flags `ambiguous` when different things fit equally.",
    )
    .argument("<text>", "the user's words")
    .option("--session <id>", `resolve over this session's artifacts (default: ${DEFAULT_SESSION})`)
    .option("--executions <file>", "resolve over the executions in this JSON file instead of a store session")
    .option("--after <id>", "only the executions up to and including this id (the message came right after it)")
    .option("--limit <n>", "at most N candidates (default 5)")
    .option(
      "--previous <ids>",
      'the previous answer\'s ids, comma-separated, for follow-ups ("the other one", "the one before that", "both of them")',
    )
    .addHelpText(
      "after",
      examples([
        ['aref resolve "summarize what I just loaded" --session s1', "the session's latest file read"],
        [
          'aref resolve "the log before the last one" --executions session.json --after e4 --json',
          "a resolve receipt (artifact-refs.resolve.v1)",
        ],
        [
          'aref resolve "and the other one?" --executions session.json --previous e5,e4',
          "a follow-up on the previous answer",
        ],
      ]),
    )
    .action(async (text: string, opts: ResolveOptions, cmd: Command) => {
      if (opts.session !== undefined && opts.executions !== undefined) {
        throw new UsageError(
          "choose --session or --executions, not both",
          "resolve over a store session or over a file of executions",
        );
      }
      let limit = 5;
      if (opts.limit !== undefined) {
        if (!/^\d+$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > 100) {
          throw new ArefError(
            "INVALID_INPUT",
            `--limit must be a whole number from 1 to 100, got ${JSON.stringify(opts.limit)}`,
            { hint: "e.g. --limit 3" },
          );
        }
        limit = Number(opts.limit);
      }
      const executions =
        opts.executions !== undefined
          ? await readExecutions(ctx, opts.executions)
          : await sessionExecutions(ctx, cmd, sessionOf(opts.session) ?? DEFAULT_SESSION);
      let previous: string[] | undefined;
      if (opts.previous !== undefined) {
        previous = opts.previous
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean);
        if (previous.length === 0)
          throw new ArefError("INVALID_INPUT", "--previous needs at least one execution id", {
            hint: "e.g. --previous e5,e4 (the previous answer's ids, best first)",
          });
      }
      const { resolveReferences } = await import("@artifact-refs/resolve");
      const result = resolveReferences(text, executions, {
        ...(opts.after === undefined ? {} : { after: opts.after }),
        ...(previous ? { previous } : {}),
        limit,
      });
      await ctx.emit(
        ResolveReceiptSchema,
        { schema: receiptName("resolve"), candidates: result.candidates, ambiguous: result.ambiguous },
        async (r) => {
          if (r.candidates.length === 0) {
            await ctx.out("no reference: the words point at nothing in these executions\n");
            return;
          }
          const rows = r.candidates.map((c) => [c.id, c.score.toFixed(2), oneLine(c.reasons.join("; "), 100)]);
          await ctx.out(`${table([["ID", "SCORE", "REASONS"], ...rows])}\n`);
          if (r.ambiguous) await ctx.err("aref: ambiguous: several different things fit equally well; ask which one\n");
        },
      );
    });
}
