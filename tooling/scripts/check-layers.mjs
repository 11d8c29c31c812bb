#!/usr/bin/env node
// Enforces the layering of docs/ARCHITECTURE.md: a workspace package may depend
// only on packages in a lower layer. Checks package.json dependencies and every
// import in src/ and test/ (including relative imports that escape the package).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const root = resolve(import.meta.dirname, "../..");
/** Lower number = lower layer. Same number = siblings, which may not import each other. */
export const LAYERS = {
  "@artifact-refs/schema": 0,
  "@artifact-refs/store": 1,
  "@artifact-refs/tools": 1,
  "@artifact-refs/store-fs": 2,
  "@artifact-refs/store-s3": 2,
  "@artifact-refs/store-spec": 2.5,
  "@artifact-refs/budget": 3,

  "@artifact-refs/hot-state": 4,
  "@artifact-refs/resolve": 5,
  "@artifact-refs/resolve-semantic": 5.5,
  "@artifact-refs/context": 6,
  "@artifact-refs/analyze": 6.5,
  "@artifact-refs/mcp": 6.5,
  "@artifact-refs/openai": 6.5,
  "@artifact-refs/anthropic": 6.5,
  "@artifact-refs/ai-sdk": 6.5,
  "@artifact-refs/openai-agents": 6.5,
  "@artifact-refs/langchain": 6.5,
  "@artifact-refs/mastra": 6.5,
  "@artifact-refs/server": 7,
  "@artifact-refs/cli": 8,
  "@artifact-refs/demo-agent": 8,
  "@artifact-refs/stress": 9,
};
const TOOLING = "@artifact-refs/tooling";

const problems = [];
const manifests = new Map();
function manifestOf(name) {
  if (manifests.size === 0) {
    for (const group of ["packages", "apps"]) {
      const base = join(root, group);
      if (!existsSync(base)) continue;
      for (const dir of readdirSync(base)) {
        const file = join(base, dir, "package.json");
        if (existsSync(file)) {
          const pkg = JSON.parse(readFileSync(file, "utf8"));
          manifests.set(pkg.name, pkg);
        }
      }
    }
  }
  return manifests.get(name);
}
const packages = ["packages", "apps"].flatMap((group) => {
  const base = join(root, group);
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .map((name) => join(base, name))
    .filter((dir) => existsSync(join(dir, "package.json")));
});

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(m?[jt]sx?)$/.test(name)) out.push(path);
  }
  return out;
}

const importRe =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

for (const dir of packages) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const name = pkg.name;
  const rank = LAYERS[name];
  if (rank === undefined) {
    problems.push(
      `${name}: not placed in a layer (add it to tooling/scripts/check-layers.mjs and docs/ARCHITECTURE.md)`,
    );
    continue;
  }
  const allowed = (dep, where, devOnly) => {
    if (dep === TOOLING) {
      if (!devOnly) problems.push(`${name}: ${where} depends on ${TOOLING}, which may only be a devDependency`);
      return;
    }
    const depRank = LAYERS[dep];
    if (depRank === undefined) return; // not a workspace package
    if (dep === name) return;
    if (depRank >= rank)
      problems.push(`${name} (layer ${rank}) must not depend on ${dep} (layer ${depRank}): ${where}`);
  };
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"]) {
    for (const dep of Object.keys(pkg[field] ?? {})) allowed(dep, `package.json ${field}`, field === "devDependencies");
  }
  for (const file of [...walk(join(dir, "src")), ...walk(join(dir, "test")), ...walk(join(dir, "bench"))]) {
    const text = readFileSync(file, "utf8");
    const inSrc = relative(dir, file).startsWith(`src${sep}`);
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      const where = relative(root, file);
      if (spec.startsWith(".")) {
        const target = resolve(file, "..", spec);
        if (!target.startsWith(dir + sep))
          problems.push(`${where}: relative import "${spec}" leaves the package; import the package by name`);
        continue;
      }
      const dep = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
      allowed(dep, where, !inSrc);
      if (LAYERS[dep] !== undefined && spec !== dep && !spec.startsWith(`${dep}/testing`) && dep !== name) {
        const sub = spec.slice(dep.length);
        const exportsMap = manifestOf(dep)?.exports ?? {};
        if (!Object.keys(exportsMap).includes(`.${sub}`))
          problems.push(`${where}: imports "${spec}", which ${dep} does not export`);
      }
    }
  }
}

if (problems.length > 0) {
  console.error(`Layering check failed:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`layering ok: ${packages.length} packages checked`);
