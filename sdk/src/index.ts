// The SDK that bundle puts first in every bundle's <head>. It installs document.modelContext
// before any app code runs, connects to the host, and publishes its API for @miniapp/sdk at
// globalThis[Symbol.for("miniapp.sdk")].

import { Bridge, PROTOCOL_VERSION, type Config } from "./bridge";
import { MAX_DESCRIPTION, MAX_ERROR, MAX_ERRORS, MAX_SUMMARY, MAX_TITLE, MAX_TOOLS, announce, clamp, payload } from "./limits";
import { execute, install, onChange, registerTool, tools, type Tool } from "./model-context";
import { toResult } from "./result";

declare const __MINIAPP_CONFIG__: Config;

const KEY = Symbol.for("miniapp.sdk");
const g = globalThis as Record<symbol, unknown>;

interface AppContext {
  title?: string;
  summary?: string;
  selection?: unknown;
  data?: unknown;
}

function randomId(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

function create() {
  const cfg = __MINIAPP_CONFIG__;
  const mc = install();
  const bridge = new Bridge(cfg);
  // One id per document: module state is per document by construction.
  const documentId = randomId();
  let hostContext: Record<string, any> = {};
  let hostInfo: unknown;
  let hostCapabilities: unknown;
  let getContext: (() => AppContext | Promise<AppContext>) | undefined;
  let connecting: Promise<unknown> | undefined;
  let connected = false;

  // Host → app notifications, each remembered so that a late subscriber still gets the last.
  const last = new Map<string, unknown>();
  const subs = new Map<string, Set<(p: any) => void>>();
  function subscribe(name: string, fn: (p: any) => void): () => void {
    let set = subs.get(name);
    if (!set) subs.set(name, (set = new Set()));
    set.add(fn);
    if (last.has(name)) queueMicrotask(() => set!.has(fn) && fn(last.get(name)));
    return () => set!.delete(fn);
  }
  function publish(name: string, p: unknown): void {
    last.set(name, p);
    for (const fn of subs.get(name) ?? []) {
      try {
        fn(p);
      } catch (e) {
        console.error("[miniapp]", e);
      }
    }
  }

  function applyHostContext(p: Record<string, any>): void {
    hostContext = { ...hostContext, ...p };
    const root = document.documentElement;
    if (p.theme === "light" || p.theme === "dark") {
      root.dataset.theme = p.theme;
      root.style.colorScheme = p.theme;
    }
    const vars = p.styles?.variables;
    if (vars && typeof vars === "object") {
      for (const [k, v] of Object.entries(vars)) if (k.startsWith("--") && typeof v === "string") root.style.setProperty(k, v);
    }
    publish("host-context", hostContext);
  }

  bridge.on_("ui/notifications/tool-input", (p) => publish("tool-input", p));
  bridge.on_("ui/notifications/tool-input-partial", (p) => publish("tool-input-partial", p));
  bridge.on_("ui/notifications/tool-result", (p) => publish("tool-result", p));
  bridge.on_("ui/notifications/tool-cancelled", (p) => publish("tool-cancelled", p));
  bridge.on_("ui/notifications/host-context-changed", (p) => applyHostContext(p));

  // Host → app requests.
  bridge.on_("ping", () => ({}));
  bridge.on_("ui/identify", () => ({ documentId }));
  bridge.on_("ui/resource-teardown", () => {
    publish("teardown", {});
    return {};
  });
  bridge.on_("tools/list", async () => {
    let list = await tools(mc);
    if (list.length > MAX_TOOLS) {
      announce("tools", `${list.length} tools; only the first ${MAX_TOOLS} are listed`);
      list = list.slice(0, MAX_TOOLS);
    }
    return {
      tools: list.map((t: Tool) => {
        const out: Record<string, unknown> = {
          name: t.name,
          description: clamp(t.description, MAX_DESCRIPTION, "description"),
          inputSchema: t.inputSchema && typeof t.inputSchema === "object" ? t.inputSchema : { type: "object", properties: {} },
        };
        if (t.annotations && typeof t.annotations === "object") out.annotations = t.annotations;
        return out;
      }),
    };
  });
  bridge.on_("tools/call", async (p: { name?: unknown; arguments?: unknown }) => {
    if (typeof p.name !== "string") throw Object.assign(new Error("no tool name"), { code: -32602 });
    const known = (await tools(mc)).some((t) => t.name === p.name);
    if (!known) throw Object.assign(new Error("unknown tool: " + p.name), { code: -32602 });
    const args = p.arguments && typeof p.arguments === "object" ? (p.arguments as Record<string, unknown>) : {};
    try {
      return toResult(await execute(mc, p.name, args));
    } catch (e) {
      return { content: [{ type: "text", text: String((e as Error)?.message ?? e) }], isError: true };
    }
  });
  bridge.on_("ui/get-context", async () => {
    let c: AppContext = {};
    try {
      c = (await getContext?.()) ?? {};
    } catch (e) {
      console.error("[miniapp] getContext", e);
    }
    const out: Record<string, unknown> = {
      title: clamp(c.title ?? document.title, MAX_TITLE, "title"),
      summary: clamp(c.summary ?? "", MAX_SUMMARY, "summary"),
    };
    for (const k of ["selection", "data"] as const) {
      const r = payload(c[k], "context " + k);
      if (r.withheld) out[k + "Withheld"] = true;
      else if (r.value !== undefined) out[k] = r.value;
    }
    return out;
  });

  function connect(): Promise<unknown> {
    // A second connect in the same document (React StrictMode) reuses the first handshake.
    if (connecting) return connecting;
    const origins = bridge.origins_();
    if (origins.length === 0) {
      connecting = Promise.reject(new Error("[miniapp] not connected: " + bridge.why_));
      connecting.catch(() => {});
      if (bridge.why_ !== "the page is not in a frame") console.warn("[miniapp] not connected:", bridge.why_);
      return connecting;
    }
    bridge.listen_();
    connecting = bridge
      .handshake_(
        "ui/initialize",
        {
          protocolVersion: PROTOCOL_VERSION,
          appInfo: { name: cfg.name, version: cfg.version || "0.0.0" },
          appCapabilities: {
            tools: { listChanged: true },
            // MCP Apps' open map for extensions: our documentId, and the methods we answer
            // beyond MCP Apps' own.
            experimental: { "miniapp/bridge": { documentId, methods: ["ui/identify", "ui/get-context"] } },
          },
        },
        origins,
        origins.length > 1 ? 5000 : 30000,
      )
      .then((r: Record<string, any>) => {
        hostInfo = r?.hostInfo;
        hostCapabilities = r?.hostCapabilities;
        if (r?.hostContext && typeof r.hostContext === "object") applyHostContext(r.hostContext);
        connected = true;
        bridge.notify_("ui/notifications/initialized", {});
        startWatching();
        return { hostInfo, hostCapabilities, hostContext };
      });
    connecting.catch((e) => console.warn("[miniapp] handshake:", e?.message ?? e));
    return connecting;
  }

  // App → host notifications, once connected.
  let watching = false;
  function startWatching(): void {
    if (watching) return;
    watching = true;
    // tools/list_changed, coalesced to one per frame.
    let queued = false;
    onChange(mc, () => {
      if (queued) return;
      queued = true;
      const fire = () => {
        if (!queued) return;
        queued = false;
        bridge.notify_("notifications/tools/list_changed", {});
      };
      requestAnimationFrame(fire);
      setTimeout(fire, 50); // rAF does not run in a hidden frame
    });
    watchSize();
    watchSelection();
  }

  function watchSize(): void {
    if (typeof ResizeObserver === "undefined") return;
    let lastW = -1, lastH = -1, excess = NaN, growing = 0, timer = 0;
    const measure = () => {
      timer = 0;
      const el = document.documentElement;
      const w = Math.ceil(el.scrollWidth), h = Math.ceil(el.scrollHeight);
      if (w === lastW && h === lastH) return;
      // A page whose height follows the frame's (100vh plus a margin) grows each time the host
      // resizes the frame to it: stop reporting growth that only tracks the viewport.
      const e = h - window.innerHeight;
      if (h > lastH && e > 0 && e === excess) {
        if (++growing >= 3) return;
      } else growing = 0;
      excess = e;
      lastW = w;
      lastH = h;
      bridge.notify_("ui/notifications/size-changed", { width: w, height: h });
    };
    new ResizeObserver(() => {
      if (!timer) timer = setTimeout(measure, 100) as unknown as number;
    }).observe(document.documentElement);
    measure();
  }

  function watchSelection(): void {
    let timer = 0;
    document.addEventListener("selectionchange", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const text = String(document.getSelection() ?? "");
        const r = payload(text, "selection");
        bridge.notify_("ui/notifications/selection-changed", r.withheld ? { withheld: true } : { text });
      }, 300) as unknown as number;
    });
  }

  // Uncaught errors and rejections reach the host UI, a bounded number per document.
  let errors = 0;
  function reportError(message: unknown, stack?: unknown): void {
    if (!connected || errors >= MAX_ERRORS) return;
    errors++;
    bridge.notify_("ui/notifications/error", {
      message: clamp(message, MAX_ERROR, "error"),
      ...(stack ? { stack: clamp(stack, MAX_ERROR, "stack") } : {}),
    });
  }
  window.addEventListener("error", (e) => reportError(e.message, (e.error as Error)?.stack));
  window.addEventListener("unhandledrejection", (e) => {
    const r = e.reason as Error;
    reportError(r?.message ?? r, r?.stack);
  });

  function linkAllowed(url: string): boolean {
    let u: URL;
    try {
      u = new URL(url, location.href);
    } catch {
      return false;
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") return false;
    const host = u.hostname.toLowerCase();
    return cfg.linkDomains.some((d) => (d.startsWith("*.") ? host.endsWith(d.slice(1)) : host === d));
  }

  async function openLink(url: string): Promise<unknown> {
    if (!linkAllowed(url)) throw new Error(`[miniapp] ${url}: host not in linkDomains`);
    await connect();
    return bridge.request_("ui/open-link", { url: new URL(url, location.href).href });
  }

  // A sandboxed frame cannot navigate: links to allowed hosts go through ui/open-link.
  document.addEventListener(
    "click",
    (e) => {
      const a = (e.target as Element | null)?.closest?.("a[href], area[href]") as HTMLAnchorElement | null;
      if (!a || e.defaultPrevented || !linkAllowed(a.href)) return;
      e.preventDefault();
      openLink(a.href).catch((err) => console.warn("[miniapp] open-link:", err?.message ?? err));
    },
    true,
  );

  let token: { token: string; expiresAt: number } | undefined;
  let refreshing: Promise<string> | undefined;
  let refreshTimer = 0;
  async function getAuthToken(): Promise<string> {
    if (!cfg.auth) throw new Error("[miniapp] getAuthToken needs the auth capability");
    if (token && token.expiresAt - Date.now() > 60000) return token.token;
    if (refreshing) return refreshing;
    refreshing = (async () => {
      await connect();
      const r = await bridge.request_("ui/request-auth-token", {});
      if (!r || typeof r.token !== "string") throw new Error("[miniapp] no token");
      const exp = typeof r.expiresAt === "number" ? r.expiresAt : Date.parse(r.expiresAt) || Date.now() + 300000;
      token = { token: r.token, expiresAt: exp };
      // Refresh ahead of expiry: a frame can sit open for hours.
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => getAuthToken().catch(() => {}), Math.max(exp - Date.now() - 60000, 1000)) as unknown as number;
      return r.token as string;
    })().finally(() => (refreshing = undefined));
    return refreshing;
  }

  const api = {
    documentId,
    connect,
    openLink,
    getAuthToken,
    openChat: async (prompt: string) => (await connect(), bridge.request_("ui/open-chat", { prompt: clamp(prompt, MAX_SUMMARY, "prompt") })),
    sendMessage: async (text: string) => (await connect(), bridge.request_("ui/message", { role: "user", content: [{ type: "text", text }] })),
    updateModelContext: async (p: { content?: unknown[]; structuredContent?: Record<string, unknown> }) => (await connect(), bridge.request_("ui/update-model-context", p)),
    registerTool: (tool: Tool, options?: { signal?: AbortSignal }) => registerTool(mc, tool, options),
    setContext: (fn: typeof getContext) => void (getContext = fn),
    onToolInput: (fn: (p: any) => void) => subscribe("tool-input", fn),
    onToolInputPartial: (fn: (p: any) => void) => subscribe("tool-input-partial", fn),
    onToolResult: (fn: (p: any) => void) => subscribe("tool-result", fn),
    onToolCancelled: (fn: (p: any) => void) => subscribe("tool-cancelled", fn),
    onHostContext: (fn: (p: any) => void) => subscribe("host-context", fn),
    onTeardown: (fn: () => void) => subscribe("teardown", fn),
    hostContext: () => hostContext,
    modelContextKind: mc.kind,
  };
  return api;
}

if (!g[KEY]) {
  const api = create();
  g[KEY] = api;
  api.connect().catch(() => {});
}
