import { expect, test } from './fixtures.ts';
import { openFromMenu } from './list-page.ts';

// 监控查询 (/druid/login) at 1366×768: the super administrator sees this server's figures and its background jobs'
// last runs, refreshed by themselves.

test.describe('监控查询', () => {
  test('shows the server, the database, the business, the jobs\' last runs and the requests per route, and refreshes', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto('/task/index');
    await openFromMenu(page, '系统监控', '监控查询');
    await expect(page).toHaveURL(/\/druid\/login$/);
    await expect(page.getByText('该页面将在后续版本中上线')).toHaveCount(0);

    const server = page.locator('.system-monitor-server');
    await expect(server).toContainText(/v\d+\.\d+\.\d+/); // the Node version
    await expect(server).toContainText('MB'); // memory
    await expect(page.locator('.system-monitor-database')).toContainText('SQLite');
    await expect(page.locator('.system-monitor-business')).toContainText('在线终端');
    // the background jobs' last runs: the order sweep (every second here) and the log retention (at start)
    const jobs = page.locator('.system-monitor-jobs');
    const sweep = jobs.locator('tbody tr', { hasText: '订单清理' });
    await expect(sweep).toContainText('成功');
    await expect(sweep).toContainText(/超时订单 \d+（已支付 \d+/);
    await expect(jobs.locator('tbody tr', { hasText: '日志清理' })).toContainText(/删除操作日志 \d+ 条、登录日志 \d+ 条/);
    await expect(page.locator('.system-monitor-processes')).toHaveCount(0); // one process: no per-process table
    // the screen's own calls are requests too, on whichever page of the table (busiest first) they rank: after a
    // whole suite's traffic, ten other routes may be busier
    const requests = page.locator('.system-monitor-requests');
    await expect(requests.locator('tbody tr').first()).toBeVisible();
    // each look starts again from page 1: the table refreshes itself and re-sorts while it is paged, so a route
    // passed over on one look (moved to a page already seen) is found on the next
    const snapshotListed = async () => {
      const first = requests.locator('li.ant-pagination-item-1');
      if ((await first.count()) > 0) await first.click();
      for (let pageNo = 0; pageNo < 20; pageNo++) {
        if ((await requests.locator('tbody').textContent())?.includes('GET /api/SystemMonitor/snapshot')) return true;
        const next = requests.locator('li.ant-pagination-next');
        if ((await next.count()) === 0 || (await next.getAttribute('aria-disabled')) === 'true') return false;
        await next.click();
      }
      return false;
    };
    await expect.poll(snapshotListed).toBe(true);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1366);

    // refreshed every few seconds: the time it was taken changes by itself
    const updated = page.locator('.system-monitor-updated');
    await expect(updated).toContainText('更新于');
    const first = await updated.textContent();
    await expect.poll(() => updated.textContent(), { timeout: 15_000 }).not.toBe(first);
  });
});
