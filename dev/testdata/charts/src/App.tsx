// A chart of monthly sales, its tools and its context, with useMiniApp from @miniapp/sdk/react.
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { useMiniApp } from "@miniapp/sdk/react";
import { months, total } from "./data";

export function App() {
  const [picked, setPicked] = useState(0);
  useMiniApp(
    [
      { name: "get_sales", description: "Read the monthly sales.", annotations: { readOnlyHint: true }, execute: () => ({ months, total: total(months) }) },
      {
        name: "pick_month",
        description: "Show one month's figure under the chart.",
        inputSchema: { type: "object", properties: { index: { type: "integer", minimum: 0, maximum: 5 } }, required: ["index"] },
        execute: (args: { index: number }) => {
          setPicked(args.index);
          return `Showing ${months[args.index].month}.`;
        },
      },
    ],
    { getContext: () => ({ title: "Sales", summary: `${months[picked].month} is picked.`, data: { picked } }) },
  );
  return (
    <main className="p-4 font-sans">
      <h1 className="title text-xl font-semibold">Monthly sales</h1>
      <BarChart width={480} height={240} data={months}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="month" />
        <YAxis />
        <Tooltip />
        <Bar dataKey="sales" fill="#2563eb" />
      </BarChart>
      <p id="picked" className="mt-2 text-sm text-gray-700">
        {months[picked].month}: {months[picked].sales}
      </p>
      <button type="button" className="rounded bg-blue-600 px-3 py-1 text-white" onClick={() => setPicked((p) => (p + 1) % months.length)}>
        Next month
      </button>
    </main>
  );
}
