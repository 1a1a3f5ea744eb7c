import { countUnreadMessages } from "./contact.server";
import type { Db } from "../db/db.server";

/**
 * What AdminShell shows on every admin screen: the signed-in account and the
 * number of unread messages beside "Messages" (ADR 035). The admin layout's
 * loader returns it (ADR 051) and runs again on every navigation and after
 * every action, so the count follows marking read and deleting without a
 * request of its own.
 */
export async function adminShellData(
  db: Db,
  admin: { email: string },
): Promise<{ email: string; unreadMessages: number }> {
  return { email: admin.email, unreadMessages: await countUnreadMessages(db) };
}
