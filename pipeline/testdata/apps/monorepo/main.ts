import { badge } from "@acme/ui";
import isNumber from "is-number";
document.body.append(badge("shared"));
(window as any).result = { badge: document.querySelector(".badge")!.textContent, hoisted: isNumber("42") };
