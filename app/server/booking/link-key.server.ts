import type { Connection } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import { createLinkSigner, type LinkSigner } from "../identity/index.server";

/**
 * The signer of a booking's link (ADR 071): `/book/manage/{id}.{mac}`, an
 * HMAC of the booking's id under a key of its own (identity's signed links).
 */

let signer: LinkSigner | undefined;

export function initLinkKey(connection: Connection): void {
  signer = createLinkSigner(connection, {
    label: "ojai-site booking links v1",
    name: "booking-link",
    isId: isRecordId,
  });
}

function bookingLinks(): LinkSigner {
  if (!signer) throw new Error("booking: init() was not called at start (server/startup.ts)");
  return signer;
}

/** The token of a booking's link, `{id}.{mac}`: the manage page's address ends with it. */
export const bookingToken = (id: string): Promise<string> => bookingLinks().token(id);

/** The booking id a link's token was made for, or undefined. */
export const bookingIdOf = (token: string): Promise<string | undefined> => bookingLinks().idOf(token);
