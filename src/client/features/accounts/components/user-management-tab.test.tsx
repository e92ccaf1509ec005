import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi, superuser } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { UserManagementTab } from './user-management-tab';

const created = '2026-01-10T09:00:00.000Z';
const users = [
  {
    id: superuser.id,
    username: superuser.username,
    role: 'superuser',
    isActive: true,
    createdAt: created,
    lastLogin: created,
  },
  { id: 'u-anna', username: 'anna', role: 'admin', isActive: true, createdAt: created, lastLogin: null },
  { id: 'u-ruth', username: 'ruth', role: 'presenter', isActive: true, createdAt: created, lastLogin: null },
];

// Radix Select measures and captures the pointer; jsdom has neither.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(() => vi.unstubAllGlobals());

function setUp(routes: Parameters<typeof fakeStaffApi>[0] = {}) {
  const api = fakeStaffApi({ 'GET /api/admin/users': { status: 200, body: users }, ...routes });
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<UserManagementTab user={superuser} />);
  return { api, user, form: screen.getByRole('form', { name: 'Create user' }) };
}

const annaRow = async () =>
  (await screen.findAllByTestId('user-row')).find((row) => row.textContent?.includes('anna'))!;

describe('User Management tab', () => {
  it('lists the accounts; the signed-in superuser cannot deactivate or delete themselves', async () => {
    setUp();
    const rows = await screen.findAllByTestId('user-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('You')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: `Delete ${superuser.username}` })).toBeDisabled();
    expect(within(rows[1]!).getByRole('button', { name: 'Delete anna' })).toBeEnabled();
  });

  it("says 'Failed to fetch users' when the list cannot be read", async () => {
    setUp({ 'GET /api/admin/users': { status: 500, body: { message: 'boom' } } });
    expect(await screen.findByText('Failed to fetch users')).toBeInTheDocument();
  });

  it("shows SPEC.md's messages, the confirmation's being 'Password must be at least 8 characters'", async () => {
    const { api, user, form } = setUp();
    await user.click(within(form).getByRole('button', { name: 'Create User' }));
    expect(await within(form).findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(within(form).getAllByText('Password must be at least 8 characters')).toHaveLength(2);
    await user.type(within(form).getByLabelText('Password'), 'long enough 1');
    await user.type(within(form).getByLabelText('Confirm Password'), 'long enough 2');
    await user.click(within(form).getByRole('button', { name: 'Create User' }));
    expect(await within(form).findByText("Passwords don't match")).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/create')).toEqual([]);
  });

  async function fillCreate(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, role?: 'Superuser') {
    await user.type(within(form).getByLabelText('Username'), 'lydia');
    if (role) {
      await user.click(within(form).getByRole('combobox', { name: 'Role' }));
      await user.click(await screen.findByRole('option', { name: role }));
    }
    await user.type(within(form).getByLabelText('Password'), 'long enough');
    await user.type(within(form).getByLabelText('Confirm Password'), 'long enough');
    await user.click(within(form).getByRole('button', { name: 'Create User' }));
  }

  it("creates a user with the default role 'admin'", async () => {
    const { api, user, form } = setUp({ 'POST /api/admin/create': { status: 201, body: { user: {} } } });
    await fillCreate(user, form);
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText('User created successfully')).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/create')[0]!.body).toEqual({
      username: 'lydia',
      password: 'long enough',
      role: 'admin',
    });
  });

  it('creates a user with the chosen role', async () => {
    const { api, user, form } = setUp({ 'POST /api/admin/create': { status: 201, body: { user: {} } } });
    await fillCreate(user, form, 'Superuser');
    await screen.findByText('User created successfully');
    expect(api.calls('POST', '/api/admin/create')[0]!.body).toMatchObject({ role: 'superuser' });
  });

  it.each([
    [{ status: 409, body: { message: 'Username already exists' } }, 'Username already exists'],
    [{ status: 500, body: '' }, 'Failed to create user'],
  ])("shows 'Error' with the server's message or the fallback", async (answer, message) => {
    const { user, form } = setUp({ 'POST /api/admin/create': answer });
    await fillCreate(user, form);
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
  });

  it('changes a role', async () => {
    const { api, user } = setUp({ 'POST /api/admin/update-role': { status: 200, body: { user: {} } } });
    await user.click(within(await annaRow()).getByRole('combobox', { name: 'Role of anna' }));
    await user.click(await screen.findByRole('option', { name: 'Superuser' }));
    expect(await screen.findByText('User role updated successfully')).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/update-role')[0]!.body).toEqual({
      userId: 'u-anna',
      role: 'superuser',
    });
  });

  it("deactivates a user, or shows 'Failed to update user status'", async () => {
    const { api, user } = setUp({ 'POST /api/admin/toggle-status': { status: 200, body: { user: {} } } });
    await user.click(within(await annaRow()).getByRole('switch', { name: 'anna is active' }));
    expect(await screen.findByText('User status updated successfully')).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/toggle-status')[0]!.body).toEqual({
      userId: 'u-anna',
      isActive: false,
    });

    api.setRoute('POST /api/admin/toggle-status', { status: 500, body: '' });
    await user.click(within(await annaRow()).getByRole('switch', { name: 'anna is active' }));
    expect(await screen.findByText('Failed to update user status')).toBeInTheDocument();
  });

  it("shows 'Failed to update user role' with the server's message", async () => {
    const { user } = setUp({
      'POST /api/admin/update-role': {
        status: 409,
        body: { message: 'The last active superuser cannot be demoted' },
      },
    });
    await user.click(within(await annaRow()).getByRole('combobox', { name: 'Role of anna' }));
    await user.click(await screen.findByRole('option', { name: 'Superuser' }));
    expect(await screen.findByText('The last active superuser cannot be demoted')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it('deletes a user only after the confirmation naming them', async () => {
    const { api, user } = setUp({ 'DELETE /api/admin/users/u-anna': { status: 200, body: { ok: true } } });
    await user.click(within(await annaRow()).getByRole('button', { name: 'Delete anna' }));
    const dialog = screen.getByRole('alertdialog');
    expect(
      within(dialog).getByText('Are you sure you want to delete user "anna"? This action cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE', '/api/admin/users/u-anna')).toEqual([]);

    await user.click(within(await annaRow()).getByRole('button', { name: 'Delete anna' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(api.calls('DELETE', '/api/admin/users/u-anna')).toHaveLength(1);
  });

  it("shows 'Failed to delete user' when the delete fails without a message", async () => {
    const { user } = setUp({ 'DELETE /api/admin/users/u-anna': { status: 500, body: '' } });
    await user.click(within(await annaRow()).getByRole('button', { name: 'Delete anna' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user')).toBeInTheDocument();
  });

  describe("a presenter's source password", () => {
    const rowOf = async (name: string) =>
      (await screen.findAllByTestId('user-row')).find((row) => row.textContent?.startsWith(name))!;

    it('is made anew by the superuser after a confirmation, and shown once', async () => {
      const { api, user } = setUp({
        'POST /api/admin/accounts/u-ruth/source-password': {
          status: 200,
          body: { sourcePassword: 'ruths-new-pw' },
        },
      });
      const ruth = await rowOf('ruth');
      await user.click(within(ruth).getByRole('button', { name: 'New source password for ruth' }));
      const dialog = screen.getByRole('alertdialog');
      expect(dialog).toHaveTextContent('the current one stops working at once');
      await user.click(within(dialog).getByRole('button', { name: 'Make New Password' }));
      expect(await within(ruth).findByLabelText('Source password for ruth')).toHaveValue('ruths-new-pw');
      expect(
        within(ruth).getByText('Copy it now: the password is shown only this once.'),
      ).toBeInTheDocument();
      expect(api.calls('POST', '/api/admin/accounts/u-ruth/source-password')).toHaveLength(1);
    });

    it("shows the server's message when it cannot be made", async () => {
      const { user } = setUp({
        'POST /api/admin/accounts/u-ruth/source-password': {
          status: 409,
          body: { message: 'Only presenters have their own source password' },
        },
      });
      const ruth = await rowOf('ruth');
      await user.click(within(ruth).getByRole('button', { name: 'New source password for ruth' }));
      await user.click(
        within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Make New Password' }),
      );
      expect(await screen.findByText('Only presenters have their own source password')).toBeInTheDocument();
      expect(within(ruth).queryByTestId('shown-once-password')).toBeNull();
    });

    it('is offered only on presenter accounts', async () => {
      setUp();
      const buttons = await screen.findAllByRole('button', { name: /^New source password for/ });
      expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['New source password for ruth']);
    });

    it('a superuser can create a presenter', async () => {
      const { api, user, form } = setUp({ 'POST /api/admin/create': { status: 201, body: { user: {} } } });
      await user.type(within(form).getByLabelText('Username'), 'lydia');
      await user.click(within(form).getByRole('combobox', { name: 'Role' }));
      await user.click(await screen.findByRole('option', { name: 'Presenter' }));
      await user.type(within(form).getByLabelText('Password'), 'long enough');
      await user.type(within(form).getByLabelText('Confirm Password'), 'long enough');
      await user.click(within(form).getByRole('button', { name: 'Create User' }));
      expect(await screen.findByText('User created successfully')).toBeInTheDocument();
      expect(api.calls('POST', '/api/admin/create')[0]!.body).toEqual({
        username: 'lydia',
        password: 'long enough',
        role: 'presenter',
      });
    });
  });
});
