// The document.modelContext shim (WebMCP). Three cases, as the browser may have:
//  - a native document.modelContext (or one another script installed with the WebMCP shape):
//    used as it is, never reassigned, tools read back with getTools();
//  - nothing: a shim with the current WebMCP shape is installed;
//  - something else owns the property: left alone, one warning, a detached registry.

import { announce } from "./limits";

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  execute: (args: Record<string, unknown>, client?: unknown) => unknown;
}

export interface ModelContextLike extends EventTarget {
  registerTool(tool: Tool, options?: { signal?: AbortSignal }): Promise<void> | void;
  getTools?(): Tool[] | Promise<Tool[]>;
  executeTool?(name: string, args: Record<string, unknown>): Promise<unknown>;
}

export const BRAND = Symbol.for("miniapp.modelContext");
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function fail(name: string, message: string): Error {
  try {
    return new DOMException(message, name);
  } catch {
    const e = new Error(message);
    e.name = name;
    return e;
  }
}

/** Registry holds tools; the shim and the detached registry are both one. */
export class Registry extends EventTarget {
  readonly tools = new Map<string, Tool>();

  registerTool(tool: Tool, options: { signal?: AbortSignal } = {}): Promise<void> {
    try {
      if (!tool || typeof tool !== "object") throw new TypeError("not a tool");
      if (typeof tool.name !== "string" || !NAME.test(tool.name))
        throw new TypeError("bad tool name: " + tool.name);
      if (typeof tool.description !== "string" || tool.description.trim() === "")
        throw new TypeError(tool.name + ": no description");
      if (typeof tool.execute !== "function") throw new TypeError(tool.name + ": no execute");
      if (this.tools.has(tool.name)) throw fail("InvalidStateError", tool.name + " is registered");
    } catch (e) {
      return Promise.reject(e);
    }
    const signal = options.signal;
    if (signal?.aborted) return Promise.resolve();
    this.tools.set(tool.name, tool);
    signal?.addEventListener("abort", () => this.unregisterTool(tool.name, tool), { once: true });
    this.changed();
    return Promise.resolve();
  }

  unregisterTool(name: string, only?: Tool): void {
    const t = this.tools.get(name);
    if (!t || (only && t !== only)) return;
    this.tools.delete(name);
    this.changed();
  }

  getTools(): Tool[] {
    return [...this.tools.values()];
  }

  async executeTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    const t = this.tools.get(name);
    if (!t) throw fail("NotFoundError", `no tool named ${name}`);
    return t.execute(args ?? {});
  }

  private changed(): void {
    this.dispatchEvent(new Event("toolchange"));
  }
}

export type Kind = "native" | "shim" | "detached";

export interface Context {
  kind: Kind;
  /** The object at document.modelContext when it is native or ours. */
  native?: ModelContextLike;
  /** Our registry: the shim itself, or the detached registry beside native or foreign. */
  own: Registry;
}

function isModelContext(v: unknown): v is ModelContextLike {
  return !!v && typeof v === "object" && typeof (v as ModelContextLike).registerTool === "function";
}

/** install finds or installs document.modelContext, once per document. */
export function install(): Context {
  const doc = document as Document & { modelContext?: unknown };
  const g = globalThis as Record<symbol, Context | undefined>;
  const key = Symbol.for("miniapp.modelContext.install");
  if (g[key]) return g[key]!;
  let ctx: Context;
  if (!("modelContext" in doc)) {
    const shim = new Registry();
    (shim as unknown as Record<symbol, boolean>)[BRAND] = true;
    Object.defineProperty(doc, "modelContext", { value: shim, configurable: true, enumerable: true });
    ctx = { kind: "shim", native: shim, own: shim };
  } else {
    const v = doc.modelContext;
    if (isModelContext(v) && (v as unknown as Record<symbol, boolean>)[BRAND]) {
      ctx = { kind: "shim", native: v, own: v as unknown as Registry };
    } else if (isModelContext(v)) {
      ctx = { kind: "native", native: v, own: new Registry() };
    } else {
      announce("foreign", "document.modelContext belongs to another script: left alone; tools use a detached registry");
      ctx = { kind: "detached", own: new Registry() };
    }
  }
  g[key] = ctx;
  return ctx;
}

/**
 * registerTool registers through native when there is one; a tool native refuses (a
 * cross-origin frame without allow="tools" rejects with NotAllowedError) stays in our own
 * registry, so that it still reaches the host.
 */
export async function registerTool(ctx: Context, tool: Tool, options: { signal?: AbortSignal } = {}): Promise<void> {
  if (ctx.kind !== "native" || !ctx.native) return ctx.own.registerTool(tool, options);
  try {
    await ctx.native.registerTool(tool, options);
    // A native without getTools cannot read tools back: mirror them.
    if (typeof ctx.native.getTools !== "function") await ctx.own.registerTool(tool, options);
  } catch (e) {
    if ((e as Error)?.name === "InvalidStateError" || e instanceof TypeError) throw e;
    await ctx.own.registerTool(tool, options);
  }
}

/** tools returns every tool the host can call: native's, then ours, by name once. */
export async function tools(ctx: Context): Promise<Tool[]> {
  const out = new Map<string, Tool>();
  if (ctx.kind === "native" && typeof ctx.native?.getTools === "function") {
    try {
      for (const t of (await ctx.native.getTools()) ?? []) if (t && typeof t.name === "string") out.set(t.name, t);
    } catch {
      // A native that fails to list keeps the tools we hold.
    }
  }
  for (const t of ctx.own.getTools()) if (!out.has(t.name)) out.set(t.name, t);
  return [...out.values()];
}

/** execute runs a tool: ours first, then native's executeTool. */
export async function execute(ctx: Context, name: string, args: Record<string, unknown>): Promise<unknown> {
  if (ctx.own.tools.has(name)) return ctx.own.executeTool(name, args);
  if (ctx.kind === "native" && ctx.native) {
    if (typeof ctx.native.executeTool === "function") return ctx.native.executeTool(name, args);
    const t = (await tools(ctx)).find((t) => t.name === name);
    if (t && typeof t.execute === "function") return t.execute(args);
  }
  throw fail("NotFoundError", `no tool named ${name}`);
}

/** onChange calls fn whenever either registry moves. */
export function onChange(ctx: Context, fn: () => void): void {
  ctx.own.addEventListener("toolchange", fn);
  if (ctx.native && ctx.native !== (ctx.own as unknown)) ctx.native.addEventListener?.("toolchange", fn);
}
