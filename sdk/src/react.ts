// What `import { useMiniApp } from "@miniapp/sdk/react"` resolves to in a build. React comes
// from the app's own node_modules; the SDK is the one already in the page.
import { useEffect, useMemo, useRef, useState } from "react";
import sdk, { getAuthToken, onHostContext, openChat, sendMessage, setContext } from "@miniapp/sdk";

export interface ReactTool {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  execute: (args: any, options: { signal: AbortSignal }) => unknown;
}

export interface MiniAppOptions {
  getContext?: () => { title?: string; summary?: string; selection?: unknown; data?: unknown };
}

/**
 * useMiniApp registers tools and the context the host reads. The tools array is re-read on
 * every call, so a tool's execute sees current React state; tools are registered again only
 * when their names, descriptions, schemas or annotations change.
 */
export function useMiniApp(tools: ReactTool[], options: MiniAppOptions = {}) {
  if (!Array.isArray(tools)) throw new TypeError("[miniapp] useMiniApp takes an array of tools: useMiniApp([{ name, description, execute }], { getContext })");
  const latest = useRef({ tools, options });
  latest.current = { tools, options };
  const [hostContext, setHostContext] = useState(() => sdk.hostContext());
  const shape = JSON.stringify(tools.map((t) => [t.name, t.description, t.inputSchema ?? null, t.annotations ?? null]));

  useEffect(() => {
    const ac = new AbortController();
    for (const t of latest.current.tools) {
      const name = t.name;
      sdk
        .registerTool(
          {
            name,
            description: t.description,
            inputSchema: t.inputSchema,
            annotations: t.annotations,
            execute: (args: any, options: { signal: AbortSignal }) => {
              const cur = latest.current.tools.find((x) => x.name === name);
              if (!cur) throw new Error(`tool ${name} is gone`);
              return cur.execute(args, options);
            },
          },
          { signal: ac.signal },
        )
        .catch((e: Error) => ac.signal.aborted || console.error(`[miniapp] registerTool ${name}:`, e.message));
    }
    return () => ac.abort();
  }, [shape]);

  useEffect(() => {
    setContext(() => latest.current.options.getContext?.() ?? {});
    sdk.connect().catch(() => {});
    return onHostContext((c: unknown) => setHostContext({ ...(c as object) }));
  }, []);

  return useMemo(
    () => ({
      hostContext,
      openLink: sdk.openLink,
      openChat,
      sendMessage,
      getAuthToken,
      documentId: sdk.documentId as string,
    }),
    [hostContext],
  );
}
