// Import boundaries that `npm run lint` checks (ADR 050), with
// dependency-cruiser: one pass over the import graph of app/ and server/,
// type-only imports told apart from the rest.
//
// app/server is a folder per domain (ADR 052): each has an index.server.ts,
// its interface, and a README saying what it owns and who may call it. db/ and
// platform/ are layers below every domain, not domains: anyone may import
// their modules one by one.

/**
 * Code that runs in the browser, or may: it takes only types from server code.
 * Besides the shared folders, the admin's route-only modules that sit beside
 * their route (app/routes/admin/posts/editor/..., ADR 051); the route modules
 * themselves (route.tsx, layout.tsx) and *.server.ts files are not, their
 * loaders and actions run on the server.
 */
const UI = ["^app/(components|islands|lib|content)/", "^app/routes/admin/"];
/** What db/ may use besides itself: the process's configuration and logger, which no domain owns. */
const PLATFORM = "^app/server/platform/(config|logger)\\.server\\.ts$";
/** The layers under the domains, imported module by module. */
const LAYERS = "^app/server/(db|platform)/";
/** A domain's interface. */
const INDEX = "^app/server/[^/]+/index\\.server\\.ts$";
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
      name: "routes-use-domain-indexes",
      comment:
        "A route, the Express app (server/) or browser code calls a domain through its index, never its inner modules " +
        "(ADR 052). The markdown renderer's and the card drawer's processes load only what they run (ADR 039, 073).",
      severity: "error",
      from: {
        path: "^(app/routes/|app/components/|app/[^/]+\\.tsx?$|server/)",
        pathNot: [TEST, "^server/(markdown|share-card)-worker\\.ts$"],
      },
      to: { path: "^app/server/[^/]+/", pathNot: [INDEX, LAYERS] },
    },
    {
      name: "domains-use-each-others-indexes",
      comment:
        "A domain imports another domain only through its index (ADR 052); inside its own folder, anything goes.",
      severity: "error",
      from: { path: "^app/server/([^/]+)/", pathNot: TEST },
      to: { path: "^app/server/[^/]+/", pathNot: ["^app/server/$1/", INDEX, LAYERS] },
    },
    {
      name: "platform-imports-no-domain",
      comment: "app/server/platform is below every domain: it imports only itself, db/ and packages (ADR 052).",
      severity: "error",
      from: { path: "^app/server/platform/", pathNot: TEST },
      to: { path: "^app/server/", pathNot: LAYERS },
    },
    {
      name: "no-loose-server-modules",
      comment: "Every module of app/server lives in a domain's folder or a layer's (ADR 052).",
      severity: "error",
      from: {},
      to: { path: "^app/server/[^/]+\\.tsx?$" },
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
