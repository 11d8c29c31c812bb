// What a command does, from its man page's NAME line (data/command-man.jsonl), for the base-system commands the
// CLI specs lack. Sessions written for this test.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { describeCommand } from "../src/resolution/command-docs.js";

const session: ExecutionLike[] = [
  {
    id: "s1",
    tool_name: "read_file",
    tool_args: { path: "/etc/nginx/sites-enabled/shop.conf" },
    summary: "server_name shop.example; proxy_pass http://127.0.0.1:8080; 41 lines",
  },
  {
    id: "s2",
    tool_name: "execute_bash",
    tool_args: { command: "ss -tlnp" },
    summary: "LISTEN 0.0.0.0:22 sshd, 127.0.0.1:5432 postgres; nothing on 8080",
  },
];

describe("what a base-system command does (man page NAME lines)", () => {
  it("describes commands the CLI specs lack", () => {
    expect(describeCommand("journalctl -u shop.service --since today")).toMatch(/systemd journal/i);
    expect(describeCommand("sudo sha256sum -c SHA256SUMS")).toMatch(/SHA256 message digest/i);
    expect(describeCommand("free -m")).toMatch(/free and used memory/i);
  });

  it("meets a record from what its command does", () => {
    expect(resolveReferences("what did the sockets look like?", session).candidates[0]?.id).toBe("s2");
  });

  it("leaves a command that neither source knows without a description", () => {
    expect(describeCommand("shopctl reindex --all")).toBe("");
  });
});
