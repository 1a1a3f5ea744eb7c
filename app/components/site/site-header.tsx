import { Link, NavLink } from "react-router";

const links = [
  { to: "/", label: "Home" },
  { to: "/blog", label: "Blog" },
  { to: "/about", label: "About" },
];

/** Plain site header for inner pages. */
export function SiteHeader({ companyName }: { companyName: string }) {
  return (
    <header className="border-b border-neutral-200 bg-brand-800 text-white">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2 focus:text-black">
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="text-lg font-semibold tracking-tight">
          {companyName}
        </Link>
        <nav aria-label="Main">
          <ul className="flex gap-4 text-sm font-medium sm:gap-6">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.to === "/"}
                  className={({ isActive }) => (isActive ? "underline underline-offset-4" : "hover:underline")}
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
