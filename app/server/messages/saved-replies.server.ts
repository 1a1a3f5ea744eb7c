import { randomUUID } from "node:crypto";
import { LEAD_LIMITS } from "~/lib/leads";
import type { Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";

/**
 * Saved replies (ADR 070): answers the owner writes once and starts replies
 * from. At most LEAD_LIMITS.savedReplies, so the list is always whole.
 */

export interface SavedReply {
  id: string;
  name: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export class SavedReplyError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const toSavedReply = (row: { id: string; name: string; body: string; created_at: string; updated_at: string }) => ({
  id: row.id,
  name: row.name,
  body: row.body,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** `{name, body}`: both required, bounded, one-line name. */
export function parseSavedReply(value: unknown): { name: string; body: string } {
  const { name, body } = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof name !== "string" || typeof body !== "string")
    throw new SavedReplyError(400, "Send a JSON body with name and body");
  if (name.length > LEAD_LIMITS.savedReplyName * 2 || name.trim().length > LEAD_LIMITS.savedReplyName)
    throw new SavedReplyError(400, `name is too long (${LEAD_LIMITS.savedReplyName} characters at most)`);
  if (body.length > LEAD_LIMITS.reply)
    throw new SavedReplyError(400, `body is too long (${LEAD_LIMITS.reply} characters at most)`);
  // eslint-disable-next-line no-control-regex -- a one-line name may hold none of these
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new SavedReplyError(400, "name must be one line of text");
  if (body.includes("\0")) throw new SavedReplyError(400, "body contains a NUL character");
  if (!name.trim()) throw new SavedReplyError(400, "name is required");
  if (!body.trim()) throw new SavedReplyError(400, "body is required");
  return { name: name.trim(), body: body.trim() };
}

/** Every saved reply, by name. */
export async function listSavedReplies(db: Db): Promise<SavedReply[]> {
  const rows = await db
    .selectFrom("saved_replies")
    .selectAll()
    .orderBy("name")
    .orderBy("id")
    .limit(LEAD_LIMITS.savedReplies)
    .execute();
  return rows.map(toSavedReply);
}

export async function createSavedReply(db: Db, input: { name: string; body: string }): Promise<SavedReply> {
  const now = new Date().toISOString();
  const row = { id: randomUUID(), ...input, created_at: now, updated_at: now };
  await db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom("saved_replies")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    if (Number(count.count) >= LEAD_LIMITS.savedReplies)
      throw new SavedReplyError(
        409,
        `There can be at most ${LEAD_LIMITS.savedReplies} saved replies; delete one first`,
      );
    await trx.insertInto("saved_replies").values(row).execute();
  });
  return toSavedReply(row);
}

export async function updateSavedReply(
  db: Db,
  id: string,
  input: { name: string; body: string },
): Promise<SavedReply | undefined> {
  if (!isRecordId(id)) return undefined;
  await db
    .updateTable("saved_replies")
    .set({ ...input, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .execute();
  const row = await db.selectFrom("saved_replies").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toSavedReply(row) : undefined;
}

export async function deleteSavedReply(db: Db, id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  const result = await db.deleteFrom("saved_replies").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
