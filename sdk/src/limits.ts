// Limits clamp and never reject: every bound is a host budget that an app cannot know, so an app
// over a bound loses the overflow, never the message. Each kind of cut is announced once.

export const MAX_DESCRIPTION = 300;
export const MAX_TOOLS = 64;
export const MAX_TITLE = 200;
export const MAX_SUMMARY = 2000;
export const MAX_PAYLOAD = 20000; // characters of JSON in context data or selection
export const MAX_ERROR = 2000;
export const MAX_ERRORS = 20; // error notifications per document

/** WITHHELD is what payload returns for a value that cannot be sent whole. */
export const WITHHELD = Symbol();

const announced = new Set<string>();

/** announce warns once per kind of cut. */
export function announce(kind: string, detail: string): void {
  announced.has(kind) || (announced.add(kind), console.warn("[miniapp] " + detail));
}

/** clamp cuts s to max characters, announcing the first cut of this kind. */
export function clamp(s: unknown, max: number, kind: string): string {
  const str = String(s ?? "");
  if (str.length > max) announce(kind, `${kind} cut to ${max} chars`);
  return str.slice(0, max);
}

/**
 * payload returns a JSON copy of value when its JSON fits in MAX_PAYLOAD characters, and
 * WITHHELD otherwise: cutting JSON at a character count would make it invalid, so it is
 * withheld whole.
 */
export function payload(value: unknown, kind: string): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {}
  if (value !== undefined && (json === undefined || json.length > MAX_PAYLOAD)) {
    announce(kind, `${kind} withheld: not JSON, or over ${MAX_PAYLOAD} chars of it`);
    return WITHHELD;
  }
  return json && JSON.parse(json);
}
