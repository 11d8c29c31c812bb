import { defineConfig } from "tsup";

export default defineConfig({
  entry: { bin: "src/bin.ts", main: "src/main.ts" },
  format: ["esm"],
  dts: { entry: { main: "src/main.ts" } },
  clean: true,
  sourcemap: true,
  target: "node20",
});
