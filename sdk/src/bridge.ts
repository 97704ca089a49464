// The guest half of the host bridge: JSON-RPC 2.0 over postMessage with MCP Apps' method names.
// Origins are pinned both ways: every post names the pinned origin (never "*"), and every
// inbound message is dropped unless it comes from window.parent, from the pinned origin, and
// is a well-formed JSON-RPC message.

export const PROTOCOL_VERSION = "2026-01-26";

export interface Config {
  name: string;
  version: string;
  hosts: string[];
  linkDomains: string[];
  auth: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Handler = (params: any) => unknown;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** originMatches reports whether origin is allowed by pattern (an origin, or https://*.host). */
export function originMatches(origin: string, pattern: string): boolean {
  if (origin === pattern) return true;
  const m = /^(https?):\/\/\*\.(.+)$/.exec(pattern);
  if (!m) return false;
  try {
    const u = new URL(origin);
    return u.protocol === m[1] + ":" && u.host.endsWith("." + m[2]) && u.origin === origin;
  } catch {
    return false;
  }
}

/** isMessage validates the shape of an inbound JSON-RPC message. */
export function isMessage(d: unknown): d is { jsonrpc: "2.0"; id?: string | number; method?: string; params?: unknown; result?: unknown; error?: RpcError } {
  if (!d || typeof d !== "object" || Array.isArray(d)) return false;
  const m = d as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return false;
  const hasId = "id" in m && (typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id)));
  if (typeof m.method === "string") {
    if (m.method.length > 200) return false;
    return !("params" in m) || (typeof m.params === "object" && m.params !== null) || m.params === undefined;
  }
  if (!hasId) return false;
  if ("error" in m) {
    const e = m.error as RpcError;
    return !!e && typeof e === "object" && typeof e.code === "number" && typeof e.message === "string";
  }
  return "result" in m;
}

export class Bridge {
  pinned: string | null = null;
  private candidates: string[] = [];
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; timer: number }>();
  private handlers = new Map<string, Handler>();
  private listening = false;
  /** why is set when the bridge cannot connect, and says why. */
  why = "";

  constructor(private cfg: Config) {}

  on(method: string, fn: Handler): void {
    this.handlers.set(method, fn);
  }

  /**
   * origins decides which parent origins may be talked to. With hosts listed, a parent origin
   * the browser tells must be one of them; where the browser tells none, every listed origin is
   * tried. Without hosts, the parent origin the browser tells is the only one.
   */
  origins(): string[] {
    if (window.parent === window) {
      this.why = "the page is not in a frame";
      return [];
    }
    let told = "";
    const ao = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
    if (ao && ao.length > 0) told = ao[0];
    else if (document.referrer) {
      try {
        told = new URL(document.referrer).origin;
      } catch {
        told = "";
      }
    }
    if (told === "null") told = "";
    const hosts = this.cfg.hosts;
    if (hosts.length > 0) {
      if (told) {
        if (hosts.some((h) => originMatches(told, h))) return [told];
        this.why = `the embedding page's origin ${told} is not in the manifest's hosts (${hosts.join(", ")}); the SDK stays disconnected`;
        return [];
      }
      const exact = hosts.filter((h) => !h.includes("*"));
      if (exact.length === 0) this.why = "the browser does not tell the embedding page's origin, and hosts lists only wildcards";
      return exact;
    }
    if (!told) this.why = "the browser does not tell the embedding page's origin; list it in the manifest's hosts";
    return told ? [told] : [];
  }

  listen(): void {
    if (this.listening) return;
    this.listening = true;
    window.addEventListener("message", (e) => this.receive(e));
  }

  private accepts(e: MessageEvent): boolean {
    if (e.source !== window.parent) return false;
    if (this.pinned !== null) return e.origin === this.pinned;
    return this.candidates.includes(e.origin);
  }

  private receive(e: MessageEvent): void {
    if (!this.accepts(e)) return;
    const m = e.data;
    if (!isMessage(m)) return;
    if (typeof m.method === "string") {
      if (this.pinned === null) return; // nothing but replies before the handshake pins
      if ("id" in m && m.id !== undefined) void this.answer(m.id, m.method, m.params);
      else this.notifyLocal(m.method, m.params);
      return;
    }
    const id = typeof m.id === "number" ? m.id : NaN;
    const p = this.pending.get(id);
    if (!p) return;
    if (this.pinned === null) this.pinned = e.origin; // the first answer pins the origin
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code, data: m.error.data }));
    else p.resolve(m.result);
  }

  private notifyLocal(method: string, params: unknown): void {
    const h = this.handlers.get(method);
    if (!h) return;
    try {
      h(params ?? {});
    } catch (err) {
      console.error(`[miniapp] ${method} handler failed`, err);
    }
  }

  private async answer(id: string | number, method: string, params: unknown): Promise<void> {
    const h = this.handlers.get(method);
    if (!h) {
      this.post({ jsonrpc: "2.0", id, error: { code: -32601, message: `method not found: ${method}` } });
      return;
    }
    try {
      const result = await h(params ?? {});
      this.post({ jsonrpc: "2.0", id, result: (result ?? {}) as Json });
    } catch (err) {
      const e = err as RpcError & Error;
      const code = typeof e?.code === "number" ? e.code : -32603;
      this.post({ jsonrpc: "2.0", id, error: { code, message: String(e?.message ?? err) } });
    }
  }

  private post(msg: unknown, origin: string | null = this.pinned): void {
    if (!origin) return;
    window.parent.postMessage(msg, origin);
  }

  /** request sends a request to the pinned origin and resolves with its result. */
  request(method: string, params: Record<string, unknown> = {}, timeoutMs = 30000): Promise<any> {
    if (this.pinned === null) return Promise.reject(new Error(`not connected: ${this.why || "no handshake yet"}`));
    return this.send(method, params, [this.pinned], timeoutMs);
  }

  /** handshake sends one request to each candidate origin; the browser delivers it only where the origin matches, and the first answer pins. */
  handshake(method: string, params: Record<string, unknown>, candidates: string[], timeoutMs: number): Promise<any> {
    this.candidates = candidates;
    return this.send(method, params, candidates, timeoutMs);
  }

  private send(method: string, params: Record<string, unknown>, origins: string[], timeoutMs: number): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs) as unknown as number;
      this.pending.set(id, { resolve, reject, timer });
      for (const o of origins) this.post({ jsonrpc: "2.0", id, method, params }, o);
    });
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.post({ jsonrpc: "2.0", method, params });
  }
}
