/** The newsletter's interface: what routes, server/ and other domains may use (README.md here). */
export { countSubscribers, listMailings, listSubscribers, subscriberList } from "./admin.server";
export { exportSubscribersCsv, importSubscribersCsv, SUBSCRIBER_IMPORT_LIMITS } from "./csv.server";
export { init } from "./init.server";
export { subscriberIdOf } from "./links.server";
export { isMailingRow, isSubscriberRow } from "./restore.server";
export { subscribe } from "./subscribe.server";
export {
  confirmationState,
  confirmSubscription,
  findSubscriber,
  removeSubscriber,
  unsubscribe,
} from "./subscribers.server";
