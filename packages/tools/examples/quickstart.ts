import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolRegistry, Workspace, builtinTools, runCommandTool } from "@artifact-refs/tools";

const root = mkdtempSync(join(tmpdir(), "tools-quickstart-"));
writeFileSync(join(root, "notes.md"), "# Notes\nTODO: ship it\n");

const tools = new ToolRegistry();
for (const tool of builtinTools(await Workspace.open(root))) tools.register(tool);
tools.register(runCommandTool({ cwd: root, allowed: ["ls"] }));

const signal = new AbortController().signal;
const { output } = await tools.run("grep", { pattern: "TODO" }, signal);
console.log(output.result); // notes.md:2: TODO: ship it
console.log(output.summary); // Found 1 matches for /TODO/ in 1 files under .

try {
  await tools.run("read_file", { path: "../etc/passwd" }, signal);
} catch (error) {
  console.log((error as { code: string }).code); // PERMISSION_DENIED
}
try {
  await tools.run("run_command", { command: "rm -rf ." }, signal);
} catch (error) {
  console.log((error as { code: string }).code); // FORBIDDEN
}
