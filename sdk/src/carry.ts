// Carry mode: the app bundles its own MCP Apps client (the official App from
// @modelcontextprotocol/ext-apps, found by the build). The page must still make one handshake
// and pin the host's origin, so the SDK carries the app's client over its own wire:
//
//  - window.parent becomes a facade whose postMessage hands the app's messages to the bridge,
//    which posts them to the pinned origin (never "*"); MessageEvent.source reports the facade
//    for messages from the real parent, so the client's own source check still holds;
//  - the app's ui/initialize becomes the page's one handshake (its appCapabilities merged with
//    the SDK's), its answer is given to every client that asks, and the app's
//    ui/notifications/initialized is replaced by the SDK's, sent once tools have settled;
//  - host requests go to the app's client, except the SDK's own methods, tools/call of a tool
//    registered on document.modelContext, and tools/list, whose answer merges both lists.

import { Bridge, isMessage, type Msg } from "./bridge";

export interface Carried {
  /** handshake runs the page's one ui/initialize: the app's, when its client asks in time, else ours. */
  handshake(ours: Record<string, any>, candidates: string[]): Promise<any>;
  /** appTools asks the app's client for its tools ([] when it has none or no client connected). */
  appTools(params: unknown): Promise<any[]>;
  /** app reports whether the app's client has connected. */
  app(): boolean;
}

export function carry(bridge: Bridge, ours: (name: string) => boolean, teardown: () => void): Carried {
  const real = bridge.win_;
  const facade: unknown = new Proxy(
    {},
    {
      get: (_, k) => {
        if (k === "postMessage") return send;
        const v = (real as any)[k];
        return typeof v === "function" ? v.bind(real) : v;
      },
    },
  );
  bridge.alias_ = facade;
  Object.defineProperty(window, "parent", { configurable: true, get: () => facade });
  // Messages the SDK hands the app's client as if the host had sent them.
  const handed = new WeakSet<Event>();
  const source = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "source")!.get!;
  Object.defineProperty(MessageEvent.prototype, "source", {
    configurable: true,
    get() {
      const s = source.call(this);
      return s === real || handed.has(this) ? facade : s;
    },
  });
  const deliver = (data: Msg) => {
    const e = new MessageEvent("message", { data, origin: bridge.pinned_! });
    handed.add(e);
    dispatchEvent(e);
  };
  // First in the page, before the app's client listens: what is the SDK's to answer never
  // reaches that client.
  bridge.listen_();
  let connected = false;
  let appTools = new Set<string>();
  let init: Promise<any> | undefined;
  let said: (p: any) => void;
  const asked = new Promise<any>((r) => (said = r));
  const replies = new Map<string, (m: Msg) => void>();

  function send(data: unknown, opts?: string | { targetOrigin?: string }) {
    // As the browser would, drop a post that names another origin than the host's.
    if (bridge.pinned_ && !["*", "/", undefined, bridge.pinned_].includes(typeof opts === "string" ? opts : opts?.targetOrigin)) return;
    const m = structuredClone(data);
    if (isMessage(m) && m.method === "ui/initialize") {
      connected = true;
      said(m.params);
      // The page's one handshake answers it, whether the app's params started it or not;
      // where the SDK cannot connect (no frame origin, not in hosts) it is never answered.
      init?.then(
        (result) => deliver({ jsonrpc: "2.0", id: m.id, result }),
        (e) => deliver({ jsonrpc: "2.0", id: m.id, error: { code: -32603, message: e.message } }),
      );
      return;
    }
    if (isMessage(m) && m.method === "ui/notifications/initialized") return;
    const r = replies.get(m?.id);
    if (r && !m.method) return r(m);
    bridge.ready_.then(() => bridge.post_(m));
  }

  bridge.pass_ = (m) => {
    if (!connected) return false;
    if (m.method === "ui/resource-teardown") teardown();
    return !["ui/identify", "ui/get-context", "tools/list"].includes(m.method!) && !(m.method === "tools/call" && ours(m.params?.name) && !appTools.has(m.params?.name));
  };

  return {
    app: () => connected,
    handshake(params, candidates) {
      // The app's client connects as its script runs (or in its first effects): wait for it
      // until 200 ms after the page's load (the SDK runs while the page parses), then go ahead
      // with the SDK's own parameters.
      return (init ??= Promise.race([asked, new Promise((r) => addEventListener("load", () => setTimeout(r, 200)))]).then((app: any) => {
        if (app?.appCapabilities) {
          // The app's capabilities, with the SDK's tools and extension added.
          const c = app.appCapabilities;
          const p = params.appCapabilities;
          params = { ...app, appCapabilities: { ...p, ...c, tools: { ...p.tools, ...c.tools }, experimental: { ...c.experimental, ...p.experimental } } };
        }
        return bridge.handshake_(params, candidates);
      }));
    },
    async appTools(params) {
      if (!connected) return [];
      const id = bridge.id_();
      let timer = 0;
      const m: Msg = await new Promise((r) => {
        replies.set(id, r);
        deliver({ jsonrpc: "2.0", id, method: "tools/list", params });
        timer = setTimeout(() => r({ jsonrpc: "2.0" }), 2000) as unknown as number;
      });
      clearTimeout(timer);
      replies.delete(id);
      const list = Array.isArray(m.result?.tools) ? m.result.tools : [];
      appTools = new Set(list.map((t: { name: string }) => t.name));
      return list;
    },
  };
}
