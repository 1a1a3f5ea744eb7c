import { countUnreadMessages } from "./contact.server";
import { getDb } from "./db/index.server";

/**
 * What AdminShell shows on every admin screen: the signed-in account and the
 * number of unread messages beside "Messages" (ADR 035). Each admin screen's
 * loader returns it as `admin`, so the count follows every action's
 * revalidation (marking read, deleting) without a request of its own.
 */
export async function adminShellData(admin: { email: string }): Promise<{ email: string; unreadMessages: number }> {
  return { email: admin.email, unreadMessages: await countUnreadMessages(getDb()) };
}
