/**
 * What words imply, independent of any scenario: the tool classes that verbs and nouns point
 * to, concept synonyms of everyday development and operations work, and the shapes of general
 * questions that refer to no execution.
 */

export const TOOL_CLASSES = [
  "read",
  "write",
  "list",
  "grep",
  "search",
  "test",
  "exec",
  "http",
  "fetch",
  "sql",
  "log",
  "stash",
] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];

export interface HintRule {
  /** Matched against the lowercased message. */
  re: RegExp;
  hints: Partial<Record<ToolClass | "data" | "file", number>>;
  /** Words this rule consumes: they signal the tool and are not matched as names. */
  consumes?: string[];
  /** Short description for the reasons. */
  what: string;
}

/** Verbs and nouns that point at kinds of tools. Weights are on a 0-3 scale. */
export const HINT_RULES: HintRule[] = [
  {
    re: /\b(loaded|opened|viewed|catted|(?<!\b(?:thing|things|one|ones|step|steps|stuff) (?:(?:we|i|you) )?(?:first |just )?)looked at|checked out|inspected|examined|skimmed|was reading|were reading|been reading|(i|you|we)\s+(just\s+)?(read|load|open))\b/,
    hints: { read: 3, fetch: 1.5 },
    consumes: [
      "loaded",
      "opened",
      "viewed",
      "reading",
      "read",
      "load",
      "open",
      "looked",
      "inspected",
      "examined",
      "skimmed",
    ],
    what: "a file read",
  },
  {
    re: /\b(listed|listing|listings|directory|directories|folder|folders|ls)\b|\blist of files\b/,
    hints: { list: 3 },
    consumes: ["listed", "listing", "listings", "directory", "directories", "folder", "folders", "ls"],
    what: "a listing",
  },
  {
    re: /\b(grep|grepped|greps|call sites?|usages?|occurrences?|called from|used (in|by)|uses|references to|referenced|defined|where else)\b|\bfiles? (that )?(use|call|import|mention|contain)/,
    hints: { grep: 2.5 },
    consumes: [
      "grep",
      "grepped",
      "greps",
      "usage",
      "usages",
      "occurrence",
      "occurrences",
      "called",
      "uses",
      "use",
      "defined",
      "call",
      "site",
      "sites",
    ],
    what: "a code search",
  },
  {
    re: /\b(search|searches|searched|googled|looked up|search results?)\b/,
    hints: { search: 3, grep: 1 },
    consumes: ["search", "searches", "searched", "googled"],
    what: "a search",
  },
  {
    re: /\b(tests?|test runs?|testing|pytest|vitest|jest|specs?|test suite|suite)\b/,
    hints: { test: 3 },
    consumes: ["test", "tests", "run", "runs", "testing", "pytest", "vitest", "jest", "spec", "specs", "suite"],
    what: "a test run",
  },
  {
    re: /\b(commands?|ran|executed|shell|terminal|script|bash|cli)\b/,
    hints: { exec: 3 },
    consumes: ["command", "commands", "ran", "executed", "shell", "terminal", "script", "bash", "cli"],
    what: "a command",
  },
  {
    // "curl" names the command (a word of the records that ran it), not every HTTP call.
    re: /\b(api calls?|calls?|requests?|endpoints?|http|responses?|status code|get request|post request)\b/,
    hints: { http: 3, fetch: 1 },
    consumes: ["api", "call", "calls", "request", "requests", "endpoint", "endpoints", "http", "response", "responses"],
    what: "an HTTP call",
  },
  {
    re: /\b(fetch|fetches|fetched|downloaded|scraped|web ?pages?|pages?|links?|urls?|sites?|websites?|articles?|blog posts?)\b/,
    hints: { fetch: 2.5, http: 1 },
    consumes: [
      "fetch",
      "fetches",
      "fetched",
      "downloaded",
      "scraped",
      "webpage",
      "page",
      "pages",
      "link",
      "links",
      "url",
      "urls",
      "site",
      "website",
      "article",
      "blog",
    ],
    what: "a fetched page",
  },
  {
    re: /\b(wrote|written|saved|edited|my edits?|my changes?|(i|you|we) (just )?(changed|updated|fixed)|did (i|you|we) (just )?(change|update|fix|edit|modify|touch)|(the|my|your|our) (fix|patch|edit|change)|patched|modified|overwrote|write)\b/,
    hints: { write: 3 },
    consumes: [
      "wrote",
      "written",
      "saved",
      "edited",
      "edit",
      "edits",
      "patched",
      "modified",
      "overwrote",
      "write",
      "changed",
      "updated",
      "fix",
      "patch",
      "change",
    ],
    what: "a file write",
  },
  {
    re: /\b(stash|stashed|stashes|stashing|artifacts?|put away|stored|store)\b/,
    hints: { stash: 3 },
    consumes: ["stash", "stashed", "stashes", "stashing", "artifact", "artifacts", "stored", "store"],
    what: "a stashed artifact",
  },
  { re: /\b(saved|save)\b/, hints: { stash: 3, write: 2.4 }, consumes: ["saved", "save"], what: "something saved" },
  {
    re: /\b(query|queries|queried|sql|select statement)\b/,
    hints: { sql: 3 },
    // "sql" also names .sql files: it stays a word of the message.
    consumes: ["query", "queries", "queried"],
    what: "a query",
  },
  {
    re: /\b(the|that|this|last|latest|first|previous|earlier|a)\s+(build|builds|compile|compilation|install|\w+ runs?)\b|\bbuild (ran|run|failed|worked|passed)\b/,
    hints: { exec: 2.5 },
    consumes: ["build", "builds", "compile", "compilation", "install"],
    what: "a command",
  },
  { re: /\b(logs?|logged|logging)\b/, hints: { log: 2 }, what: "a log" },
  {
    re: /\b(chart|plot|graph|visuali[sz]e|tabulate|the data|dataset)\b/,
    hints: { data: 1.5 },
    what: "data to work with",
  },
  { re: /\b(files?)\b/, hints: { file: 1 }, what: "a file" },
];

