// /walkthrough – the quickstart's curl walkthrough, read from docs/quickstart.md
// itself, with its `localhost:3000` replaced by the origin this page was
// requested on (a server on another port or host gets commands that reach it).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import path from 'node:path';
import { Fragment } from 'react';
import { Logo } from '@/components/console/logo';
import { docSection } from '@/lib/docs/readme-section';
import { requestOrigin, withOrigin } from '@/lib/docs/request-origin';

export const metadata: Metadata = { title: 'Walkthrough' };
// Per request: the commands name the origin the reader reached.
export const dynamic = 'force-dynamic';

/** `code` spans and `[text](target)` links of a docs/quickstart.md paragraph: a web link is a link, a file of the repository its path from the repository's root. */
function Inline({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`|\[[^\]]+\]\([^)\s]+\))/).map((part, i) => {
        if (part.startsWith('`') && part.endsWith('`')) {
          return (
            <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
              {part.slice(1, -1)}
            </code>
          );
        }
        const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
        if (link && /^https?:\/\//.test(link[2])) {
          return (
            <a key={i} href={link[2]} className="font-medium text-primary underline underline-offset-4">
              {link[1]}
            </a>
          );
        }
        if (link) {
          return (
            <code key={i} title="A file of the Questline repository" className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
              {path.posix.join('docs', link[2])}
            </code>
          );
        }
        return <Fragment key={i}>{part}</Fragment>;
      })}
    </>
  );
}

export default async function WalkthroughPage() {
  const origin = requestOrigin(await headers());
  const blocks = docSection('Walkthrough (curl)').map((block) => ({ ...block, text: withOrigin(block.text, origin) }));
  return (
    <div className="mx-auto max-w-3xl px-6 py-10">
      <Link href="/" className="mb-10 flex w-fit items-center gap-2.5 font-semibold">
        <Logo />
        Questline
      </Link>
      <main className="space-y-5">
        <h1 className="text-3xl font-semibold tracking-tight">Walkthrough</h1>
        <p className="text-muted-foreground">
          From the quickstart (docs/quickstart.md): run <code className="font-mono text-foreground">npm start</code>, then try the API with curl.
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
