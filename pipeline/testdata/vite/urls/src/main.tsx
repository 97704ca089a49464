import logo from "/assets/logo.svg";
import pub from "/pub.txt";
import data from "/data.json";

const text = (u: URL | string) => fetch(u).then((r) => r.text());
const a = new URL("../assets/logo.svg", import.meta.url);
const b = new URL(
  "../assets/logo.svg",
  import.meta.url, // trailing comma
);
const c = new URL(/* a ) in a comment */ "../assets/logo.svg", import.meta.url);
// new URL("./missing.png", import.meta.url) in a comment is no call
const s = 'new URL("./missing.png", import.meta.url) in a string is none either';
const name = "two";
const d = new URL(`../img/${name}.svg`, import.meta.url);
const e = new URL("/assets/logo.svg", import.meta.url);
const f = new URL("/pub.txt", import.meta.url);
const same = new URL("/same.txt", import.meta.url);
const g = new URL("data:text/plain,hi", import.meta.url);
const el = <img src={new URL("../assets/logo.svg", import.meta.url).href} alt="it's" />;
const dyn = await import("/data.json");

(window as any).result = {
  a: a.protocol,
  same: a.href === b.href && b.href === c.href && a.href === e.href,
  d: (await text(d)).includes("<title>two</title>"),
  f: await text(f),
  sameFile: await text(same),
  g: g.href,
  jsx: el.props.src === a.href,
  logo: logo.startsWith("data:image/svg+xml"),
  pub: await text(pub),
  data: data.from,
  dyn: dyn.default.from,
  s: s.length > 0,
};
