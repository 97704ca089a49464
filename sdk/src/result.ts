// What a tool returns, as a CallToolResult.

/** toResult turns what execute returned into a CallToolResult. */
export function toResult(v: unknown): Record<string, unknown> {
  if (v && typeof v === "object" && Array.isArray((v as { content?: unknown }).content)) return v as Record<string, unknown>;
  if (typeof v === "string") return { content: [{ type: "text", text: v }] };
  if (v === undefined) return { content: [] };
  const text = JSON.stringify(v) ?? String(v);
  const out: Record<string, unknown> = { content: [{ type: "text", text }] };
  if (v && typeof v === "object" && !Array.isArray(v)) out.structuredContent = v;
  return out;
}

