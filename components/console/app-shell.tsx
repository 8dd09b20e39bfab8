'use client';

// The console's frame: a sidebar with the app switcher, the navigation
// landmark (built from NAV_ITEMS, filtered by role) and the signed-in member;
// a top bar; the page. Below the md breakpoint the sidebar opens as a sheet.
import * as React from 'react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { BookOpenIcon, MenuIcon } from 'lucide-react';
import { Dialog as SheetPrimitive } from 'radix-ui';
import { Button, focusRing } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { AppSwitcher } from './app-switcher';
import { Logo } from './logo';
import { activeNavItem, NAV_ITEMS, type NavItem } from './nav';
import { useStaff } from './staff-context';
import { ThemeToggle } from './theme-toggle';
import { useSelectedApp } from './use-selected-app';
import { UserMenu } from './user-menu';

const SECTIONS: { id: NavItem['section']; label: string }[] = [
  { id: 'app', label: 'Live ops' },
  { id: 'settings', label: 'Settings' },
];

function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const { can } = useStaff();
  const { withApp } = useSelectedApp();
  const active = activeNavItem(pathname);
  const items = NAV_ITEMS.filter((item) => can(item.capability));
  return (
    <nav aria-label="Console" className="flex flex-col gap-5">
      {SECTIONS.map((section) => {
        const entries = items.filter((i) => i.section === section.id);
        if (entries.length === 0) return null;
        return (
          <div key={section.id} className="flex flex-col gap-0.5">
            <p className="px-2 pb-1 text-[11px] font-semibold uppercase tracking-wider text-muted-foreground">{section.label}</p>
            <ul className="flex flex-col gap-0.5">
              {entries.map((item) => {
                const current = active?.href === item.href;
                return (
                  <li key={item.href}>
                    <Link
                      href={item.perApp ? withApp(item.href) : item.href}
                      aria-current={current ? 'page' : undefined}
                      onClick={onNavigate}
                      className={cn(
                        'flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm font-medium text-sidebar-foreground transition-colors hover:bg-sidebar-accent hover:text-foreground',
                        current && 'bg-sidebar-accent text-foreground',
                        focusRing,
                      )}
                    >
                      <item.icon className={cn('size-4 shrink-0', current ? 'text-primary' : 'text-muted-foreground')} aria-hidden />
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}

function Brand() {
  return (
    <Link href="/admin" className={cn('flex items-center gap-2.5 rounded-md', focusRing)}>
      <Logo />
      <span className="leading-tight">
        <span className="block text-sm font-semibold">Questline</span>
        <span className="block text-xs text-muted-foreground">Console</span>
      </span>
    </Link>
  );
}

/** The API reference and the theme, beside the brand. */
function Utilities() {
  return (
    <div className="flex items-center">
      <Tooltip content="API reference">
        <Button variant="ghost" size="icon-sm" asChild>
          <a href="/docs" aria-label="API reference">
            <BookOpenIcon aria-hidden />
          </a>
        </Button>
      </Tooltip>
      <ThemeToggle />
    </div>
  );
}

function SidebarBody({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <div className="flex h-full flex-col gap-6 p-4">
      <div className="flex items-center justify-between gap-2">
        <Brand />
        <Utilities />
      </div>
      <div className="space-y-1.5">
        <p className="px-1 text-[11px] font-semibold uppercase tracking-wider text-muted-foreground">App</p>
        <AppSwitcher />
      </div>
      <Navigation onNavigate={onNavigate} />
      <div className="mt-auto border-t border-sidebar-border pt-3">
        <UserMenu />
      </div>
    </div>
  );
}

function MobileSidebar() {
  const [open, setOpen] = React.useState(false);
  return (
    <SheetPrimitive.Root open={open} onOpenChange={setOpen}>
      <SheetPrimitive.Trigger asChild>
        <Button variant="ghost" size="icon-sm" className="md:hidden" aria-label="Open navigation">
          <MenuIcon aria-hidden />
        </Button>
      </SheetPrimitive.Trigger>
      <SheetPrimitive.Portal>
        <SheetPrimitive.Overlay className="fixed inset-0 z-50 bg-black/45 data-[state=open]:animate-in data-[state=open]:fade-in-0" />
        <SheetPrimitive.Content className="fixed inset-y-0 left-0 z-50 w-72 border-r bg-sidebar shadow-xl data-[state=open]:animate-in data-[state=open]:slide-in-from-left">
          <SheetPrimitive.Title className="sr-only">Navigation</SheetPrimitive.Title>
          <SheetPrimitive.Description className="sr-only">Console screens and your account</SheetPrimitive.Description>
          <SidebarBody onNavigate={() => setOpen(false)} />
        </SheetPrimitive.Content>
      </SheetPrimitive.Portal>
    </SheetPrimitive.Root>
  );
}

export function AppShell({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm text-primary-foreground focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 border-r border-sidebar-border bg-sidebar md:block">
        <SidebarBody />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/85 px-4 backdrop-blur md:hidden">
          <MobileSidebar />
          <Brand />
        </header>
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 outline-none md:px-8 lg:py-10">
          {children}
        </main>
      </div>
    </div>
  );
}
