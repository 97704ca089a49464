// Hello registers one tool with the standard WebMCP API, with no import at all:
// the SDK that bundle puts first in the page provides document.modelContext.
const greeting = document.getElementById("greeting");
const form = document.getElementById("form");
const input = document.getElementById("name");

function greet(name) {
  const who = name.trim() || "world";
  greeting.textContent = `Hello, ${who}`;
  return greeting.textContent;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  greet(input.value);
});

document.modelContext?.registerTool({
  name: "set_name",
  description: "Change the name the app greets, and return the new greeting.",
  inputSchema: {
    type: "object",
    properties: { name: { type: "string", description: "The name to greet." } },
    required: ["name"],
  },
  annotations: { readOnlyHint: false },
  execute: ({ name }) => greet(String(name ?? "")),
});
