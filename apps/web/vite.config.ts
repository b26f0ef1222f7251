import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tanstackRouter({ target: "react", autoCodeSplitting: true }), react()],
  build: { manifest: true, sourcemap: false, chunkSizeWarningLimit: 800 },
  server: {
    port: 5173,
    proxy: { "/trpc": "http://localhost:3000", "/files": "http://localhost:3000", "/api": "http://localhost:3000", "/healthz": "http://localhost:3000" },
  },
});
