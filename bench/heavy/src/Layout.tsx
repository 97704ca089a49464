import { AppBar, Box, CssBaseline, Drawer, List, ListItemButton, ListItemIcon, ListItemText, ThemeProvider, Toolbar, Typography, createTheme } from "@mui/material";
import { Dashboard as DashboardIcon, ReceiptLong, Settings as SettingsIcon } from "@mui/icons-material";
import { Outlet, useNavigate } from "react-router";
import { useMiniApp } from "@miniapp/sdk/react";
import { sales } from "./data";

const theme = createTheme({ palette: { mode: "light", primary: { main: "#1565c0" } } });

export function Layout() {
  const navigate = useNavigate();
  useMiniApp([
    { name: "get_sales", description: "Sales by month and region.", annotations: { readOnlyHint: true }, execute: () => sales },
    {
      name: "open_page",
      description: "Show a page of the dashboard.",
      inputSchema: { type: "object", properties: { page: { enum: ["dashboard", "orders", "settings"] } }, required: ["page"] },
      execute: ({ page }: { page: string }) => {
        navigate(page === "dashboard" ? "/" : "/" + page);
        return "showing " + page;
      },
    },
  ]);
  const items = [
    { to: "/", label: "Dashboard", icon: <DashboardIcon /> },
    { to: "/orders", label: "Orders", icon: <ReceiptLong /> },
    { to: "/settings", label: "Settings", icon: <SettingsIcon /> },
  ];
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ display: "flex" }}>
        <AppBar position="fixed" sx={{ zIndex: 1201 }}>
          <Toolbar><Typography variant="h6">Sales Dashboard</Typography></Toolbar>
        </AppBar>
        <Drawer variant="permanent" sx={{ width: 200, "& .MuiDrawer-paper": { width: 200 } }}>
          <Toolbar />
          <List>
            {items.map((i) => (
              <ListItemButton key={i.to} onClick={() => navigate(i.to)}>
                <ListItemIcon>{i.icon}</ListItemIcon>
                <ListItemText primary={i.label} />
              </ListItemButton>
            ))}
          </List>
        </Drawer>
        <Box component="main" sx={{ flexGrow: 1, p: 3 }}>
          <Toolbar />
          <Outlet />
        </Box>
      </Box>
    </ThemeProvider>
  );
}
