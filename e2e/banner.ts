// A banner image that needs no network (campaign forms, screenshots): a small SVG as a data URL.
export const BANNER_URL = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="160"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0e7490"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="640" height="160" fill="url(#g)"/><circle cx="560" cy="40" r="60" fill="#ffffff" fill-opacity="0.25"/></svg>',
)}`;
