/** Centered card layout for the sign-in and setup screens. */
export function AdminCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-neutral-100 px-4 py-12">
      <div className="w-full max-w-sm rounded-lg bg-white p-6 shadow">
        <h1 className="text-2xl font-bold">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

export function FormAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

/** The card's one button: it sends the form, and says what is under way (`busyLabel`) until the answer. */
export function CardSubmit({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:opacity-60"
    >
      {busy ? busyLabel : children}
    </button>
  );
}
