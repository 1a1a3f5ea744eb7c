import readline from "node:readline";
import { AccountError, MIN_PASSWORD_LENGTH, upsertAdmin } from "~/server/auth.server";
import { ConfigError } from "~/server/config.server";
import { migrateToLatest } from "~/server/db/db.server";
import { closeConnection, getDb } from "~/server/db/index.server";

const USAGE = `Usage:
  npm run admin -- set-password <email>   add an administrator, or reset the password of an existing one
  npm run admin -- list                   list administrators

The password is asked for (twice) on a terminal, or read from the first line of standard input:
  printf '%s\\n' "$PASSWORD" | npm run admin -- set-password owner@example.com
Uses the same DATABASE_URL as the site.`;

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return "";
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        // Echo the prompt, hide what is typed.
        write.call(rl, s.startsWith(question) ? question : "");
      };
      rl.question(question, (answer) => {
        rl.close();
        process.stdout.write("\n");
        resolve(answer);
      });
    });
  const first = await ask(`Password (at least ${MIN_PASSWORD_LENGTH} characters): `);
  const second = await ask("Repeat the password: ");
  if (first !== second) throw new AccountError("The two passwords differ");
  return first;
}

async function run(args: string[]): Promise<number> {
  const [command, email] = args;
  if (command === "set-password" && email) {
    const db = getDb();
    await migrateToLatest(db);
    const outcome = await upsertAdmin(db, email, await readPassword());
    console.log(
      outcome === "created"
        ? `Administrator ${email.toLowerCase()} created.`
        : `Password of ${email.toLowerCase()} reset; their existing sessions were signed out.`,
    );
    return 0;
  }
  if (command === "list") {
    const db = getDb();
    await migrateToLatest(db);
    const admins = await db.selectFrom("admin_users").select(["email", "created_at"]).orderBy("email").execute();
    if (admins.length === 0) console.log("No administrators yet.");
    for (const admin of admins) console.log(`${admin.email}\t(added ${admin.created_at})`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

run(process.argv.slice(2))
  .catch((error: unknown) => {
    if (error instanceof AccountError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  })
  .then(async (code) => {
    await closeConnection();
    process.exit(code);
  });
