// The route table and the Next.js route files agree: every table entry has its
// route file at the matching path (`:id` → `[id]`) serving that very entry, and
// every route file is a table entry or a catch-all (/v1, /api/admin).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminRoutes, allRoutes, matchRoute, opsRoutes, v1Routes } from './routes';

const APP_DIR = path.resolve(__dirname, '../../app');
const CATCH_ALL = 'v1/[...path]/route.ts';
const ADMIN_CATCH_ALL = 'api/admin/[...path]/route.ts';
/** Route files outside the table: Better Auth's routes (also served by the Node servers, lib/http/node-server.ts) and the Scalar page. */
const NEXT_ONLY = { 'api/auth/[...all]/route.ts': 'handleStaffAuth', 'docs/route.ts': 'ApiReference' };

function routeFiles(dir = APP_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === 'route.ts' ? [path.relative(APP_DIR, full).split(path.sep).join('/')] : [];
  });
}

const fileFor = (routePath: string) => `${routePath.slice(1).replace(/:([A-Za-z]+)/g, '[$1]')}/route.ts`;

describe('route table ↔ app/ route files', () => {
  it.each(allRoutes.map((r) => [r.path]))('%s has a route file that serves that table entry', (routePath) => {
    const file = fileFor(routePath);
    expect(routeFiles()).toContain(file);
    const source = readFileSync(path.join(APP_DIR, file), 'utf8');
    expect(source).toContain(`routeEndpoint('${routePath}')`);
    expect(source).toMatch(/export const \{ GET, POST, PUT, PATCH, DELETE, OPTIONS \} = routeEndpoint/);
    expect(source).toContain("export const dynamic = 'force-dynamic'");
  });

  it('every app/**/route.ts is a table entry, a catch-all, or a Next.js-only route', () => {
    const expected = new Set([...allRoutes.map((r) => fileFor(r.path)), CATCH_ALL, ADMIN_CATCH_ALL, ...Object.keys(NEXT_ONLY)]);
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(expected.has(file), file).toBe(true);
  });

  it('the Next.js-only route files mount what they are meant to', () => {
    for (const [file, mounted] of Object.entries(NEXT_ONLY)) expect(readFileSync(path.join(APP_DIR, file), 'utf8'), file).toContain(mounted);
  });

  it('the /v1 catch-all answers not_found for every method', () => {
    const source = readFileSync(path.join(APP_DIR, CATCH_ALL), 'utf8');
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(source).toContain(`notFound as ${method}`);
  });

  it('the /api/admin catch-all answers not_found (JSON, no CORS) for every method', () => {
    const source = readFileSync(path.join(APP_DIR, ADMIN_CATCH_ALL), 'utf8');
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(source).toContain(`adminNotFound as ${method}`);
  });

  it('table paths are unique, /v1 entries under /v1/, admin entries under /api/admin/, and the three ops endpoints', () => {
    expect(new Set(allRoutes.map((r) => r.path)).size).toBe(allRoutes.length);
    for (const r of v1Routes) expect(r.path.startsWith('/v1/')).toBe(true);
    for (const r of adminRoutes) expect(r.path.startsWith('/api/admin/')).toBe(true);
    expect(opsRoutes.map((r) => r.path).sort()).toEqual(['/api/health', '/api/metrics', '/api/ready']);
    expect(allRoutes).toHaveLength(v1Routes.length + adminRoutes.length + opsRoutes.length);
  });

  it('matchRoute finds each entry with its params, and nothing for an unknown path', () => {
    expect(matchRoute(v1Routes, '/v1/missions/abc%20d/claim')).toMatchObject({ entry: { path: '/v1/missions/:id/claim' }, params: { id: 'abc d' } });
    expect(matchRoute(v1Routes, '/v1/missions/')).toMatchObject({ entry: { path: '/v1/missions' } });
    expect(matchRoute(adminRoutes, '/api/admin/apps/g1/catalog')?.params).toEqual({ appId: 'g1' });
    expect(matchRoute(v1Routes, '/v1/missions/a/b')).toBeNull();
    expect(matchRoute(v1Routes, '/v1/missions//claim')).toBeNull();
  });
});
