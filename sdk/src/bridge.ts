// The guest half of the host bridge: JSON-RPC 2.0 over postMessage with MCP Apps' method names.
// Origins are pinned both ways: every post names the pinned origin (never "*"), and every
// inbound message is dropped unless it is a real event from window.parent, from the pinned
// origin, and a well-formed JSON-RPC message.

export const PROTOCOL_VERSION = "2026-01-26";

/** True when the build found the app's own MCP Apps client in the bundle (carry.ts). */
declare const __MINIAPP_CARRY__: boolean;

/** How long the guest waits for a word from the host before it sends ui/initialize again (ms). */
export const RETRY = 5000;

/** The SDK's own request ids start with this, so that they never collide with another client's. */
export const SELF = "miniapp-";

export interface Config {
  name: string;
  version: string;
  hosts: string[];
  linkDomains: string[];
  auth: boolean;
  displayModes: string[];
}

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface Msg {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: any;
  result?: any;
  error?: RpcError;
}

type Handler = (params: any, signal: AbortSignal) => unknown;

/** rpcError makes an Error that the bridge answers with code. */
export const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });

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
export function isMessage(m: any): m is Msg {
  const hasId = typeof m?.id === "string" || Number.isFinite(m?.id);
  return m?.jsonrpc === "2.0" && (typeof m.method === "string" ? m.method.length <= 200 && (!("id" in m) || hasId) && (m.params === undefined || typeof m.params === "object") && m.params !== null : hasId && ("error" in m ? Number.isFinite(m.error?.code) && typeof m.error.message === "string" : "result" in m));
}

export class Bridge {
  /** The real parent window, taken before anything in the page can replace window.parent. */
  readonly win_: Window = window.parent;
  /** What stands for win_ in the app's eyes (carry mode's facade). */
  alias_: unknown;
  pinned_: string | null = null;
  /** why is set when the bridge cannot connect, and says why. */
  why_ = "parent origin unknown: list it in the manifest's hosts";
  /**
   * pass_ (carry mode) says whether a host request is left to the app's own client; the
   * bridge answers every other one, and hides it from the app's client.
   */
  pass_?: (m: Msg) => boolean;
  /** mine_ (carry mode) takes replies to requests the SDK sent to the app's client. */
  ready_: Promise<void>;
  open_!: () => void;
  private candidates_: string[] = [];
  private n_ = 0;
  private pending_ = new Map<string, (m: Msg, origin: string) => void>();
  private handlers_ = new Map<string, Handler>();
  private running_ = new Map<unknown, AbortController>();
  private queue_: unknown[] = [];
  private logs_ = 0;
  private listening_ = false;
  /** The handshake's id, and how many answers to its copies are still to come (dropped quietly). */
  private init_ = "";
  private echoes_ = 0;
  /** heard_ is called once a message comes from a candidate origin: the host listens. */
  private heard_?: () => void;

  private cfg_: Config;

  constructor(cfg: Config) {
    this.cfg_ = cfg;
    this.ready_ = new Promise((r) => (this.open_ = r));
  }

  id_(): string {
    return SELF + ++this.n_;
  }

  on_(method: string, fn: Handler): void {
    this.handlers_.set(method, fn);
  }

  /**
   * origins decides which parent origins may be talked to. With hosts listed, a parent origin
   * the browser tells must be one of them; where the browser tells none, every listed origin is
   * tried. Without hosts, the parent origin the browser tells is the only one.
   */
  origins_(): string[] {
    if (this.win_ === window) return (this.why_ = "not in a frame"), [];
    let told = "";
    try {
      told = (location.ancestorOrigins ?? [])[0] ?? new URL(document.referrer).origin;
    } catch {}
    if (told === "null") told = "";
    const hosts = this.cfg_.hosts;
    if (!hosts.length || !told) return told ? [told] : hosts.filter((h) => !h.includes("*"));
    if (hosts.some((h) => originMatches(told, h))) return [told];
    return (this.why_ = `origin ${told} is not in the manifest's hosts (${hosts})`), [];
  }

  listen_(): void {
    if (this.listening_) return;
    this.listening_ = true;
    // Capture, and first in the page: in carry mode the SDK hides from the app's own client
    // what is the SDK's to answer.
    addEventListener("message", (e) => this.receive_(e), true);
  }

