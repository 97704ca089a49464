export default "bar";
export const json = import.meta.glob("../*.json", { eager: true, import: "default" });
