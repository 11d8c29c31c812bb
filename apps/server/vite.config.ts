import { defineConfig } from "vite";

// The web UI: vanilla TypeScript, built into dist/web at package build time and served by the server.
export default defineConfig({
  root: "web",
  base: "/",
  logLevel: "warn",
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    modulePreload: { polyfill: false },
  },
});
