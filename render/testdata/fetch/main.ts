// Fetches its API at load: allowed by its policy, but render blocks and reports every request.
fetch("https://api.example.com/orders?status=open").catch(() => {});
document.getElementById("root")!.textContent = "fetched";
