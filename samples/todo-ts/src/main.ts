import "./style.css";
import { Store, type Todo } from "@/store";

const store = new Store();
const title = document.getElementById("title")!;
const list = document.getElementById("list")!;
const count = document.getElementById("count")!;
const form = document.getElementById("add") as HTMLFormElement;
const input = document.getElementById("text") as HTMLInputElement;

title.textContent = import.meta.env.VITE_LIST_TITLE ?? "Todo";

function render(todos: readonly Todo[]): void {
  list.replaceChildren(
    ...todos.map((t) => {
      const li = document.createElement("li");
      li.textContent = t.text;
      li.className = t.done ? "done" : "";
      li.addEventListener("click", () => store.complete(t.id));
      return li;
    }),
  );
  const open = todos.filter((t) => !t.done).length;
  count.textContent = `${open} open, ${todos.length - open} done`;
}

store.subscribe(render);
render(store.list());

form.addEventListener("submit", (e) => {
  e.preventDefault();
  if (input.value.trim()) store.add(input.value);
  input.value = "";
});

const mc = (document as Document & { modelContext?: ModelContextLike }).modelContext;

interface ModelContextLike {
  registerTool(tool: {
    name: string;
    description: string;
    inputSchema?: object;
    annotations?: { readOnlyHint?: boolean };
    execute: (args: any) => unknown;
  }): Promise<void> | void;
}

mc?.registerTool({
  name: "list_todos",
  description: "List the to-dos with their ids and whether each is done.",
  annotations: { readOnlyHint: true },
  execute: () => store.list(),
});
mc?.registerTool({
  name: "add_todo",
  description: "Add a to-do.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  annotations: { readOnlyHint: false },
  execute: ({ text }: { text: string }) => store.add(String(text)),
});
mc?.registerTool({
  name: "complete_todo",
  description: "Mark a to-do as done, by its id.",
  inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
  annotations: { readOnlyHint: false },
  execute: ({ id }: { id: number }) => store.complete(Number(id)) ?? `No to-do has id ${id}.`,
});
