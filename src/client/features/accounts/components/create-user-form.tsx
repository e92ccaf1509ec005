import { zodResolver } from '@hookform/resolvers/zod';
import UserPlus from 'lucide-react/icons/user-plus';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { createUserFormSchema } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { useCreateUser } from '../api/users';
import { FormField } from '../../../components/form/form-field';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { RoleSelect } from './role-select';

type FormInput = z.input<typeof createUserFormSchema>;
type FormOutput = z.output<typeof createUserFormSchema>;
const EMPTY: FormInput = { username: '', password: '', confirmPassword: '', role: 'admin' };

/** SPEC.md section 5, superuser create user: the Settings rules plus a role (default admin). */
export function CreateUserForm() {
  const create = useCreateUser();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createUserFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ username, password, role }) =>
    create.mutate(
      { username, password, role },
      {
        onSuccess: () => {
          notifySuccess('Success', 'User created successfully');
          form.reset(EMPTY);
        },
        onError: (error) => notifyFailure('Error', error, 'Failed to create user'),
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2" aria-label="Create user">
      <FormField
        id="user-username"
        label="Username"
        autoComplete="off"
        error={errors.username?.message}
        registration={form.register('username')}
      />
      <div className="space-y-2">
        <Label htmlFor="user-role">Role</Label>
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => <RoleSelect id="user-role" value={field.value} onChange={field.onChange} />}
        />
      </div>
      <NewPasswordFields
        password={{
          id: 'user-password',
          label: 'Password',
          error: errors.password?.message,
          registration: form.register('password'),
        }}
        confirm={{
          id: 'user-confirm',
          label: 'Confirm Password',
          error: errors.confirmPassword?.message,
          registration: form.register('confirmPassword'),
        }}
      />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={create.isPending}>
          <UserPlus aria-hidden="true" />
          {create.isPending ? 'Creating...' : 'Create User'}
        </Button>
      </div>
    </form>
  );
}
