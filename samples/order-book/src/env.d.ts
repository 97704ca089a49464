declare module "*.svg" {
  const url: string;
  export default url;
}
declare module "@miniapp/sdk/react" {
  export function useMiniApp(
    tools: Array<{
      name: string;
      description: string;
      inputSchema?: Record<string, unknown>;
      annotations?: { readOnlyHint?: boolean };
      execute: (args: any) => unknown;
    }>,
    options?: { getContext?: () => { title?: string; summary?: string; selection?: unknown; data?: unknown } },
  ): { hostContext: Record<string, unknown>; openLink(url: string): Promise<unknown> };
}
