import type { ComponentType } from 'react';
import type { Role } from '../../../common/accounts';
import type { StaffUser } from '../../../common/admin';
import { ChatTab } from '../../features/chat';
import { ContentTab } from '../../features/featured-content';
import { LibraryTab } from '../../features/library';
import { ListenersTab } from '../../features/listeners';
import { PlaylistsTab } from '../../features/playlists';
import { PrayerTab, PrayerUnreadBadge } from '../../features/prayer';
import { ReportsTab } from '../../features/reports';
import { NewsletterTab } from '../../features/newsletters';
import { MyBroadcastTab } from '../../features/presenters';
import { ScheduleTab } from '../../features/programs';
import { ChangePasswordCard, SettingsTab, UserManagementTab } from '../../features/accounts';
import { StationTab } from '../../features/station-settings';
import { SubscribersTab } from '../../features/subscribers';
import { CaptionsTab } from '../../features/subtitles';

export interface AdminTabProps {
  user: StaffUser;
}

export interface AdminTab {
  id: string;
  label: string;
  superuserOnly: boolean;
  /** A presenter's own tab: the only kind a presenter sees, and hidden from admins and superusers. */
  presenterOnly?: boolean;
  /** A staff tab presenters see too (the station narrows what it shows them to their own programmes). */
  presenters?: boolean;
  /**
   * 'main' is SPEC.md's tab bar (4 columns for a superuser, 3 otherwise); the tabs DESIGN.md adds
   * ('more') sit in a second row below it, so the SPEC.md bar keeps its shape as features are added.
   */
  row: 'main' | 'more';
  component: ComponentType<AdminTabProps>;
  /** Shown beside the label, e.g. how many items wait for staff. */
  badge?: ComponentType;
}

/** A presenter's one tab: their broadcast, and their own sign-in password below it. */
function PresenterTab() {
  return (
    <div className="grid gap-6">
      <MyBroadcastTab />
      <div className="md:max-w-md">
        <ChangePasswordCard />
      </div>
    </div>
  );
}

/** Every admin tab, in order. A feature adds its tab here; the frame builds the bars from this list. */
export const ADMIN_TABS: AdminTab[] = [
  { id: 'content', label: 'Content', superuserOnly: false, row: 'main', component: ContentTab },
  { id: 'subscribers', label: 'Subscribers', superuserOnly: false, row: 'main', component: SubscribersTab },
  { id: 'users', label: 'User Management', superuserOnly: true, row: 'main', component: UserManagementTab },
  { id: 'settings', label: 'Settings', superuserOnly: false, row: 'main', component: SettingsTab },
  { id: 'station', label: 'Station', superuserOnly: true, row: 'more', component: StationTab },
  { id: 'library', label: 'Library', superuserOnly: false, row: 'more', component: LibraryTab },
  { id: 'playlists', label: 'Playlists', superuserOnly: false, row: 'more', component: PlaylistsTab },
  { id: 'schedule', label: 'Schedule', superuserOnly: false, row: 'more', component: ScheduleTab },
  {
    id: 'prayer',
    label: 'Prayer',
    superuserOnly: false,
    row: 'more',
    component: PrayerTab,
    badge: PrayerUnreadBadge,
  },
  { id: 'chat', label: 'Chat', superuserOnly: false, row: 'more', component: ChatTab },
  { id: 'listeners', label: 'Listeners', superuserOnly: false, row: 'more', component: ListenersTab },
  {
    id: 'reports',
    label: 'Reports',
    superuserOnly: false,
    row: 'more',
    component: ReportsTab,
    presenters: true,
  },
  { id: 'captions', label: 'Captions', superuserOnly: false, row: 'more', component: CaptionsTab },
  { id: 'newsletter', label: 'Newsletter', superuserOnly: false, row: 'more', component: NewsletterTab },
  {
    id: 'broadcast',
    label: 'My broadcast',
    superuserOnly: false,
    presenterOnly: true,
    row: 'main',
    component: PresenterTab,
  },
];

/**
 * SPEC.md section 6: the User Management tab (and other superuser tabs) are hidden from admins. A presenter
 * sees only their own "My broadcast".
 */
export function tabsFor(role: Role, tabs: AdminTab[] = ADMIN_TABS): AdminTab[] {
  if (role === 'presenter') return tabs.filter((tab) => tab.presenterOnly || tab.presenters);
  return tabs.filter((tab) => !tab.presenterOnly && (!tab.superuserOnly || role === 'superuser'));
}