  private receive_(e: MessageEvent): void {
    if (!e.isTrusted || (e.source !== this.win_ && (!__MINIAPP_CARRY__ || e.source !== this.alias_))) return;
    if (this.pinned_ ? e.origin !== this.pinned_ : !this.candidates_.includes(e.origin)) return;
    this.heard_?.();
    const m = e.data;
    if (!isMessage(m)) return __MINIAPP_CARRY__ ? undefined : this.odd_("dropped a message: not JSON-RPC");
    const { id, method } = m;
    if (method === undefined) {
      const p = typeof id === "string" && this.pending_.get(id);
      if (p) {
        e.stopImmediatePropagation();
        this.pending_.delete(id as string);
        p(m, e.origin);
      } else if (id === this.init_ && this.echoes_) {
        // The answer to a copy of the handshake the host had already answered.
        e.stopImmediatePropagation();
        this.echoes_--;
      } else if (!__MINIAPP_CARRY__ || String(id).startsWith(SELF)) {
        e.stopImmediatePropagation();
        this.odd_("dropped a reply: unknown id " + id);
      }
      return;
    }
    if (!this.pinned_) return this.odd_("dropped before the handshake: " + method);
    if (__MINIAPP_CARRY__ && this.pass_?.(m)) return;
    e.stopImmediatePropagation();
    const ac = new AbortController();
    if (id !== undefined) this.running_.set(id, ac);
    if (method === "notifications/cancelled") this.running_.get(m.params?.requestId)?.abort(m.params?.reason);
    // A request gets its answer, an error for a throw; a notification's failure is logged; a
    // cancelled request gets no answer (MCP's notifications/cancelled).
    Promise.resolve()
      .then(() => {
        const h = this.handlers_.get(method);
        if (h) return h(m.params ?? {}, ac.signal);
        if (id !== undefined) throw rpcError(-32601, "no method " + method);
      })
      .then(
        (result) => ({ result: result ?? {} }),
        (err) => ({ error: { code: typeof err?.code === "number" ? err.code : -32603, message: String(err?.message ?? err) } }),
      )
      .then((r: Partial<Msg>) => {
        this.running_.delete(id);
        if (id === undefined) r.error && this.odd_(method + ": " + r.error.message);
        else ac.signal.aborted || this.post_({ jsonrpc: "2.0", id, ...r });
      });
  }

  /**
   * post_ sends to origin, by default the pinned one; before the handshake pins one, posts
   * wait in a bounded queue.
   */
  post_(m: any, origin = this.pinned_): void {
    if (!origin) {
      if (this.queue_.length < 1000) this.queue_.push(m);
      return;
    }
    try {
      this.win_.postMessage(m, origin);
    } catch (err) {
      // What the browser cannot clone is reported; a request still gets its answer.
      const text = "cannot send: " + (err as Error).message;
      m?.id !== undefined && !m.method ? this.post_({ jsonrpc: "2.0", id: m.id, error: { code: -32603, message: text } }) : this.odd_(text);
    }
  }

  /** odd_ reports something unexpected to the host as a log message (at most 20 per document), never as a throw. */
  odd_(text: string): void {
    if (this.logs_++ < 20) this.notify_("notifications/message", { level: "warning", logger: "miniapp", data: text });
  }

  /** request_ sends a request and resolves with its result. */
  request_(method: string, params: Record<string, unknown> = {}): Promise<any> {
    return new Promise((resolve, reject) => {
      const id = this.id_();
      this.pending_.set(id, (m) => (m.error ? reject(Object.assign(new Error(m.error.message), m.error)) : resolve(m.result)));
      this.post_({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify_(method: string, params: Record<string, unknown> = {}): void {
    this.post_({ jsonrpc: "2.0", method, params });
  }

  /**
   * handshake_ sends ui/initialize to each candidate origin (the browser delivers it only where
   * the origin matches), and again, with the same id, only to a host that may not have been
   * listening: after 5 s without a word from a candidate origin (a host under load answers
   * within that), then 10 s, 20 s, 30 s. The first message from a candidate origin shows the
   * host listens, and ends the retries; the first answer pins its origin, and the answers to
   * the copies are dropped quietly.
   */
  handshake_(params: Record<string, unknown>, candidates: string[]): Promise<any> {
    this.candidates_ = candidates;
    this.listen_();
    const msg = { jsonrpc: "2.0", id: this.id_(), method: "ui/initialize", params };
    let delay = RETRY;
    let timer = 0;
    let sent = 0;
    const send = () => {
      for (const o of candidates) this.post_(msg, o);
      sent++;
      timer = setTimeout(send, delay) as unknown as number;
      delay = Math.min(delay * 2, 30000);
    };
    this.heard_ = () => {
      clearTimeout(timer);
      this.heard_ = undefined;
    };
    addEventListener("pagehide", () => clearTimeout(timer));
    return new Promise((resolve, reject) => {
      this.pending_.set(msg.id, (m, origin) => {
        this.heard_?.();
        this.pinned_ = origin;
        this.init_ = msg.id;
        this.echoes_ = sent - 1;
        for (const q of this.queue_.splice(0)) this.post_(q);
        m.error ? reject(Object.assign(new Error(m.error.message), m.error)) : resolve(m.result);
      });
      send();
    });
  }
}
