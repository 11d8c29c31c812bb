// "two years ago", "a few weeks back": a time before the session counts no record back; "two checks ago" still does.
// Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "c1",
    tool_name: "execute_bash",
    tool_args: { command: "certbot certificates" },
    summary: "shop.example: expires in 12 days",
  },
  {
    id: "c2",
    tool_name: "read_file",
    tool_args: { path: "/etc/nginx/sites-enabled/shop" },
    summary: "server block: listen 443 ssl; cert from letsencrypt",
  },
  {
    id: "c3",
    tool_name: "execute_bash",
    tool_args: { command: "certbot renew --dry-run" },
    summary: "simulated renewal succeeded for shop.example",
  },
  {
    id: "c4",
    tool_name: "execute_bash",
    tool_args: { command: "certbot certificates" },
    summary: "shop.example: expires in 12 days (renewal timer active)",
  },
];
const resolved = (text: string) => resolveReferences(text, session).candidates;

describe("a time before the session", () => {
  it("counts no record back", () => {
    for (const text of [
      "i set up that nginx server block from a blog post three years ago",
      "honestly i wrote that renewal hook from a forum answer two years ago",
      "we bought the certificate a couple of months back from some reseller",
    ])
      expect(
        resolved(text)
          .flatMap((c) => c.reasons)
          .filter((r) => r.startsWith("order:")),
      ).toEqual([]);
  });

  it("a count of records back still picks by order", () => {
    expect(resolved("certbot certificates, two runs back")[0]?.id).toBe("c1");
  });
});
