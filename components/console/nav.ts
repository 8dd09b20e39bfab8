// The console's navigation, in one list: the sidebar shows the entries whose
// capability the signed-in role has. A new screen adds its entry here (in the
// commented slot, when its page exists) and nothing else.
import { AppWindowIcon, CalendarRangeIcon, CoinsIcon, FilePenLineIcon, HistoryIcon, LayoutDashboardIcon, PaletteIcon, ScrollTextIcon, SearchCheckIcon, TargetIcon, UsersIcon, type LucideIcon } from 'lucide-react';
import type { Capability } from '@/lib/auth/roles';

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  capability: Capability;
  /** Per-app screens keep the selected app (?app=) in their links. */
  perApp: boolean;
  section: 'app' | 'settings';
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/admin', label: 'Dashboard', icon: LayoutDashboardIcon, capability: 'analytics.read', perApp: true, section: 'app' },
  { href: '/admin/missions', label: 'Missions', icon: TargetIcon, capability: 'catalog.read', perApp: true, section: 'app' },
  { href: '/admin/campaigns', label: 'Campaigns', icon: CalendarRangeIcon, capability: 'catalog.read', perApp: true, section: 'app' },
  { href: '/admin/themes', label: 'Themes', icon: PaletteIcon, capability: 'catalog.read', perApp: true, section: 'app' },
  { href: '/admin/economy', label: 'Economy', icon: CoinsIcon, capability: 'catalog.read', perApp: true, section: 'app' },
  { href: '/admin/draft', label: 'Draft', icon: FilePenLineIcon, capability: 'catalog.read', perApp: true, section: 'app' },
  { href: '/admin/releases', label: 'Releases', icon: HistoryIcon, capability: 'catalog.read', perApp: true, section: 'app' },
  { href: '/admin/inspector', label: 'Inspector', icon: SearchCheckIcon, capability: 'players.read', perApp: true, section: 'app' },
  { href: '/admin/audit', label: 'Audit log', icon: ScrollTextIcon, capability: 'audit.read', perApp: false, section: 'app' },
  { href: '/admin/apps', label: 'Apps', icon: AppWindowIcon, capability: 'apps.manage', perApp: false, section: 'settings' },
  { href: '/admin/staff', label: 'Staff', icon: UsersIcon, capability: 'staff.manage', perApp: false, section: 'settings' },
];

/** The entry a path belongs to (the longest matching href), for aria-current. */
export function activeNavItem(pathname: string): NavItem | undefined {
  return [...NAV_ITEMS]
    .sort((a, b) => b.href.length - a.href.length)
    .find((item) => pathname === item.href || pathname.startsWith(`${item.href}/`));
}
