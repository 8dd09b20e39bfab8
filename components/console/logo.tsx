import { cn } from '@/lib/cn';

/** Questline's mark: a path with checkpoints. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-7', className)} aria-hidden>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M8 22c4 0 4-6 8-6s4-6 8-6" fill="none" strokeWidth="2.5" strokeLinecap="round" className="stroke-primary-foreground" />
      <circle cx="8" cy="22" r="2.5" className="fill-primary-foreground" />
      <circle cx="24" cy="10" r="2.5" className="fill-primary-foreground" />
    </svg>
  );
}
