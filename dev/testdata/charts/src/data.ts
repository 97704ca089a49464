export interface Month {
  month: string;
  sales: number;
}

export const months: Month[] = [
  { month: "Jan", sales: 120 },
  { month: "Feb", sales: 98 },
  { month: "Mar", sales: 143 },
  { month: "Apr", sales: 171 },
  { month: "May", sales: 160 },
  { month: "Jun", sales: 188 },
];

// total adds the sales of the months given.
export function total(list: Month[]): number {
  return list.reduce((n, m) => n + m.sales, 0);
}
