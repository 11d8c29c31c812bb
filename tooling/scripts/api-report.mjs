#!/usr/bin/env node
// The public API report of every package: for each entry in a package's package.json `exports`,
// the declarations of every exported name, as the TypeScript compiler would emit them in the
// entry's .d.ts, written to packages/<dir>/api/<dir>[-<subpath>].api.md (comments dropped,
// names sorted). A change of a public surface shows as a change of that file in review.
//
//   node tooling/scripts/api-report.mjs            rewrite the reports (pnpm api:update)
//   node tooling/scripts/api-report.mjs --check    exit 1 and name each report that differs
//
// One compiler program over every package's sources (the "@artifact-refs/source" condition), so
// no build is needed; declarations are emitted in memory only.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { declarationOptions } from "../dts.mjs";

const root = resolve(import.meta.dirname, "../..");
const check = process.argv.includes("--check");

/** Every package entry: { pkgDir, pkgName, subpath, source, reportPath }. */
function entries() {
  const out = [];
  const base = join(root, "packages");
  for (const dir of readdirSync(base).sort()) {
    const manifestPath = join(base, dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const pkg = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (pkg.private) continue;
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source = typeof target === "object" ? target["@artifact-refs/source"] : undefined;
      if (!source) continue;
      const suffix = subpath === "." ? "" : `-${subpath.replace(/^\.\//, "").replaceAll("/", "-")}`;
      out.push({
        pkgDir: join(base, dir),
        pkgName: pkg.name,
        subpath,
        source: resolve(base, dir, source),
        reportPath: join(base, dir, "api", `${dir}${suffix}.api.md`),
      });
    }
  }
  return out;
}

function compilerOptions() {
  return { ...declarationOptions(join(root, "tooling/tsconfig.base.json")), outDir: undefined, rootDir: undefined };
}

const all = entries();
const program = ts.createProgram({ rootNames: all.map((e) => e.source), options: compilerOptions() });
const checker = program.getTypeChecker();

// Declarations emitted in memory, by the source file they come from.
const emitted = new Map();
program.emit(
  undefined,
  (_fileName, text, _bom, _onError, sources) => {
    for (const sf of sources ?? []) emitted.set(sf.fileName, text);
  },
  undefined,
  true,
);

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
const parsedDts = new Map();
function declarationFile(fileName) {
  let sf = parsedDts.get(fileName);
  if (!sf) {
    const source = program.getSourceFile(fileName);
    const text = source?.isDeclarationFile ? source.text : emitted.get(fileName);
    if (text === undefined) return undefined;
    sf = ts.createSourceFile(`${fileName}.d.ts`, text, ts.ScriptTarget.Latest, true);
    parsedDts.set(fileName, sf);
  }
  return sf;
}

function declaredNames(statement) {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.map((d) => (ts.isIdentifier(d.name) ? d.name.text : ""));
  return statement.name && ts.isIdentifier(statement.name) ? [statement.name.text] : [];
}

/** The declaration text of `symbol` (its local name) in the emitted .d.ts of each file declaring it. */
function declarationsOf(exportName, symbol) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const localName = target.escapedName === "default" ? exportName : ts.symbolName(target);
  const texts = [];
  const files = new Set((target.declarations ?? []).map((d) => d.getSourceFile().fileName));
  for (const fileName of files) {
    const dts = declarationFile(fileName);
    const where = relative(root, fileName).replace(/^.*node_modules\//, "");
    if (!dts) {
      texts.push(`// ${exportName}: declared in ${where} (no declaration emitted)`);
      continue;
    }
    for (const statement of dts.statements) {
      if (!declaredNames(statement).includes(localName)) continue;
      let text = printer.printNode(ts.EmitHint.Unspecified, statement, dts);
      text = text.replace(/^(export )?(declare )?/, "");
      if (localName !== exportName) text = `// exported as ${exportName}\n${text}`;
      texts.push(text);
    }
  }
  if (texts.length === 0) texts.push(`// ${exportName}: no declaration found`);
  return texts;
}

function report(entry) {
  const sf = program.getSourceFile(entry.source);
  if (!sf) throw new Error(`api-report: ${relative(root, entry.source)} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(sf);
  const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  const names = exports.map((s) => s.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byName = new Map(exports.map((s) => [s.name, s]));
  const title = entry.subpath === "." ? entry.pkgName : `${entry.pkgName}/${entry.subpath.replace(/^\.\//, "")}`;
  const lines = [
    `# API report: ${title}`,
    "",
    `Generated by \`pnpm api:update\` (tooling/scripts/api-report.mjs) from ${relative(entry.pkgDir, entry.source)}; do not edit.`,
    `${names.length} exported names.`,
    "",
    "```ts",
  ];
  for (const name of names) lines.push(...declarationsOf(name, byName.get(name)), "");
  if (names.length > 0) lines.pop();
  lines.push("```", "");
  return lines.join("\n");
}

const expected = new Map(all.map((e) => [e.reportPath, report(e)]));
const differing = [];
for (const [path, text] of expected) {
  const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  if (current === text) continue;
  differing.push(relative(root, path));
  if (!check) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
// Reports of entries that no longer exist.
for (const dir of readdirSync(join(root, "packages"))) {
  const apiDir = join(root, "packages", dir, "api");
  if (!existsSync(apiDir)) continue;
  for (const name of readdirSync(apiDir)) {
    const path = join(apiDir, name);
    if (!name.endsWith(".api.md") || expected.has(path)) continue;
    differing.push(`${relative(root, path)} (stale)`);
    if (!check) rmSync(path);
  }
}

if (check && differing.length > 0) {
  console.error(`api-report: the public API differs from the checked-in report in:\n  ${differing.join("\n  ")}`);
  console.error("Review the change, then run `pnpm api:update` and commit the reports.");
  process.exit(1);
}
console.log(
  check
    ? `api-report: ${expected.size} reports match`
    : `api-report: ${differing.length} of ${expected.size} reports written`,
);
