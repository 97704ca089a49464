// The document.modelContext shim (WebMCP, webmachinelearning/webmcp). Three cases, as the
// browser may have:
//  - a native document.modelContext (or one another script installed with the WebMCP shape):
//    used as it is, never reassigned, tools read back with getTools();
//  - nothing: a shim with the current WebMCP shape is installed;
//  - something else owns the property: left alone, one warning, a detached registry.

import { announce } from "./limits";

export interface Tool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  execute: (args: Record<string, unknown>, options: { signal: AbortSignal }) => unknown;
}

/** A tool as getTools() returns it: the schema and annotations are JSON copies. */
export interface Listed {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface ModelContextLike extends EventTarget {
  registerTool(tool: Tool, options?: { signal?: AbortSignal }): Promise<void> | void;
  getTools?(): Listed[] | Promise<Listed[]>;
  executeTool?(tool: unknown, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

export const BRAND = Symbol.for("miniapp.modelContext");
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function fail(name: string, message: string): Error {
  return new DOMException(message, name);
}

/**
 * json copies v through JSON, as the WebMCP spec stores a schema: undefined stays undefined, a
 * value JSON cannot hold throws (TypeError).
 */
export function json(v: unknown, what: string): any {
  const s = JSON.stringify(v);
  if (s === undefined && v !== undefined) throw new TypeError(what + " is not JSON");
  return s && JSON.parse(s);
}

/** isObject reports whether v is a dictionary WebIDL would read: an object, not null. */
export const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null;

/**
 * check throws the TypeError WebIDL's argument conversion throws, naming the form method takes,
 * unless ok; opts is the method's optional { signal } dictionary, checked too.
 */
function check(ok: boolean, method: string, form: string, opts?: any): void {
  if (!ok || (opts != null && !(isObject(opts) && (opts.signal === undefined || opts.signal instanceof AbortSignal))))
    throw new TypeError(`${method} takes ${form}, options { signal? }`);
}

/** Registry holds tools; the shim and the detached registry are both one. */
export class Registry extends EventTarget {
  readonly tools_ = new Map<string, Tool & Listed>();
  /** The event handlers, by event type: see ontoolchange below. */
  handlers_: Record<string, ((e: Event) => unknown) | null> = {};

  registerTool(tool: Tool, opts?: { signal?: AbortSignal }): Promise<void> {
    try {
      // The order of the checks is the spec's (registerTool's method steps).
      check(isObject(tool) && typeof tool.execute == "function", "registerTool", "a tool { name, description, execute }", opts);
      const signal = opts?.signal;
      const { name, description } = tool;
      if (this.tools_.has(name)) throw fail("InvalidStateError", name + " is registered");
      if (typeof name != "string" || !NAME.test(name)) throw fail("InvalidStateError", "bad tool name: " + name);
      if (typeof description !== "string" || !description) throw fail("InvalidStateError", name + ": no description");
      const def = { ...tool, inputSchema: json(tool.inputSchema, name), annotations: json(tool.annotations, name) };
      if (signal?.aborted) throw signal.reason;
      this.tools_.set(name, def);
      signal?.addEventListener("abort", () => this.tools_.get(name) === def && this.tools_.delete(name) && this.fire_("toolchange"), { once: true });
      this.fire_("toolchange");
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** getTools lists the tools, sorted by name as the spec's getTools() does. */
  async getTools(): Promise<Listed[]> {
    return [...this.tools_.values()]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map(({ name, title, description, inputSchema, annotations }) => ({ name, title: title ?? "", description, inputSchema, annotations, origin: location.origin, window }));
  }

  /**
   * executeTool runs a tool and resolves with its result as JSON text, as the spec's
   * executeTool() does. It takes the tool as getTools() listed it, or (kept for the earlier
   * WebMCP drafts) its name.
   */
  async executeTool(tool: { name: string } | string, args: Record<string, unknown> = {}, opts?: { signal?: AbortSignal }): Promise<string | null> {
    const name = isObject(tool) ? tool.name : tool;
    check(typeof name == "string" && isObject(args), "executeTool", "a tool (or its name), an input object", opts);
    const v = await this.run_(name, args, opts?.signal ?? new AbortController().signal);
    return JSON.stringify(v) ?? null;
  }

  /** run_ runs a tool's execute with args and signal, firing toolactivated and, on abort, toolcancel. */
  async run_(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const t = this.tools_.get(name);
    if (!t) throw fail("NotFoundError", `no tool named ${name}`);
    if (signal.aborted) throw signal.reason;
    this.fire_("toolactivated", name);
    signal.addEventListener("abort", () => this.fire_("toolcancel", name), { once: true });
    return t.execute(args, { signal });
  }

  fire_(type: string, toolName?: string): void {
    this.dispatchEvent(Object.assign(new Event(type), toolName ? { toolName } : {}));
  }
}

// The event handler attributes ontoolchange, ontoolactivated and ontoolcancel, as WebIDL's
// EventHandler: null until set, a function kept (anything else is null), called with the
// registry as this, in the order it was first set among the event's listeners.
for (const t of ["toolchange", "toolactivated", "toolcancel"])
  Object.defineProperty(Registry.prototype, "on" + t, {
    get(this: Registry) {
      return this.handlers_[t] ?? null;
    },
    set(this: Registry, fn: unknown) {
      const h = this.handlers_;
      t in h || this.addEventListener(t, (e) => h[t]?.call(this, e));
      h[t] = typeof fn == "function" ? (fn as (e: Event) => unknown) : null;
    },
  });

export type Kind = "native" | "shim" | "detached";

export interface Context {
  kind: Kind;
  /** The object at document.modelContext when it is native. */
  native?: ModelContextLike;
  /** Our registry: the shim itself, or the detached registry beside native or foreign. */
  own: Registry;
}

/** install finds or installs document.modelContext; the SDK calls it once per document. */
export function install(): Context {
  const doc = document as Document & { modelContext?: unknown };
  const v = doc.modelContext as (ModelContextLike & Record<symbol, unknown>) | undefined;
  if (!("modelContext" in doc)) {
    const shim = new Registry();
    (shim as unknown as Record<symbol, boolean>)[BRAND] = true;
    Object.defineProperty(doc, "modelContext", { value: shim, configurable: true, enumerable: true });
    return { kind: "shim", own: shim };
  }
  if (typeof v?.registerTool === "function") return v[BRAND] ? { kind: "shim", own: v as unknown as Registry } : { kind: "native", native: v, own: new Registry() };
  announce("foreign", "document.modelContext belongs to another script: left alone");
  return { kind: "detached", own: new Registry() };
}

/**
 * registerTool registers through native when there is one; a tool native refuses for another
 * reason than the tool itself (a cross-origin frame without allow="tools" rejects with
 * NotAllowedError) stays in our own registry, so that it still reaches the host.
 */
export async function registerTool(ctx: Context, tool: Tool, options: { signal?: AbortSignal } = {}): Promise<void> {
  if (!ctx.native) return ctx.own.registerTool(tool, options);
  try {
    await ctx.native.registerTool(tool, options);
    // A native without getTools cannot read tools back: mirror them.
    if (typeof ctx.native.getTools !== "function") await ctx.own.registerTool(tool, options);
  } catch (e) {
    if (["InvalidStateError", "TypeError", "AbortError"].includes((e as Error)?.name) || options.signal?.aborted) throw e;
    await ctx.own.registerTool(tool, options);
  }
}

/** tools returns every tool the host can call: native's, then ours, by name once. */
export async function tools(ctx: Context): Promise<Listed[]> {
  const out = new Map<string, Listed>();
  if (typeof ctx.native?.getTools === "function") {
    try {
      for (const t of (await ctx.native.getTools()) ?? []) if (t && typeof t.name === "string") out.set(t.name, t);
    } catch {
      // A native that fails to list keeps the tools we hold.
    }
  }
  for (const t of await ctx.own.getTools()) if (!out.has(t.name)) out.set(t.name, t);
  return [...out.values()];
}

/** execute runs a tool listed by tools(): ours directly, native's through its executeTool (JSON text back). */
export async function execute(ctx: Context, t: Listed, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  if (ctx.own.tools_.has(t.name)) return ctx.own.run_(t.name, args, signal);
  if (typeof ctx.native?.executeTool !== "function") throw fail("NotFoundError", `no tool named ${t.name}`);
  const r = await ctx.native.executeTool(t, args, { signal });
  return typeof r === "string" ? JSON.parse(r) : r ?? undefined;
}

/** onChange calls fn whenever either registry moves. */
export function onChange(ctx: Context, fn: () => void): void {
  ctx.own.addEventListener("toolchange", fn);
  ctx.native?.addEventListener?.("toolchange", fn);
}
