// One section of a document of docs/ as blocks (paragraphs and code), so the
// site can show the quickstart's walkthrough without a second copy of it:
// docs/quickstart.md stays the source (and docs/quickstart.test.ts runs it).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type Block = { kind: 'code'; text: string } | { kind: 'text'; text: string } | { kind: 'heading'; text: string };

export function docSection(heading: string, file = path.join(/* turbopackIgnore: true */ process.cwd(), 'docs', 'quickstart.md')): Block[] {
  const lines = readFileSync(/* turbopackIgnore: true */ file, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push({ kind: 'text', text: para.join(' ') });
    para = [];
  };
  for (let i = 0; i < body.length; i++) {
    const line = body[i];
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i++; i < body.length && !body[i].startsWith('```'); i++) code.push(body[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
    } else if (/^#{3,} /.test(line)) {
      flush();
      blocks.push({ kind: 'heading', text: line.replace(/^#+ /, '') });
    } else if (line.trim() === '') flush();
    else para.push(line.trim());
  }
  flush();
  return blocks;
}
