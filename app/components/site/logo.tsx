export function Logo({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <rect width="32" height="32" rx="6" fill="#1b4d2d" stroke="#9fd3a9" strokeWidth="1" />
      <path d="M8 22c4-10 12-12 16-12-2 6-6 12-16 12z" fill="#9fd3a9" />
    </svg>
  );
}
