// /admin – the Dashboard of the selected app: charts of events, completions,
// claims and currency granted (GET /api/admin/apps/:appId/analytics), and the catalog at a glance.
import type { Metadata } from 'next';
import { Dashboard } from './dashboard';

export const metadata: Metadata = { title: 'Dashboard' };

export default function DashboardPage() {
  return <Dashboard />;
}
