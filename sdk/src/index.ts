// The SDK that bundle puts in every bundle, as the first script the page runs (in <head>, or
// at the end of <body> when only deferred module scripts precede it). It installs
// document.modelContext before any app code runs, connects to the host, answers the host's
// requests, and publishes its API for @miniapp/sdk at globalThis[Symbol.for("miniapp.sdk")]. The functions an app
// calls (module.ts) are bundled with the app, so this script holds only what must run first.

import { Bridge, PROTOCOL_VERSION, rpcError, type Config } from "./bridge";
import { carry, type Carried } from "./carry";
import { MAX_DESCRIPTION, MAX_ERROR, MAX_ERRORS, MAX_PAYLOAD, MAX_TITLE, MAX_TOOLS, announce, clamp } from "./limits";
import { execute, install, json, onChange, registerTool, tools, type Tool } from "./model-context";
import { toResult } from "./result";
import { check } from "./schema";

declare const __MINIAPP_CONFIG__: Config;
/** True when the build found the app's own MCP Apps client in the bundle. */
declare const __MINIAPP_CARRY__: boolean;

const KEY = Symbol.for("miniapp.sdk");
const g = globalThis as Record<symbol, unknown>;

/** The name under which the SDK's extensions travel in MCP Apps' experimental capabilities. */
const EXTENSION = "miniapp/bridge";

type Fn = (p: any) => void;

