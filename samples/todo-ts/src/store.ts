export interface Todo {
  id: number;
  text: string;
  done: boolean;
}

type Listener = (todos: readonly Todo[]) => void;

/** A tiny observable list of to-dos. */
export class Store {
  private todos: Todo[] = [];
  private nextId = 1;
  private listeners = new Set<Listener>();

  list(): readonly Todo[] {
    return this.todos;
  }

  add(text: string): Todo {
    const todo: Todo = { id: this.nextId++, text: text.trim(), done: false };
    this.todos = [...this.todos, todo];
    this.emit();
    return todo;
  }

  complete(id: number): Todo | undefined {
    const todo = this.todos.find((t) => t.id === id);
    if (todo) {
      this.todos = this.todos.map((t) => (t.id === id ? { ...t, done: true } : t));
      this.emit();
    }
    return this.todos.find((t) => t.id === id);
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn(this.todos);
  }
}
