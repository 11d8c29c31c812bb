import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { countTokens, jsonlSink } from "@artifact-refs/budget";
import {
  ArtifactsGetTool,
  ExecutionContext,
  Externalizer,
  PromptAssembler,
  TranscriptWriter,
  tagInjected,
  type HistoryMessage,
  type ModelMessage,
  type ToolDefinition,
} from "@artifact-refs/context";
import { createDispatcher } from "@artifact-refs/hot-state";
import { resolveReferences, summarize } from "@artifact-refs/resolve";
import { isArefError, type PromptMetrics } from "@artifact-refs/schema";
import { ToolRegistry, Workspace, builtinTools, runCommandTool } from "@artifact-refs/tools";
import { openStore } from "@artifact-refs/store-spec";
import { REFERENCED_PREFIX } from "./providers/scripted.js";
import type { ModelProvider } from "./providers/types.js";
import { renderReport, reportArtifacts, type CallRow, type DemoSummary } from "./report.js";

export const SYSTEM_PROMPT = [
  "You are a coding assistant working in a repository through tools.",
  "Large tool results are stored as artifacts and shown to you as a reference (art:<hex>) with a summary;",
  "read the part you need with artifacts_get and a selector (headtail, grep, range, jsonpath) instead of asking for everything.",
  "Answer briefly and cite the references you used.",
].join(" ");

export interface DemoOptions {
  provider: ModelProvider;
  /** Store spec (directory, memory:, s3://…). */
  store: string;
  /** Directory the tools may read (default: the repository). */
  workspace: string;
  /** Where the transcript, metrics and report go. */
  outDir: string;
  session?: string;
  /** The user's requests, in order; the first is the task. */
  requests: string[];
  /** Commands run_command may run. */
  allowedCommands: string[];
  strategy?: "window" | "append";
  maxPromptTokens?: number;
  /** Tool calls a request may make before the agent must answer. */
  maxStepsPerRequest?: number;
  log?: (line: string) => void;
}

interface StashedOutput {
  id: string;
  original: string;
  redacted: boolean;
}

interface Referenced {
  ref: string;
  tool: string;
  label: string;
  reasons: string[];
}

/**
 * What the user's words refer to: the resolver's top candidate, or every tied candidate when
 * it flags ambiguity, or the top two for a plural ("compare the two READMEs"). Nothing when
 * the words refer to nothing (the resolver never invents a reference).
 */
function resolveRequest(
  request: string,
  executions: ExecutionContext,
  previous: string[],
): Referenced[] & { ids?: string[] } {
  // The conversation's last resolution: "the other one", "both of them" are read against it.
  const { candidates, ambiguous } = resolveReferences(
    request,
    executions.resolutionExecutions(),
    previous.length ? { previous } : {},
  );
  if (candidates.length === 0) return [];
  const best = candidates[0]!.score;
  const plural = /\b(two|both|all|compare)\b/i.test(request);
  const picked = ambiguous
    ? candidates.filter((c) => c.score >= best * 0.9)
    : plural
      ? candidates.slice(0, 2)
      : candidates.slice(0, 1);
  const shape = executions.contextShape().executions;
  return Object.assign(
    picked.map((c) => {
      const e = executions.getExecution(c.id)!;
      const tracked = shape.find((x) => x.execution_id === c.id);
      const what = e.tool_args.path ?? e.tool_args.command ?? e.tool_args.pattern ?? e.label ?? "";
      return { ref: tracked?.short_ref ?? e.execution_id, tool: e.tool_name, label: String(what), reasons: c.reasons };
    }),
    { ids: picked.map((c) => c.id) },
  );
}

/** Renders a message the way the naive transcript would send it (payloads inline). */
const naiveText = (m: { role: string; content: string; tool_calls?: unknown }) =>
  `${m.role}: ${m.content}${m.tool_calls ? ` ${JSON.stringify(m.tool_calls)}` : ""}\n`;

/**
 * The demo's agent loop on the real context kit: tools run, their results go through the
 * externalizer (large → a reference), every model call's prompt comes from the assembler
 * within the budgets, follow-ups are resolved to earlier executions, and the model reads
 * stored results only through the bounded artifacts_get tool.
 */
