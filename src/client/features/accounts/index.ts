// Staff accounts: signing in and out, the session check, users and roles, passwords.
export {
  getAdminToken,
  logoutOnServer,
  removeAdminToken,
  storeAdminToken,
  verifyQuery,
  VERIFY_PATH,
} from './api/session';
export { SignInForm } from './components/sign-in-form';
export { SettingsTab } from './components/settings-tab';
export { UserManagementTab } from './components/user-management-tab';
