// The id the console suggests from a title or a name, for missions, campaigns
// and theme presets alike: "Summer Sale!" → "summer-sale" (at most 64 characters).
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}
