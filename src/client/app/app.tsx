import { lazy, Suspense, useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Route, Router, Switch } from 'wouter';
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

/** Marks the page once React has taken it over (`<html data-ready>`): the end-to-end specs wait for it. */
function PageReady() {
  useEffect(() => {
    document.documentElement.dataset.ready = '';
  }, []);
  return null;
}

/** The whole client; the build's prerender gives it its own data cache and the page's path. */
export function App({ queryClient, ssrPath }: { queryClient?: QueryClient; ssrPath?: string }) {
  return (
    <Providers queryClient={queryClient}>
      <Router ssrPath={ssrPath}>
        {/* On the prerendered home page, React hydrates what is inside a boundary at its lowest
            priority, in 5 ms slices: the page keeps answering taps while it is taken over. */}
        <Suspense fallback={null}>
          <AppRoutes />
          <PageReady />
        </Suspense>
      </Router>
    </Providers>
  );
}
