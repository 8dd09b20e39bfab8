// The TypeScript SDK's own semantic version (@questline/sdk), apart from the
// server's (package.json): `npm run sdk:pack` stamps it on the package.
// docs/operations/versioning.md says when each part moves; CHANGELOG.md lists
// the changes under it.
export const SDK_VERSION = '0.1.0';
