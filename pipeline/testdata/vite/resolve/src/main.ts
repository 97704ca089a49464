import { where } from "brow";
import cond from "cond";
import asset from "/nested/asset.txt?raw";
import pub from "/only-public.txt?raw";
import "./app.css";

const json = await import("/test.json");
const probe = (cls: string) => {
  const el = document.createElement("p");
  el.className = cls;
  document.body.append(el);
  return getComputedStyle(el).color;
};
(window as any).result = { where, cond, asset, pub, json: json.default.from, styleField: probe("sf"), styleCondition: probe("sc"), styleSubpath: probe("sx") };
