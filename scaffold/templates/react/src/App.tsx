// The app's tools and context, with useMiniApp from @miniapp/sdk/react.
import { useState } from "react";
import { useMiniApp } from "@miniapp/sdk/react";

export function App() {
  const [count, setCount] = useState(0);
  useMiniApp(
    [
      // A read tool: the host may call it without asking.
      { name: "get_count", description: "Read the current count.", annotations: { readOnlyHint: true }, execute: () => ({ count }) },
      // A write tool: the host asks the person first.
      {
        name: "set_count",
        description: "Set the count to a whole number from 0 to 1000.",
        inputSchema: { type: "object", properties: { count: { type: "integer", minimum: 0, maximum: 1000 } }, required: ["count"] },
        execute: (args: { count: number }) => {
          setCount(args.count);
          return `The count is now ${args.count}.`;
        },
      },
    ],
    // What the assistant reads when it asks what the person sees.
    { getContext: () => ({ title: "Counter", summary: `The count is ${count}.`, data: { count } }) },
  );
  return (
    <main>
      <h1>{"{{name}}"}</h1>
      <p>
        Count: <output>{count}</output>
      </p>
      <button type="button" onClick={() => setCount((c) => c + 1)}>
        Add one
      </button>
    </main>
  );
}