export async function runDemo(
  options: DemoOptions,
): Promise<DemoSummary & { reportPath: string; executionsPath: string }> {
  const log = options.log ?? (() => {});
  const session = options.session ?? `demo-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}`;
  const outDir = resolve(options.outDir);
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  const store = await openStore(options.store, { summarize });
  const workspace = await Workspace.open(options.workspace);
  const count = (text: string) => countTokens(text);
  const maxPromptTokens = options.maxPromptTokens ?? 8_000;

  // docs/ARCHITECTURE.md §executions injects recent results whole up to the summarize threshold; keep that small here,
  // since every result is one artifacts_get away.
  const config = { executions: { summarizeThreshold: 1_000, recentLimit: 3 } };
  const externalizer = new Externalizer({ store, countTokens: count, config });
  const executions = new ExecutionContext({ session, store, externalizer, config });
  const artifactsGet = new ArtifactsGetTool({ store, session });
  const { writer: hotState } = createDispatcher({
    session_id: session,
    state: { objective: options.requests[0] ?? "demo" },
  });
  const metricsPath = join(outDir, `${session}.metrics.jsonl`);
  const metricsSink = jsonlSink(metricsPath);
  const metrics: PromptMetrics[] = [];
  const assembler = new PromptAssembler({
    store,
    session,
    tokenCounter: { count },
    ...(options.strategy ? { strategy: options.strategy } : { provider: options.provider }),
    budgets: { maxPromptTokens },
    onMetrics: (event) => {
      metrics.push(event);
      void metricsSink.write(event);
    },
  });
  const transcriptPath = join(outDir, `${session}.transcript.jsonl`);
  const transcript = new TranscriptWriter({ path: transcriptPath, session, externalizer });

  const registry = new ToolRegistry();
  for (const tool of builtinTools(workspace)) registry.register(tool);
  registry.register(runCommandTool({ cwd: workspace.root, allowed: options.allowedCommands }));
  const tools: ToolDefinition[] = [
    ...registry.list().map((t) => ({
      name: t.name,
      description: t.description,
      parameters: z.toJSONSchema(t.args) as Record<string, unknown>,
    })),
    artifactsGet.definition,
  ];

  const history: HistoryMessage[] = [{ role: "system", content: SYSTEM_PROMPT }];
  let naiveTokensSoFar = count(naiveText(history[0]!));
  await transcript.appendMessage("system", SYSTEM_PROMPT);
  const rows: CallRow[] = [];
  const stashed: StashedOutput[] = [];
  const requests: DemoSummary["requests"] = [];
  let call = 0;

  let lastResolution: string[] = [];
  for (const [index, request] of options.requests.entries()) {
    executions.nextTurn();
    history.push({ role: "user", content: request });
    naiveTokensSoFar += count(naiveText({ role: "user", content: request }));
    await transcript.appendMessage("user", request);
    log(`\n[${index + 1}/${options.requests.length}] user: ${request}`);

    // Resolve the user's words to earlier executions (Resolution package) and inject the recent
    // context plus what the words point at (tagged as injected, never stashed again).
    const referenced = index === 0 ? [] : resolveRequest(request, executions, lastResolution);
    if (referenced.ids?.length) lastResolution = referenced.ids;
    const context = index === 0 ? undefined : await executions.buildContextMessage();
    const tail: ModelMessage[] = [];
    if (context || referenced.length) {
      const note = referenced.length
        ? `\n${REFERENCED_PREFIX} ${referenced.map((r) => `${r.ref} (${r.tool} ${r.label}; ${r.reasons.join(", ")})`).join("; ")}`
        : "";
      tail.push({ role: "system", content: tagInjected(`${context?.content ?? ""}${note}`.trim()) });
      if (referenced.length) log(`  resolved: ${referenced.map((r) => `${r.ref} ← ${r.tool} ${r.label}`).join(", ")}`);
    }
    for (const r of referenced) if (r.ref.startsWith("art:")) hotState.reference(r.ref);

    let answer = "";
    for (let step = 0; step < (options.maxStepsPerRequest ?? 6); step++) {
      call++;
      const built = hotState.build();
      const prompt = await assembler.assemble({ history, hotState: built.state, tail });
      const naiveTokens = naiveTokensSoFar + tail.reduce((n, m) => n + count(naiveText(m)), 0);
      const reply = await options.provider.complete({ messages: prompt.messages, tools });
      const toolCalls = reply.toolCalls.map((c) => ({
        id: c.id,
        name: c.name,
        arguments: JSON.stringify(c.arguments),
      }));
      const assistant: HistoryMessage = {
        role: "assistant",
        content: reply.text,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      };
      history.push(assistant);
      naiveTokensSoFar += count(naiveText(assistant));
      await transcript.appendMessage("assistant", reply.text, toolCalls.length ? { tool_calls: toolCalls } : {});
      const row: CallRow = {
        call,
        request: index + 1,
        naiveTokens,
        refsTokens: prompt.tokens,
        hotStateTokens: built.tokens,
        budgetOk: prompt.metrics.budget_ok,
        violations: prompt.metrics.budget_violations,
        stashed: 0,
        fetched: 0,
        action: toolCalls.length ? toolCalls.map((c) => c.name).join(", ") : "answer",
      };
      rows.push(row);
      if (toolCalls.length === 0) {
        answer = reply.text;
        log(`  call ${call}: ${prompt.tokens} tokens (naive ${naiveTokens}) → answer`);
        break;
      }
      for (const tc of reply.toolCalls) {
        let content: string;
        let artifactRef: HistoryMessage["artifactRef"];
        let naiveContent: string;
        if (tc.name === artifactsGet.name) {
          try {
            content = JSON.stringify(await artifactsGet.call(tc.arguments));
          } catch (error) {
            content = JSON.stringify({
              error: isArefError(error) ? error.toJSON() : { code: "INTERNAL", message: String(error) },
            });
          }
          naiveContent = content;
          row.fetched++;
          if (typeof tc.arguments.ref === "string") hotState.reference(tc.arguments.ref);
          await transcript.appendInjected(content, "tool");
        } else {
          let result: string;
          let resultType: "success" | "error" = "success";
          let mime: string | undefined;
          let label: string | undefined;
          try {
            const { output } = await registry.run(tc.name, tc.arguments, AbortSignal.timeout(300_000));
            result = output.result;
            resultType = output.resultType === "error" ? "error" : "success";
            mime = output.mime;
            label = output.summary;
          } catch (error) {
            result = JSON.stringify({
              error: isArefError(error) ? error.toJSON() : { code: "INTERNAL", message: String(error) },
            });
            resultType = "error";
          }
          const externalized = await transcript.appendToolResult({
            tool: tc.name,
            result,
            args: tc.arguments,
            callId: tc.id,
            ...(mime ? { mime } : {}),
          });
          await executions.record({
            tool_name: tc.name,
            tool_args: tc.arguments,
            result,
            result_type: resultType,
            ...(label ? { summary: label } : {}),
            ...(mime ? { mime } : {}),
          });
          content = externalized.content;
          artifactRef = externalized.artifactRef;
          naiveContent = result;
          if (externalized.artifactRef) {
            row.stashed++;
            stashed.push({
              id: externalized.artifactRef.artifact_id,
              original: result,
              redacted: externalized.redactions.length > 0,
            });
            hotState.addArtifact({
              artifact_id: externalized.artifactRef.artifact_id,
              type: tc.name === "run_command" ? "log" : tc.name === "read_file" ? "doc" : "tool_output",
              label: `${tc.name} ${String(tc.arguments.path ?? tc.arguments.command ?? tc.arguments.pattern ?? "")}`
                .trim()
                .slice(0, 120),
            });
          }
        }
        const toolMessage: HistoryMessage = {
          role: "tool",
          content,
          tool_name: tc.name,
          tool_call_id: tc.id,
          ...(artifactRef ? { artifactRef } : {}),
        };
        history.push(toolMessage);
        naiveTokensSoFar += count(naiveText({ role: "tool", content: naiveContent }));
      }
      log(
        `  call ${call}: ${prompt.tokens} tokens (naive ${naiveTokens}) → ${row.action}${row.stashed ? `, stashed ${row.stashed}` : ""}`,
      );
    }
    requests.push({ text: request, answer, referenced: referenced.map((r) => r.ref) });
    if (answer) log(`  answer: ${answer.split("\n")[0]}`);
  }

  // Every externalized output must come back byte-exact (what was stored: redacted text if a secret was found).
  let mismatches = 0;
  for (const s of stashed) {
    const text = await store.getText(s.id);
    if (!s.redacted && text !== s.original) mismatches++;
  }
  await metricsSink.close?.();
  const naiveTotal = rows.reduce((n, r) => n + r.naiveTokens, 0);
  const refsTotal = rows.reduce((n, r) => n + r.refsTokens, 0);
  const summary: DemoSummary = {
    session,
    provider: options.provider.label,
    strategy: assembler.strategy,
    store: options.store,
    calls: rows,
    requests,
    naiveTotal,
    refsTotal,
    savedPct: naiveTotal > 0 ? (1 - refsTotal / naiveTotal) * 100 : 0,
    rehydrated: stashed.length,
    rehydrationMismatches: mismatches,
    transcriptPath,
    metricsPath,
    maxPromptTokens,
  };
  // The session's execution records, so `--serve` (or any server) can show its timeline.
  const executionsPath = join(outDir, `${session}.executions.json`);
  await writeFile(executionsPath, `${JSON.stringify(executions.toJSON())}\n`, { mode: 0o600 });
  const reportPath = join(outDir, `${session}.report.html`);
  await writeFile(reportPath, renderReport(summary, await reportArtifacts(store, session, summary)), { mode: 0o600 });
  await writeFile(join(outDir, `${session}.summary.json`), `${JSON.stringify(summary, null, 2)}\n`, { mode: 0o600 });
  await store.close();
  return { ...summary, reportPath, executionsPath };
}
