import { expect, test } from './fixtures.ts';

// /api-docs at 1366×768: a signed-in administrator reads the generated OpenAPI document in the viewer —
// a console route with its answer inside the envelope and its refusals, the protocols, the answer schemas.

test.describe('接口文档', () => {
  test('shows a route with its answer and refusals, the protocols and the contract\'s schemas', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto('/api-docs');
    await expect(page.getByRole('heading', { name: /汇云运营台 API/ })).toBeVisible();
    // the document is one the viewer takes as it is: no warning above the routes
    await expect(page.getByRole('heading', { name: 'Warning' })).toHaveCount(0);
    const operation = (name: string) => page.getByRole('button', { name, exact: true });
    // the viewer draws the routes as they scroll in: the tag filter brings one area's
    const filter = page.getByPlaceholder(/filter by tag/i);
    await filter.fill('variable');
    await operation('POST /api/Variable/list').click();
    const responses = page.locator('.opblock', { has: operation('POST /api/Variable/list') }).locator('.responses-table').first();
    await expect(responses).toContainText('成功：一页 Variable');
    await expect(responses).toContainText('没有该操作的权限');
    await expect(responses).toContainText('503');
    await filter.fill('terminal');
    await expect(operation('POST /terminal/v1/order/create')).toBeVisible();
    await filter.fill('device');
    await expect(operation('POST /device/v1/pull')).toBeVisible();
    // the answer schemas by their contract names
    await expect(page.locator('.models')).toContainText('TerminalOrderCreated');
    await expect(page.locator('.models')).toContainText('Envelope');
  });
});
