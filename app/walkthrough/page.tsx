// /walkthrough – the README's curl walkthrough, read from README.md itself.
import type { Metadata } from 'next';
import Link from 'next/link';
import { Fragment } from 'react';
import { Logo } from '@/components/console/logo';
import { readmeSection } from '@/lib/docs/readme-section';

export const metadata: Metadata = { title: 'Walkthrough' };
export const dynamic = 'force-static';

/** `code` spans of a README paragraph. */
function Inline({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith('`') && part.endsWith('`') ? (
          <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
            {part.slice(1, -1)}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function WalkthroughPage() {
  const blocks = readmeSection('Walkthrough (curl)');
  return (
    <div className="mx-auto max-w-3xl px-6 py-10">
      <Link href="/" className="mb-10 flex w-fit items-center gap-2.5 font-semibold">
        <Logo />
        Questline
      </Link>
      <main className="space-y-5">
        <h1 className="text-3xl font-semibold tracking-tight">Walkthrough</h1>
        <p className="text-muted-foreground">
          From the README: run <code className="font-mono text-foreground">npm start</code>, then try the API with curl.
        </p>
        {blocks.map((block, i) =>
          block.kind === 'code' ? (
            <pre key={i} tabIndex={0} className="overflow-x-auto rounded-lg border bg-muted/50 p-4 font-mono text-[13px] leading-relaxed">
              {block.text}
            </pre>
          ) : block.kind === 'heading' ? (
            <h2 key={i} className="pt-2 text-lg font-semibold">
              {block.text}
            </h2>
          ) : (
            <p key={i} className="leading-relaxed">
              <Inline text={block.text} />
            </p>
          ),
        )}
      </main>
    </div>
  );
}
