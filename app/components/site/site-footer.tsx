import { Link } from "react-router";

export function SiteFooter({ companyName }: { companyName: string }) {
  return (
    <footer className="mt-16 border-t border-neutral-200 bg-neutral-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-neutral-700 sm:flex-row sm:justify-between">
        <p>© 2025 {companyName}. All rights reserved.</p>
        <p className="flex gap-4">
          <Link to="/about" className="hover:underline">About</Link>
          <Link to="/blog" className="hover:underline">Blog</Link>
        </p>
      </div>
    </footer>
  );
}
