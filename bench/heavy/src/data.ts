export const regions = ["North", "South", "East", "West"] as const;
export const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
export const sales = months.map((month, m) => ({
  month,
  ...Object.fromEntries(regions.map((r, i) => [r, Math.round(1000 + 400 * Math.sin((m + i) / 2) + 150 * i)])),
}));
export const orders = Array.from({ length: 24 }, (_, i) => ({ id: 1000 + i, customer: ["Ada", "Grace", "Alan", "Katherine"][i % 4], total: 40 + ((i * 37) % 300), status: ["open", "shipped", "cancelled"][i % 3] }));
