// The layer rules of docs/architecture.md ("Layers the linter enforces") as one
// ESLint rule, `questline/layers`. Every import is resolved to the repository
// path it names before the rules are checked, whatever its spelling: the `@/`
// alias, a relative path (`../../db/schema`), an `export … from`, a dynamic
// `import()` or a `require()` with a literal. Bare package names (`next/…`,
// `node:fs`, `pg`) have one spelling and are matched as they are written.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `lib/…` folders that are neither the domain nor one of the layers named below. */
const NOT_DOMAIN = new Set(['http', 'testing', 'console', 'sdk', 'contract', 'kv', 'bus', 'ratelimit', 'updates']);
const INFRASTRUCTURE = ['db', 'lib/kv', 'lib/bus', 'lib/ratelimit'];
/** The composition root and start-up: they make the process's objects from every layer. */
const COMPOSITION = ['lib/boot', 'lib/boot-next', 'lib/service-deps', 'lib/process-db'];
/** The one file of the domain that may take the global database getter. */
const GLOBAL_DB_DOOR = 'lib/process-db.ts';
/** Modules that only run on the server: client code (components/, 'use client' files) imports none of them. */
const SERVER_ONLY = [
  'db',
  'lib/services',
  'lib/http',
  'lib/kv',
  'lib/bus',
  'lib/ratelimit',
  'lib/updates',
  'lib/outbound',
  'lib/stream',
  'lib/retention',
  'lib/idempotency',
  'lib/auth/staff-auth',
  'lib/auth/staff-session',
  'lib/config',
  'lib/log',
  'lib/metrics',
  'lib/data-dir-lock',
  'lib/forked-worker',
  ...COMPOSITION,
];
const SERVER_PACKAGES = /^(node:|pg$|pg\/|ioredis$|drizzle-orm|@electric-sql\/pglite|@neondatabase\/|pino$|prom-client$|server-only$)/;

const posix = (p) => p.split(path.sep).join('/');
const under = (target, folder) => target === folder || target.startsWith(`${folder}/`);
const underAny = (target, folders) => folders.some((folder) => under(target, folder));

/** The repository path an import names (no extension, no `/index`), or null for a package. */
function resolveImport(spec, filename) {
  let target;
  if (spec.startsWith('@/')) target = spec.slice(2);
  else if (spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../')) {
    target = posix(path.relative(root, path.resolve(path.dirname(filename), spec)));
  } else return null;
  return path.posix.normalize(target).replace(/\.(tsx?|mjs|cjs|js)$/, '').replace(/\/index$/, '');
}

/** The layer a file belongs to, by its path in the repository. */
function layerOf(file, isClient) {
  if (/\.(test|contract)\.tsx?$/.test(file) || under(file, 'e2e') || under(file, 'lib/testing')) return 'tests';
  if (under(file, 'components') || ((under(file, 'app') || under(file, 'lib/console')) && isClient)) return 'client';
  if (under(file, 'app')) return 'app';
  if (under(file, 'lib/sdk')) return 'sdk';
  if (under(file, 'lib/http')) return 'http';
  if (under(file, 'lib/console')) return 'console';
  if (under(file, 'lib/services')) return 'services';
  if (underAny(file, INFRASTRUCTURE)) return 'infrastructure';
  if (under(file, 'lib/updates')) return 'updates';
  if (under(file, 'lib')) return 'domain';
  return 'other';
}

function isDomainFolderName(target) {
  // `lib/<folder>` itself (an index) or anything under it; a loose file `lib/x.ts` is no folder.
  const parts = target.split('/');
  if (parts[0] !== 'lib' || parts.length < 2) return false;
  return parts.length > 2 && !NOT_DOMAIN.has(parts[1]);
}

