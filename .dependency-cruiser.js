// Import boundaries that `npm run lint` checks (ADR 050), with
// dependency-cruiser: one pass over the import graph of app/ and server/,
// type-only imports told apart from the rest.
//
// A rule for the app/server restructure, once each domain is a folder with an
// index: "routes call only a domain's index". It goes in `forbidden` below as
//   {
//     name: "routes-use-domain-indexes",
//     comment: "A route calls a domain through its index, never its inner modules.",
//     severity: "error",
//     from: { path: "^app/routes/" },
//     to: { path: "^app/server/[^/]+/", pathNot: "^app/server/[^/]+/index\\.server\\.ts$" },
//   }

/**
 * Code that runs in the browser, or may: it takes only types from server code.
 * Besides the shared folders, the admin's route-only modules that sit beside
 * their route (app/routes/admin/posts/editor/..., ADR 051); the route modules
 * themselves (route.tsx, layout.tsx) and *.server.ts files are not, their
 * loaders and actions run on the server.
 */
const UI = ["^app/(components|islands|lib|content)/", "^app/routes/admin/"];
/** What db/ may use besides itself: the process's configuration and logger, which no domain owns. */
const PLATFORM = "^app/server/(config|logger)\\.server\\.ts$";
/** Route modules (their loaders and actions run on the server) and server-only files beside them. */
const ROUTE_MODULE = "/(route|layout)\\.tsx?$|\\.server\\.tsx?$";
/** Tests reach across layers to set up and check what they test. */
const TEST = "\\.test\\.tsx?$";

export default {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "An import circle: modules that cannot be read, tested or loaded one without the other. " +
        "Move the piece they share to where it belongs.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "ui-takes-only-types-from-server",
      comment:
        "Browser code takes only types from app/server (import type): server code would ship to the browser, " +
        "or fail to build.",
      severity: "error",
      from: { path: UI, pathNot: [TEST, ROUTE_MODULE] },
      to: { path: "^app/server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "db-imports-no-domain",
      comment:
        "app/server/db is below every domain: it imports only itself, the platform (config, logger) and packages.",
      severity: "error",
      from: { path: "^app/server/db/", pathNot: TEST },
      to: { path: "^app/", pathNot: ["^app/server/db/", PLATFORM] },
    },
    {
      name: "migrations-stay-frozen",
      comment:
        "A migration imports only Kysely and the dialect check, so it never changes with today's code: " +
        "a data fix is written in the migration against the tables as they were then.",
      severity: "error",
      from: { path: "^app/server/db/migrations/" },
      to: { pathNot: ["^node_modules/kysely/", "^app/server/db/dialect\\.server\\.ts$"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|\\.react-router)/" },
    // Type-only imports are in the graph, marked so the UI rule can allow them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
    },
    cache: { folder: "node_modules/.cache/dependency-cruiser", strategy: "content" },
  },
};
