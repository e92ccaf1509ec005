import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  userListSchema,
  type ChangePasswordBody,
  type ToggleStatusBody,
  type UpdateRoleBody,
} from '../../../../common/admin';
import type { Role } from '../../../../common/accounts';
import { presenterSourcePasswordSchema } from '../../../../common/presenters';
import { apiGetParsed, apiSend } from '../../../lib/api-request';

export const USERS_PATH = '/api/admin/users';
export const CREATE_USER_PATH = '/api/admin/create';
export const CHANGE_PASSWORD_PATH = '/api/admin/change-password';
export const UPDATE_ROLE_PATH = '/api/admin/update-role';
export const TOGGLE_STATUS_PATH = '/api/admin/toggle-status';
export const presenterSourcePasswordPath = (userId: string) =>
  `/api/admin/accounts/${encodeURIComponent(userId)}/source-password`;

export const usersQuery = () =>
  queryOptions({ queryKey: [USERS_PATH], queryFn: () => apiGetParsed(USERS_PATH, userListSchema) });

/** Superuser only: the accounts list. */
export function useUsers() {
  return useQuery(usersQuery());
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: usersQuery().queryKey });
}

/** POST /api/admin/change-password; the server revokes the user's other sessions. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiSend('POST', CHANGE_PASSWORD_PATH, body, z.unknown()),
  });
}

/** POST /api/admin/create; the confirmation is checked by the form and not sent. */
export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: { username: string; password: string; role: Role }) =>
      apiSend(
        'POST',
        CREATE_USER_PATH,
        { username: body.username, password: body.password, role: body.role },
        z.unknown(),
      ),
    onSuccess: invalidate,
  });
}

export function useUpdateRole() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: UpdateRoleBody) => apiSend('POST', UPDATE_ROLE_PATH, body, z.unknown()),
    onSuccess: invalidate,
  });
}

export function useToggleStatus() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: ToggleStatusBody) => apiSend('POST', TOGGLE_STATUS_PATH, body, z.unknown()),
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (userId: string) =>
      apiSend('DELETE', `${USERS_PATH}/${encodeURIComponent(userId)}`, undefined, z.unknown()),
    onSuccess: invalidate,
  });
}

/** Superuser only: a new source password for a presenter, shown once; their old one stops working at once. */
export function useRotatePresenterSourcePassword() {
  return useMutation({
    mutationFn: (userId: string) =>
      apiSend('POST', presenterSourcePasswordPath(userId), undefined, presenterSourcePasswordSchema),
  });
}
