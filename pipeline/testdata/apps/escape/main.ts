import secret from "../../outside-the-workspace.txt";
console.log(secret);
