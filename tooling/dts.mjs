// Declaration files for a package's entries, emitted by the TypeScript compiler (one .d.ts per
// source file under dist/, mirroring src/). Workspace dependencies resolve to their built
// declarations (the "@artifact-refs/source" condition is off here), so each package's build
// checks its own sources only, instead of every dependency's sources again as the bundled
// declaration build did (see docs/BENCHMARKS.md for the build times).
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

/**
 * The compiler options of a tsconfig file, set to emit declarations only (no maps, no
 * incremental state); callers add where they go.
 *
 * @param {string} configPath
 */
export function declarationOptions(configPath) {
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  return {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    incremental: false,
    composite: false,
  };
}

/**
 * Emits dist/<entry>.d.ts (and the files they import) for the given entry sources.
 * Throws with the compiler's messages when the declarations cannot be emitted.
 *
 * @param {string[]} entries source files, relative to `cwd` (e.g. ["src/index.ts"])
 * @param {{ cwd?: string, outDir?: string }} [options]
 */
export function emitDeclarations(entries, { cwd = process.cwd(), outDir = "dist" } = {}) {
  const configPath = ts.findConfigFile(cwd, ts.sys.fileExists, "tsconfig.json");
  if (!configPath) throw new Error(`no tsconfig.json in ${cwd}`);
  const options = {
    ...declarationOptions(configPath),
    customConditions: [],
    rootDir: join(cwd, "src"),
    outDir: resolve(cwd, outDir),
  };
  const program = ts.createProgram({ rootNames: entries.map((e) => resolve(cwd, e)), options });
  const result = program.emit(undefined, undefined, undefined, true);
  const problems = [...program.getOptionsDiagnostics(), ...result.diagnostics].filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => cwd, getNewLine: () => "\n" };
    throw new Error(`declarations of ${cwd}:\n${ts.formatDiagnostics(problems, host)}`);
  }
}
