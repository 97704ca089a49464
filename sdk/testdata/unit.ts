// Unit tests of the SDK's pure parts, run in Chromium by TestPureParts.
import { clamp, payload, MAX_PAYLOAD, WITHHELD } from "../src/limits";
import { check as checkArgs } from "../src/schema";
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
  check("payload passes small JSON", JSON.stringify(payload({ a: 1 }, "p")) === JSON.stringify({ a: 1 }));
  check("payload passes undefined", payload(undefined, "p") === undefined && payload(0, "p") === 0 && payload("", "p") === "");
  check("payload withholds large JSON", payload({ s: "x".repeat(MAX_PAYLOAD) }, "p") === WITHHELD);
  check("payload withholds what is not JSON", payload(BigInt(1), "p") === WITHHELD && payload(() => 1, "p") === WITHHELD);
  const cyclic: any = {};
  cyclic.self = cyclic;
  check("payload withholds cycles", payload(cyclic, "p") === WITHHELD);

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
  check("null params", !isMessage({ jsonrpc: "2.0", method: "x", params: null }));
  check("request id object", !isMessage({ jsonrpc: "2.0", id: {}, method: "x" }));
  check("error code not a number", !isMessage({ jsonrpc: "2.0", id: 1, error: { code: "1", message: "m" } }));

  // Registry: the WebMCP shape (webmachinelearning/webmcp, registerTool's method steps)
  const r = new Registry();
  // The event handler attributes are properties (WebIDL's EventHandler), null until set.
  for (const h of ["ontoolchange", "ontoolactivated", "ontoolcancel"]) {
    check(h + " is a property, null until set", h in r && (r as any)[h] === null);
  }
  (r as any).ontoolactivated = "not a function";
  check("a handler that is not a function reads null", (r as any).ontoolactivated === null);
  let changes = 0, handler = 0;
  r.addEventListener("toolchange", () => changes++);
  (r as any).ontoolchange = () => handler++;
  const tool = { name: "a.b-c_1", description: "d", execute: (args: any, opts: any) => (opts?.signal instanceof AbortSignal ? "x" : "no signal") };
  await r.registerTool(tool);
  check("register ok", (await r.getTools()).length === 1 && changes === 1 && handler === 1, [changes, handler]);
  let activated = "";
  (r as any).ontoolactivated = function (this: unknown, e: any) { activated = this === r ? e.toolName : "wrong this"; };
  await r.executeTool("a.b-c_1", {});
  check("ontoolactivated is called with the registry as this", activated === "a.b-c_1", activated);
  (r as any).ontoolactivated = null;
  activated = "";
  await r.executeTool("a.b-c_1", {});
  check("a handler set to null is not called", activated === "", activated);
  check("getTools has the spec's fields", JSON.stringify(Object.keys((await r.getTools())[0]).sort()) === JSON.stringify(["annotations", "description", "inputSchema", "name", "origin", "title", "window"]));
  check("duplicate rejects InvalidStateError", await rejects(r.registerTool(tool), "InvalidStateError"));
  check("bad name rejects InvalidStateError", await rejects(r.registerTool({ ...tool, name: "has space" }), "InvalidStateError"));
  check("long name rejects", await rejects(r.registerTool({ ...tool, name: "n".repeat(129) }), "InvalidStateError"));
  check("no name rejects", await rejects(r.registerTool({ ...tool, name: undefined } as any), "InvalidStateError"));
  check("empty description rejects", await rejects(r.registerTool({ ...tool, name: "e", description: "" }), "InvalidStateError"));
  check("no execute rejects TypeError", await rejects(r.registerTool({ name: "f", description: "d" } as any), "TypeError"));
  check("a tool that is not an object rejects TypeError", await rejects(r.registerTool("f" as any), "TypeError") && await rejects(r.registerTool(null as any), "TypeError"));
  check("options that are not { signal } reject TypeError", await rejects(r.registerTool({ ...tool, name: "o" }, "x" as any), "TypeError") && await rejects(r.registerTool({ ...tool, name: "o" }, { signal: "x" } as any), "TypeError"));
  const named = await r.registerTool({ name: "f", description: "d" } as any).catch((e) => String(e.message));
  check("the TypeError names the form", typeof named === "string" && named.includes("registerTool takes a tool { name, description, execute"), named);
  check("executeTool with input that is not an object rejects TypeError", await rejects(r.executeTool("a.b-c_1", "x" as any), "TypeError") && await rejects(r.executeTool(3 as any, {}), "TypeError"));
  const circular: any = { type: "object" };
  circular.self = circular;
  check("a schema JSON cannot hold rejects TypeError", await rejects(r.registerTool({ ...tool, name: "c", inputSchema: circular }), "TypeError"));
  check("a schema that is undefined as JSON rejects TypeError", await rejects(r.registerTool({ ...tool, name: "c2", inputSchema: { toJSON: () => undefined } as any }), "TypeError"));
  await r.registerTool({ ...tool, name: "fn_in_schema", inputSchema: { type: "object", default: () => 1 } as any });
  check("a function in a schema is dropped, as JSON does", JSON.stringify((await r.getTools()).find((t) => t.name === "fn_in_schema")?.inputSchema) === '{"type":"object"}');
  const ac = new AbortController();
  await r.registerTool({ ...tool, name: "gone" }, { signal: ac.signal });
  ac.abort();
  check("abort unregisters", !(await r.getTools()).some((t) => t.name === "gone"));
  const aborted = new AbortController();
  aborted.abort("why");
  let reason: unknown;
  await r.registerTool({ ...tool, name: "never" }, { signal: aborted.signal }).catch((e) => (reason = e));
  check("an aborted signal rejects with its reason and registers nothing", reason === "why" && !(await r.getTools()).some((t) => t.name === "never"), reason);
  check("executeTool gives JSON text and passes a signal", (await r.executeTool("a.b-c_1", {})) === '"x"');
  check("executeTool takes a listed tool", (await r.executeTool((await r.getTools())[0], {})) === '"x"');
  check("executeTool unknown rejects", await rejects(r.executeTool("zzz", {}), "NotFoundError"));
  const cancel = new AbortController();
  let cancelled = "";
  r.addEventListener("toolcancel", (e: any) => (cancelled = e.toolName));
  await r.registerTool({ name: "slow", description: "d", execute: (_: any, o: any) => new Promise((_, rej) => o.signal.addEventListener("abort", () => rej(o.signal.reason))) });
  const slow = r.executeTool("slow", {}, { signal: cancel.signal });
  cancel.abort("stop");
  check("abort reaches execute's signal and fires toolcancel", (await slow.catch((e) => e)) === "stop" && cancelled === "slow");

  // Arguments against inputSchema
  const schema = {
    type: "object",
    required: ["name", "qty"],
    additionalProperties: false,
    properties: {
      name: { type: "string", minLength: 1, maxLength: 3 },
      qty: { type: "integer", minimum: 1, maximum: 9 },
      kind: { enum: ["a", "b"] },
      tags: { type: "array", items: { type: "string" }, maxItems: 2 },
      ratio: { type: ["number", "null"], exclusiveMaximum: 1 },
    },
  };
  const ok = { name: "abc", qty: 2, kind: "a", tags: ["x"], ratio: null };
  check("valid arguments pass", checkArgs(schema, ok, "arguments") === "", checkArgs(schema, ok, "arguments"));
  for (const [what, args, want] of [
    ["missing required", { name: "a" }, 'arguments: required ["name","qty"]'],
    ["wrong type", { ...ok, qty: 1.5 }, 'arguments.qty: type "integer"'],
    ["below minimum", { ...ok, qty: 0 }, "arguments.qty: minimum 1"],
    ["over maximum", { ...ok, qty: 10 }, "arguments.qty: maximum 9"],
    ["too long (code points)", { ...ok, name: "abcd" }, "arguments.name: maxLength 3"],
    ["emoji counted as one", { ...ok, name: "😀😀😀" }, ""],
    ["not in enum", { ...ok, kind: "c" }, 'arguments.kind: enum ["a","b"]'],
    ["bad item", { ...ok, tags: ["x", 1] }, 'arguments.tags[1]: type "string"'],
    ["too many items", { ...ok, tags: ["x", "y", "z"] }, "arguments.tags: maxItems 2"],
    ["extra property", { ...ok, extra: 1 }, 'arguments: property "extra" is not allowed'],
    ["exclusive maximum", { ...ok, ratio: 1 }, "arguments.ratio: exclusiveMaximum 1"],
    ["number as string is not a number", { ...ok, qty: "2" }, 'arguments.qty: type "integer"'],
  ] as [string, unknown, string][])
    check("arguments " + what, checkArgs(schema, args, "arguments") === want, checkArgs(schema, args, "arguments"));
  const proto = JSON.parse('{"name":"ab","qty":1,"__proto__":{"polluted":1}}');
  check("__proto__ is a property like any other, and nothing is polluted", checkArgs(schema, proto, "arguments") === 'arguments: property "__proto__" is not allowed' && ({} as any).polluted === undefined);
  check("__proto__ in properties is not looked up on Object.prototype", checkArgs({ type: "object", properties: {} }, JSON.parse('{"__proto__":1}'), "a") === "");
  check("no schema accepts anything", checkArgs(undefined, { any: 1 }, "a") === "");

  // toResult
  check("string → text", JSON.stringify(toResult("hi")) === JSON.stringify({ content: [{ type: "text", text: "hi" }] }));
  check("content passes through", JSON.stringify(toResult({ content: [{ type: "image" }] })) === JSON.stringify({ content: [{ type: "image" }] }));
  check("object → text and structuredContent", JSON.stringify(toResult({ n: 1 })) === JSON.stringify({ content: [{ type: "text", text: '{"n":1}' }], structuredContent: { n: 1 } }));
  check("array → text only", JSON.stringify(toResult([1, 2])) === JSON.stringify({ content: [{ type: "text", text: "[1,2]" }] }));
  check("undefined → no content", JSON.stringify(toResult(undefined)) === JSON.stringify({ content: [] }));
  check("number → text", JSON.stringify(toResult(3)) === JSON.stringify({ content: [{ type: "text", text: "3" }] }));

  (window as any).results = results;
})();
