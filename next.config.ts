import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native, WebAssembly or TCP packages load from node_modules at run time instead of being bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'ioredis', '@neondatabase/serverless', 'ws'],
  poweredByHeader: false,
  typescript: { tsconfigPath: './tsconfig.json' },
};

export default nextConfig;
