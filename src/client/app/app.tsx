import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { HomePage } from './home/home-page';
import { NotFoundPage } from './not-found-page';
import { Providers } from './providers';

// Admin code stays out of the listener's bundle.
const AdminPage = lazy(() => import('./admin/admin-page'));

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/dashboard-mgmt">
        <Suspense fallback={<p className="p-8 text-center text-slate-700">Loading admin panel...</p>}>
          <AdminPage />
        </Suspense>
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function App() {
  return (
    <Providers>
      <AppRoutes />
    </Providers>
  );
}
