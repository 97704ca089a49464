// What `import … from "@miniapp/sdk"` resolves to in a build: the SDK already in the page, never
// a second copy. The functions an app calls are written here, on the page SDK's request(), so
// that a bundle carries only those its app imports (esbuild drops the rest).
import { MAX_SUMMARY, MAX_TITLE, WITHHELD, clamp, payload } from "./limits";

const sdk = (globalThis as any)[Symbol.for("miniapp.sdk")];
if (!sdk) throw new Error("@miniapp/sdk: the SDK is not in the page; build the app with bundle build");

export interface AppContext {
  title?: string;
  summary?: string;
  selection?: unknown;
  data?: unknown;
}

/**
 * setContext sets the function the host's ui/get-context calls. Its answer is shaped to the
 * host's budget: title clamped to 200 characters, summary to 2,000, selection and data over
 * 20,000 characters of JSON withheld whole and flagged selectionWithheld / dataWithheld.
 */
export function setContext(getContext: () => AppContext | Promise<AppContext>): void {
  takes(typeof getContext === "function", "setContext", "a function that returns the context: setContext(() => ({ title, summary, data }))", getContext);
  sdk.setContext(async () => {
    let c: AppContext = {};
    try {
      c = (await getContext()) ?? {};
    } catch (e) {
      console.error("[miniapp] getContext", e);
    }
    const out: Record<string, unknown> = { title: clamp(c.title ?? document.title, MAX_TITLE, "title"), summary: clamp(c.summary, MAX_SUMMARY, "summary") };
    for (const k of ["selection", "data"] as const) {
      const v = payload(c[k], "context " + k);
      if (v === WITHHELD) out[k + "Withheld"] = true;
      else if (v !== undefined) out[k] = v;
    }
    return out;
  });
}

/** extension sends a request outside MCP Apps: only to a host that listed it, else a clear error. */
async function extension(method: string, params: Record<string, unknown>): Promise<any> {
  await sdk.connect();
  if (!sdk.supports(method)) throw new Error(`[miniapp] the host does not support ${method} (it is not in hostCapabilities.experimental["miniapp/bridge"].methods)`);
  return sdk.request(method, params);
}

/**
 * takes checks an argument's shape as WebIDL converts a dictionary: a TypeError naming the form
 * the function takes, thrown where the caller made the call (a promise-returning function
 * rejects with it, as the spec's methods do).
 */
function takes(ok: boolean, fn: string, form: string, got: unknown): void {
  if (ok) return;
  const what = got === null ? "null" : Array.isArray(got) ? "an array" : typeof got === "string" ? JSON.stringify(got.slice(0, 40)) : typeof got;
  throw new TypeError(`[miniapp] ${fn} takes ${form}, not ${what}`);
}
const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export const connect: () => Promise<unknown> = sdk.connect;
export async function openLink(url: string | { url: string }): Promise<unknown> {
  takes(typeof url === "string" || (isObject(url) && typeof url.url === "string"), "openLink", 'a URL string or { url: string }: openLink("https://…")', url);
  return sdk.openLink(url);
}
export const registerTool = sdk.registerTool;
export const hostContext: () => Record<string, unknown> = sdk.hostContext;
export const hostCapabilities: () => Record<string, unknown> = sdk.hostCapabilities;
export const documentId: string = sdk.documentId;

