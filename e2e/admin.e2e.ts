import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';

// The answers a spec provokes on purpose (bad sign-in, a deactivated admin's 401) are logged by
// Chromium as failed loads; anything else on the console fails the spec.
const expectedFailures = /status of (400|401|409)/;
const unexpected = (problems: string[]) => problems.filter((p) => !expectedFailures.test(p));

let station: RunningStation;
let browser: Browser;

beforeAll(async () => {
  // Our own station: these specs create, deactivate and re-password accounts.
  station = await startStation();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
});
// What the station logged is the first thing to read when a spec here fails.
afterEach(({ task }) => {
  if (task.result?.state === 'fail') console.log(`station log:\n${station.output().slice(-8_000)}`);
});

async function signIn(page: Page, username: string, password: string) {
  await visit(page, `${station.url}/dashboard-mgmt`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const mainTabs = (page: Page) =>
  page.getByRole('tablist', { name: 'Admin sections', exact: true }).getByRole('tab');
const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });

async function pickOption(page: Page, combobox: ReturnType<Page['getByRole']>, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option }).click();
}

describe('admin panel', () => {
  it('shows every validation message of SPEC.md section 5 for the admin forms', async () => {
    const { page, context, problems } = await openPage(browser);
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();

    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const change = page.getByRole('form', { name: 'Change password' });
    await change.getByRole('button', { name: 'Change Password' }).click();
    await change.getByText('Current password is required').waitFor();
    await change.getByText('New password must be at least 8 characters').waitFor();
    await change.getByText('Please confirm your new password').waitFor();
    await change.getByLabel('New Password', { exact: true }).fill('long enough 1');
    await change.getByLabel('Confirm New Password').fill('long enough 2');
    await change.getByRole('button', { name: 'Change Password' }).click();
    await change.getByText("Passwords don't match").waitFor();

    const create = page.getByRole('form', { name: 'Create admin account' });
    await create.getByLabel('Username').fill('ab');
    await create.getByRole('button', { name: 'Create Admin' }).click();
    await create.getByText('Username must be at least 3 characters').waitFor();
    await create.getByText('Password must be at least 8 characters').waitFor();
    await create.getByText('Please confirm the password').waitFor();
    await create.getByLabel('Password', { exact: true }).fill('long enough 1');
    await create.getByLabel('Confirm Password').fill('long enough 2');
    await create.getByRole('button', { name: 'Create Admin' }).click();
    await create.getByText("Passwords don't match").waitFor();

    await page.getByRole('tab', { name: 'User Management' }).click();
    const createUser = page.getByRole('form', { name: 'Create user' });
    await createUser.getByRole('button', { name: 'Create User' }).click();
    await createUser.getByText('Username must be at least 3 characters').waitFor();
    // SPEC.md: the superuser form's confirmation message is the password-length one.
    await expect.poll(() => createUser.getByText('Password must be at least 8 characters').count()).toBe(2);

    await page.getByRole('tab', { name: 'Content' }).click();
    await page.getByRole('button', { name: 'Add Content' }).click();
    await page.getByText('Title is required').waitFor();
    await page.getByText('Description is required').waitFor();

    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('shows the server message for a wrong password', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, E2E_ADMIN.username, 'not the password');
    await page.getByText('Invalid credentials').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('adds featured content with an image, edits it in place and deletes it after the confirmation', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByRole('heading', { name: /Admin Panel$/ }).waitFor();

    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#1e3a8a' } })
      .png()
      .toBuffer();
    await page.getByLabel('Image').setInputFiles({ name: 'cross.png', mimeType: 'image/png', buffer: png });
    await toast(page, 'Image uploaded successfully!').waitFor();
    const imageUrl = await page.getByAltText('Uploaded image preview').getAttribute('src');
    expect(imageUrl).toMatch(/^\/uploads\/[\w.-]+$/);

    await page.getByLabel('Title', { exact: true }).fill('Sunday Sermon: Living Water');
    await page.getByLabel('Description').fill('John 4, the woman at the well.');
    await page.getByRole('button', { name: 'Add Content' }).click();
    await toast(page, 'Content added successfully').waitFor();
    const row = page.getByTestId('content-row').filter({ hasText: 'Sunday Sermon: Living Water' });
    await row.waitFor();
    expect(await row.locator('img').getAttribute('src')).toBe(imageUrl);
    // The stored picture is served.
    const res = await fetch(station.url + imageUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\//);

    await row.getByRole('button', { name: 'Edit Sunday Sermon: Living Water' }).click();
    const edit = page.getByRole('form', { name: 'Edit Sunday Sermon: Living Water' });
    await edit.getByLabel('Title').fill('Sunday Sermon: Living Water (John 4)');
    await pickOption(page, edit.getByRole('combobox', { name: 'Type' }), 'Devotion');
    await edit.getByLabel('Description').fill('The woman at the well, read slowly.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Content updated successfully').waitFor();
    const edited = page
      .getByTestId('content-row')
      .filter({ hasText: 'Sunday Sermon: Living Water (John 4)' });
    await edited.getByText('Devotion', { exact: true }).waitFor();
    await edited.getByText('The woman at the well, read slowly.').waitFor();

    // The listener's list shows the change.
    const publicList = (await (await fetch(`${station.url}/api/featured-content`)).json()) as {
      title: string;
      type: string;
    }[];
    expect(publicList.find((item) => item.title === 'Sunday Sermon: Living Water (John 4)')?.type).toBe(
      'devotion',
    );

    await edited.getByRole('button', { name: /^Delete / }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete this content?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await edited.waitFor();
    await edited.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Content deleted successfully').waitFor();
    await expect.poll(() => edited.count()).toBe(0);

    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('refuses a text file renamed .png with a clear message', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByLabel('Image').setInputFiles({
      name: 'sermon-notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('These are my sermon notes, not a picture.\n'),
    });
    await toast(page, 'Upload failed').waitFor();
    await toast(page, 'Please upload an image file (JPEG, PNG, GIF, or WebP)').waitFor();
    expect(await page.getByAltText('Uploaded image preview').count()).toBe(0);
    // And a file that is plainly not an image never leaves the browser.
    await page
      .getByLabel('Image')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
    await toast(page, 'Invalid file type').waitFor();
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('an admin created by the superuser sees 3 tabs, and is signed out at their next call once deactivated', async () => {
    const root = await openPage(browser);
    await signIn(root.page, E2E_ADMIN.username, E2E_ADMIN.password);
    await expect
      .poll(() => mainTabs(root.page).allTextContents())
      .toEqual(['Content', 'Subscribers', 'User Management', 'Settings']);

    await root.page.getByRole('tab', { name: 'User Management' }).click();
    const createUser = root.page.getByRole('form', { name: 'Create user' });
    await createUser.getByLabel('Username').fill('deacon-stephen');
    await createUser.getByLabel('Password', { exact: true }).fill('serving tables 7');
    await createUser.getByLabel('Confirm Password').fill('serving tables 7');
    await createUser.getByRole('button', { name: 'Create User' }).click();
    await toast(root.page, 'User created successfully').waitFor();
    const deaconRow = root.page.getByTestId('user-row').filter({ hasText: 'deacon-stephen' });
    await deaconRow.waitFor();

    // A second browser: the new admin.
    const deacon = await openPage(browser);
    await signIn(deacon.page, 'deacon-stephen', 'serving tables 7');
    await deacon.page.getByRole('heading', { name: /Admin Panel$/ }).waitFor();
    await expect
      .poll(() => mainTabs(deacon.page).allTextContents())
      .toEqual(['Content', 'Subscribers', 'Settings']);
    expect(await deacon.page.getByRole('tab', { name: 'User Management' }).count()).toBe(0);
    expect(
      await deacon.page.getByRole('tablist', { name: 'Admin sections', exact: true }).getAttribute('class'),
    ).toContain('grid-cols-3');

    // The superuser deactivates the admin.
    await deaconRow.getByRole('switch', { name: 'deacon-stephen is active' }).click();
    await toast(root.page, 'User status updated successfully').waitFor();
    await deaconRow.getByText('Inactive', { exact: true }).waitFor();

    // The admin's next call answers 401 and the panel signs them out: a click, or the panel's own refresh
    // (the prayer inbox's unread count) when that comes first and the tab is already gone.
    await deacon.page
      .getByRole('tab', { name: 'Subscribers' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await deacon.page.getByRole('form', { name: 'Admin sign in' }).waitFor();
    expect(await deacon.page.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();
    // And cannot sign in again while inactive.
    await signIn(deacon.page, 'deacon-stephen', 'serving tables 7');
    await deacon.page.getByText('Invalid credentials').waitFor();

    // Delete after the confirmation naming the user.
    await deaconRow.getByRole('button', { name: 'Delete deacon-stephen' }).click();
    await root.page
      .getByRole('alertdialog')
      .getByText('Are you sure you want to delete user "deacon-stephen"? This action cannot be undone.')
      .waitFor();
    await root.page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(root.page, 'User deleted successfully').waitFor();
    await expect.poll(() => deaconRow.count()).toBe(0);

    expect(unexpected(root.problems)).toEqual([]);
    expect(unexpected(deacon.problems)).toEqual([]);
    await root.context.close();
    await deacon.context.close();
  });

  it('changes the password, and the new one signs in while the old one does not', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const change = page.getByRole('form', { name: 'Change password' });
    const newPassword = 'a new song 40:3';
    await change.getByLabel('Current Password').fill(E2E_ADMIN.password);
    await change.getByLabel('New Password', { exact: true }).fill(newPassword);
    await change.getByLabel('Confirm New Password').fill(newPassword);
    // The station's answer first, so a failure says which side it was on.
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/admin/change-password')),
      change.getByRole('button', { name: 'Change Password' }).click(),
    ]);
    expect(answer.status(), await answer.text()).toBe(200);
    await toast(page, 'Password changed successfully').waitFor();
    await toast(page, 'Your admin password has been updated.').waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('form', { name: 'Admin sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();

    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByText('Invalid credentials').waitFor();
    await signIn(page, E2E_ADMIN.username, newPassword);
    await page.getByRole('heading', { name: /Admin Panel$/ }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('adminToken'))).toMatch(/.{32,}/);

    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });
});
