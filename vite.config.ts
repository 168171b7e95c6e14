import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // Native and server-only packages stay outside the SSR bundle.
  ssr: { external: ["better-sqlite3", "pg", "ssh2", "@node-rs/argon2", "nodemailer", "qrcode"] },
});
