/**
 * Development server: Vite in middleware mode with hot reload. `npm run dev`.
 * Production runs the built server (build/server/index.js) instead.
 */
import express from "express";
import { createServer } from "vite";

process.env.NODE_ENV ??= "development";
const port = Number(process.env.PORT ?? 3000);

const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const load = () => vite.ssrLoadModule("./server/dev-app.ts") as Promise<typeof import("./dev-app")>;

await (await load()).prepare();

const app = express();
app.use(vite.middlewares);
app.use(async (req, res, next) => {
  try {
    (await load()).handle(req, res, next);
  } catch (error) {
    if (error instanceof Error) vite.ssrFixStacktrace(error);
    next(error);
  }
});
app.listen(port, () => console.log(`Development server on http://localhost:${port}`));
