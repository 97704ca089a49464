// A shared package of the workspace, linked into node_modules as @acme/ui.
export function badge(text: string): HTMLElement {
  const b = document.createElement("span");
  b.className = "badge";
  b.textContent = `[${text}]`;
  return b;
}
