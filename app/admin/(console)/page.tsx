// /admin – the overview of the selected app (the Dashboard's charts replace it later).
import type { Metadata } from 'next';
import { Overview } from './overview';

export const metadata: Metadata = { title: 'Dashboard' };

export default function DashboardPage() {
  return <Overview />;
}
