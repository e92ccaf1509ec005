import KeyRound from 'lucide-react/icons/key-round';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import type { Role } from '../../../../common/accounts';
import type { UserListItem } from '../../../../common/admin';
import { ShownOncePassword } from '../../../components/shown-once-password';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/switch';
import {
  useDeleteUser,
  useRotatePresenterSourcePassword,
  useToggleStatus,
  useUpdateRole,
} from '../api/users';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { RoleSelect } from './role-select';

/** SPEC.md section 5: the user-delete confirmation. */
export const deleteUserQuestion = (name: string) =>
  `Are you sure you want to delete user "${name}"? This action cannot be undone.`;

const formatDate = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/**
 * One account: role toggled between admin, superuser and presenter, active/inactive, delete (SPEC.md
 * section 4); a presenter's source password made anew.
 */
export function UserRow({ user, isSelf }: { user: UserListItem; isSelf: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const updateRole = useUpdateRole();
  const toggleStatus = useToggleStatus();
  const remove = useDeleteUser();

  const changeRole = (role: Role) =>
    updateRole.mutate(
      { userId: user.id, role },
      {
        onSuccess: () => notifySuccess('Success', 'User role updated successfully'),
        onError: (error) => notifyFailure('Error', error, 'Failed to update user role'),
      },
    );

  const changeStatus = (isActive: boolean) =>
    toggleStatus.mutate(
      { userId: user.id, isActive },
      {
        onSuccess: () => notifySuccess('Success', 'User status updated successfully'),
        onError: (error) => notifyFailure('Error', error, 'Failed to update user status'),
      },
    );

  const confirmDelete = () =>
    remove.mutate(user.id, {
      onSuccess: () => notifySuccess('Success', 'User deleted successfully'),
      onError: (error) => notifyFailure('Error', error, 'Failed to delete user'),
    });

  return (
    <li className="flex flex-col gap-3 py-3 md:flex-row md:items-center" data-testid="user-row">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {user.username}
          {isSelf && <Badge variant="outline">You</Badge>}
          <Badge variant={user.isActive ? 'success' : 'secondary'}>
            {user.isActive ? 'Active' : 'Inactive'}
          </Badge>
        </p>
        <p className="text-xs text-slate-600">
          Created {formatDate(user.createdAt)} · Last login {formatDate(user.lastLogin)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <RoleSelect
          value={user.role}
          onChange={changeRole}
          disabled={isSelf || updateRole.isPending}
          label={`Role of ${user.username}`}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <Switch
            checked={user.isActive}
            onCheckedChange={changeStatus}
            disabled={isSelf || toggleStatus.isPending}
            aria-label={`${user.username} is active`}
          />
          Active
        </label>
        {user.role === 'presenter' && <PresenterSourcePassword user={user} />}
        <Button
          variant="destructive"
          size="sm"
          onClick={() => setConfirming(true)}
          disabled={isSelf || remove.isPending}
          aria-label={`Delete ${user.username}`}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete user"
        description={deleteUserQuestion(user.username)}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </li>
  );
}

/** A presenter's own source password, made anew by a superuser and shown here once. */
function PresenterSourcePassword({ user }: { user: UserListItem }) {
  const rotate = useRotatePresenterSourcePassword();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState<string | null>(null);
  const confirmRotate = () =>
    rotate.mutate(user.id, {
      onSuccess: ({ sourcePassword }) => setPassword(sourcePassword),
      onError: (error) => notifyFailure('Error', error, 'Failed to make a new source password'),
    });
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setConfirming(true)}
        disabled={rotate.isPending}
        aria-label={`New source password for ${user.username}`}
      >
        <KeyRound aria-hidden="true" />
        Source Password
      </Button>
      {password && (
        <div className="basis-full">
          <ShownOncePassword
            id={`source-password-${user.id}`}
            label={`Source password for ${user.username}`}
            password={password}
          />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Make a new source password?"
        description={`${user.username}'s encoder will need the new password: the current one stops working at once. Give it to them with their username, which their encoder uses as its username.`}
        confirmLabel="Make New Password"
        onConfirm={confirmRotate}
      />
    </>
  );
}
