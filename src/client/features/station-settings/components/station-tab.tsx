import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useStationSettings } from '../api';
import { AudioSettingsPanel } from './audio-settings-panel';
import { BackupPanel } from './backup-panel';
import { NotificationsPanel } from './notifications-panel';
import { SourcePasswordPanel } from './source-password-panel';
import { StationSettingsForm } from './station-settings-form';
import { StreamSourcePanel } from './stream-source-panel';

/** DESIGN.md section 7, Station tab (superuser). */
export function StationTab() {
  const settings = useStationSettings();
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Station Details</CardTitle>
          <CardDescription>Shown on every page of the site.</CardDescription>
        </CardHeader>
        <CardContent>
          {settings.isPending && <Skeleton className="h-48" />}
          {settings.isError && (
            <p className="text-sm text-red-700">The station settings could not be loaded.</p>
          )}
          {settings.data && <StationSettingsForm settings={settings.data} />}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Live Input</CardTitle>
          <CardDescription>The source password for live broadcasts.</CardDescription>
        </CardHeader>
        <CardContent>
          <SourcePasswordPanel />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Stream Source</CardTitle>
          <CardDescription>What listeners hear: this station, or one hosted elsewhere.</CardDescription>
        </CardHeader>
        <CardContent>
          <StreamSourcePanel />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Backup</CardTitle>
          <CardDescription>Download the whole station as one file.</CardDescription>
        </CardHeader>
        <CardContent>
          <BackupPanel />
        </CardContent>
      </Card>
      <Card className="md:col-span-2">
        <CardHeader>
          <CardTitle>Audio</CardTitle>
          <CardDescription>Loudness, crossfades and the stream bitrates listeners can get.</CardDescription>
        </CardHeader>
        <CardContent>
          <AudioSettingsPanel />
        </CardContent>
      </Card>
      <Card className="md:col-span-2">
        <CardHeader>
          <CardTitle>Notifications</CardTitle>
          <CardDescription>
            Staff told when a live programme goes on or off air, of dead air, a missing presenter, a failing
            source and a published recording.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <NotificationsPanel />
        </CardContent>
      </Card>
    </div>
  );
}
