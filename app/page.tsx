// / – what Questline is, and the way in: the console, the API reference, the walkthrough.
import Link from 'next/link';
import { ArrowRightIcon, BookOpenIcon, LayoutDashboardIcon, TerminalIcon, type LucideIcon } from 'lucide-react';
import { Logo } from '@/components/console/logo';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/cn';

const WALKTHROUGH = '/walkthrough';

function Feature({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1.5">
      <h3 className="text-sm font-semibold">{title}</h3>
      <p className="text-sm leading-relaxed text-muted-foreground">{children}</p>
    </div>
  );
}

function Entry({ href, icon: Icon, title, description }: { href: string; icon: LucideIcon; title: string; description: string }) {
  return (
    <a href={href} className="group flex items-start gap-4 rounded-xl border bg-card p-5 shadow-xs transition-colors hover:border-primary/50 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/45">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden />
      </span>
      <span className="min-w-0 space-y-1">
        <span className="flex items-center gap-1.5 font-medium">
          {title}
          <ArrowRightIcon className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5" aria-hidden />
        </span>
        <span className="block text-sm text-muted-foreground">{description}</span>
      </span>
    </a>
  );
}

export default function Home() {
  return (
    <div className="min-h-dvh">
      <header className="mx-auto flex max-w-5xl items-center justify-between px-6 py-6">
        <span className="flex items-center gap-2.5 font-semibold">
          <Logo />
          Questline
        </span>
        <nav aria-label="Site" className="flex items-center gap-1 text-sm">
          <a href="/docs" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            API reference
          </a>
          <Link href="/admin" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            Sign in
          </Link>
        </nav>
      </header>
      <main className="mx-auto max-w-5xl px-6 pb-20">
        <section className="py-14 sm:py-20">
          <p className="mb-4 text-sm font-medium text-primary">Missions, campaigns and rewards for games</p>
          <h1 className="max-w-3xl text-4xl font-semibold tracking-tight sm:text-5xl">Give players goals. Count their progress. Pay out exactly once.</h1>
          <p className="mt-5 max-w-2xl text-lg leading-relaxed text-muted-foreground">
            Your game sends events; Questline evaluates them against mission criteria, keeps each player’s progress, grants rewards from an append-only
            ledger, groups missions into time-boxed campaigns, and pushes every change to the player’s live stream.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link href="/admin" className={cn(buttonVariants({ size: 'lg' }))}>
              Open the console
            </Link>
            <a href="/docs" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
              Read the API reference
            </a>
          </div>
        </section>
        <section aria-labelledby="start" className="space-y-4">
          <h2 id="start" className="text-sm font-semibold uppercase tracking-wider text-muted-foreground">
            Start here
          </h2>
          <div className="grid gap-4 md:grid-cols-3">
            <Entry href="/admin" icon={LayoutDashboardIcon} title="Console" description="Missions, campaigns and themes, the player inspector, the dashboard, apps and their secrets, staff and the audit log." />
            <Entry href="/docs" icon={BookOpenIcon} title="API reference" description="Every /v1 endpoint and the admin API, from their OpenAPI documents." />
            <Entry href={WALKTHROUGH} icon={TerminalIcon} title="Walkthrough" description="The quickstart’s curl commands: a token, an event, missions, a claim, a balance, live updates." />
          </div>
        </section>
        <section aria-labelledby="how" className="mt-16 grid gap-8 border-t pt-10 sm:grid-cols-2 lg:grid-cols-4">
          <h2 id="how" className="sr-only">
            What it does
          </h2>
          <Feature title="Events in">One POST per event, idempotent, rate-limited per token, or signed webhooks from your backend.</Feature>
          <Feature title="Progress out">Daily, weekly, monthly or lifetime windows, payload filters and prerequisites, evaluated in one place.</Feature>
          <Feature title="Rewards once">A claim is a single transaction with a ledger row: never paid twice, never lost.</Feature>
          <Feature title="Live">Server-Sent Events with resume, so a game UI updates the moment a mission completes.</Feature>
        </section>
      </main>
    </div>
  );
}
