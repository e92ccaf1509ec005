import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { uploadMedia } from '../api';
import { UploadQueue } from '../upload-queue';
import { MediaList } from './media-list';
import { UploadPanel } from './upload-panel';

/** One queue for the page: uploads under way keep going, and stay listed, while staff visit other tabs. */
const pageUploads = new UploadQueue(uploadMedia);

/**
 * The Library tab (admins and superusers): audio in any common format uploaded by drop or picker, analysed
 * by the station (duration, loudness), tagged, previewed, given artwork and deleted.
 */
export function LibraryTab() {
  return <LibraryView uploads={pageUploads} />;
}

/** The tab with the upload queue it shows (tests give each case its own). */
export function LibraryView({ uploads }: { uploads: UploadQueue }) {
  // Opened from a link that names what to fix (?tab=library&search=…): the list starts searched for it.
  const linkedSearch =
    typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('search') ?? '');
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Add to the Library</CardTitle>
          <CardDescription>
            Music, sermons, devotions, jingles and announcements for the AutoDJ. Each file is checked and its
            loudness measured, so everything plays at the same level.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <UploadPanel queue={uploads} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Media Library</CardTitle>
          <CardDescription>
            Search, preview and tag what the station can play, with what music licences ask for.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <MediaList initialSearch={linkedSearch} />
        </CardContent>
      </Card>
    </div>
  );
}
