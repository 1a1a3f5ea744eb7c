import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx", { id: "home" }),
  route("home", "routes/home.tsx", { id: "home-alias" }),
  route("blog", "routes/blog.tsx"),
  route("blog/:slug", "routes/blog.$slug.tsx"),
  route("about", "routes/about.tsx"),
  route("admin", "routes/admin.tsx"),
  route("admin/login", "routes/admin.login.tsx"),
  route("admin/setup", "routes/admin.setup.tsx"),
  route("admin/logout", "routes/admin.logout.ts"),
  route("admin/messages", "routes/admin.messages.tsx"),
  route("admin/settings", "routes/admin.settings.tsx"),
  route("admin/images", "routes/admin.images.tsx"),

  route("rss.xml", "routes/rss.xml.ts"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),

  route("healthz", "routes/healthz.ts"),
  route("images/:file", "routes/images.$file.ts"),
  route("api/posts", "routes/api/posts.ts"),
  route("api/posts/:slug", "routes/api/posts.$slug.ts"),
  route("api/auth/login", "routes/api/auth.login.ts"),
  route("api/auth/logout", "routes/api/auth.logout.ts"),
  route("api/auth/me", "routes/api/auth.me.ts"),
  route("api/auth/setup", "routes/api/auth.setup.ts"),
  route("api/admin/posts", "routes/api/admin.posts.ts"),
  route("api/admin/posts/:id", "routes/api/admin.posts.$id.ts"),
  route("api/admin/upload", "routes/api/admin.upload.ts"),
  route("api/admin/preview", "routes/api/admin.preview.ts"),
  route("api/contact", "routes/api/contact.ts"),
  route("api/admin/messages", "routes/api/admin.messages.ts"),
  route("api/admin/messages/:id", "routes/api/admin.messages.$id.ts"),
  route("api/admin/settings", "routes/api/admin.settings.ts"),
  route("api/admin/images", "routes/api/admin.images.ts"),
  route("api/admin/images/:id", "routes/api/admin.images.$id.ts"),
  route("api/admin/*", "routes/api/admin.not-found.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // SPEC §2: any other path shows the landing page.
  route("*", "routes/home.tsx", { id: "catch-all" }),
] satisfies RouteConfig;