/** How much an execution of each tool belongs to each class. */
export function toolClasses(toolName: string, args: Record<string, unknown>): Map<ToolClass, number> {
  const name = normalizeToolName(toolName);
  const m = new Map<ToolClass, number>();
  const set = (c: ToolClass, w: number) => m.set(c, Math.max(m.get(c) ?? 0, w));
  if (/(^|_)(read|cat|open|view|get_file|load)(_|$)|read_file|file_read|view_file/.test(name)) set("read", 1);
  if (/write|patch|edit|create_file|save|append|replace|apply_diff/.test(name)) set("write", 1);
  if (/list|(^|_)ls($|_)|tree|glob|dir/.test(name)) set("list", 1);
  if (/grep|ripgrep|search_files|search_code|find_in|code_search/.test(name)) set("grep", 1);
  if (/web_search|search_web|google|bing|brave|(^|_)search$/.test(name)) set("search", 1);
  if (/test|pytest|jest|vitest/.test(name)) set("test", 1), set("exec", 0.5);
  if (/bash|shell|exec|command|run_|terminal|python|node_eval|powershell/.test(name) && !m.has("test")) set("exec", 1);
  if (/http|request|curl|api_call|rest/.test(name)) set("http", 1), set("fetch", 0.4);
  if (/fetch|browse|scrape|crawl|web_get|open_url|get_url|download/.test(name)) set("fetch", 1), set("http", 0.6);
  if (/sql|query|database|db_|postgres|mysql|sqlite|bigquery/.test(name)) set("sql", 1);
  const command = typeof args.command === "string" ? args.command : typeof args.cmd === "string" ? args.cmd : undefined;
  if (command) for (const [c, w] of commandClasses(command)) set(c, w);
  const path = [args.path, args.file, args.file_path, args.filename].find((v) => typeof v === "string") as
    | string
    | undefined;
  if (path && /\.log(\.\d+)?(\.gz)?$|(^|\/)logs?\//i.test(path) && (m.has("read") || m.has("grep"))) set("log", 1);
  if (/(^|_)(stash|store_artifact|put_artifact|save_artifact|artifacts_put)(_|$)/.test(name)) set("stash", 1);
  if (m.size === 0) set("exec", 0.5);
  return m;
}

/** What a shell command does, judged by its program and subcommand. */
export function commandClasses(command: string): Array<[ToolClass, number]> {
  const c = command.trim().replace(/^(sudo|env\s+\S+=\S+|time|nice)\s+/g, "");
  const out: Array<[ToolClass, number]> = [];
  if (
    /\b(pytest|jest|vitest|mocha|rspec|phpunit|go test|cargo test|npm (run )?test|pnpm (-\S+ \S+ )?(run )?test|yarn test|tox|nox|unittest|ctest|mvn test|gradle test|(\S+ )?test\s*$)/.test(
      c,
    )
  )
    out.push(["test", 0.9]);
  if (
    /^(ls|ls[a-z]{3,}|tree|find|fd|du)\b|\b(get|list|ls|ps)\s+(pods?|deployments?|services?|nodes?|jobs?|containers?|images?|files?|buckets?|namespaces?)\b|^docker (ps|images)|^git (ls-files|branch)|^kubectl( -n \S+)? get\b/.test(
      c,
    )
  )
    out.push(["list", 0.7]);
  if (/^(cat|less|more|head|tail|bat|nl)\b/.test(c)) out.push(["read", 0.7]);
  if (/^(curl|wget|http|httpie|xh)\b/.test(c)) out.push(["http", 0.85]);
  if (/^(grep|rg|ag|ack|git grep)\b/.test(c)) out.push(["grep", 0.9]);
  if (/^(psql|mysql|sqlite3|duckdb|bq|clickhouse-client)\b/.test(c)) out.push(["sql", 0.7]);
  if (/\b(logs|journalctl|dmesg)\b|\btail -[fF]\b|\.log\b/.test(c)) out.push(["log", 1]);
  return out;
}

export function normalizeToolName(toolName: string): string {
  const last =
    toolName
      .split(/[./:]|__/)
      .filter(Boolean)
      .pop() ?? toolName;
  return last
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();
}

/**
 * Concept groups: words that name the same thing in day-to-day work. Matching through a group
 * counts less than matching the word itself.
 */
export const CONCEPTS: string[][] = [
  [
    "config",
    "configuration",
    "conf",
    "cfg",
    "ini",
    "toml",
    "yaml",
    "yml",
    "configmap",
    "settings",
    "setting",
    "rc",
    "properties",
    "dotenv",
  ],
  ["disk", "df", "du", "storage", "filesystem", "volume", "space", "mount", "partition"],
  ["forum", "reddit", "thread", "comments", "discussion", "discourse", "stackoverflow", "community"],
  ["docs", "documentation", "doc", "reference", "manual", "guide", "spec", "specification"],
  [
    "died",
    "die",
    "dies",
    "dying",
    "dead",
    "fatal",
    "falls over",
    "falling over",
    "fell over",
    "crash",
    "crashed",
    "crashing",
    "panic",
    "panicked",
    "exit",
    "exited",
    "terminated",
    "killed",
    "oom",
    "oomkilled",
    "segfault",
    "crashloopbackoff",
  ],
  ["backend", "server", "api", "service"],
  ["frontend", "web", "ui", "client", "browser"],
  ["count", "how many", "number of", "total"],
  ["single", "only one", "just one", "one word", "single word", "sole", "singular"],
  ["error", "errors", "fail", "failed", "failure", "failing", "exception", "traceback"],
  ["warning", "warnings", "warn", "deprecated"],
  ["database", "db", "postgres", "postgresql", "mysql", "sqlite", "table", "schema"],
  ["migration", "migrations", "migrate", "alembic", "flyway", "liquibase", "upgrade"],
  ["dependencies", "dependency", "deps", "packages", "requirements"],
  [
    "secret",
    "secrets",
    "password",
    "passwords",
    "token",
    "tokens",
    "credential",
    "credentials",
    "apikey",
    "key",
    "keys",
    "leak",
    "leaks",
    "leaked",
  ],
  ["log", "logs", "journal", "journalctl", "stderr", "stdout", "syslog"],
  ["container", "containers", "pod", "pods", "docker"],
  ["image", "images", "registry", "tag"],
  ["env", "environment", "variables", "vars", "envvars"],
  ["revenue", "sales", "income", "earnings"],
  ["rate", "ratelimit", "throttle", "throttling", "quota", "429"],
  // How long a thing lives before it goes away: a key "without expiry" is one with "no TTL".
  ["expiry", "expiration", "expire", "expires", "expired", "expiring", "ttl", "ttls", "time to live"],
  ["slow", "latency", "timeout", "timed", "duration", "performance"],
  ["memory", "ram", "heap", "oom", "rss", "mem", "buffer", "buffers"],
  ["cpu", "load", "usage", "profile", "profiling", "pprof", "flamegraph", "hotspot", "hotspots"],
  ["repo", "repository", "git", "commit", "commits"],
  ["diff", "changes", "changed", "patch", "modified", "modify", "modifications", "touched", "touching"],
  ["build", "compile", "compiled", "bundle", "tsc", "webpack", "vite"],
  ["deploy", "deployment", "deployed", "rollout", "release"],
  ["auth", "authentication", "login", "jwt", "oauth", "token"],
  ["permission", "permissions", "forbidden", "denied", "unauthorized", "403", "401"],
  ["users", "user", "accounts", "account", "customers"],
  ["price", "prices", "pricing", "cost", "costs", "amount", "money"],
  ["worst", "lowest", "least", "minimum", "min", "bottom", "smallest"],
  ["best", "highest", "most", "maximum", "max", "top", "largest", "biggest"],
  // Pressing a button said in other words: "tap the button" is "press the button".
  ["tap", "taps", "tapped", "tapping", "press", "presses", "pressed", "pressing", "click", "clicking"],
  // Size said in other words: "big tables" are "large tables".
  ["big", "large", "huge", "bigger", "larger"],
  // What takes up the most of a resource: "what is hogging the disk" asks for the largest entries.
  // A checksum answers whether copies are the same: "are the copies identical?", "is anything corrupted?".
  [
    "checksum",
    "checksums",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "identical",
    "integrity",
    "corrupt",
    "corrupted",
    "corruption",
    "bit for bit",
  ],
  // A dry run does nothing for real: "without actually doing it", "simulate", "no-op" (the flag's own meaning).
  [
    "dry run",
    "dryrun",
    "simulate",
    "simulated",
    "simulation",
    "noop",
    "without actually",
    "not actually",
    "not for real",
  ],
  // Still waiting: a record's "pending"/"queued" answers "not yet delivered/done".
  ["pending", "waiting", "awaiting", "queued", "outstanding", "not yet"],
  [
    "fast",
    "faster",
    "fastest",
    "speed",
    "speedup",
    "benchmark",
    "benchmarks",
    "benchmarking",
    "hyperfine",
    "throughput",
  ],
  // A picture is a file of an image format (not a container image: "image" stays in its own group).
  ["picture", "pictures", "photo", "photos", "png", "jpg", "jpeg", "webp", "heic", "gif"],
  ["hog", "hogs", "hogging", "largest", "biggest", "heaviest", "bloat", "bloated"],
  ["satisfaction", "csat", "nps", "rating", "ratings", "score", "scores", "feedback"],
  ["complaint", "complaints", "complaining", "issue", "issues", "problem", "problems", "ticket", "tickets"],
  ["outage", "incident", "incidents", "downtime", "down", "status"],
  ["slowest", "slow", "latency", "ms", "duration"],
  [
    "remove",
    "removed",
    "removing",
    "removes",
    "delete",
    "deleted",
    "deleting",
    "drop",
    "dropped",
    "drops",
    "rm",
    "thrown away",
    "threw away",
    "throw away",
    "got rid of",
    "get rid of",
    "discard",
    "discarded",
    "purge",
    "purged",
    "erase",
    "erased",
    "wiped",
  ],
  [
    "pipeline",
    "pipelines",
    "workflow",
    "workflows",
    "snakemake",
    "nextflow",
    "airflow",
    "luigi",
    "prefect",
    "dagster",
    "kedro",
    "dag",
    "dvc",
  ],
  ["scanner", "scanners", "scan", "scanned", "scanning", "detect", "detector", "audit", "linter"],
  ["flagged", "flag", "flags", "findings", "finding", "detected", "caught", "reported"],
  // A graphics card by its everyday name, its maker's and its compute stacks' names ("can torch see the gpu?" ~ cuda).
  ["gpu", "gpus", "cuda", "nvidia", "rocm", "vram", "graphics card"],
  // Silencing a warning: the flags that do it in build tools and linters (-dontwarn, nowarn, noqa). Not "mute",
  // which is also about sound.
  ["silence", "silenced", "suppress", "suppressed", "dontwarn", "nowarn", "noqa"],
  // Kept although nothing uses it: unused code, keys, images or rows ("nothing refers to it anymore").
  [
    "unused",
    "unreferenced",
    "orphaned",
    "dangling",
    "dead code",
    "nothing refers to",
    "nothing references",
    "nothing uses",
    "no longer used",
    "never used",
    "not used anywhere",
  ],
  // A known weakness in something: what an audit of dependencies reports ("security holes" ~ "vulnerable packages").
  [
    "vulnerable",
    "vulnerability",
    "vulnerabilities",
    "cve",
    "cves",
    "security hole",
    "security holes",
    "advisory",
    "advisories",
    "exploit",
    "exploits",
  ],
  // The name system by its everyday names and its look-up tools ("our nameserver" ~ a dig/nslookup result).
  ["nameserver", "nameservers", "dns", "dig", "nslookup"],
  // Money going out: "am I spending more than I earn" ~ a ledger's "spent"/"expenses".
  ["spend", "spending", "spent", "expense", "expenses", "expenditure", "outgoing", "outgoings"],
  // Going round without end: a redirect cycle, a restart loop, an infinite loop ("going round and round forever").
  ["loop", "loops", "looping", "cycle", "cycles", "round and round", "endless", "infinite"],
  // Destroying things on purpose ("nuke them", "kill all entities", "wipe out"); not the removal group's "delete",
  // which would then meet every "OOM killed" process.
  ["destroy", "destroyed", "destroying", "nuke", "nuked", "nuking", "kill", "killed", "wipe out", "wiped out"],
  ["approve", "approved", "approval", "approves", "sign off", "signed off", "signs off", "reviewed", "lgtm"],
];

/** Messages of these shapes ask something general, not about an execution of the session. */
export const GENERAL_QUESTION: RegExp[] = [
  /\b(in general|generally|usually|typically|in theory|in principle|best practices?|the best way|a good way|rule of thumb)\b/,
  // The message says it is not about the session: "general advice", "just theory", "not specific to this diff".
  /\bgeneral (advice|guidance|question|recommendations?)\b|\bjust (the )?theory\b|\bnot (specific|particular|tied) to\b/,
  /\b(?:difference|diff)s? between\b/,
  // A question about the world, not about the session's results: "is it better to", "good enough for",
  // "are they worth it", "just curious, not for this".
  /\b(?:is|are|was|would)\s+(?:it|they|that|those|these)\s+(?:\w+\s+)?(?:worth it|better to|worse to|a good idea)\b|\bworth it\b\s*(?:for|to|\?)|\bgood enough for\b|\bnot for this\b|\bnothing to do with (?:this|the session|our)\b/,
  /\b(vs\.?|versus)\s/,
  /\bwhen (should|do|would) (i|we|you|one)\b/,
  /\bhow (would|should|do|does|can|could|might) (i|we|you|one)\b/,
  /\bwhat (does|do|is|are)\b.*\b(mean|stand for)\b/,
  /\b(should|would|could) (i|we) use\b|\bwhich \w+ should (i|we)\b/,
  /\bwhat'?s new in\b|\bwhat is new in\b/,
  /\b(what'?s|what is|which is|who is) the (best|fastest|easiest|most popular|recommended)\b/,
  /\b(what|who) (is|are|was|were) (a|an)\b/,
  /\bwhat'?s (a|an)\b/,
  /\b(explain|define|describe) (what )?(a|an)\b/,
  /^\s*(please\s+)?(write|compose|draft|create|generate|make)\s+(me\s+)?(a|an|some)\b/,
  // "can you write me a one-liner that …": a request to write something new, asked politely.
  /^\s*(?:(?:can|could|would|will) you\s+(?:please\s+)?)(?:write|compose|draft|generate)\s+(?:me\s+|us\s+)?(?:a|an|some)\b/,
  // Names or ideas asked for ("a good name for a tool that …", "give me 5"): something new, not a record.
  /\b(?:good|catchy|better|cool|short|clever|fun|nice)\s+names?\s+for\b|\bname (?:ideas|suggestions)\b|\bgive me (?:\d+|two|three|four|five|ten|a few|some)\s*(?:[?.!]|$|(?:more\s+)?(?:ideas|options|names|suggestions|examples|alternatives)\b)/,
  // A snippet or command asked for a task ("give me a command to find big files"), not one that ran ("… that failed").
  /^\s*(?:please\s+)?(?:give|show|suggest)\s+(?:me|us)\s+(?:an?|some)\s+(?:[\w-]+\s+)?(?:command|one-?liner|script|regexp?|snippet|function|query|alias|example)s?\s+(?:to|that|for|which)\s+(?![a-z]+ed\b)/,
  // How a thing of the world works: "explain how dns resolution works" (not "how the cache works", "how it works").
  /\b(?:explain|describe|tell me)\s+how\s+(?!(?:the|that|this|these|those|my|our|your|its|their|it|they|we|you|i)\b)(?:[\w-]+\s+){1,4}?works?\b/,
  // What the assistant knows of the world: "as far as you know", "to your knowledge".
  /\bas far as you know\b|\bto (?:the best of )?your knowledge\b|\byour (?:training|knowledge) cut-?off\b/,
  /\b(haiku|poem|limerick|joke|riddle|song|story)\b/,
  /\btranslate\b/,
  /\bremind me (to|about|on|at|in|tomorrow|tonight|next|every)\b/,
  /\bwhat (time|day|date) is it\b/,
];

/** Nouns that stand for an execution or its result ("the last one", "that listing"). */
export const EXECUTION_NOUNS = new Set(
  (
    "one ones result results output outputs file files page pages link links url command commands run runs test tests query queries " +
    "search searches call calls request requests response log logs listing listings execution executions error errors thing " +
    "doc docs document documents fetch read write edit edits change changes migration report table data json csv thread article " +
    "study time attempt try tool step action operation endpoint config diff build deploy script " +
    "plan scan scans check job lint profile trace dump snapshot backup export upload download install apply notebook spreadsheet sheet " +
    "pdf image screenshot email mail message artifact stash"
  ).split(/\s+/),
);

const NUMBER_WORDS: Record<string, number> = { two: 2, both: 2, pair: 2, three: 3, four: 4, five: 5 };
export function numberWord(word: string): number | undefined {
  return NUMBER_WORDS[word];
}