function create() {
  const cfg = __MINIAPP_CONFIG__;
  const mc = install();
  const bridge = new Bridge(cfg);
  // One id per document: module state is per document by construction.
  const documentId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (x) => (x + 256).toString(16).slice(1)).join("");
  let hostContext: Record<string, any> = {};
  let hostCapabilities: Record<string, any> = {};
  let getContext: (() => any) | undefined;
  let connecting: Promise<unknown> | undefined;
  let carried: Carried | undefined;
  const root = document.documentElement;

  // Host → app notifications, each remembered so that a late subscriber still gets the last.
  const last = new Map<string, unknown>();
  const subs = new Map<string, Set<Fn>>();
  function subscribe(name: string, fn: Fn): () => void {
    const set = subs.get(name) ?? new Set();
    subs.set(name, set.add(fn));
    if (last.has(name)) queueMicrotask(() => set.has(fn) && fn(last.get(name)));
    return () => set.delete(fn);
  }
  function publish(name: string, p: unknown): void {
    last.set(name, p);
    for (const fn of subs.get(name) ?? [])
      try {
        fn(p);
      } catch (e) {
        console.error("[miniapp]", e);
      }
  }

  function applyHostContext(p: Record<string, any>): void {
    if (!p || typeof p !== "object") return;
    hostContext = { ...hostContext, ...p };
    if (p.theme === "light" || p.theme === "dark") root.style.colorScheme = root.dataset.theme = p.theme;
    for (const [k, v] of Object.entries(p.styles?.variables ?? {})) if (k.startsWith("--") && typeof v === "string") root.style.setProperty(k, v);
    publish("host-context", hostContext);
  }

  /** request sends a request once connected; it fails at once where the SDK cannot connect. */
  const request = (method: string, params: Record<string, unknown>) => connect().then(() => bridge.request_(method, params));
  /** supports reports whether the host listed an extension method in its ui/initialize answer. */
  const supports = (method: string) => [].concat(hostCapabilities.experimental?.[EXTENSION]?.methods ?? []).includes(method as never);

  for (const n of ["tool-input", "tool-input-partial", "tool-result", "tool-cancelled"]) bridge.on_("ui/notifications/" + n, (p) => publish(n, p));
  bridge.on_("ui/notifications/host-context-changed", applyHostContext);
  bridge.on_("ping", () => ({}));
  bridge.on_("ui/identify", () => ({ documentId }));
  bridge.on_("ui/resource-teardown", () => publish("teardown", {}));
  bridge.on_("tools/list", async (p) => {
    const list: any[] = (await carried?.appTools(p)) ?? [];
    const names = new Set(list.map((t) => t.name));
    for (const { name, title, description, inputSchema, annotations } of await tools(mc))
      try {
        // A JSON copy: a tool that cannot be sent is left out, never the whole list.
        names.has(name) || list.push(json({ name, title: title || undefined, description: clamp(description, MAX_DESCRIPTION, "description"), inputSchema: inputSchema ?? { type: "object", properties: {} }, annotations: annotations ?? undefined }, name));
      } catch (e) {
        bridge.odd_(`${name} left out of tools/list: ${e}`);
      }
    if (list.length > MAX_TOOLS) announce("tools", `${list.length} tools; only the first ${MAX_TOOLS} are listed`);
    return { tools: list.slice(0, MAX_TOOLS) };
  });
  bridge.on_("tools/call", async (p, signal) => {
    const t = (await tools(mc)).find((t) => t.name === p.name);
    if (!t) throw rpcError(-32602, "unknown tool: " + p.name);
    const args = p.arguments ?? {};
    const bad = typeof args !== "object" || Array.isArray(args) ? "arguments: type object" : check(t.inputSchema, args, "arguments");
    if (bad) throw rpcError(-32602, `invalid arguments for ${t.name}: ${bad}`);
    try {
      return toResult(await execute(mc, t, args, signal));
    } catch (e) {
      return { content: [{ type: "text", text: String((e as Error)?.message ?? e) }], isError: true };
    }
  });
  // What the app's setContext gave (shaped by @miniapp/sdk), else the page's title.
  bridge.on_("ui/get-context", async () => (await getContext?.()) ?? { title: clamp(document.title, MAX_TITLE, "title"), summary: "" });

  const params = () => ({
    protocolVersion: PROTOCOL_VERSION,
    appInfo: { name: cfg.name, version: cfg.version || "0.0.0" },
    appCapabilities: {
      tools: { listChanged: true },
      availableDisplayModes: cfg.displayModes,
      // MCP Apps' open map for extensions: our documentId, and the methods we answer
      // beyond MCP Apps' own.
      experimental: { [EXTENSION]: { documentId, methods: ["ui/identify", "ui/get-context"] } },
    },
  });

  /**
   * settled resolves when the app's first render has registered its tools: after the load
   * event, once no tool has been registered for 50 ms (React effects run after the first
   * commit), and at most a second after load.
   */
  const settled = () =>
    new Promise((done) => {
      const start = () => {
        let t = 0;
        // The cap is cleared with the rest: a page's pending timers are work it has to do.
        const cap = setTimeout(() => (clearTimeout(t), done(0)), 1000);
        const quiet = () => {
          clearTimeout(t);
          t = setTimeout(() => (clearTimeout(cap), done(0)), 50) as unknown as number;
        };
        onChange(mc, quiet);
        quiet();
      };
      document.readyState === "complete" ? start() : addEventListener("load", start, { once: true });
    });

  function connect(): Promise<unknown> {
    // A second connect in the same document (React StrictMode) reuses the first handshake.
    if (connecting) return connecting;
    const origins = bridge.origins_();
    if (!origins.length) {
      if (bridge.win_ !== window) console.warn("[miniapp] not connected:", bridge.why_);
      return (connecting = Promise.reject(new Error("[miniapp] not connected: " + bridge.why_)));
    }
    return (connecting = (carried ? carried.handshake(params(), origins) : bridge.handshake_(params(), origins))
      .then((r) => {
        hostCapabilities = r?.hostCapabilities ?? {};
        applyHostContext(r?.hostContext);
        return settled();
      })
      .then(() => {
        bridge.notify_("ui/notifications/initialized");
        bridge.open_();
        watch();
        return { hostCapabilities, hostContext };
      }));
  }

  // App → host notifications, once connected.
  function watch(): void {
    // tools/list_changed, one per burst of changes.
    let queued = 0;
    onChange(mc, () => {
      queued ||= setTimeout(() => {
        queued = 0;
        bridge.notify_("notifications/tools/list_changed");
      }, 16) as unknown as number;
    });

    // Sizes: measure the content, not the frame (an html box made max-content is as tall as
    // what it holds), so that the report shrinks as the content does.
    let lastW = 0, lastH = 0, excess = 0, growing = 0, timer = 0;
    const measure = () => {
      timer = 0;
      if (carried?.app()) return; // the app's own client reports its size
      const before = root.style.height;
      root.style.height = "max-content";
      const r = root.getBoundingClientRect();
      root.style.height = before;
      const w = Math.ceil(r.width), h = Math.ceil(r.height);
      // A page whose height follows the frame's (100vh plus a margin) grows each time the
      // host resizes the frame to it: stop reporting growth that only tracks the viewport.
      const e = h - innerHeight;
      growing = h > lastH && e > 0 && e === excess ? growing + 1 : 0;
      if ((w === lastW && h === lastH) || growing >= 3) return;
      excess = e;
      lastW = w;
      lastH = h;
      bridge.notify_("ui/notifications/size-changed", { width: w, height: h });
    };
    const ro = new ResizeObserver(() => (timer ||= setTimeout(measure, 100) as unknown as number));
    ro.observe(root);
    ro.observe(document.body);
    measure();

    // The selection, to a host that lists the extension.
    let selTimer = 0;
    document.addEventListener("selectionchange", () => {
      clearTimeout(selTimer);
      selTimer = setTimeout(() => {
        // Over the budget, the selection is withheld whole (it goes as a JSON string).
        const text = String(getSelection());
        if (supports("ui/notifications/selection-changed")) bridge.notify_("ui/notifications/selection-changed", text.length > MAX_PAYLOAD - 2 ? { withheld: true } : { text });
      }, 300) as unknown as number;
    });
  }

  // Uncaught errors and rejections reach the host, a bounded number per document: as
  // ui/notifications/error where the host lists it, else as an MCP log message.
  let errors = 0;
  const report = (message: unknown, stack?: unknown) =>
    errors++ < MAX_ERRORS &&
    bridge.ready_.then(() => {
      const p = { message: clamp(message, MAX_ERROR, "error"), stack: stack ? clamp(stack, MAX_ERROR, "stack") : undefined };
      supports("ui/notifications/error") ? bridge.notify_("ui/notifications/error", p) : bridge.notify_("notifications/message", { level: "error", logger: "miniapp", data: p });
    });
  addEventListener("error", (e) => report(e.message, e.error?.stack));
  addEventListener("unhandledrejection", (e) => report(e.reason?.message ?? e.reason, e.reason?.stack));

  const linkAllowed = (url: string) => {
    try {
      const u = new URL(url, location.href);
      return /^https?:$/.test(u.protocol) && cfg.linkDomains.some((d) => (d.startsWith("*.") ? u.hostname.endsWith(d.slice(1)) : u.hostname === d));
    } catch {
      return false;
    }
  };
  const openLink = async (url: string | { url: string }) => {
    if (typeof url === "object") url = url?.url;
    if (!linkAllowed(url)) throw new Error(`[miniapp] ${url}: host not in linkDomains`);
    return request("ui/open-link", { url: new URL(url, location.href).href });
  };
  // A sandboxed frame cannot navigate: links to allowed hosts go through ui/open-link.
  document.addEventListener(
    "click",
    (e) => {
      const a = (e.target as Element)?.closest?.("a[href],area[href]") as HTMLAnchorElement;
      if (a && !e.defaultPrevented && linkAllowed(a.href)) {
        e.preventDefault();
        openLink(a.href).catch((err) => console.warn("[miniapp] open-link:", err?.message));
      }
    },
    true,
  );

  if (__MINIAPP_CARRY__ && bridge.win_ !== window) carried = carry(bridge, (name) => mc.own.tools_.has(name), () => publish("teardown", {}));

  return {
    documentId,
    config: cfg,
    connect,
    request,
    supports,
    notify: (method: string, params: Record<string, unknown>) => bridge.notify_(method, params),
    openLink,
    registerTool: (tool: Tool, options?: { signal?: AbortSignal }) => registerTool(mc, tool, options),
    setContext: (fn: typeof getContext) => void (getContext = fn),
    subscribe,
    hostContext: () => hostContext,
    hostCapabilities: () => hostCapabilities,
    modelContextKind: mc.kind,
  };
}

if (!g[KEY]) {
  const api = create();
  g[KEY] = api;
  api.connect().catch(() => {});
}
