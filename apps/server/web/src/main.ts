import "./style.css";
import {
  Api,
  describeError,
  type ChatReceipt,
  type ChatTurnsReceipt,
  type ContextView,
  type ExecutionResponse,
  type FetchReceipt,
  type HotStateReceipt,
  type ListReceipt,
  type MetricsReceipt,
  type ToolInfo,
} from "./api.js";
import { renderChart } from "./chart.js";

// The docs/ARCHITECTURE.md §executions flow: run a tool through /api/artifacts/execute, see it in the timeline, ask a
// follow-up in the chat and see which artifact it referenced and the context that is injected.

const api = new Api();
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state = {
  session: "",
  tools: [] as ToolInfo[],
  batch: [] as Array<{ tool_name: string; tool_args: Record<string, unknown>; artifact_title: string }>,
  titles: new Map<string, string>(),
  /** What the viewer shows: an execution's full result or one of the session's artifacts. */
  viewerTarget: { kind: "execution", id: "" } as { kind: "execution"; id: string } | { kind: "artifact"; ref: string },
  viewerNext: undefined as Record<string, unknown> | undefined,
  /** This session's chat turns, sent with each message so a configured model sees the conversation. */
  history: [] as Array<{ role: "user" | "assistant"; content: string }>,
};

function setStatus(text: string, error = false): void {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

function timeAgo(iso: string): string {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} minute${Math.floor(s / 60) === 1 ? "" : "s"} ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} hour${Math.floor(s / 3600) === 1 ? "" : "s"} ago`;
  return `${Math.floor(s / 86400)} days ago`;
}

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const n = Object.assign(document.createElement(tag), props);
  n.append(...children);
  return n;
}

// Text badges rather than emoji: no icon font or external asset is needed.
const ICONS: Record<string, string> = { read_file: "FILE", list_files: "LIST", grep: "GREP" };
const icon = (tool: string) =>
  node("span", {
    className: "badge",
    textContent: ICONS[tool.replace(/^builtin\./, "")] ?? "TOOL",
    ariaHidden: "true",
  });

// ---- connection -----------------------------------------------------------------------------

function readFragment(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const session = params.get("session");
  if (token) sessionStorage.setItem("aref.token", token);
  if (session) sessionStorage.setItem("aref.session", session);
  if (token || session) history.replaceState(null, "", location.pathname);
  api.token = sessionStorage.getItem("aref.token") ?? "";
  state.session = sessionStorage.getItem("aref.session") ?? `web-${Math.random().toString(36).slice(2, 10)}`;
  $<HTMLInputElement>("token-input").value = api.token;
  $<HTMLInputElement>("session-input").value = state.session;
}

async function connect(): Promise<void> {
  try {
    const { tools } = await api.request<{ tools: ToolInfo[] }>("GET", "/api/tools");
    state.tools = tools;
    const select = $<HTMLSelectElement>("tool-select");
    select.replaceChildren(...tools.map((t) => node("option", { value: t.name, textContent: t.title })));
    renderArgs();
    setStatus(`Connected · session ${state.session}`);
    await Promise.all([loadSessions(), refreshSession(), loadChatHistory()]);
  } catch (e) {
    setStatus(describeError(e), true);
  }
}

$("auth-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  api.token = $<HTMLInputElement>("token-input").value.trim();
  state.session = $<HTMLInputElement>("session-input").value.trim();
  sessionStorage.setItem("aref.token", api.token);
  sessionStorage.setItem("aref.session", state.session);
  $("messages").replaceChildren();
  state.history = [];
  void connect();
});

// ---- sessions -----------------------------------------------------------------------------------

async function loadSessions(): Promise<void> {
  const { sessions } = await api.request<{ sessions: Array<{ session_id: string }> }>("GET", "/api/sessions");
  const ids = sessions.map((s) => s.session_id);
  if (!ids.includes(state.session)) ids.unshift(state.session);
  $("sessions-list").replaceChildren(
    ...ids.map((id) => {
      const b = node("button", { type: "button", textContent: id, className: id === state.session ? "current" : "" });
      if (id === state.session) b.setAttribute("aria-current", "true");
      b.addEventListener("click", () => {
        state.session = id;
        sessionStorage.setItem("aref.session", id);
        $<HTMLInputElement>("session-input").value = id;
        $("messages").replaceChildren();
        state.history = [];
        setStatus(`Connected · session ${id}`);
        void loadSessions();
        void refreshSession();
        void loadChatHistory();
      });
      return node("li", {}, b);
    }),
  );
}
$("refresh-sessions").addEventListener(
  "click",
  () => void loadSessions().catch((e) => setStatus(describeError(e), true)),
);

async function refreshSession(): Promise<void> {
  await Promise.all([loadTimeline(), loadChart(), loadArtifacts()]);
}

// ---- tool form ----------------------------------------------------------------------------------

function currentTool(): ToolInfo | undefined {
  return state.tools.find((t) => t.name === $<HTMLSelectElement>("tool-select").value);
}

function renderArgs(): void {
  const tool = currentTool();
  const box = $("tool-args");
  box.replaceChildren();
  if (!tool) return;
  box.append(node("p", { className: "muted", textContent: tool.description }));
  const required = new Set(tool.args.required ?? []);
  for (const [name, prop] of Object.entries(tool.args.properties ?? {})) {
    const id = `arg-${name}`;
    const input = node("input", { id, name });
    input.dataset.arg = name;
    input.dataset.type = prop.type ?? "string";
    if (prop.type === "boolean") input.type = "checkbox";
    else if (prop.type === "number" || prop.type === "integer") input.type = "number";
    if (prop.default !== undefined) {
      if (prop.type === "boolean") input.checked = prop.default === true;
      else input.placeholder = String(prop.default);
    }
    if (required.has(name) && prop.default === undefined) input.required = true;
    box.append(node("label", { htmlFor: id }, `${name}${input.required ? " *" : ""} `, input));
  }
}
$("tool-select").addEventListener("change", renderArgs);

function formArgs(): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const input of $("tool-args").querySelectorAll<HTMLInputElement>("input[data-arg]")) {
    const name = input.dataset.arg!;
    if (input.dataset.type === "boolean") {
      if (input.checked) args[name] = true;
    } else if (input.value !== "") {
      args[name] =
        input.dataset.type === "number" || input.dataset.type === "integer" ? Number(input.value) : input.value;
    }
  }
  return args;
}

function showResult(e: ExecutionResponse): void {
  $("result").hidden = false;
  $("result-title").replaceChildren(icon(e.tool_name), `${e.artifact_title} — ${e.status}`);
  $("result-summary").textContent =
    e.summary + (e.result_truncated ? " (shortened here; open the full result from the timeline)" : "");
  $("result-content").textContent = e.result;
}

function addExecutionMessage(e: ExecutionResponse): void {
  // The docs/ARCHITECTURE.md §executions chat-history entry for an execution (role "artifact_execution").
  state.titles.set(e.execution_id, e.artifact_title);
  const li = node(
    "li",
    { className: "msg execution" },
    node("span", { className: "who" }, icon(e.tool_name), e.artifact_title),
    node("span", { textContent: ` ${e.summary}` }),
  );
  $("messages").append(li);
}

async function execute(body: Record<string, unknown>): Promise<void> {
  setStatus("Running…");
  try {
    const res = await api.request<ExecutionResponse | { executions: ExecutionResponse[]; status: string }>(
      "POST",
      "/api/artifacts/execute",
      { session_id: state.session, ...body },
    );
    const list = "executions" in res ? res.executions : [res];
    for (const e of list) addExecutionMessage(e);
    showResult(list.at(-1)!);
    if ("executions" in res)
      $("result-summary").textContent =
        `Batch of ${list.length}: ${list.map((e) => `${e.artifact_title} (${e.status})`).join(", ")}`;
    setStatus(`Ran ${list.length} tool${list.length === 1 ? "" : "s"} · session ${state.session}`);
    await Promise.all([refreshSession(), loadSessions()]);
  } catch (e) {
    setStatus(describeError(e), true);
  }
}

$("tool-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const tool = currentTool();
  if (!tool) return;
  void execute({ artifact_type: "toolform", artifact_title: tool.title, tool_name: tool.name, tool_args: formArgs() });
});

function renderBatch(): void {
  $("batch-count").textContent = String(state.batch.length);
  $<HTMLButtonElement>("run-batch").disabled = state.batch.length === 0;
  $("batch-list").replaceChildren(
    ...state.batch.map((b) => node("li", { textContent: `${b.artifact_title} ${JSON.stringify(b.tool_args)}` })),
  );
}
$("add-batch").addEventListener("click", () => {
  const tool = currentTool();
  const form = $<HTMLFormElement>("tool-form");
  if (!tool || !form.reportValidity()) return;
  state.batch.push({ tool_name: tool.name, tool_args: formArgs(), artifact_title: tool.title });
  renderBatch();
});
$("run-batch").addEventListener("click", () => {
  const batch = state.batch.splice(0);
  renderBatch();
  void execute({ artifact_title: "Batch", batch });
});

// ---- timeline -----------------------------------------------------------------------------------

async function loadTimeline(): Promise<void> {
  const ctx = await api.request<ContextView>("GET", `/api/artifacts/context/${encodeURIComponent(state.session)}`);
  const list = $("timeline");
  if (ctx.executions.length === 0) {
    list.replaceChildren(node("li", { className: "muted", textContent: "No executions yet: run a tool." }));
    return;
  }
  list.replaceChildren(
    ...ctx.executions.map((e) => {
      state.titles.set(
        e.execution_id,
        `${e.artifact_title}${typeof e.tool_args.path === "string" ? ` (${e.tool_args.path})` : ""}`,
      );
      const view = node("button", { type: "button", textContent: "View full result" });
      view.addEventListener(
        "click",
        () => void openViewer({ kind: "execution", id: e.execution_id }, `${e.artifact_title} — ${e.summary}`),
      );
      return node(
        "li",
        { className: `execution-card ${e.result_type}` },
        node(
          "div",
          { className: "execution-header" },
          icon(e.tool_name),
          node("strong", { className: "tool-name", textContent: e.artifact_title }),
          node("span", { className: "timestamp muted", textContent: timeAgo(e.timestamp) }),
        ),
        node("div", { className: "execution-summary", textContent: e.summary }),
        node("div", {
          className: "execution-meta muted",
          textContent: `${e.tool_name} ${JSON.stringify(e.tool_args)}`,
        }),
        view,
      );
    }),
  );
}

// ---- full-result viewer (bounded fetch) -----------------------------------------------------------

const viewer = $<HTMLDialogElement>("viewer");
const selForm = $<HTMLFormElement>("selector-form");

function showModeFields(): void {
  const mode = $<HTMLSelectElement>("sel-mode").value;
  for (const span of selForm.querySelectorAll<HTMLElement>("[data-mode]")) span.hidden = span.dataset.mode !== mode;
}
$("sel-mode").addEventListener("change", showModeFields);

function selectorFromForm(): Record<string, string> {
  const data = new FormData(selForm);
  const mode = String(data.get("mode"));
  const keys: Record<string, string[]> = {
    headtail: ["head", "tail"],
    grep: ["pattern", "context"],
    range: ["start", "end"],
    jsonpath: ["expr"],
  };
  const out: Record<string, string> = { mode };
  for (const k of [...keys[mode]!, "maxChars"]) {
    const v = String(data.get(k) ?? "");
    if (v !== "") out[k] = v;
  }
  if (mode === "grep" && data.get("ignoreCase")) out.ignoreCase = "true";
  return out;
}

/**
 * Shows a bounded selection; for grep, marks the pattern's matches in each line's text (after
 * the "N:" / "N-" line-number prefix the server adds). A pattern JavaScript cannot compile (the
 * server's RE2 accepts a few forms it does not) is shown without marks.
 */
function renderSelection(pre: HTMLElement, text: string, selector: Record<string, unknown>): number {
  const pattern = selector.mode === "grep" && typeof selector.pattern === "string" ? selector.pattern : "";
  let re: RegExp | undefined;
  try {
    re = pattern
      ? new RegExp(pattern, selector.ignoreCase === "true" || selector.ignoreCase === true ? "gi" : "g")
      : undefined;
  } catch {
    re = undefined;
  }
  if (!re) {
    pre.textContent = text;
    return 0;
  }
  const parts: Array<Node | string> = [];
  let marks = 0;
  for (const [i, line] of text.split("\n").entries()) {
    if (i > 0) parts.push("\n");
    const prefix = /^\d+[:-]/.exec(line)?.[0] ?? "";
    const body = line.slice(prefix.length);
    parts.push(prefix);
    let last = 0;
    for (const m of body.matchAll(re)) {
      if (m[0] === "" || marks >= 10_000) continue;
      parts.push(body.slice(last, m.index), node("mark", { className: "match", textContent: m[0] }));
      last = m.index + m[0].length;
      marks++;
    }
    parts.push(body.slice(last));
  }
  pre.replaceChildren(...parts);
  return marks;
}

async function fetchSelection(selector: Record<string, unknown>): Promise<void> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(selector)) q.set(k, String(v));
  try {
    const target = state.viewerTarget;
    if (target.kind === "artifact") q.set("session", state.session);
    const path =
      target.kind === "execution"
        ? `/api/sessions/${encodeURIComponent(state.session)}/executions/${encodeURIComponent(target.id)}/result?${q}`
        : `/api/artifacts/${encodeURIComponent(target.ref)}?${q}`;
    const res = await api.request<FetchReceipt>("GET", path);
    renderSelection($("viewer-content"), res.text, selector);
    $("viewer-info").textContent =
      `${res.short_ref ?? "inline result"} · ${res.chars.toLocaleString("en-US")} of ${res.total_chars.toLocaleString("en-US")} chars, ${res.total_lines} lines${res.omitted ? ` · left out: ${res.omitted}` : ""}`;
    state.viewerNext = res.next;
    $<HTMLButtonElement>("sel-next").disabled = !res.next;
  } catch (e) {
    $("viewer-info").textContent = describeError(e);
    $("viewer-content").textContent = "";
  }
}

async function openViewer(target: typeof state.viewerTarget, title: string): Promise<void> {
  state.viewerTarget = target;
  $("viewer-title").textContent = title;
  selForm.reset();
  showModeFields();
  viewer.showModal();
  await fetchSelection({ mode: "headtail" });
}

selForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  void fetchSelection(selectorFromForm());
});
$("sel-next").addEventListener("click", () => {
  if (state.viewerNext) void fetchSelection(state.viewerNext);
});

// ---- artifacts ------------------------------------------------------------------------------------

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

async function loadArtifacts(): Promise<void> {
  const body = $("artifacts-list");
  const empty = () =>
    body.replaceChildren(
      node("tr", {}, node("td", { colSpan: 6, className: "muted", textContent: "No artifacts yet." })),
    );
  // The hot state is null exactly when the session holds no references: then there is no list to ask for (it would be a 404).
  const hot = await api.request<HotStateReceipt>("GET", `/api/sessions/${encodeURIComponent(state.session)}/hot-state`);
  if (hot.hot_state === null) return empty();
  let list: ListReceipt;
  try {
    list = await api.request<ListReceipt>("GET", `/api/sessions/${encodeURIComponent(state.session)}/artifacts`);
  } catch (e) {
    if ((e as { code?: string }).code === "UNKNOWN_SESSION") return empty(); // dropped meanwhile
    throw e;
  }
  const inHot = new Set((hot.hot_state?.artifact_index ?? []).map((e) => e.artifact_id));
  const isHot = (id: string) =>
    inHot.has(id) || [...inHot].some((ref) => ref.startsWith("art:") && id.startsWith(ref.slice(4)));
  body.replaceChildren(
    ...[...list.items].reverse().map((item) => {
      const open = node("button", { type: "button", textContent: "Open" });
      open.addEventListener(
        "click",
        () =>
          void openViewer(
            { kind: "artifact", ref: item.short_ref },
            `${item.label ?? item.short_ref} — ${item.type}, ${formatBytes(item.size_bytes)}`,
          ),
      );
      const label = node(
        "td",
        {},
        node("strong", { textContent: item.label ?? item.short_ref }),
        node("span", {
          className: "summary",
          textContent: `${item.short_ref}${item.summary ? ` · ${item.summary.slice(0, 140)}` : ""}`,
        }),
      );
      const hotCell = node(
        "td",
        {},
        isHot(item.artifact_id)
          ? node("span", { className: "badge hot", textContent: "HOT" })
          : node("span", { className: "muted", textContent: "no" }),
      );
      const row = node(
        "tr",
        { className: "artifact-row" },
        label,
        node("td", { textContent: item.type }),
        node("td", { className: "num", textContent: formatBytes(item.size_bytes) }),
        node(
          "td",
          { title: item.created_at },
          node("time", { dateTime: item.created_at, textContent: timeAgo(item.created_at) }),
        ),
        hotCell,
        node("td", {}, open),
      );
      row.dataset.ref = item.short_ref;
      return row;
    }),
  );
  if (list.items.length === 0) empty();
}

// ---- chat -----------------------------------------------------------------------------------------

function chatAnswer(res: {
  referenced_executions: string[];
  response: string | null;
  context: string | null;
  tokens?: number;
}): HTMLLIElement {
  const li = node("li", { className: "msg assistant" });
  if (res.referenced_executions.length > 0) {
    const names = res.referenced_executions.map((id) => state.titles.get(id) ?? id);
    li.append(
      node(
        "div",
        { className: "referenced" },
        node("span", { className: "badge link", textContent: "REF", ariaHidden: "true" }),
        node("span", { textContent: `Referenced: ${names.join(", ")}` }),
      ),
    );
  }
  li.append(
    node("div", {
      className: "message-content",
      textContent:
        res.response ??
        (res.context !== null
          ? "No model is configured: this is the context that would be injected."
          : "Nothing in this session matches; no context would be injected."),
    }),
  );
  if (res.context) {
    const details = node(
      "details",
      { className: "context" },
      node("summary", {
        textContent: `Context message${res.tokens === undefined ? "" : ` (${res.tokens} prompt tokens)`}`,
      }),
      node("pre", { textContent: res.context }),
    );
    if (!res.response) details.open = true;
    li.append(details);
  }
  return li;
}

/** The session's stored chat turns (newest page), so a reload or a restarted server shows the conversation. */
async function loadChatHistory(): Promise<void> {
  const session = state.session;
  const { turns } = await api.request<ChatTurnsReceipt>(
    "GET",
    `/api/sessions/${encodeURIComponent(session)}/chat?limit=50`,
  );
  if (session !== state.session || $("messages").childElementCount > 0) return;
  state.history = [];
  for (const t of turns) {
    state.history.push({ role: "user", content: t.message });
    if (t.response) state.history.push({ role: "assistant", content: t.response });
    $("messages").append(
      node(
        "li",
        { className: "msg user" },
        node("span", { className: "who", textContent: "You" }),
        node("span", { textContent: ` ${t.message}` }),
      ),
      chatAnswer({
        referenced_executions: t.referenced_executions,
        response: t.response,
        context: t.context_chars > 0 ? `(${t.context_chars} chars of context were injected)` : null,
      }),
    );
  }
}

$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = $<HTMLInputElement>("chat-input");
  const message = input.value.trim();
  if (!message) return;
  input.value = "";
  $("messages").append(
    node(
      "li",
      { className: "msg user" },
      node("span", { className: "who", textContent: "You" }),
      node("span", { textContent: ` ${message}` }),
    ),
  );
  void (async () => {
    try {
      const res = await api.request<ChatReceipt>("POST", "/api/chat", {
        session_id: state.session,
        message,
        history: state.history.slice(-20),
      });
      state.history.push({ role: "user", content: message });
      if (res.response) state.history.push({ role: "assistant", content: res.response });
      $("messages").append(
        chatAnswer({
          referenced_executions: res.referenced_executions,
          response: res.response,
          context: res.context_message?.content ?? null,
          tokens: res.metrics.est_tokens,
        }),
      );
      await loadChart();
    } catch (e) {
      setStatus(describeError(e), true);
    }
  })();
});

// ---- metrics chart --------------------------------------------------------------------------------

async function loadChart(): Promise<void> {
  const m = await api.request<MetricsReceipt>("GET", `/api/sessions/${encodeURIComponent(state.session)}/metrics`);
  renderChart($("chart"), m.turns, m.budget.prompt_tokens);
}

readFragment();
void connect();
