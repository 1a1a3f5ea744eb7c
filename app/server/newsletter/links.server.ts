import type { Connection } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import { createLinkSigner, type LinkSigner } from "../identity/index.server";
import { getConfig } from "../platform/config.server";

/**
 * A subscriber's two links (ADR 072), `/newsletter/confirm/{id}.{mac}` and
 * `/newsletter/unsubscribe/{id}.{mac}`: signed, each kind with a key of its
 * own, so nothing stored opens them and an unsubscribe link cannot confirm.
 */

let signers: { confirm: LinkSigner; unsubscribe: LinkSigner } | undefined;

export function initLinks(connection: Connection): void {
  signers = {
    confirm: createLinkSigner(connection, {
      label: "ojai-site newsletter confirm v1",
      name: "newsletter-confirm",
      isId: isRecordId,
    }),
    unsubscribe: createLinkSigner(connection, {
      label: "ojai-site newsletter unsubscribe v1",
      name: "newsletter-unsubscribe",
      isId: isRecordId,
    }),
  };
}

export type LinkKind = "confirm" | "unsubscribe";

function signer(kind: LinkKind): LinkSigner {
  if (!signers) throw new Error("newsletter: init() was not called at start (server/startup.ts)");
  return signers[kind];
}

/** The absolute address of a subscriber's link of this kind. */
export async function subscriberLink(kind: LinkKind, id: string): Promise<string> {
  return `${getConfig().siteUrl}/newsletter/${kind}/${await signer(kind).token(id)}`;
}

/** The subscriber id a link's token was made for, or undefined. */
export const subscriberIdOf = (kind: LinkKind, token: string): Promise<string | undefined> => signer(kind).idOf(token);
