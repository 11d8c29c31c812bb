// General signals of reference resolution on sessions written for these tests (no sentence of the
// reference data sets): follow-ups, clock phrases, negation, typos, abbreviations, stashes, bad input.
import { hasErrorCode } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { type ExecutionLike, ResolutionSession, resolveReferences } from "../src/index.js";
import { isAbbreviation } from "../src/resolution/tokens.js";

const t0 = Date.parse("2025-03-04T09:00:00Z");
const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();

const session: ExecutionLike[] = [
  {
    id: "x1",
    tool_name: "execute_bash",
    tool_args: { command: "helm lint charts/gateway" },
    summary: "1 chart linted, 0 failed",
    result_type: "success",
    timestamp: at(0),
  },
  {
    id: "x2",
    tool_name: "read_file",
    tool_args: { path: "charts/gateway/values.yaml" },
    summary: "replicaCount 2, image tag 1.8.0, ingress disabled",
    timestamp: at(3),
  },
  {
    id: "x3",
    tool_name: "read_file",
    tool_args: { path: "charts/billing/values.yaml" },
    summary: "replicaCount 4, image tag 3.1.2, autoscaling on",
    timestamp: at(5),
  },
  {
    id: "x4",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl rollout status deploy/gateway" },
    summary: "deployment gateway rolled out: 2 of 2 updated",
    timestamp: at(20),
  },
  {
    id: "x5",
    tool_name: "run_tests",
    tool_args: { command: "pytest tests/smoke" },
    summary: "3 failed, 40 passed: test_login_redirect",
    result_type: "error",
    timestamp: at(62),
  },
  {
    id: "x6",
    tool_name: "read_file",
    tool_args: { path: "services/gateway/config/settings.py" },
    summary: "SESSION_COOKIE_SECURE False, LOGIN_URL /auth/start",
    timestamp: at(64),
  },
  {
    id: "x7",
    tool_name: "run_tests",
    tool_args: { command: "pytest tests/smoke" },
    summary: "43 passed",
    result_type: "success",
    timestamp: at(80),
  },
  {
    id: "x8",
    tool_name: "http_get",
    tool_args: { url: "https://status.example.net/api/incidents" },
    summary: "HTTP 200 JSON: 0 open incidents",
    timestamp: at(84),
  },
];
const ids = (text: string, xs = session, options = {}) =>
  resolveReferences(text, xs, options).candidates.map((c) => c.id);

describe("follow-ups on the previous answer", () => {
  it("'the other one' after an ambiguous answer is the candidate not taken", () => {
    const first = resolveReferences("show me values.yaml", session);
    expect(first.ambiguous).toBe(true);
    expect(first.candidates.slice(0, 2).map((c) => c.id)).toEqual(["x3", "x2"]);
    expect(ids("and the other one?", session, { previous: ["x3", "x2"] })[0]).toBe("x2");
    // with a single previous id, the other thing of the same shape (same basename, same tool)
    expect(ids("what about the other one", session, { previous: ["x2"] })[0]).toBe("x3");
  });

  it("'the one before that' / 'the one after that' step along the previous answer's kind", () => {
    expect(ids("and the one before that?", session, { previous: ["x7"] })[0]).toBe("x5");
    expect(ids("ok, the one after that", session, { previous: ["x2"] })[0]).toBe("x3");
    const r = resolveReferences("and the one before that?", session, { previous: ["x7"] });
    expect(r.candidates[0]!.reasons.join(" ")).toMatch(/follow-up/);
  });

  it("'both of them' returns every id of the previous answer; a Resolution works as previous", () => {
    const previous = resolveReferences("show me values.yaml", session);
    expect(ids("compare both of them", session, { previous }).sort()).toEqual(["x2", "x3"]);
  });

  it("a previous id that is not in the session is ignored, never returned", () => {
    expect(ids("and the other one?", session, { previous: ["nope"] })).not.toContain("nope");
    expect(ids("both of them", session, { previous: ["nope", "gone"] })).toEqual([]);
  });

  it("without a previous answer a follow-up does not invent one", () => {
    for (const id of ids("and the other one?", session)) expect(session.map((x) => x.id)).toContain(id);
  });
});

