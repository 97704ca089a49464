// Type declarations for the mini app SDK that `bundle build` puts in every bundle.
// Write them beside your sources (bundle sdk types > src/miniapp-sdk.d.ts).

/** WebMCP's tool annotations, and MCP's; the host asks the person before a tool without readOnlyHint. */
interface MiniAppToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  untrustedContentHint?: boolean;
  [key: string]: unknown;
}

interface MiniAppTool {
  /** ^[A-Za-z0-9_.-]{1,128}$ */
  name: string;
  /** A title for people; the model reads the description. */
  title?: string;
  /** What the tool does, for the model; clamped to 300 characters. */
  description: string;
  /**
   * A JSON Schema object for the arguments, stored as its JSON copy. Calls are checked
   * against it before execute runs (type, properties, required, additionalProperties, enum,
   * const, items, minItems, maxItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
   * minLength, maxLength); invalid arguments get JSON-RPC error -32602 naming the path.
   */
  inputSchema?: Record<string, unknown>;
  annotations?: MiniAppToolAnnotations;
  /**
   * Returns { content: [...] }, a string, or any JSON value; a throw becomes an error result.
   * signal aborts when the host cancels the call (notifications/cancelled).
   */
  execute(args: any, options: { signal: AbortSignal }): unknown;
}

/** A tool as getTools() lists it. */
interface MiniAppRegisteredTool {
  name: string;
  title: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: MiniAppToolAnnotations;
  origin: string;
  window: Window;
}

/** WebMCP's document.modelContext (webmachinelearning/webmcp). */
interface ModelContext extends EventTarget {
  /**
   * Rejects with InvalidStateError for a duplicate or invalid name or an empty description,
   * with TypeError for a schema JSON cannot hold, and with the signal's reason when it is
   * already aborted; aborting the signal later unregisters the tool.
   */
  registerTool(tool: MiniAppTool, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): Promise<MiniAppRegisteredTool[]>;
  /** Resolves with the result as JSON text. */
  executeTool(tool: MiniAppRegisteredTool | string, input?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<string | null>;
  /** Event handler properties, as the WebMCP IDL declares them: null until set. */
  ontoolchange: ((event: Event) => void) | null;
  ontoolactivated: ((event: Event & { toolName: string }) => void) | null;
  ontoolcancel: ((event: Event & { toolName: string }) => void) | null;
}

interface Document {
  /** WebMCP: native where the browser has it, the SDK's shim elsewhere. */
  readonly modelContext: ModelContext;
}

/**
 * Every function of @miniapp/sdk checks the shape of its arguments as the declarations below
 * give them, and refuses another with a TypeError naming the form (a promise-returning one
 * rejects with it), before anything reaches the host.
 */
declare module "@miniapp/sdk" {
  export interface AppContext {
    /** Clamped to 200 characters; the page's title when absent. */
    title?: string;
    /** Clamped to 2,000 characters. */
    summary?: string;
    /** Withheld (never cut) when its JSON is over 20,000 characters. */
    selection?: unknown;
    /** Withheld (never cut) when its JSON is over 20,000 characters. */
    data?: unknown;
  }
  export interface HostContext {
    theme?: "light" | "dark";
    styles?: { variables?: Record<string, string> };
    displayMode?: "inline" | "fullscreen" | "pip";
    availableDisplayModes?: string[];
    [key: string]: unknown;
  }
  export interface Connection {
    hostCapabilities: Record<string, unknown>;
    hostContext: HostContext;
  }
  /** An MCP CallToolResult. */
  export interface CallToolResult {
    content: { type: string; [key: string]: unknown }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  }
  type Unsubscribe = () => void;
  /**
   * The handshake, done once per page: the SDK connects by itself and retries until the host
   * answers; a second call reuses the first. Resolves once ui/notifications/initialized is sent.
   */
  export function connect(): Promise<Connection>;
  /** Asks the host to open url (ui/open-link); its host must be in the manifest's linkDomains. */
  export function openLink(url: string | { url: string }): Promise<unknown>;
  /** Sends a message to the chat as the person (ui/message). */
  export function sendMessage(text: string): Promise<unknown>;
  /** Replaces what the app tells the model for its next turns (ui/update-model-context). */
  export function updateModelContext(context: { content?: unknown[]; structuredContent?: Record<string, unknown> }): Promise<unknown>;
  /** Calls a tool of the app's MCP server through the host (tools/call). */
  export function callServerTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
  /** Reads a resource of the app's MCP server through the host (resources/read); rejects with a TypeError for anything but { uri: string }. */
  export function readServerResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string; blob?: string }[] }>;
  /** Sends a log message to the host (notifications/message). */
  export function sendLog(params: { level: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"; data: unknown; logger?: string }): Promise<void>;
  /**
   * Asks the host for a display mode (ui/request-display-mode). The mode must be in the
   * manifest's displayModes and in the host context's availableDisplayModes; resolves with
   * the mode the host set, which may differ.
   */
  export function requestDisplayMode(params: { mode: "inline" | "fullscreen" | "pip" }): Promise<{ mode: string }>;
  /** Asks the host to open its chat, seeded with prompt; an extension the host must list (PROTOCOL.md). */
  export function openChat(prompt: string): Promise<unknown>;
  /** A short-lived token from the host; needs the manifest's "auth" capability, and a host that lists the extension. */
  export function getAuthToken(): Promise<string>;
  export function registerTool(tool: MiniAppTool, options?: { signal?: AbortSignal }): Promise<void>;
  /** Sets the function the host's ui/get-context calls. */
  export function setContext(getContext: () => AppContext | Promise<AppContext>): void;
  export function onToolInput(fn: (params: { arguments?: Record<string, unknown> }) => void): Unsubscribe;
  export function onToolInputPartial(fn: (params: { arguments?: Record<string, unknown> }) => void): Unsubscribe;
  export function onToolResult(fn: (result: CallToolResult) => void): Unsubscribe;
  export function onToolCancelled(fn: (params: { reason?: string }) => void): Unsubscribe;
  export function onHostContext(fn: (context: HostContext) => void): Unsubscribe;
  export function onTeardown(fn: () => void): Unsubscribe;
  export function hostContext(): HostContext;
  /** What the host declared in its ui/initialize answer ({} before it). */
  export function hostCapabilities(): Record<string, unknown>;
  export const documentId: string;
}

declare module "@miniapp/sdk/react" {
  import type { AppContext, HostContext } from "@miniapp/sdk";
  /**
   * Registers tools and the app's context. The array is re-read on every call, so a tool's
   * execute sees current state. Tools registered in the first render's effects are listed
   * when the host hears ui/notifications/initialized.
   */
  export function useMiniApp(
    tools: MiniAppTool[],
    options?: { getContext?: () => AppContext },
  ): {
    hostContext: HostContext;
    openLink(url: string): Promise<unknown>;
    openChat(prompt: string): Promise<unknown>;
    sendMessage(text: string): Promise<unknown>;
    getAuthToken(): Promise<string>;
    documentId: string;
  };
}
