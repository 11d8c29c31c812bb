/**
 * The build every package shares: ESM for Node 20, declaration files, source maps, a clean dist/.
 * `entry` defaults to src/index.ts; anything else given is passed to tsup as is.
 *
 * @param {import("tsup").Options} [options]
 * @returns {import("tsup").Options}
 */
export function packageBuildConfig(options = {}) {
  return { entry: { index: "src/index.ts" }, format: ["esm"], dts: true, clean: true, sourcemap: true, target: "node20", ...options };
}
