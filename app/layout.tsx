import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { THEME_SCRIPT } from '@/components/console/theme-script';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Questline', template: '%s · Questline' },
  description: 'Mission, campaign and reward progress service for games',
  icons: { icon: '/favicon.svg' },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Light or dark before the first paint (stored choice, else the system's). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
