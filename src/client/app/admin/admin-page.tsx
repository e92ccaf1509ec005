import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { StaffUser } from '../../../common/admin';
import { SignInForm, staffSession } from '../../features/accounts';
import { setSessionHandlers } from '../../lib/api-request';
import { AdminDashboard } from './admin-dashboard';
import { AdminLayout } from './admin-layout';
import { LoadingPanel } from '../../components/loading-panel';

/** Staff data must not outlive the session that fetched it; the public featured list may. */
function forgetStaffData(queryClient: QueryClient) {
  queryClient.removeQueries({
    predicate: (query) => {
      const [path] = query.queryKey;
      return (
        typeof path === 'string' &&
        (path.startsWith('/api/admin/') || path.startsWith('/api/email-subscribers'))
      );
    },
  });
}

/**
 * SPEC.md section 4, admin session: not verified, then verified after a token check or sign-in,
 * then signed out on Logout, a failed check, or any staff call answering 401 (token removed).
 */
export default function AdminPage() {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => staffSession.getAdminToken());
  const verify = useQuery(staffSession.verifyQuery(token));

  const signOut = useCallback(() => {
    staffSession.removeAdminToken();
    setToken(null);
    forgetStaffData(queryClient);
  }, [queryClient]);

  useEffect(() => {
    setSessionHandlers({
      onUnauthorized: signOut,
      // A role changed by a superuser meanwhile: check it again, and the tabs follow.
      onForbidden: () => void queryClient.invalidateQueries({ queryKey: [staffSession.VERIFY_PATH] }),
    });
    return () => setSessionHandlers(null);
  }, [signOut, queryClient]);

  const signIn = (newToken: string, user?: StaffUser) => {
    staffSession.storeAdminToken(newToken);
    if (user) queryClient.setQueryData(staffSession.verifyQuery(newToken).queryKey, user);
    setToken(newToken);
  };

  const logout = () => {
    if (token)
      void staffSession
        .logoutOnServer(token)
        .finally(() => queryClient.removeQueries({ queryKey: [staffSession.VERIFY_PATH] }));
    signOut();
  };

  return (
    <AdminLayout>
      {token === null || verify.data === null ? (
        <SignInForm onSignedIn={signIn} />
      ) : verify.isSuccess ? (
        <AdminDashboard user={verify.data} onLogout={logout} />
      ) : (
        <LoadingPanel />
      )}
    </AdminLayout>
  );
}
