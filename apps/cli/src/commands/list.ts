import {
  ListReceiptSchema,
  hasErrorCode,
  receiptName,
  toHandle,
  type ArtifactRecord,
  type ListItem,
  type SessionReference,
} from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { blobKey, mapLimit } from "@artifact-refs/store/internal";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes, oneLine, table } from "../format.js";
import { examples, sessionOf } from "./shared.js";

interface ListOptions {
  session?: string;
  all?: boolean;
  expired?: boolean;
}

/** One listed reference; a record that cannot be read does not stop the listing (it is flagged instead). */
async function itemOf(
  ctx: CliContext,
  store: ArtifactStore,
  reference: SessionReference,
  warnings: string[],
): Promise<ListItem> {
  const id = reference.artifact_id;
  let record: ArtifactRecord | undefined;
  let summary: string | undefined;
  try {
    record = await store.getRecord(id);
    summary = record.summary;
  } catch (error) {
    if (hasErrorCode(error, "CORRUPT_METADATA")) summary = "(metadata unreadable: run `aref verify --repair`)";
    else if (hasErrorCode(error, "NOT_FOUND")) summary = "(content missing: run `aref verify`)";
    else throw error;
    warnings.push(`${id.slice(0, 12)}: ${(error as Error).message}`);
  }
  const size = record?.size_bytes ?? (await store.driver.head(blobKey(id)))?.size ?? 0;
  return {
    handle: toHandle(id),
    short_ref: await ctx.shortRefOf(store, id),
    artifact_id: id,
    type: reference.type,
    size_bytes: size,
    created_at: reference.created_at,
    ...(reference.label === undefined ? {} : { label: reference.label }),
    ...(summary === undefined ? {} : { summary }),
    session: reference.session_id,
    ...(reference.expires_at === undefined ? {} : { expires_at: reference.expires_at }),
  };
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("list")
    .alias("ls")
    .summary("list a session's artifacts, or the sessions with their counts")
    .description(
      "With --session, list that session's live artifacts (oldest first). With --all, every session's. " +
        "Without either, list the sessions and how many live artifacts each references.",
    )
    .option("--session <id>", "list this session's artifacts")
    .option("--all", "list the artifacts of every session")
    .option("--expired", "include expired references")
    .addHelpText(
      "after",
      examples([
        ["aref list", "sessions and their artifact counts"],
        ["aref list --session s1", "the artifacts session s1 references"],
        ["aref list --all --json | jq '.items[].short_ref'", "every artifact's short ref"],
      ]),
    )
    .action(async (opts: ListOptions, cmd: Command) => {
      const session = sessionOf(opts.session);
      const store = await ctx.openStore(cmd);
      const includeExpired = opts.expired === true;
      if (session === undefined && opts.all !== true) {
        const sessions = await mapLimit(await store.listSessions(), 8, async (s) => {
          try {
            return { session: s, references: (await store.listReferences(s, { includeExpired })).length };
          } catch (error) {
            if (hasErrorCode(error, "UNKNOWN_SESSION")) return { session: s, references: 0 };
            throw error;
          }
        });
        await ctx.emit(ListReceiptSchema, { schema: receiptName("list"), count: 0, items: [], sessions }, async (r) => {
          if (r.sessions!.length === 0) {
            await ctx.out("no sessions: the store is empty (stash something with `aref stash <file>`)\n");
            return;
          }
          await ctx.out(
            `${table([["SESSION", "ARTIFACTS"], ...r.sessions!.map((s) => [s.session, String(s.references)])])}\n`,
          );
        });
        return;
      }
      const sessions = session === undefined ? await store.listSessions() : [session];
      const references: SessionReference[] = [];
      for (const s of sessions) {
        try {
          references.push(...(await store.listReferences(s, { includeExpired })));
        } catch (error) {
          if (session !== undefined || !hasErrorCode(error, "UNKNOWN_SESSION")) throw error;
        }
      }
      const warnings: string[] = [];
      const items = await mapLimit(references, 8, (reference) => itemOf(ctx, store, reference, warnings));
      await ctx.emit(
        ListReceiptSchema,
        { schema: receiptName("list"), ...(session === undefined ? {} : { session }), count: items.length, items },
        async (r) => {
          if (r.items.length === 0) {
            await ctx.out(
              session === undefined ? "no artifacts\n" : `session ${session} has no live artifacts (try --expired)\n`,
            );
          } else {
            const now = Date.now();
            const rows = r.items.map((i) => [
              i.short_ref,
              ...(session === undefined ? [i.session ?? ""] : []),
              i.type,
              formatBytes(i.size_bytes),
              i.created_at.slice(0, 19).replace("T", " "),
              `${i.label ? `${oneLine(i.label, 40)}: ` : ""}${oneLine(i.summary ?? "", 60)}${i.expires_at ? (Date.parse(i.expires_at) <= now ? " [expired]" : ` [expires ${i.expires_at.slice(0, 19).replace("T", " ")}]`) : ""}`,
            ]);
            const header = [
              "REF",
              ...(session === undefined ? ["SESSION"] : []),
              "TYPE",
              "SIZE",
              "CREATED (UTC)",
              "LABEL: SUMMARY",
            ];
            await ctx.out(`${table([header, ...rows])}\n`);
          }
        },
      );
      for (const warning of warnings) await ctx.err(`aref: warning: ${warning}\n`);
    });
}
