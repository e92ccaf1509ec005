import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { changePasswordBodySchema, type ChangePasswordBody } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { useChangePassword } from '../api/users';
import { FormField } from '../../../components/form/form-field';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { notifyFailure, notifySuccess } from '../../../lib/notify';

const EMPTY: ChangePasswordBody = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** SPEC.md section 5, change password; section 8, its toasts. */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    change.mutate(body, {
      onSuccess: () => {
        notifySuccess('Password changed successfully', 'Your admin password has been updated.');
        form.reset(EMPTY);
      },
      onError: (error) => notifyFailure('Failed to change password', error, 'Failed to change password'),
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Change password">
      <FormField
        id="current-password"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        registration={form.register('currentPassword')}
      />
      <NewPasswordFields
        password={{
          id: 'new-password',
          label: 'New Password',
          error: errors.newPassword?.message,
          registration: form.register('newPassword'),
        }}
        confirm={{
          id: 'confirm-new-password',
          label: 'Confirm New Password',
          error: errors.confirmPassword?.message,
          registration: form.register('confirmPassword'),
        }}
      />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? 'Changing...' : 'Change Password'}
      </Button>
    </form>
  );
}
