import { PeekReceiptSchema, hasErrorCode, receiptName, toHandle, type SessionReference } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes, formatCount } from "../format.js";
import { intParser } from "../parse-options.js";
import { REF_ARGUMENT_HELP, examples, sessionOf } from "./shared.js";

export const DEFAULT_PREVIEW_CHARS = 400;

export function register(program: Command, ctx: CliContext): void {
  program
    .command("peek")
    .summary("show an artifact's metadata, a tiny preview and the sessions that reference it")
    .argument("<ref>", REF_ARGUMENT_HELP)
    .option("--session <id>", "resolve the ref within this session (and show only its reference)")
    .option("--chars <n>", `preview length in characters (1-2000)`, intParser(1, 2000), DEFAULT_PREVIEW_CHARS)
    .addHelpText(
      "after",
      examples([
        ["aref peek art:3f9b2a1c8e4d", "type, size, MIME, summary, references and the first 400 chars"],
        ["aref peek art:3f9b2a1c8e4d --json | jq .record", "the metadata record"],
      ]),
    )
    .action(async (ref: string, opts: { session?: string; chars: number }, cmd: Command) => {
      const session = sessionOf(opts.session);
      const { preview: structuralPreview } = await import("@artifact-refs/resolve");
      const store = await ctx.openStore(cmd);
      const sessionOption = session === undefined ? {} : { session };
      const id = await store.resolve(ref, sessionOption);
      const record = await store.getRecord(id, sessionOption);
      const bytes = await store.get(id, sessionOption);
      // A structural preview within the cap: JSON shape, log errors and tail, failing tests, code outline, text head and tail.
      const shown = structuralPreview(bytes, {
        maxChars: opts.chars,
        ...(record.mime ? { mime: record.mime } : {}),
        ...(record.label ? { label: record.label } : {}),
      });
      const preview = shown.preview;
      const references: SessionReference[] = [];
      for (const s of session === undefined ? await store.listSessions() : [session]) {
        try {
          references.push(
            ...(await store.listReferences(s, { includeExpired: true })).filter((r) => r.artifact_id === id),
          );
        } catch (error) {
          if (!hasErrorCode(error, "UNKNOWN_SESSION")) throw error; // the session emptied while we looked
        }
      }
      const shortRef = await ctx.shortRefOf(store, id, session);
      await ctx.emit(
        PeekReceiptSchema,
        { schema: receiptName("peek"), handle: toHandle(id), short_ref: shortRef, record, preview, references },
        async (r) => {
          const now = Date.now();
          const refs = r.references.map(
            (x) =>
              `${x.session_id}${x.label ? ` (${x.label})` : ""}${x.expires_at ? (Date.parse(x.expires_at) <= now ? " [expired]" : ` [expires ${x.expires_at}]`) : ""}`,
          );
          const lines = [
            `${r.short_ref}  ${r.handle}`,
            `type: ${r.record.type}   size: ${formatBytes(r.record.size_bytes)} (${formatCount(r.record.size_bytes)} bytes)   mime: ${r.record.mime ?? "?"}   encoding: ${r.record.encoding}`,
            `created: ${r.record.created_at}${r.record.label ? `   label: ${r.record.label}` : ""}`,
            ...(r.record.summary ? [`summary: ${r.record.summary}`] : []),
            `references: ${refs.length > 0 ? refs.join(", ") : "none (garbage for the next gc)"}`,
            `--- ${shown.kind} preview (${formatCount(r.preview.length)} chars; ${r.record.encoding === "binary" ? `\`aref cat ${r.short_ref} > file\` for the bytes` : `\`aref fetch ${r.short_ref}\` for more`}) ---`,
            r.preview,
          ];
          await ctx.out(`${lines.join("\n")}${r.preview.endsWith("\n") ? "" : "\n"}`);
        },
      );
    });
}
