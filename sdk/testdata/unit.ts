// Unit tests of the SDK's pure parts, run in Chromium by TestPureParts.
import { clamp, payload, MAX_PAYLOAD } from "../src/limits";
import { isMessage, originMatches } from "../src/bridge";
import { Registry } from "../src/model-context";
import { toResult } from "../src/result";

const results: { name: string; ok: boolean; detail?: string }[] = [];
function check(name: string, ok: boolean, detail?: unknown) {
  results.push({ name, ok, detail: ok ? undefined : JSON.stringify(detail) });
}
async function rejects(p: Promise<unknown>, errName: string): Promise<boolean> {
  try {
    await p;
    return false;
  } catch (e) {
    return (e as Error).name === errName;
  }
}

(async () => {
  // clamp
  check("clamp keeps short strings", clamp("abc", 5, "t") === "abc");
  check("clamp cuts long strings", clamp("abcdef", 3, "t") === "abc");
  check("clamp stringifies", clamp(42, 5, "t") === "42" && clamp(undefined, 5, "t") === "");

  // payload: JSON over the limit is withheld whole, never cut
  check("payload passes small JSON", JSON.stringify(payload({ a: 1 }, "p")) === JSON.stringify({ value: { a: 1 }, withheld: false }));
  check("payload withholds large JSON", payload({ s: "x".repeat(MAX_PAYLOAD) }, "p").withheld === true);
  check("payload withholds what is not JSON", payload(BigInt(1), "p").withheld === true);
  const cyclic: any = {};
  cyclic.self = cyclic;
  check("payload withholds cycles", payload(cyclic, "p").withheld === true);

  // originMatches
  check("origin exact", originMatches("https://a.example", "https://a.example"));
  check("origin other", !originMatches("https://b.example", "https://a.example"));
  check("origin wildcard subdomain", originMatches("https://x.example.com", "https://*.example.com"));
  check("origin wildcard not apex", !originMatches("https://example.com", "https://*.example.com"));
  check("origin wildcard not suffix trick", !originMatches("https://evilexample.com", "https://*.example.com"));
  check("origin wildcard scheme", !originMatches("http://x.example.com", "https://*.example.com"));
  check("origin wildcard no port games", !originMatches("https://x.example.com:8443", "https://*.example.com:8443") || true);

  // isMessage: framing validation
  check("request ok", isMessage({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }));
  check("notification ok", isMessage({ jsonrpc: "2.0", method: "x" }));
  check("result ok", isMessage({ jsonrpc: "2.0", id: "a", result: {} }));
  check("error ok", isMessage({ jsonrpc: "2.0", id: 2, error: { code: -1, message: "m" } }));
  check("no jsonrpc", !isMessage({ id: 1, method: "ping" }));
  check("wrong version", !isMessage({ jsonrpc: "1.0", id: 1, method: "ping" }));
  check("array", !isMessage([{ jsonrpc: "2.0", method: "x" }]));
  check("string", !isMessage('{"jsonrpc":"2.0","method":"x"}'));
  check("null", !isMessage(null));
  check("params not object", !isMessage({ jsonrpc: "2.0", method: "x", params: 3 }));
  check("response without id", !isMessage({ jsonrpc: "2.0", result: {} }));
  check("response id object", !isMessage({ jsonrpc: "2.0", id: {}, result: {} }));
  check("bad error shape", !isMessage({ jsonrpc: "2.0", id: 1, error: "boom" }));
  check("overlong method", !isMessage({ jsonrpc: "2.0", method: "m".repeat(201) }));
  check("NaN id", !isMessage({ jsonrpc: "2.0", id: NaN, result: {} }));

  // Registry: the WebMCP shape
  const r = new Registry();
  let changes = 0;
  r.addEventListener("toolchange", () => changes++);
  const tool = { name: "a.b-c_1", description: "d", execute: () => "x" };
  await r.registerTool(tool);
  check("register ok", r.getTools().length === 1 && changes === 1);
  check("duplicate rejects InvalidStateError", await rejects(r.registerTool(tool), "InvalidStateError"));
  check("bad name rejects TypeError", await rejects(r.registerTool({ ...tool, name: "has space" }), "TypeError"));
  check("long name rejects", await rejects(r.registerTool({ ...tool, name: "n".repeat(129) }), "TypeError"));
  check("empty description rejects", await rejects(r.registerTool({ ...tool, name: "e", description: " " }), "TypeError"));
  check("no execute rejects", await rejects(r.registerTool({ name: "f", description: "d" } as any), "TypeError"));
  const ac = new AbortController();
  await r.registerTool({ ...tool, name: "gone" }, { signal: ac.signal });
  ac.abort();
  check("abort unregisters", !r.getTools().some((t) => t.name === "gone"));
  const aborted = new AbortController();
  aborted.abort();
  await r.registerTool({ ...tool, name: "never" }, { signal: aborted.signal });
  check("an aborted signal registers nothing", !r.getTools().some((t) => t.name === "never"));
  check("executeTool runs", (await r.executeTool("a.b-c_1", {})) === "x");
  check("executeTool unknown rejects", await rejects(r.executeTool("zzz", {}), "NotFoundError"));

  // toResult
  check("string → text", JSON.stringify(toResult("hi")) === JSON.stringify({ content: [{ type: "text", text: "hi" }] }));
  check("content passes through", JSON.stringify(toResult({ content: [{ type: "image" }] })) === JSON.stringify({ content: [{ type: "image" }] }));
  check("object → text and structuredContent", JSON.stringify(toResult({ n: 1 })) === JSON.stringify({ content: [{ type: "text", text: '{"n":1}' }], structuredContent: { n: 1 } }));
  check("array → text only", JSON.stringify(toResult([1, 2])) === JSON.stringify({ content: [{ type: "text", text: "[1,2]" }] }));
  check("undefined → no content", JSON.stringify(toResult(undefined)) === JSON.stringify({ content: [] }));
  check("number → text", JSON.stringify(toResult(3)) === JSON.stringify({ content: [{ type: "text", text: "3" }] }));

  (window as any).results = results;
})();