/** sendMessage sends text to the chat as the person (ui/message). */
export async function sendMessage(text: string): Promise<unknown> {
  takes(typeof text === "string", "sendMessage", 'the text to send: sendMessage("…")', text);
  return sdk.request("ui/message", { role: "user", content: [{ type: "text", text }] });
}
/** updateModelContext replaces what the app tells the model (ui/update-model-context). */
export async function updateModelContext(context: { content?: unknown[]; structuredContent?: Record<string, unknown> }): Promise<unknown> {
  takes(isObject(context) && (context.content === undefined || Array.isArray(context.content)) && (context.structuredContent === undefined || isObject(context.structuredContent)),
    "updateModelContext", "{ content?: ContentBlock[], structuredContent?: object }", context);
  return sdk.request("ui/update-model-context", context);
}
/** callServerTool calls a tool of the app's MCP server, through the host (MCP's tools/call). */
export async function callServerTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<any> {
  takes(isObject(params) && typeof params.name === "string" && (params.arguments === undefined || isObject(params.arguments)),
    "callServerTool", '{ name: string, arguments?: object }: callServerTool({ name: "get_time", arguments: {} })', params);
  return sdk.request("tools/call", params);
}
/** readServerResource reads a resource of the app's MCP server, through the host (MCP's resources/read). */
export async function readServerResource(params: { uri: string }): Promise<any> {
  takes(isObject(params) && typeof params.uri === "string", "readServerResource", '{ uri: string }, as MCP Apps\' App does: readServerResource({ uri: "ui://…" })', params);
  return sdk.request("resources/read", params);
}
/** sendLog sends a log message to the host (MCP's notifications/message). */
export async function sendLog(params: { level: string; data: unknown; logger?: string }): Promise<void> {
  takes(isObject(params) && LEVELS.includes(params.level) && "data" in params && (params.logger === undefined || typeof params.logger === "string"),
    "sendLog", `{ level, data, logger?: string } with a level of ${LEVELS.join(", ")}`, params);
  await sdk.connect();
  sdk.notify("notifications/message", params);
}
/**
 * requestDisplayMode asks the host for a display mode, which must be in the manifest's
 * displayModes and in the host context's availableDisplayModes; it resolves with the mode the
 * host set, which may differ.
 */
export async function requestDisplayMode(params: { mode: "inline" | "fullscreen" | "pip" }): Promise<{ mode: string }> {
  takes(isObject(params) && typeof params.mode === "string", "requestDisplayMode", '{ mode: "inline" | "fullscreen" | "pip" }', params);
  const mode = params.mode;
  await sdk.connect();
  const host = sdk.hostContext().availableDisplayModes;
  if (!sdk.config.displayModes.includes(mode)) throw new Error(`[miniapp] display mode ${mode} is not in the manifest's displayModes (${sdk.config.displayModes})`);
  if (Array.isArray(host) && !host.includes(mode)) throw new Error(`[miniapp] the host does not offer display mode ${mode} (it offers ${host})`);
  return sdk.request("ui/request-display-mode", { mode });
}
/** openChat asks the host to open its chat seeded with prompt (an extension the host must list). */
export async function openChat(prompt: string): Promise<unknown> {
  takes(typeof prompt === "string", "openChat", 'the prompt to seed the chat with: openChat("…")', prompt);
  return extension("ui/open-chat", { prompt: prompt.slice(0, 2000) });
}

// A token is reused until a minute before it expires; one request at a time.
let token: { token: string; expiresAt: number } | undefined;
let refreshing: Promise<string> | undefined;
/** getAuthToken asks the host for a short-lived token; it needs the manifest's auth capability. */
export async function getAuthToken(): Promise<string> {
  if (!sdk.config.auth) throw new Error("[miniapp] getAuthToken needs the auth capability in the manifest");
  if (token && token.expiresAt - Date.now() > 60000) return token.token;
  return (refreshing ??= extension("ui/request-auth-token", {})
    .then((r) => {
      if (typeof r?.token !== "string") throw new Error("[miniapp] the host sent no token");
      token = { token: r.token, expiresAt: typeof r.expiresAt === "number" ? r.expiresAt : Date.parse(r.expiresAt) || Date.now() + 300000 };
      return r.token;
    })
    .finally(() => (refreshing = undefined)));
}

const on =
  (name: string, fnName: string) =>
  (fn: (p: any) => void): (() => void) => {
    takes(typeof fn === "function", fnName, "a function to call with each notification", fn);
    return sdk.subscribe(name, fn);
  };
export const onToolInput = /* @__PURE__ */ on("tool-input", "onToolInput");
export const onToolInputPartial = /* @__PURE__ */ on("tool-input-partial", "onToolInputPartial");
export const onToolResult = /* @__PURE__ */ on("tool-result", "onToolResult");
export const onToolCancelled = /* @__PURE__ */ on("tool-cancelled", "onToolCancelled");
export const onHostContext = /* @__PURE__ */ on("host-context", "onHostContext");
export const onTeardown = /* @__PURE__ */ on("teardown", "onTeardown");

export default sdk;
