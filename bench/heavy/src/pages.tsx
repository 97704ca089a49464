import { Card, CardContent, Chip, FormControlLabel, Grid, Switch, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { TrendingUp, TrendingDown, People, ShoppingCart, AttachMoney, Inventory } from "@mui/icons-material";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { months, orders, regions, sales } from "./data";

const colors = ["#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a"];

function Stat({ label, value, icon, up }: { label: string; value: string; icon: React.ReactNode; up: boolean }) {
  return (
    <Card>
      <CardContent>
        {icon}
        <Typography variant="overline" display="block">{label}</Typography>
        <Typography variant="h5">{value}</Typography>
        {up ? <TrendingUp color="success" /> : <TrendingDown color="error" />}
      </CardContent>
    </Card>
  );
}

export function Dashboard() {
  return (
    <Grid container spacing={2}>
      <Grid size={3}><Stat label="Customers" value="1,204" icon={<People />} up /></Grid>
      <Grid size={3}><Stat label="Orders" value={String(orders.length)} icon={<ShoppingCart />} up /></Grid>
      <Grid size={3}><Stat label="Revenue" value="$48,300" icon={<AttachMoney />} up={false} /></Grid>
      <Grid size={3}><Stat label="Stock" value="312" icon={<Inventory />} up /></Grid>
      <Grid size={6}>
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={sales}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey="month" /><YAxis /><Tooltip /><Legend />
            {regions.map((r, i) => <Bar key={r} dataKey={r} fill={colors[i]} />)}
          </BarChart>
        </ResponsiveContainer>
      </Grid>
      <Grid size={6}>
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={sales}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey="month" ticks={months} /><YAxis /><Tooltip />
            {regions.map((r, i) => <Line key={r} dataKey={r} stroke={colors[i]} />)}
          </LineChart>
        </ResponsiveContainer>
      </Grid>
    </Grid>
  );
}

export function Orders() {
  return (
    <Table size="small">
      <TableHead><TableRow><TableCell>Order</TableCell><TableCell>Customer</TableCell><TableCell align="right">Total</TableCell><TableCell>Status</TableCell></TableRow></TableHead>
      <TableBody>
        {orders.map((o) => (
          <TableRow key={o.id}><TableCell>{o.id}</TableCell><TableCell>{o.customer}</TableCell><TableCell align="right">${o.total}</TableCell>
            <TableCell><Chip size="small" label={o.status} color={o.status === "open" ? "primary" : o.status === "shipped" ? "success" : "default"} /></TableCell></TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function Settings() {
  return <FormControlLabel control={<Switch defaultChecked />} label="Weekly report by e-mail" />;
}
