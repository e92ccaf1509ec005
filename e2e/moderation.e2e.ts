import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BLOCKED_WORDS_MESSAGE } from '../src/common/chat-moderation';
import { openPage, showSection, visit } from './browser';
import { E2E_ADMIN, ownBrowserAndStation } from './station';

const SHOTS = process.env.E2E_SCREENSHOTS;
/** Everyone here chats from 127.0.0.1: one address's flood limit is 3 messages in 2 s. */
const PACE_MS = 800;

describe('community moderation and a restart, in Chromium', () => {
  const own = ownBrowserAndStation();

  const listener = async (name: string) => {
    const opened = await openPage(own.browser, { viewport: { width: 1280, height: 900 } });
    await visit(opened.page, own.station.url);
    await showSection(opened.page, 'community');
    await opened.page.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    await opened.page.getByLabel('Name', { exact: true }).fill(name);
    return opened;
  };
  const chatLog = (page: Page) => page.locator('[aria-label="Chat messages"]');
  const say = async (page: Page, text: string) => {
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  };
  const signIn = async (page: Page) => {
    await visit(page, `${own.station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  };

  it('both listeners reconnect by themselves when the station restarts mid-chat, and the history is still there', async () => {
    const ruth = await listener('Ruth');
    const boaz = await listener('Boaz');
    await say(ruth.page, 'Before the restart');
    await chatLog(boaz.page).getByText('Before the restart').waitFor();

    await own.station.restart();
    for (const p of [ruth, boaz]) {
      await p.page.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
      await chatLog(p.page).getByText('Before the restart').waitFor();
    }
    await say(boaz.page, 'After the restart');
    await chatLog(ruth.page).getByText('After the restart').waitFor();
    for (const p of [ruth, boaz]) {
      // The station going away is no page error; a reconnecting socket's failed attempts may log, nothing else.
      expect(
        p.problems.filter((line) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(line)),
      ).toEqual([]);
      await p.context.close();
    }
  });

  it('staff mute a sender unseen, delete a message for everyone, and block a word in any language', async () => {
    const ruth = await listener('Ruth');
    const boaz = await listener('Boaz');
    const staff = await openPage(own.browser, { viewport: { width: 1280, height: 1000 } });
    await signIn(staff.page);
    await staff.page.getByRole('tab', { name: 'Chat' }).click();
    const list = staff.page.getByRole('list', { name: 'Chat messages' });

    // Boaz shares Ruth's address here (as a church behind one NAT would): he chatted before her mute, so
    // he stays heard while she is muted (decision 014).
    await say(boaz.page, 'Boaz was here first');
    await say(ruth.page, 'A word from Ruth');
    // Live: the staff list shows it without a reload.
    await list.getByText('Boaz was here first').waitFor({ timeout: 10_000 });
    await list.getByText('A word from Ruth').waitFor({ timeout: 10_000 });
    await list.getByRole('button', { name: 'Mute Ruth' }).first().click();
    await list
      .getByText(/Sender muted until/)
      .first()
      .waitFor();

    await say(ruth.page, 'Said while muted');
    await chatLog(ruth.page).getByText('Said while muted').waitFor();
    await say(boaz.page, 'Boaz speaks next');
    await chatLog(boaz.page).getByText('Boaz speaks next').waitFor();
    await chatLog(ruth.page).getByText('Boaz speaks next').waitFor();
    expect(await chatLog(boaz.page).getByText('Said while muted').count()).toBe(0);
    await list.getByText('Hidden: sent while muted').first().waitFor({ timeout: 10_000 });

    await list
      .getByRole('listitem')
      .filter({ hasText: 'Boaz speaks next' })
      .getByRole('button', { name: 'Delete message from Boaz' })
      .click();
    for (const p of [ruth, boaz])
      await chatLog(p.page).getByText('Boaz speaks next').waitFor({ state: 'detached' });

    await staff.page.getByLabel('Blocked words').fill('idiota\nдурак');
    await staff.page.getByRole('button', { name: 'Save blocked words' }).click();
    await staff.page.getByText('Blocked words saved').first().waitFor();
    await say(boaz.page, '¡Eres un idiota!');
    await boaz.page.getByText(BLOCKED_WORDS_MESSAGE).waitFor();
    expect(await chatLog(ruth.page).getByText('¡Eres un idiota!').count()).toBe(0);

    const record = staff.page.getByRole('list', { name: 'Moderation record' });
    await record.getByText(/Muted/).first().waitFor();
    await record.getByText(/Deleted Boaz: Boaz speaks next/).waitFor();
    if (SHOTS) await staff.page.screenshot({ path: `${SHOTS}/chat-tab.png`, fullPage: true });
    for (const p of [ruth, boaz, staff]) {
      expect(p.problems).toEqual([]);
      await p.context.close();
    }
  });

  it('a new prayer request shows as unread on the Prayer tab until staff open it', async () => {
    const staff = await openPage(own.browser, { viewport: { width: 1280, height: 900 } });
    await signIn(staff.page);
    await staff.page.getByRole('tab', { name: 'Prayer' }).click();
    await staff.page.getByRole('tab', { name: 'Content' }).click();

    const { page, context, problems } = await openPage(own.browser, {
      viewport: { width: 390, height: 844 },
    });
    await visit(page, `${own.station.url}/#prayer`);
    await showSection(page, 'community');
    await page
      .locator('#prayer')
      .getByRole('textbox', { name: 'Prayer request' })
      .fill('For my mother in hospital');
    await page.locator('#prayer').getByRole('button', { name: 'Submit Prayer Request' }).click();
    await page.getByText('Prayer Request Submitted', { exact: true }).waitFor();

    await staff.page.reload();
    const tab = staff.page.getByRole('tab', { name: /Prayer/ });
    await tab.getByLabel('1 unread').waitFor();
    await tab.click();
    await staff.page.getByText('For my mother in hospital').waitFor();
    await tab.getByLabel('1 unread').waitFor({ state: 'detached' });
    expect([...problems, ...staff.problems]).toEqual([]);
    await Promise.all([context.close(), staff.context.close()]);
  });
});
