import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ChangePasswordForm } from './change-password-form';
import { CreateAdminForm } from './create-admin-form';

/** Changing one's own sign-in password (staff in Settings, a presenter in My broadcast). */
export function ChangePasswordCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>Your other signed-in sessions end when the password changes.</CardDescription>
      </CardHeader>
      <CardContent>
        <ChangePasswordForm />
      </CardContent>
    </Card>
  );
}

/** SPEC.md section 2, Settings tab: change own password; create another admin account. */
export function SettingsTab() {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <ChangePasswordCard />
      <Card>
        <CardHeader>
          <CardTitle>Create Admin Account</CardTitle>
          <CardDescription>The new account has the admin role.</CardDescription>
        </CardHeader>
        <CardContent>
          <CreateAdminForm />
        </CardContent>
      </Card>
    </div>
  );
}
