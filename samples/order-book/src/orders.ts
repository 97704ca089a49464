export type Status = "open" | "shipped" | "cancelled";

export interface Order {
  id: string;
  customer: string;
  total: number;
  status: Status;
}

export const initialOrders: Order[] = [
  { id: "A-1001", customer: "Ada Lovelace", total: 129.5, status: "open" },
  { id: "A-1002", customer: "Grace Hopper", total: 42, status: "open" },
  { id: "A-1003", customer: "Alan Turing", total: 310.25, status: "shipped" },
  { id: "A-1004", customer: "Katherine Johnson", total: 18.75, status: "cancelled" },
];

export const statuses: Status[] = ["open", "shipped", "cancelled"];

export function formatTotal(n: number): string {
  return `$${n.toFixed(2)}`;
}
