import { DEFAULT_FETCH_MAX_CHARS } from "@artifact-refs/schema";
import { Command, CommanderError } from "commander";
import pkg from "../package.json" with { type: "json" };
import { COMMANDS } from "./commands/index.js";
import { examples } from "./commands/shared.js";
import { CliContext } from "./context.js";
import { UsageError } from "./errors.js";
import { EXIT, EXIT_CODE_TABLE, type ExitCode } from "./exit-codes.js";
import type { CliIo } from "./io.js";

export type { CliIo, InStream, OutStream } from "./io.js";
export { EXIT, EXIT_CODE_OF, EXIT_CODE_TABLE, exitCodeOf, type ExitCode } from "./exit-codes.js";
export { CliContext } from "./context.js";
export type { RegisterCommand } from "./commands/shared.js";

export const VERSION: string = pkg.version;

const ENVIRONMENT_HELP = `
Environment:
  AREF_STORE   the store when --store is not given (a directory, memory:, or s3://bucket/prefix?endpoint=…)
  HOME         the default store is $HOME/.artifact-refs/store
  AREF_DEBUG   set to 1 to print the stack of an internal error
`;

const EXIT_HELP = `
Exit codes:
${EXIT_CODE_TABLE.map(([code, what]) => `  ${code}  ${what}`).join("\n")}
`;

/** Builds the aref program for one run. Commands write through `ctx`; nothing touches the process. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command("aref")
    .description(
      "Keep big tool outputs, logs and documents out of LLM prompts: stash them in a content-addressed store, keep a short ref, " +
        `and fetch bounded slices (at most ${DEFAULT_FETCH_MAX_CHARS.toLocaleString("en-US")} chars by default) when you need them.`,
    )
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help (every command has its own: aref <command> --help)")
    .option(
      "--store <spec>",
      "the store: a directory, memory:, or s3://bucket/prefix?endpoint=… (default: $AREF_STORE, else ~/.artifact-refs/store)",
    )
    .option("--json", "print a versioned JSON receipt on stdout (errors too: artifact-refs.error.v1)")
    .option("-q, --quiet", "no notes, warnings or progress on stderr (errors still print; the exit code still tells)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void ctx.io.stdout.write(text),
      writeErr: (text) => void ctx.io.stderr.write(text),
      outputError: () => undefined, // reported by CliContext.fail, with a hint (or as an error receipt with --json)
      getOutHelpWidth: () => ctx.io.stdout.columns ?? 100,
      getErrHelpWidth: () => ctx.io.stderr.columns ?? 100,
    })
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `${examples([
        ["aref stash build.log --session s1", "store a file; prints its short ref, e.g. art:3f9b2a1c8e4d"],
        ["make 2>&1 | aref stash - --type log --ttl 2h", "store a command's output for two hours"],
        ["aref fetch art:3f9b2a1c8e4d --max-chars 2000", "a bounded slice: head and tail, at most 2,000 chars"],
        ["aref cat art:3f9b2a1c8e4d > build.log", "the exact bytes"],
        ["aref list --session s1 --json", "a session's artifacts as a receipt"],
        ["aref verify && aref gc", "check every blob, then sweep what no session references"],
      ])}${ENVIRONMENT_HELP}${EXIT_HELP}`,
    );
  program.hook("preSubcommand", (_root, sub) => {
    ctx.command = sub.name();
  });
  program.hook("preAction", (_root, action) => {
    const globals = action.optsWithGlobals<{ json?: boolean; quiet?: boolean }>();
    ctx.json = globals.json === true;
    ctx.quiet = globals.quiet === true;
  });
  for (const register of COMMANDS) register(program, ctx);
  return program;
}

/** True when the command line asks for --json (before any `--`): used when parsing itself failed. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/**
 * Runs aref with `argv` (the arguments after the program name) on `io`, and resolves to
 * the exit code. Never calls process.exit and never writes to the process's streams,
 * so tests run it in-process with captured io.
 */
export async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  const ctx = new CliContext(io);
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT.OK;
      if (error.code === "commander.help") return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE; // `aref help` is 0; `aref` alone prints help on stderr, 2
      ctx.json ||= wantsJson(argv);
      return ctx.fail(new UsageError(error.message.replace(/^error: /, "")));
    }
    return ctx.fail(error);
  } finally {
    await ctx.closeStores();
  }
}
