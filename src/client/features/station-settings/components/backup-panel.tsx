import Download from 'lucide-react/icons/download';
import { Button } from '../../../components/ui/button';
import { notifyFailure } from '../../../lib/notify';
import { useDownloadBackup } from '../api';

/** The whole station in one file, restored with `npm run restore -- FILE` (README). */
export function BackupPanel() {
  const download = useDownloadBackup();
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        Everything the station holds (content, schedule, accounts, subscribers, uploads, the media library
        with its subtitles, and shared clips) in one archive. Keep it somewhere safe; restore it with{' '}
        <code>npm run restore -- FILE</code>.
      </p>
      <Button
        variant="outline"
        disabled={download.isPending}
        onClick={() =>
          download.mutate(undefined, {
            onError: (error) => notifyFailure('Backup failed', error, 'Failed to download the backup'),
          })
        }
      >
        <Download aria-hidden="true" />
        {download.isPending ? 'Preparing Backup…' : 'Download Backup'}
      </Button>
    </div>
  );
}
