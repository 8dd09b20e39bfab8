// The mission editor names a refused target by the label its field shows:
// "Total must be at least 1" for a sum, "Different values must be at least 1"
// for a distinct count, "Count must be at least 1" for a plain count (the
// message once said Count whatever the measure).
import { createApp, expect, test, uniqueSuffix } from './fixtures';

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'the same Next.js page under both servers: checked under npm start'));

test('a target of 0 is refused in the words of the field the editor sees (Total, Different values, Count)', async ({ pageAs, request }) => {
  const appId = `target-${uniqueSuffix()}`;
  await createApp(request, appId, `Target ${appId}`, { currencies: [{ id: 'gems', name: 'Gems' }] });
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.goto(`/admin/missions/new?app=${appId}`);
  await expect(page.getByRole('heading', { name: 'New mission', level: 1 })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Collect gold');
  await page.getByLabel('Event name', { exact: true }).fill('gold_earned');

  await page.getByRole('combobox', { name: 'Measure' }).click();
  await page.getByRole('option', { name: 'Sum of a payload field' }).click();
  await page.getByLabel('Payload field').fill('amount');
  const total = page.getByLabel('Total', { exact: true });
  await total.fill('0');
  await total.blur();
  await expect(page.getByText('Total must be at least 1', { exact: true })).toBeVisible();
  await expect(page.getByText('Count must be at least 1')).toHaveCount(0);
  await expect(total).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('combobox', { name: 'Measure' }).click();
  await page.getByRole('option', { name: 'Distinct values of a field' }).click();
  const distinct = page.getByLabel('Different values', { exact: true });
  await distinct.fill('0');
  await distinct.blur();
  await expect(page.getByText('Different values must be at least 1', { exact: true })).toBeVisible();

  await page.getByRole('combobox', { name: 'Measure' }).click();
  await page.getByRole('option', { name: 'Count events' }).click();
  const count = page.getByLabel('Count', { exact: true });
  await count.fill('0');
  await count.blur();
  await expect(page.getByText('Count must be at least 1', { exact: true })).toBeVisible();
  await expect(page.getByText('Total must be at least 1')).toHaveCount(0);
});
