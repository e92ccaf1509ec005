import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { SettingsTab } from './settings-tab';

afterEach(() => vi.unstubAllGlobals());

function setUp(routes: Parameters<typeof fakeStaffApi>[0] = {}) {
  const api = fakeStaffApi(routes);
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<SettingsTab />);
  const changeForm = screen.getByRole('form', { name: 'Change password' });
  const createForm = screen.getByRole('form', { name: 'Create admin account' });
  return { api, user, changeForm, createForm };
}

describe('Settings tab: change password', () => {
  it("shows SPEC.md's messages for empty fields", async () => {
    const { api, user, changeForm } = setUp();
    await user.click(within(changeForm).getByRole('button', { name: 'Change Password' }));
    expect(await within(changeForm).findByText('Current password is required')).toBeInTheDocument();
    expect(within(changeForm).getByText('New password must be at least 8 characters')).toBeInTheDocument();
    expect(within(changeForm).getByText('Please confirm your new password')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("shows 'Passwords don't match' on the confirmation", async () => {
    const { user, changeForm } = setUp();
    await user.type(within(changeForm).getByLabelText('Current Password'), 'old password');
    await user.type(within(changeForm).getByLabelText('New Password'), 'new password 1');
    await user.type(within(changeForm).getByLabelText('Confirm New Password'), 'new password 2');
    await user.click(within(changeForm).getByRole('button', { name: 'Change Password' }));
    const message = await within(changeForm).findByText("Passwords don't match");
    expect(message).toHaveAttribute('id', 'confirm-new-password-error');
  });

  async function fillChange(user: ReturnType<typeof userEvent.setup>, form: HTMLElement) {
    await user.type(within(form).getByLabelText('Current Password'), 'old password');
    await user.type(within(form).getByLabelText('New Password'), 'new password 1');
    await user.type(within(form).getByLabelText('Confirm New Password'), 'new password 1');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
  }

  it('changes the password and says so', async () => {
    const { api, user, changeForm } = setUp({
      'POST /api/admin/change-password': { status: 200, body: { ok: true } },
    });
    await fillChange(user, changeForm);
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(screen.getByText('Your admin password has been updated.')).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/change-password')[0]!.body).toEqual({
      currentPassword: 'old password',
      newPassword: 'new password 1',
      confirmPassword: 'new password 1',
    });
    expect(within(changeForm).getByLabelText('Current Password')).toHaveValue('');
  });

  it("shows 'Failed to change password' with the server's message", async () => {
    const { user, changeForm } = setUp({
      'POST /api/admin/change-password': { status: 400, body: { message: 'Current password is incorrect' } },
    });
    await fillChange(user, changeForm);
    expect(await screen.findByText('Failed to change password')).toBeInTheDocument();
    expect(screen.getByText('Current password is incorrect')).toBeInTheDocument();
  });
});

describe('Settings tab: create admin', () => {
  it("shows SPEC.md's messages for short fields", async () => {
    const { api, user, createForm } = setUp();
    await user.type(within(createForm).getByLabelText('Username'), 'ab');
    await user.click(within(createForm).getByRole('button', { name: 'Create Admin' }));
    expect(await within(createForm).findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(within(createForm).getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(within(createForm).getByText('Please confirm the password')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("shows 'Passwords don't match'", async () => {
    const { user, createForm } = setUp();
    await user.type(within(createForm).getByLabelText('Username'), 'silas');
    await user.type(within(createForm).getByLabelText('Password'), 'long enough 1');
    await user.type(within(createForm).getByLabelText('Confirm Password'), 'long enough 2');
    await user.click(within(createForm).getByRole('button', { name: 'Create Admin' }));
    expect(await within(createForm).findByText("Passwords don't match")).toBeInTheDocument();
  });

  async function fillCreate(user: ReturnType<typeof userEvent.setup>, form: HTMLElement) {
    await user.type(within(form).getByLabelText('Username'), 'silas');
    await user.type(within(form).getByLabelText('Password'), 'long enough');
    await user.type(within(form).getByLabelText('Confirm Password'), 'long enough');
    await user.click(within(form).getByRole('button', { name: 'Create Admin' }));
  }

  it("creates an account with role 'admin', without sending the confirmation", async () => {
    const { api, user, createForm } = setUp({
      'POST /api/admin/create': { status: 201, body: { user: {} } },
    });
    await fillCreate(user, createForm);
    expect(await screen.findByText('Admin user created successfully')).toBeInTheDocument();
    expect(screen.getByText('New admin account has been created.')).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/create')[0]!.body).toEqual({
      username: 'silas',
      password: 'long enough',
      role: 'admin',
    });
  });

  it("shows 'Failed to create admin user' with the server's message", async () => {
    const { user, createForm } = setUp({
      'POST /api/admin/create': { status: 409, body: { message: 'Username already exists' } },
    });
    await fillCreate(user, createForm);
    expect(await screen.findByText('Failed to create admin user')).toBeInTheDocument();
    expect(screen.getByText('Username already exists')).toBeInTheDocument();
  });
});
