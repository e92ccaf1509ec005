import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import type { StaffUser } from '../../../../common/admin';
import { useUsers } from '../api/users';
import { CreateUserForm } from './create-user-form';
import { UserRow } from './user-row';

/** SPEC.md section 2, User Management tab (superuser): list, create with a role, change role, activate/deactivate, delete. */
/** `user` is the signed-in superuser (their own row cannot be deactivated or deleted). */
export function UserManagementTab({ user }: { user: StaffUser }) {
  const users = useUsers();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Create User</CardTitle>
          <CardDescription>
            Admins manage content and subscribers; superusers also manage accounts and the station. Presenters
            only send their own programmes live, with their own source password.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <CreateUserForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Admin Users</CardTitle>
        </CardHeader>
        <CardContent>
          {users.isPending && <Skeleton className="h-24" />}
          {users.isError && (
            <p role="alert" className="text-sm font-medium text-red-700">
              Failed to fetch users
            </p>
          )}
          {users.data && (
            <ul className="divide-y divide-slate-100" aria-label="Admin users">
              {users.data.map((account) => (
                <UserRow key={account.id} user={account} isSelf={account.id === user.id} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
