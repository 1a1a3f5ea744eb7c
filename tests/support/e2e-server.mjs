#!/usr/bin/env node
// Playwright's web server: the built site on a new database of the backend
// under test. For PostgreSQL (TEST_DATABASE=postgres) it (re)creates the
// database named by E2E_PG_DATABASE first; global-teardown.ts drops it.
import { spawn } from "node:child_process";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const env = { ...process.env };

if (process.env.TEST_DATABASE === "postgres") {
  const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = process.env.E2E_PG_DATABASE;
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error("E2E_PG_DATABASE must name the database");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  // With PostgreSQL the two-factor key must be given (ADR 047), as an operator does.
  env.TOTP_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
}

const child = spawn(process.execPath, [path.join(root, "build/server/index.js")], { cwd: root, env, stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
