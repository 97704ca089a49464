import { Suspense, lazy, useState } from "react";
import { useMiniApp } from "@miniapp/sdk/react";
import { formatTotal, initialOrders, statuses, type Order, type Status } from "./orders";
import logo from "./logo.svg";

// A lazy route, as Vite apps split them: bundle inlines it into the one file.
const Help = lazy(() => import("./Help"));

export function App() {
  const [orders, setOrders] = useState<Order[]>(initialOrders);
  const [filter, setFilter] = useState<Status | "all">("all");
  const visible = orders.filter((o) => filter === "all" || o.status === filter);

  function setStatus(id: string, status: Status): Order | undefined {
    let changed: Order | undefined;
    setOrders((prev) =>
      prev.map((o) => {
        if (o.id !== id) return o;
        changed = { ...o, status };
        return changed;
      }),
    );
    const found = orders.find((o) => o.id === id);
    return found && { ...found, status };
  }

  // The tools array is rebuilt every render, so each execute sees the current orders.
  useMiniApp(
    [
      {
        name: "list_orders",
        description: "List the orders with their id, customer, total and status.",
        inputSchema: {
          type: "object",
          properties: { status: { type: "string", enum: statuses, description: "Only orders with this status." } },
        },
        annotations: { readOnlyHint: true },
        execute: ({ status }: { status?: Status }) => ({
          orders: orders.filter((o) => !status || o.status === status),
        }),
      },
      {
        name: "set_order_status",
        description: "Change the status of one order.",
        inputSchema: {
          type: "object",
          properties: {
            id: { type: "string", description: "The order id, such as A-1001." },
            status: { type: "string", enum: statuses },
          },
          required: ["id", "status"],
        },
        annotations: { readOnlyHint: false },
        execute: ({ id, status }: { id: string; status: Status }) => {
          if (!statuses.includes(status)) throw new Error(`Unknown status ${status}.`);
          const order = setStatus(id, status);
          if (!order) throw new Error(`No order has id ${id}.`);
          return `Order ${id} is now ${status}.`;
        },
      },
    ],
    {
      getContext: () => ({
        title: "Order Book",
        summary: `${visible.length} orders shown (${filter}); ${orders.filter((o) => o.status === "open").length} open.`,
        data: { filter, orders: visible },
      }),
    },
  );

  return (
    <main>
      <header>
        <img src={logo} alt="" width={32} height={32} />
        <h1>Order Book</h1>
        <select value={filter} onChange={(e) => setFilter(e.target.value as Status | "all")} aria-label="Filter">
          <option value="all">All</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </header>
      <table>
        <thead>
          <tr>
            <th>Order</th>
            <th>Customer</th>
            <th className="num">Total</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {visible.map((o) => (
            <tr key={o.id} data-status={o.status}>
              <td>{o.id}</td>
              <td>{o.customer}</td>
              <td className="num">{formatTotal(o.total)}</td>
              <td>
                <select value={o.status} onChange={(e) => setStatus(o.id, e.target.value as Status)} aria-label={`Status of ${o.id}`}>
                  {statuses.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Suspense fallback={<p className="help">Loading help…</p>}>
        <Help />
      </Suspense>
    </main>
  );
}
