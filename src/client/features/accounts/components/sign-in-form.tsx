import { zodResolver } from '@hookform/resolvers/zod';
import LogIn from 'lucide-react/icons/log-in';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { loginBodySchema, type LoginBody, type StaffUser } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { getStation } from '../../../lib/station';
import { loginFailureMessage, useLogin } from '../api/session';
import { FieldError } from '../../../components/form/field-error';

/** SPEC.md sections 2 and 5: the admin sign-in form (username and password, both required). */
export function SignInForm({ onSignedIn }: { onSignedIn: (token: string, user?: StaffUser) => void }) {
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginBody>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { username: '', password: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) => {
    setFailure(null);
    login.mutate(body, {
      onSuccess: (answer) => onSignedIn(answer.token, answer.user),
      onError: (error) => setFailure(loginFailureMessage(error)),
    });
  });

  return (
    <main className="flex min-h-[70vh] items-center justify-center px-4 py-12">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <CardTitle as="h2" className="text-blue-950">
            Admin Sign In
          </CardTitle>
          <CardDescription>{getStation().name} staff only</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} noValidate className="space-y-4" aria-label="Admin sign in">
            <div className="space-y-2">
              <Label htmlFor="admin-username">Username</Label>
              <Input
                id="admin-username"
                autoComplete="username"
                aria-invalid={Boolean(errors.username)}
                aria-describedby="admin-username-error"
                {...form.register('username')}
              />
              <FieldError id="admin-username-error" message={errors.username?.message} />
            </div>
            <div className="space-y-2">
              <Label htmlFor="admin-password">Password</Label>
              <Input
                id="admin-password"
                type="password"
                autoComplete="current-password"
                aria-invalid={Boolean(errors.password)}
                aria-describedby="admin-password-error"
                {...form.register('password')}
              />
              <FieldError id="admin-password-error" message={errors.password?.message} />
            </div>
            {failure && (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
                {failure}
              </p>
            )}
            <Button type="submit" className="w-full" disabled={login.isPending}>
              <LogIn aria-hidden="true" />
              {login.isPending ? 'Signing in...' : 'Sign In'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
