import { zodResolver } from '@hookform/resolvers/zod';
import UserPlus from 'lucide-react/icons/user-plus';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { createAdminFormSchema } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { useCreateUser } from '../api/users';
import { FormField } from '../../../components/form/form-field';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { notifyFailure, notifySuccess } from '../../../lib/notify';

type FormInput = z.input<typeof createAdminFormSchema>;
type FormOutput = z.output<typeof createAdminFormSchema>;
const EMPTY: FormInput = { username: '', password: '', confirmPassword: '' };

/** SPEC.md sections 5 and 6: any staff member creates another admin account, always with role 'admin'. */
export function CreateAdminForm() {
  const create = useCreateUser();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createAdminFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ username, password }) =>
    create.mutate(
      { username, password, role: 'admin' },
      {
        onSuccess: () => {
          notifySuccess('Admin user created successfully', 'New admin account has been created.');
          form.reset(EMPTY);
        },
        onError: (error) => notifyFailure('Failed to create admin user', error),
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Create admin account">
      <FormField
        id="new-admin-username"
        label="Username"
        autoComplete="off"
        error={errors.username?.message}
        registration={form.register('username')}
      />
      <NewPasswordFields
        password={{
          id: 'new-admin-password',
          label: 'Password',
          error: errors.password?.message,
          registration: form.register('password'),
        }}
        confirm={{
          id: 'new-admin-confirm',
          label: 'Confirm Password',
          error: errors.confirmPassword?.message,
          registration: form.register('confirmPassword'),
        }}
      />
      <Button type="submit" disabled={create.isPending}>
        <UserPlus aria-hidden="true" />
        {create.isPending ? 'Creating...' : 'Create Admin'}
      </Button>
    </form>
  );
}
