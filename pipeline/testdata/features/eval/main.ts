const add = new Function("a", "b", "return a + b") as (a: number, b: number) => number;
(window as any).result = { sum: add(20, 22) };
