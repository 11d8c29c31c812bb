import { emitDeclarations } from "./dts.mjs";

/**
 * The build every package shares: ESM for Node 20, source maps, a clean dist/, and declaration
 * files from the TypeScript compiler (tooling/dts.mjs: one .d.ts per source file, workspace
 * dependencies read from their built declarations) instead of tsup's bundled declaration build,
 * which type-checked every dependency's sources again in each package.
 * `entry` defaults to src/index.ts; `dts: { entry }` names the entries that get declarations
 * (default: every entry; `dts: false` for none); anything else given is passed to tsup as is.
 *
 * @param {import("tsup").Options} [options]
 * @returns {import("tsup").Options}
 */
export function packageBuildConfig(options = {}) {
  const { dts = true, ...rest } = options;
  const entry = rest.entry ?? { index: "src/index.ts" };
  const dtsEntry = dts === false ? {} : typeof dts === "object" && dts.entry ? dts.entry : entry;
  const sources = Object.values(dtsEntry);
  return {
    entry,
    format: ["esm"],
    dts: false,
    clean: true,
    sourcemap: true,
    target: "node20",
    ...rest,
    onSuccess: async () => {
      if (sources.length > 0) emitDeclarations(sources);
    },
  };
}