const MESSAGES = {
  noHttp: 'Domain code never imports lib/http: HTTP parses, calls the domain and answers.',
  noNext: 'Only app/, components/ and lib/console may import next/*.',
  noDomain: 'Infrastructure (db, kv, bus, ratelimit) imports no domain module and not the composition root.',
  noDomainInUpdates: 'lib/updates is infrastructure: it imports no domain module (what it needs comes through lib/updates/sources.ts).',
  noDb: 'lib/http never reaches the database: it builds a ServiceContext (lib/http/service-context.ts) and calls a verb.',
  noGlobalDb: 'A service takes its database from ctx (lib/services/context.ts), never from the global getter.',
  noGlobalDbInDomain:
    'Only lib/process-db.ts reaches the global database getter: take the database from ctx, a parameter or processDb() (lib/process-db.ts).',
  sdkOnly: 'The SDK imports only its own modules (it ships as a browser package).',
  noDbInApp: 'app/ and components/ never reach the database: a page calls the admin API or a verb through lib/http.',
  serverOnly: 'Client code (components/, a "use client" file) imports no server-only module (database, services, HTTP handlers, infrastructure, configuration).',
};

/** The rule's refusals for one import: [messageId, …]. */
function refusals({ file, isClient, spec, target, names, typeOnly }) {
  const layer = layerOf(file, isClient);
  const out = [];
  const isNext = spec === 'next' || spec.startsWith('next/');
  const takesGetDb = target === 'db/client' && (names === null || names.includes('getDb'));
  const domainLike = ['domain', 'services', 'infrastructure', 'updates'].includes(layer);
  if (domainLike) {
    if (target && under(target, 'lib/http')) out.push('noHttp');
    if (isNext) out.push('noNext');
  }
  if (layer === 'domain' && takesGetDb && file !== GLOBAL_DB_DOOR) out.push('noGlobalDbInDomain');
  if (layer === 'services' && takesGetDb) out.push('noGlobalDb');
  if ((layer === 'infrastructure' || layer === 'updates') && takesGetDb && !under(file, 'db')) out.push('noGlobalDbInDomain');
  if (layer === 'infrastructure' && target && (isDomainFolderName(target) || under(target, 'lib/updates') || underAny(target, COMPOSITION))) {
    out.push('noDomain');
  }
  if (layer === 'updates' && target && !under(target, 'lib/updates') && (isDomainFolderName(target) || underAny(target, COMPOSITION))) {
    out.push('noDomainInUpdates');
  }
  if (layer === 'http') {
    if (target && under(target, 'db')) out.push('noDb');
    if (isNext) out.push('noNext');
  }
  if (layer === 'sdk') {
    if (target ? !under(target, 'lib/sdk') : /^(node:|zod$|zod\/|next$|next\/)/.test(spec)) out.push('sdkOnly');
  }
  if ((layer === 'app' || layer === 'client') && target && under(target, 'db')) out.push('noDbInApp');
  if (layer === 'client' && !typeOnly && !(target && under(target, 'db'))) {
    if (target ? underAny(target, SERVER_ONLY) : SERVER_PACKAGES.test(spec)) out.push('serverOnly');
  }
  return out;
}

const isClientProgram = (program) =>
  program.body.some((node) => node.type === 'ExpressionStatement' && node.directive === 'use client');

const layers = {
  meta: { type: 'problem', messages: MESSAGES, schema: [] },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const file = posix(path.relative(root, filename));
    if (file.startsWith('..')) return {};
    let isClient = false;
    const check = (node, source, names, typeOnly) => {
      if (!source || typeof source.value !== 'string') return;
      const spec = source.value;
      const target = resolveImport(spec, filename);
      for (const messageId of refusals({ file, isClient, spec, target, names, typeOnly })) context.report({ node, messageId });
    };
    const namesOf = (specifiers) => {
      if (specifiers.some((s) => s.type === 'ImportNamespaceSpecifier' || s.type === 'ImportDefaultSpecifier')) return null;
      return specifiers.map((s) => (s.imported ?? s.local).name ?? s.imported?.value);
    };
    return {
      Program(node) {
        isClient = isClientProgram(node);
      },
      ImportDeclaration(node) {
        const typeOnly = node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
        check(node, node.source, namesOf(node.specifiers), typeOnly);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source, node.specifiers.map((s) => s.local.name ?? s.local.value), node.exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, node.source, null, node.exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source, null, false);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
          check(node, node.arguments[0], null, false);
        }
      },
    };
  },
};

export const questline = { rules: { layers } };
