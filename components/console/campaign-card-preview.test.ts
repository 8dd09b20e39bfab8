// The preview draws a campaign's own theme from stored values, which may
// predate the colour check: only CSS colours reach its styles, so a stored
// `red),url(…)` cannot make the editor's browser fetch a URL.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CampaignCardPreview } from './campaign-card-preview';

const render = (theme: Record<string, string>) => renderToStaticMarkup(createElement(CampaignCardPreview, { title: 'Spring', theme }));

describe('CampaignCardPreview', () => {
  it('puts no URL of a stored free-text colour into its styles (fallback colours instead)', () => {
    const html = render({
      primaryColor: 'red),url(http://127.0.0.1:9/hit)/*',
      accentColor: 'url(http://127.0.0.1:9/a)',
      backgroundColor: 'red;background-image:url(http://127.0.0.1:9/b)',
      textColor: 'x),url(http://127.0.0.1:9/c',
    });
    expect(html).not.toContain('url(');
    expect(html).not.toContain('127.0.0.1');
    expect(html).toContain('#7c3aed');
  });

  it('draws a CSS colour as given', () => {
    const html = render({ primaryColor: 'rgb(1 2 3)', backgroundColor: '#0f172a' });
    expect(html).toContain('rgb(1 2 3)');
    expect(html).toContain('background-color:#0f172a');
  });
});
