// Staff accounts: signing in and out, the session check, users and roles, passwords.
/** Signing in and out and the session check, for the page that holds the panel. */
export * as staffSession from './api/session';
export { SignInForm } from './components/sign-in-form';
export { ChangePasswordCard, SettingsTab } from './components/settings-tab';
export { UserManagementTab } from './components/user-management-tab';
