import type { ReactNode } from 'react';

export const metadata = { title: 'Questline', description: 'Mission, campaign and reward progress service' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0 }}>{children}</body>
    </html>
  );
}
