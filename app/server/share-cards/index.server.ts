/** The share cards' interface: what routes, server/ and other domains may use (README.md here). */
export { awaitShareCard } from "./cards.server";
export { closeShareCardWorker, enableShareCardWorker } from "./drawer.server";
export { init } from "./init.server";
export { aboutCardFor, articleCardFor, categoryCardFor, pageCardFor, privacyCardFor } from "./pages.server";
export { readShareCard, shareCardExists } from "./store.server";
export { parseShareCardFile } from "./subject.server";
