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
  pinned_: string | null = null;
  private candidates_: string[] = [];
  private nextId_ = 1;
  private pending_ = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; timer: number }>();
  private handlers_ = new Map<string, Handler>();
  private listening_ = false;
  /** why is set when the bridge cannot connect, and says why. */
  why_ = "";

  constructor(private cfg_: Config) {}

  on_(method: string, fn: Handler): void {
    this.handlers_.set(method, fn);
  }

  /**
   * origins decides which parent origins may be talked to. With hosts listed, a parent origin
   * the browser tells must be one of them; where the browser tells none, every listed origin is
   * tried. Without hosts, the parent origin the browser tells is the only one.
   */
  origins_(): string[] {
    if (window.parent === window) {
      this.why_ = "the page is not in a frame";
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
    const hosts = this.cfg_.hosts;
    if (hosts.length > 0) {
      if (told) {
        if (hosts.some((h) => originMatches(told, h))) return [told];
        this.why_ = `origin ${told} is not in the manifest's hosts (${hosts})`;
        return [];
      }
      const exact = hosts.filter((h) => !h.includes("*"));
      if (exact.length === 0) this.why_ = "parent origin unknown and hosts are all wildcards";
      return exact;
    }
    if (!told) this.why_ = "parent origin unknown: list it in the manifest's hosts";
    return told ? [told] : [];
  }

  listen_(): void {
    if (this.listening_) return;
    this.listening_ = true;
    window.addEventListener("message", (e) => this.receive_(e));
  }

  private accepts_(e: MessageEvent): boolean {
    if (e.source !== window.parent) return false;
    if (this.pinned_ !== null) return e.origin === this.pinned_;
    return this.candidates_.includes(e.origin);
  }

  private receive_(e: MessageEvent): void {
    if (!this.accepts_(e)) return;
    const m = e.data;
    if (!isMessage(m)) return;
    if (typeof m.method === "string") {
      if (this.pinned_ === null) return; // nothing but replies before the handshake pins
      if ("id" in m && m.id !== undefined) void this.answer_(m.id, m.method, m.params);
      else this.notifyLocal_(m.method, m.params);
      return;
    }
    const id = typeof m.id === "number" ? m.id : NaN;
    const p = this.pending_.get(id);
    if (!p) return;
    if (this.pinned_ === null) this.pinned_ = e.origin; // the first answer pins the origin
    this.pending_.delete(id);
    clearTimeout(p.timer);
    if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code, data: m.error.data }));
    else p.resolve(m.result);
  }

  private notifyLocal_(method: string, params: unknown): void {
    const h = this.handlers_.get(method);
    if (!h) return;
    try {
      h(params ?? {});
    } catch (err) {
      console.error("[miniapp]", method, err);
    }
  }

  private async answer_(id: string | number, method: string, params: unknown): Promise<void> {
    const h = this.handlers_.get(method);
    if (!h) {
      this.post_({ jsonrpc: "2.0", id, error: { code: -32601, message: "method not found: " + method } });
      return;
    }
    try {
      const result = await h(params ?? {});
      this.post_({ jsonrpc: "2.0", id, result: (result ?? {}) as Json });
    } catch (err) {
      const e = err as RpcError & Error;
      const code = typeof e?.code === "number" ? e.code : -32603;
      this.post_({ jsonrpc: "2.0", id, error: { code, message: String(e?.message ?? err) } });
    }
  }

  private post_(msg: unknown, origin: string | null = this.pinned_): void {
    if (!origin) return;
    window.parent.postMessage(msg, origin);
  }

  /** request sends a request to the pinned origin and resolves with its result. */
  request_(method: string, params: Record<string, unknown> = {}, timeoutMs = 30000): Promise<any> {
    if (this.pinned_ === null) return Promise.reject(new Error("not connected: " + (this.why_ || "no handshake")));
    return this.send_(method, params, [this.pinned_], timeoutMs);
  }

  /** handshake sends one request to each candidate origin; the browser delivers it only where the origin matches, and the first answer pins. */
  handshake_(method: string, params: Record<string, unknown>, candidates: string[], timeoutMs: number): Promise<any> {
    this.candidates_ = candidates;
    return this.send_(method, params, candidates, timeoutMs);
  }

  private send_(method: string, params: Record<string, unknown>, origins: string[], timeoutMs: number): Promise<any> {
    const id = this.nextId_++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending_.delete(id);
        reject(new Error(method + " timed out"));
      }, timeoutMs) as unknown as number;
      this.pending_.set(id, { resolve, reject, timer });
      for (const o of origins) this.post_({ jsonrpc: "2.0", id, method, params }, o);
    });
  }

  notify_(method: string, params: Record<string, unknown> = {}): void {
    this.post_({ jsonrpc: "2.0", method, params });
  }
}
