import { ArefError, ArtifactTypeSchema, isArefError, StashReceiptSchema, receiptName } from "@artifact-refs/schema";
import { DEFAULT_MAX_BYTES } from "@artifact-refs/store";
import { Option, type Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes } from "../format.js";
import { parseDuration, parseSize } from "../parse-options.js";
import { openFileInputs, stdinInput, tooLarge, type StashInput } from "../read-input.js";
import { DEFAULT_SESSION, checkLabel, examples, sessionOf, typeFromFileName } from "./shared.js";

interface StashOptions {
  type?: string;
  label?: string;
  session: string;
  ttl?: number;
  mime?: string;
  maxBytes?: number;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("stash")
    .summary("store files or standard input; prints their short refs")
    .description(
      "Store files (or standard input) in the artifact store and reference them from a session. Same bytes, same id: stashing twice stores once. " +
        "Content is streamed with bounded memory at any size up to --max-bytes; over 512 KiB it is stored in content-defined chunks, so a new version of a big file stores only what changed. " +
        "Prints one short ref (art:<hex>) per file on stdout, or one stash receipt per file with --json.",
    )
    .argument("[files...]", "files to store; `-` or nothing reads standard input")
    .addOption(
      new Option("--type <type>", "artifact type (default: from the file extension, else tool_output)").choices(
        ArtifactTypeSchema.options,
      ),
    )
    .option("--label <text>", "label shown in listings (default: the file's name)")
    .option(
      "--session <id>",
      "session that references the artifact (unreferenced blobs are garbage for gc)",
      DEFAULT_SESSION,
    )
    .option("--ttl <duration>", "the reference expires after this long: 30s, 15m, 2h, 7d", parseDuration)
    .option(
      "--mime <type>",
      "MIME type to record (default: sniffed: application/json, text/html, text/plain or application/octet-stream)",
    )
    .option(
      "--max-bytes <size>",
      `size cap per artifact (default: the store spec's ?maxBytes=, else ${formatBytes(DEFAULT_MAX_BYTES)}): 1048576, 2MiB`,
      parseSize,
    )
    .addHelpText(
      "after",
      examples([
        ["aref stash build.log", "store a file; prints art:<12 hex>"],
        ["aref stash a.log b.log c.json", "store several files: one short ref (or receipt) each"],
        [
          "npm test 2>&1 | aref stash - --type log --label 'npm test' --session s1 --ttl 2h",
          "store a command's output for two hours",
        ],
        ["aref stash data.json --json", "print the stash receipt (handle, id, short ref, bytes, deduped, …)"],
      ]),
    )
    .action(async (files: string[], opts: StashOptions, cmd: Command) => {
      const session = sessionOf(opts.session)!;
      if (
        opts.mime !== undefined &&
        (opts.mime.length === 0 || opts.mime.length > 200 || !/^[\x21-\x7e]+$/.test(opts.mime))
      ) {
        throw new ArefError(
          "INVALID_INPUT",
          `invalid --mime ${JSON.stringify(opts.mime)}: expected a MIME type such as text/plain (1-200 printable characters, no spaces)`,
        );
      }
      const paths = files.length === 0 ? ["-"] : files;
      if (paths.filter((f) => f === "-").length > 1)
        throw new ArefError("INVALID_INPUT", "standard input (`-`) can be stashed once per run");
      // Structural summaries (JSON shape, log errors, test counts, code outline) instead of the first 200 chars.
      const { summarize } = await import("@artifact-refs/resolve");
      // The cap: --max-bytes, else the store spec's ?maxBytes=, else the default.
      const store = await ctx.openStore(cmd, {
        ...(opts.maxBytes === undefined ? {} : { maxBytes: opts.maxBytes }),
        summarize,
      });
      const maxBytes = store.maxBytes;
      // Every file is checked (exists, is a file, under the cap) before any is stored.
      const inputs = await openFileInputs(
        paths.filter((f) => f !== "-"),
        ctx.io,
        maxBytes,
      );
      for (const path of paths) {
        if (path !== "-") await stashOne(inputs.shift()!);
        else {
          try {
            await stashOne(stdinInput(ctx.io));
          } catch (error) {
            // Say which input went over (the store knows only "content").
            if (isArefError(error) && error.code === "TOO_LARGE")
              throw tooLarge(`more than ${maxBytes}`, maxBytes, "standard input");
            throw error;
          }
        }
      }
      async function stashOne(input: StashInput): Promise<void> {
        const label = opts.label !== undefined ? checkLabel(opts.label) : input.name?.slice(0, 300);
        const type = ArtifactTypeSchema.parse(opts.type ?? typeFromFileName(input.name));
        const put = await store.putStream(input.open(), {
          type,
          session,
          producer: "user",
          ...(label === undefined || label === "" ? {} : { label }),
          ...(opts.mime === undefined ? {} : { mime: opts.mime }),
          ...(opts.ttl === undefined ? {} : { ttlMs: opts.ttl }),
        });
        const shortRef = await ctx.shortRefOf(store, put.id, session);
        const reference = put.reference;
        await ctx.emit(
          StashReceiptSchema,
          {
            schema: receiptName("stash"),
            handle: put.handle,
            artifact_id: put.id,
            short_ref: shortRef,
            bytes: put.record.size_bytes,
            created_at: reference?.created_at ?? put.record.created_at,
            deduped: put.deduped,
            type: reference?.type ?? put.record.type,
            ...(reference?.label === undefined ? {} : { label: reference.label }),
            ...(put.record.summary === undefined ? {} : { summary: put.record.summary }),
            session,
            ...(reference?.expires_at === undefined ? {} : { expires_at: reference.expires_at }),
          },
          async (r) => {
            await ctx.out(`${r.short_ref}\n`);
            const parts = [`${formatBytes(r.bytes)}`, r.type, `session ${r.session}`];
            if (r.expires_at) parts.push(`expires ${r.expires_at}`);
            await ctx.err(
              `stashed ${label === undefined || label === "" ? "standard input" : label} as ${r.short_ref} (${parts.join(", ")})${r.deduped ? "; these bytes were already stored" : ""}${put.healed ? "; a corrupt stored copy was replaced" : ""}\n`,
            );
          },
        );
      }
    });
}