describe("clock phrases use the executions' timestamps", () => {
  it("'an hour ago' picks the execution nearest to an hour before the latest one", () => {
    // latest at +84 min; an hour before is +24 min: the rollout at +20
    expect(ids("what did the command an hour ago print?")[0]).toBe("x4");
  });

  it("'a few minutes ago' with a tool kind picks the nearest of that kind", () => {
    expect(ids("the test run from a few minutes ago")[0]).toBe("x7");
    expect(ids("the tests from 20 minutes ago", session, { now: new Date(t0 + 82 * 60_000) })[0]).toBe("x5");
  });

  it("'at the start' is the first of the kind, whatever the clock says", () => {
    expect(ids("which file did you open at the start?")[0]).toBe("x2");
    expect(ids("what did you run at the very beginning?")[0]).toBe("x1");
  });

  it("without timestamps, short spans mean the latest and long ones the one before", () => {
    const untimed = session.map(({ timestamp: _t, ...rest }) => rest);
    expect(ids("the test run a few minutes ago", untimed)[0]).toBe("x7");
    expect(ids("the test run two hours ago", untimed)[0]).toBe("x5");
  });
});

describe("order words that name the latest or a neighbour", () => {
  it("'before the latest one/step' is the one before the latest, whatever verb follows", () => {
    expect(ids("what did the step before the last one print")[0]).toBe("x7");
    expect(ids("and the thing just before the newest step?")[0]).toBe("x7");
    expect(ids("what did the one right before the most recent one show")[0]).toBe("x7");
  });

  it("'before that/this last one' is the one before the latest too (a pointing word for 'the')", () => {
    expect(ids("ok, and just before that last one?")[0]).toBe("x7");
    expect(ids("what did it print right before this last step?")[0]).toBe("x7");
  });

  it("nothing named but an event: the record right beside it", () => {
    expect(ids("what was right after the rollout?")[0]).toBe("x5");
    expect(ids("and what came just before the rollout")[0]).toBe("x3");
  });

  it("a generic noun beside the event names no kind: 'the result from before you edited the file' is the record right before it", () => {
    const xs: ExecutionLike[] = [
      { id: "g1", tool_name: "execute_bash", tool_args: { command: "make lint" }, summary: "lint result: 0 warnings" },
      { id: "g2", tool_name: "read_file", tool_args: { path: "deploy/app.yaml" }, summary: "replicas 2" },
      { id: "g3", tool_name: "execute_bash", tool_args: { command: "make check" }, summary: "all checks ok" },
      { id: "g4", tool_name: "write_file", tool_args: { path: "deploy/app.yaml" }, summary: "Wrote 220 bytes" },
      { id: "g5", tool_name: "execute_bash", tool_args: { command: "make deploy" }, summary: "deployed" },
    ];
    expect(ids("wait, show the result from before you edited the file", xs)[0]).toBe("g3");
  });

  it("'what did we just fix/edit?' asks for the latest write, not a record that says 'fix'", () => {
    const xs: ExecutionLike[] = [
      {
        id: "d1",
        tool_name: "read_file",
        tool_args: { path: "CHANGELOG.md" },
        summary: "fix: retry on 503; edit docs",
      },
      { id: "d2", tool_name: "write_file", tool_args: { path: "src/retry.ts" }, summary: "Wrote 1,204 bytes" },
      { id: "d3", tool_name: "execute_bash", tool_args: { command: "npm test" }, summary: "31 passed" },
    ];
    expect(ids("what did we just fix?", xs)[0]).toBe("d2");
    expect(ids("which file did I edit?", xs)[0]).toBe("d2");
  });

  it("'the last result/output' is the latest execution, not a record whose text says 'results'", () => {
    const xs: ExecutionLike[] = [
      { id: "r1", tool_name: "web_search", tool_args: { query: "pgbouncer pool modes" }, summary: "9 results: docs" },
      { id: "r2", tool_name: "execute_bash", tool_args: { command: "pgbouncer -V" }, summary: "PgBouncer 1.22.1" },
      { id: "r3", tool_name: "read_file", tool_args: { path: "pgbouncer.ini" }, summary: "pool_mode = session" },
    ];
    expect(ids("and the one just before the last result?", xs)[0]).toBe("r2");
    expect(ids("what did the last output say?", xs)[0]).toBe("r3");
  });

  it("'the Nth thing/step' counts every execution, whatever else the message names", () => {
    const xs: ExecutionLike[] = [
      { id: "n1", tool_name: "execute_bash", tool_args: { command: "zpool list" }, summary: "vault 71% full" },
      { id: "n2", tool_name: "execute_bash", tool_args: { command: "uptime" }, summary: "load 0.4" },
      { id: "n3", tool_name: "execute_bash", tool_args: { command: "zfs list vault" }, summary: "vault 2.1T avail" },
      { id: "n4", tool_name: "execute_bash", tool_args: { command: "zpool status vault" }, summary: "vault ONLINE" },
    ];
    expect(ids("the third step, what did it say about vault?", xs)[0]).toBe("n3");
    expect(ids("first thing we did on vault?", xs)[0]).toBe("n1");
  });

  it("a tool kind named outright keeps order words to that kind ('the earlier test run')", () => {
    const xs: ExecutionLike[] = [
      {
        id: "k1",
        tool_name: "execute_bash",
        tool_args: { command: "cargo build" },
        summary: "error[E0308]: 1 failing item, total 1 of 1 crates",
        result_type: "error",
      },
      { id: "k2", tool_name: "run_tests", tool_args: { command: "cargo test" }, summary: "3 failing, 37 passed" },
      { id: "k3", tool_name: "write_file", tool_args: { path: "src/lib.rs" }, summary: "Wrote 2 KB" },
      { id: "k4", tool_name: "run_tests", tool_args: { command: "cargo test" }, summary: "all 40 passed" },
    ];
    expect(ids("in the earlier test run, how many were failing?", xs)[0]).toBe("k2");
  });

  it("a failure pointed at without a name is the latest failure", () => {
    const xs: ExecutionLike[] = [
      {
        id: "g1",
        tool_name: "execute_bash",
        tool_args: { command: "pnpm lint" },
        summary: "2 errors",
        result_type: "error",
      },
      { id: "g2", tool_name: "read_file", tool_args: { path: "tsconfig.json" }, summary: "strict true" },
      {
        id: "g3",
        tool_name: "http_get",
        tool_args: { url: "http://localhost:3000/api/users" },
        summary: "status 503, upstream timed out",
        result_type: "error",
      },
    ];
    expect(ids("that 503, what caused it?", xs)[0]).toBe("g3");
    expect(ids("hm, the CI went red again — whats wrong", xs.slice(0, 1))[0]).toBe("g1");
    expect(ids("that failure: what is it about?", xs)[0]).toBe("g3");
  });

  it("refusals are failures too: 'which servers rejected …', 'which ones did not accept …'", () => {
    const xs: ExecutionLike[] = [
      { id: "j1", tool_name: "read_file", tool_args: { path: "inventory.ini" }, summary: "9 servers in 2 groups" },
      {
        id: "j2",
        tool_name: "execute_bash",
        tool_args: { command: "ansible all -m authorized_key -a key=ops.pub" },
        summary: "exit 2: 7 changed; unreachable: app-3 (timeout), app-5 (permission denied)",
        result_type: "error",
      },
      { id: "j3", tool_name: "write_file", tool_args: { path: "notes/rollout.md" }, summary: "Wrote 300 bytes" },
    ];
    expect(ids("which servers did not accept the new pubkey?", xs)[0]).toBe("j2");
    expect(ids("so who rejected the new pubkey?", xs)[0]).toBe("j2");
  });

  it("'the X which failed': the failure verb of a relative clause names the outcome, not a record whose text says 'failed'", () => {
    const xs: ExecutionLike[] = [
      {
        id: "m2",
        tool_name: "execute_bash",
        tool_args: { command: "rsync -av dist/ web-2:/srv" },
        summary: "exit 12: protocol stream error, remote closed the connection",
        result_type: "error",
      },
      {
        id: "m1",
        tool_name: "execute_bash",
        tool_args: { command: "rsync -av dist/ web-1:/srv" },
        summary: "exit 23: 2 files failed: permission denied",
        result_type: "error",
      },
      { id: "m3", tool_name: "read_file", tool_args: { path: "dist/index.html" }, summary: "html, 40 lines" },
    ];
    const r = resolveReferences("the rsync which failed, what did it say?", xs);
    expect(
      r.candidates
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual(["m1", "m2"]);
    expect(r.candidates.flatMap((c) => c.reasons).join(" ")).not.toMatch(/"failed" in summary/);
  });

  it("'why did that fail?' is the latest failure even when an older record's text says 'failed'", () => {
    const xs: ExecutionLike[] = [
      {
        id: "h1",
        tool_name: "execute_bash",
        tool_args: { command: "pytest --fail-fast" },
        summary: "fail: 3 of 40 tests",
        result_type: "error",
      },
      {
        id: "h2",
        tool_name: "read_file",
        tool_args: { path: "/etc/nginx/nginx.conf" },
        summary: "worker_processes auto",
      },
      {
        id: "h3",
        tool_name: "execute_bash",
        tool_args: { command: "curl -sI http://localhost" },
        summary: "curl: (7) connection refused",
        result_type: "error",
      },
    ];
    expect(ids("hmm why did that fail", xs)[0]).toBe("h3");
  });

  it("'as it stands', 'currently', 'the current version' mean the latest of the kind", () => {
    const edits: ExecutionLike[] = [
      { id: "f1", tool_name: "read_file", tool_args: { path: "deploy/nginx.conf" }, summary: "worker_processes 2" },
      { id: "f2", tool_name: "write_file", tool_args: { path: "deploy/nginx.conf" }, summary: "worker_processes 4" },
      { id: "f3", tool_name: "execute_bash", tool_args: { command: "nginx -t" }, summary: "syntax is ok" },
      { id: "f4", tool_name: "write_file", tool_args: { path: "deploy/nginx.conf" }, summary: "gzip on" },
    ];
    for (const text of [
      "show nginx.conf as it stands",
      "what does nginx.conf currently hold",
      "the current version of nginx.conf",
    ])
      expect(ids(text, edits)[0], text).toBe("f4");
  });

  it("'the thing we looked at' is any execution, not only a file read", () => {
    const xs: ExecutionLike[] = [
      { id: "z1", tool_name: "execute_bash", tool_args: { command: "df -h" }, summary: "/ 71% used" },
      { id: "z2", tool_name: "execute_bash", tool_args: { command: "uptime" }, summary: "load 3.2" },
      { id: "z3", tool_name: "read_file", tool_args: { path: "nginx.conf" }, summary: "worker_processes 4" },
      { id: "z4", tool_name: "read_file", tool_args: { path: "app.env" }, summary: "PORT=8080" },
    ];
    expect(ids("the third thing we looked at, once more", xs)[0]).toBe("z3");
    expect(ids("first thing I looked at?", xs)[0]).toBe("z1");
    expect(ids("which file have we looked at last?", xs)[0]).toBe("z4");
  });

  it("an ordinal that starts a clause counts like 'the second'", () => {
    expect(ids("third one, what did it say?")[0]).toBe("x3");
  });
});

describe("negation", () => {
  it("'not the first run, the second' and 'not the latest'", () => {
    expect(ids("not the first test run, the second one")[0]).toBe("x7");
    expect(ids("the test run, not the latest one")[0]).toBe("x5");
  });

  it("a set-aside name counts against the records that hold it", () => {
    const r = resolveReferences("forget the gateway chart, what does values.yaml say about billing?", session);
    expect(r.candidates[0]!.id).toBe("x3");
    expect(r.candidates.find((c) => c.id === "x2")?.reasons.join(" ") ?? "set aside").toMatch(/set aside/);
  });

  it("a message that says it is not about the session ('general advice, not specific to this chart') refers to nothing", () => {
    expect(
      ids(
        "should gateway charts keep replicaCount at 2 or autoscale? general advice please, not specific to this chart",
      ),
    ).toEqual([]);
    expect(ids("just theory: why do helm charts pin an image tag at all?")).toEqual([]);
    // Without the disclaimer the same words point at the session.
    expect(ids("should the gateway chart keep replicaCount at 2?")[0]).toBe("x2");
  });
});

describe("typos and shorthand", () => {
  it("misspelled content words and chat shorthand still resolve", () => {
    expect(ids("wat did u just open?")[0]).toBe("x6");
    expect(ids("the settigns file")[0]).toBe("x6");
    expect(ids("which tset failed in the smoke suite?")[0]).toBe("x5");
  });
});

describe("abbreviations derived from the session's own words", () => {
  it("prefix, consonant skeleton and numeronym, not a fixed list", () => {
    expect(isAbbreviation("cfg", "config")).toBe(true);
    expect(isAbbreviation("tf", "terraform")).toBe(true);
    expect(isAbbreviation("k8s", "kubernetes")).toBe(true);
    expect(isAbbreviation("i18n", "internationalization")).toBe(true);
    expect(isAbbreviation("repo", "repository")).toBe(true);
    expect(isAbbreviation("js", "json")).toBe(false);
    expect(isAbbreviation("cat", "config")).toBe(false);
  });

  it("a short English word with a 'y' is no consonant skeleton ('dry' is not 'directory')", () => {
    expect(isAbbreviation("dry", "directory")).toBe(false);
    expect(isAbbreviation("fly", "flatly")).toBe(false);
    expect(isAbbreviation("sys", "system")).toBe(true); // still a prefix
    const xs: ExecutionLike[] = [
      { id: "y1", tool_name: "execute_bash", tool_args: { command: "make" }, summary: "build ok" },
      { id: "y2", tool_name: "read_file", tool_args: { path: "docs/directory-layout.md" }, summary: "42 lines" },
    ];
    expect(ids("what did the dry run at the start print?", xs)[0]).toBe("y1");
  });

  it("'the cfg' and 'the k8s rollout' find the session's config and kubectl records", () => {
    const xs: ExecutionLike[] = [
      ...session,
      {
        id: "x9",
        tool_name: "execute_bash",
        tool_args: { command: "kubernetes-validate manifests/" },
        summary: "12 manifests valid",
      },
    ];
    expect(ids("open the cfg file again")[0]).toBe("x6");
    expect(ids("did the k8s validation pass?", xs)[0]).toBe("x9");
  });
});

describe("concept words of everyday work", () => {
  it("removing is dropping or deleting; signing off is approving", () => {
    const xs: ExecutionLike[] = [
      { id: "c1", tool_name: "sql_query", tool_args: { query: "SELECT count(*) FROM audit" }, summary: "1 row: 88" },
      {
        id: "c2",
        tool_name: "read_file",
        tool_args: { path: "ops/cleanup_plan.md" },
        summary: "drop the legacy_audit table after export; approved by the data team lead",
      },
      { id: "c3", tool_name: "execute_bash", tool_args: { command: "make export" }, summary: "exported 88 rows" },
    ];
    expect(ids("where was the sign off for deleting it?", xs)[0]).toBe("c2");
  });

  it("buffers and caches sized in a setting are memory", () => {
    const xs: ExecutionLike[] = [
      { id: "m1", tool_name: "read_file", tool_args: { path: "redis/redis.conf" }, summary: "port 6379, bind 0.0.0.0" },
      {
        id: "m2",
        tool_name: "execute_bash",
        tool_args: { command: "mysql -e 'show variables like \"innodb_buffer_pool_size\"'" },
        summary: "innodb_buffer_pool_size 8589934592",
      },
      { id: "m3", tool_name: "execute_bash", tool_args: { command: "uptime" }, summary: "up 4 days" },
    ];
    expect(ids("what is the mysql memory setting set to?", xs)[0]).toBe("m2");
  });

  it("a scanner's detections are what it flagged", () => {
    const xs: ExecutionLike[] = [
      { id: "f1", tool_name: "execute_bash", tool_args: { command: "npm ci" }, summary: "added 812 packages" },
      {
        id: "f2",
        tool_name: "execute_bash",
        tool_args: { command: "trufflehog filesystem ." },
        summary: "detected 1 credential in scripts/upload.sh",
      },
      {
        id: "f3",
        tool_name: "read_file",
        tool_args: { path: "scripts/upload.sh" },
        summary: "uploads build/ to a bucket",
      },
    ];
    expect(ids("what got flagged by the scan?", xs)[0]).toBe("f2");
  });

  it("a workflow manager's run is a pipeline run", () => {
    const xs: ExecutionLike[] = [
      { id: "w0", tool_name: "execute_bash", tool_args: { command: "make lint" }, summary: "0 problems" },
      {
        id: "w1",
        tool_name: "execute_bash",
        tool_args: { command: "luigi --module etl Report" },
        summary: "failed at ALIGN",
      },
      { id: "w2", tool_name: "execute_bash", tool_args: { command: "ls results" }, summary: "3 entries" },
      {
        id: "w3",
        tool_name: "execute_bash",
        tool_args: { command: "luigi --module etl Report --local-scheduler" },
        summary: "done",
      },
      { id: "w4", tool_name: "execute_bash", tool_args: { command: "du -sh results" }, summary: "12G results" },
    ];
    expect(ids("how did the pipeline go, both times?", xs).slice(0, 2).sort()).toEqual(["w1", "w3"]);
  });
});

describe("plural references named apart", () => {
  it("'the X and Y sizes' picks the records that state a size and lists them in the order named", () => {
    const xs: ExecutionLike[] = [
      {
        id: "p1",
        tool_name: "execute_bash",
        tool_args: { command: "docker build -t api ." },
        summary: "failed: no space",
      },
      { id: "p2", tool_name: "execute_bash", tool_args: { command: "docker build -t api ." }, summary: "image 312 MB" },
      {
        id: "p3",
        tool_name: "execute_bash",
        tool_args: { command: "docker build -t worker ." },
        summary: "image 1.2 GB",
      },
      { id: "p4", tool_name: "read_file", tool_args: { path: "worker/Dockerfile" }, summary: "FROM python:3.12" },
    ];
    expect(ids("the worker and api image sizes side by side", xs).slice(0, 2)).toEqual(["p3", "p2"]);
    expect(ids("the api and worker image sizes side by side", xs).slice(0, 2)).toEqual(["p2", "p3"]);
  });
});

describe("a tool word that is also a file type", () => {
  it("'the sql' finds a query run and a .sql file alike", () => {
    const xs: ExecutionLike[] = [
      { id: "q1", tool_name: "read_file", tool_args: { path: "README.md" }, summary: "setup notes" },
      { id: "q2", tool_name: "sql_query", tool_args: { query: "SELECT 1" }, summary: "1 row" },
      { id: "q3", tool_name: "write_file", tool_args: { path: "db/cleanup.sql" }, summary: "Wrote 311 bytes" },
      { id: "q4", tool_name: "execute_bash", tool_args: { command: "make" }, summary: "ok" },
    ];
    const got = ids("paste the sql here", xs);
    expect(got).toContain("q2");
    expect(got).toContain("q3");
  });
});

describe("a folder named without a file", () => {
  const xs: ExecutionLike[] = [
    {
      id: "d1",
      tool_name: "read_file",
      tool_args: { path: "deploy/k8s/web.yaml" },
      summary: "Deployment web, 3 replicas",
    },
    { id: "d2", tool_name: "read_file", tool_args: { path: "src/server.ts" }, summary: "http server, 4 routes" },
    { id: "d3", tool_name: "read_file", tool_args: { path: "deploy/k8s/worker.yaml" }, summary: "Deployment worker" },
    { id: "d4", tool_name: "execute_bash", tool_args: { command: "npm test" }, summary: "12 passed" },
  ];

  it("points at the records of files inside it: two of them are ambiguous", () => {
    const r = resolveReferences("pull up the yaml from deploy/k8s again", xs);
    expect(
      r.candidates
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual(["d1", "d3"]);
    expect(r.ambiguous).toBe(true);
  });

  it("a folder the session never touched still means nothing of it", () => {
    expect(resolveReferences("pull up the yaml from deploy/helm again", xs).candidates).toEqual([]);
  });
});

describe("stashes count", () => {
  const stashes: ExecutionLike[] = [
    { id: "s1", tool_name: "read_file", tool_args: { path: "notes/plan.md" }, summary: "release plan, 4 steps" },
    {
      id: "s2",
      tool_name: "execute_bash",
      tool_args: { command: "du -sh build" },
      summary: "1.2G build",
      result_ref: "sha256:aaaa",
    } as ExecutionLike,
    {
      id: "s3",
      tool_name: "stash",
      tool_args: { label: "meeting-notes.txt" },
      label: "meeting-notes.txt",
      summary: "Text, 88 lines: notes of the Tuesday sync",
    },
    { id: "s4", tool_name: "read_file", tool_args: { path: "notes/todo.md" }, summary: "7 open items" },
  ];

  it("'what I just stashed' is the latest stashed artifact, a direct stash or a tool result", () => {
    expect(ids("what did I just stash?", stashes)[0]).toBe("s3");
    expect(
      ids(
        "what did I just stash?",
        stashes.filter((x) => x.id !== "s3"),
      )[0],
    ).toBe("s2");
    expect(ids("summarize what I saved a moment ago", stashes)[0]).toBe("s3");
  });
});

describe("bad input: a clear INVALID_INPUT or a sensible answer, never an invented id", () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
      return "ok";
    } catch (error) {
      return hasErrorCode(error, "INVALID_INPUT") ? "INVALID_INPUT" : `other: ${(error as Error).message}`;
    }
  };
  const known = new Set(session.map((x) => x.id));
  const onlyKnown = (text: string, xs = session) =>
    resolveReferences(text, xs).candidates.every((c) => known.has(c.id));

  it("empty, blank or control-only text is INVALID_INPUT", () => {
    expect(code(() => resolveReferences("", session))).toBe("INVALID_INPUT");
    expect(code(() => resolveReferences("   \n\t ", session))).toBe("INVALID_INPUT");
    expect(code(() => resolveReferences("\u0000\u0007\u001b", session))).toBe("INVALID_INPUT");
    expect(code(() => resolveReferences(42 as unknown as string, session))).toBe("INVALID_INPUT");
  });

  it("100 KB of text answers (from its start) without inventing ids", () => {
    const big = `the test run that failed ${"lorem ipsum dolor ".repeat(6_000)}`;
    expect(big.length).toBeGreaterThan(100_000);
    expect(ids(big)[0]).toBe("x5");
    expect(onlyKnown("x".repeat(100_000))).toBe(true);
  });

  it("other scripts and control characters inside the text", () => {
    expect(ids("今日はいい天気ですね")).toEqual([]);
    expect(ids("Какая погода завтра?")).toEqual([]);
    expect(ids("the\u0000 test\u001b run that failed")[0]).toBe("x5");
  });

  it("duplicate ids, missing fields and wrong types are INVALID_INPUT", () => {
    expect(code(() => resolveReferences("the test run", [...session, { ...session[0]!, summary: "again" }]))).toBe(
      "INVALID_INPUT",
    );
    expect(code(() => resolveReferences("the test run", [{ id: "a" } as ExecutionLike]))).toBe("INVALID_INPUT");
    expect(
      code(() => resolveReferences("the test run", [{ id: 7, tool_name: "run_tests" } as unknown as ExecutionLike])),
    ).toBe("INVALID_INPUT");
    expect(
      code(() =>
        resolveReferences("the test run", [{ id: "a", tool_name: "x", tool_args: "ls" } as unknown as ExecutionLike]),
      ),
    ).toBe("INVALID_INPUT");
    expect(code(() => resolveReferences("the test run", null as unknown as ExecutionLike[]))).toBe("INVALID_INPUT");
    expect(code(() => resolveReferences("the test run", session, { previous: { nope: 1 } as never }))).toBe(
      "INVALID_INPUT",
    );
  });

  it("records without summary or args, and timestamps in the future, still answer", () => {
    const bare: ExecutionLike[] = [
      { id: "b1", tool_name: "run_tests" },
      { id: "b2", tool_name: "read_file" },
    ];
    expect(ids("the test run", bare)[0]).toBe("b1");
    const future = [...session.slice(0, 7), { ...session[7]!, timestamp: "2999-01-01T00:00:00Z" }];
    const r = ids("the test run a few minutes ago", future);
    expect(r.every((id) => known.has(id))).toBe(true);
    expect(code(() => resolveReferences("what did the command an hour ago print?", future))).toBe("ok");
  });
});

describe("ResolutionSession", () => {
  it("answers like resolveReferences over the same records, and sees records added later", () => {
    const s = new ResolutionSession(session.slice(0, 5));
    for (const text of ["the test run that failed", "show me values.yaml", "what did you run at the very beginning?"]) {
      expect(s.resolve(text)).toEqual(resolveReferences(text, session.slice(0, 5)));
    }
    s.add(...session.slice(5));
    expect(s.size).toBe(session.length);
    expect(s.resolve("the test run").candidates[0]!.id).toBe("x7");
    expect(s.resolve("and the one before that?", { previous: ["x7"] }).candidates[0]!.id).toBe("x5");
  });

  it("a bad record added is INVALID_INPUT once, then dropped", () => {
    const s = new ResolutionSession(session);
    s.add({ ...session[0]! }); // the id x1 again
    expect(() => s.resolve("the test run")).toThrow(/id "x1"/);
    expect(s.resolve("the test run").candidates[0]!.id).toBe("x7");
    expect(s.size).toBe(session.length);
  });
});
