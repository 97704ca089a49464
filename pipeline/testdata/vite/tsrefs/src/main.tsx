import { greeting } from "@/util";
const el = <p>hi</p>;
(window as any).result = { greeting, runtime: (el as any).runtime };
