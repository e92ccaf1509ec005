import { Suspense, useState } from 'react';
import ExternalLink from 'lucide-react/icons/external-link';
import LogOut from 'lucide-react/icons/log-out';
import type { StaffUser } from '../../../common/admin';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { LoadingPanel } from '../../components/loading-panel';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { SampleNotice } from '../../features/sample-content';
import { getStation } from '../../lib/station';
import { cn } from '../../lib/utils';
import { ADMIN_TABS, tabsFor, type AdminTab } from './admin-tabs';

const TRIGGER_CLASS = 'h-auto min-h-8 whitespace-normal px-2 text-center text-xs leading-tight sm:text-sm';

/** SPEC.md section 2: the signed-in panel: title, View Website, Logout and the tabs the role allows. */
export function AdminDashboard({
  user,
  onLogout,
  tabs = ADMIN_TABS,
}: {
  user: StaffUser;
  onLogout: () => void;
  tabs?: AdminTab[];
}) {
  const visible = tabsFor(user.role, tabs);
  const main = visible.filter((tab) => tab.row === 'main');
  const more = visible.filter((tab) => tab.row === 'more');
  // A link may open a tab (the Reports tab's "fix it" links open the Library at an item: ?tab=library).
  const [chosen, setChosen] = useState(() => linkedTab(visible) ?? main[0]?.id ?? '');
  // A tab the role no longer allows (a superuser demoted meanwhile) falls back to the first one.
  const active = visible.some((tab) => tab.id === chosen) ? chosen : (main[0]?.id ?? '');

  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-blue-950 sm:text-3xl">{`${getStation().name} Admin Panel`}</h1>
          <p className="mt-1 flex items-center gap-2 text-sm text-slate-600">
            Signed in as <span className="font-medium text-slate-900">{user.username}</span>
            <Badge variant={user.role === 'superuser' ? 'gold' : 'secondary'}>{user.role}</Badge>
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" asChild>
            <a href="/" target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden="true" />
              View Website
            </a>
          </Button>
          <Button variant="destructive" onClick={onLogout}>
            <LogOut aria-hidden="true" />
            Logout
          </Button>
        </div>
      </div>

      {user.role !== 'presenter' && <SampleNotice />}

      <Tabs value={active} onValueChange={setChosen} className="w-full">
        <TabsList
          aria-label="Admin sections"
          data-testid="admin-tab-bar"
          className={cn(
            'grid h-auto w-full gap-1',
            user.role === 'superuser'
              ? 'grid-cols-4'
              : user.role === 'presenter'
                ? 'grid-cols-1'
                : 'grid-cols-3',
          )}
        >
          {main.map((tab) => (
            <TabsTrigger key={tab.id} value={tab.id} className={TRIGGER_CLASS}>
              <TabLabel tab={tab} />
            </TabsTrigger>
          ))}
        </TabsList>
        {more.length > 0 && (
          <TabsList
            aria-label="More admin sections"
            className="mt-2 flex h-auto w-full flex-wrap justify-start gap-1"
          >
            {more.map((tab) => (
              <TabsTrigger key={tab.id} value={tab.id} className={cn(TRIGGER_CLASS, 'flex-1 sm:flex-none')}>
                <TabLabel tab={tab} />
              </TabsTrigger>
            ))}
          </TabsList>
        )}
        {visible.map((tab) => (
          <TabsContent key={tab.id} value={tab.id} className="mt-6">
            {/* The panel's heading, between the page's h1 and its cards' h3 (axe: heading-order). */}
            <h2 className="sr-only">{tab.label}</h2>
            <Suspense fallback={<LoadingPanel />}>
              <tab.component user={user} />
            </Suspense>
          </TabsContent>
        ))}
      </Tabs>
    </main>
  );
}

function linkedTab(visible: AdminTab[]): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const id = new URLSearchParams(window.location.search).get('tab');
  return visible.find((tab) => tab.id === id)?.id;
}

function TabLabel({ tab }: { tab: AdminTab }) {
  return (
    <>
      {tab.label}
      {tab.badge && (
        <Suspense fallback={null}>
          <tab.badge />
        </Suspense>
      )}
    </>
  );
}
