// Type declarations for the mini app SDK that `bundle build` puts in every bundle.
// Write them beside your sources (bundle sdk types > src/miniapp-sdk.d.ts).

interface MiniAppTool {
  /** ^[A-Za-z0-9_.-]{1,128}$ */
  name: string;
  /** What the tool does, for the model; clamped to 300 characters. */
  description: string;
  /** A JSON Schema object for the arguments. */
  inputSchema?: Record<string, unknown>;
  /** readOnlyHint: false (or absent) makes the host ask the person before each call. */
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Returns { content: [...] }, a string, or any JSON value; a throw becomes an error result. */
  execute(args: any): unknown;
}

interface ModelContext extends EventTarget {
  registerTool(tool: MiniAppTool, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): MiniAppTool[];
  executeTool(name: string, args: Record<string, unknown>): Promise<unknown>;
}

interface Document {
  /** WebMCP: native where the browser has it, the SDK's shim elsewhere. */
  readonly modelContext: ModelContext;
}

declare module "@miniapp/sdk" {
  export interface AppContext {
    title?: string;
    summary?: string;
    selection?: unknown;
    /** Withheld (never cut) when its JSON is over 20,000 characters. */
    data?: unknown;
  }
  export interface HostContext {
    theme?: "light" | "dark";
    styles?: { variables?: Record<string, string> };
    [key: string]: unknown;
  }
  export interface Connection {
    hostInfo?: { name: string; version: string };
    hostCapabilities?: Record<string, unknown>;
    hostContext: HostContext;
  }
  type Unsubscribe = () => void;
  /** The handshake; the SDK connects by itself, and a second call reuses the first. */
  export function connect(): Promise<Connection>;
  /** Asks the host to open url; its host must be in the manifest's linkDomains. */
  export function openLink(url: string): Promise<unknown>;
  /** Asks the host to open its chat, seeded with prompt; the person decides to send. */
  export function openChat(prompt: string): Promise<unknown>;
  export function sendMessage(text: string): Promise<unknown>;
  export function updateModelContext(context: { content?: unknown[]; structuredContent?: Record<string, unknown> }): Promise<unknown>;
  /** A short-lived token from the host; needs the "auth" capability. */
  export function getAuthToken(): Promise<string>;
  export function registerTool(tool: MiniAppTool, options?: { signal?: AbortSignal }): Promise<void>;
  /** The function the host's ui/get-context calls. */
  export function setContext(getContext: () => AppContext | Promise<AppContext>): void;
  export function onToolInput(fn: (params: { arguments?: Record<string, unknown> }) => void): Unsubscribe;
  export function onToolInputPartial(fn: (params: { arguments?: Record<string, unknown> }) => void): Unsubscribe;
  export function onToolResult(fn: (result: { content?: unknown[]; structuredContent?: unknown; isError?: boolean }) => void): Unsubscribe;
  export function onToolCancelled(fn: (params: { reason?: string }) => void): Unsubscribe;
  export function onHostContext(fn: (context: HostContext) => void): Unsubscribe;
  export function onTeardown(fn: () => void): Unsubscribe;
  export function hostContext(): HostContext;
  export const documentId: string;
}

declare module "@miniapp/sdk/react" {
  import type { AppContext, HostContext } from "@miniapp/sdk";
  /**
   * Registers tools and the app's context. The array is re-read on every call, so a tool's
   * execute sees current state.
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
