import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import { useEffect, useState } from 'react';
import { MEDIA_KIND_LABELS, MEDIA_KINDS, type MediaKind } from '../../../../common/library';
import { countOf } from '../../../components/card-heading';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { PAGE_SIZE, useMediaList } from '../api';
import { BulkEditForm } from './bulk-edit-form';
import { MediaRow } from './media-row';
import { SELECT_CLASS } from './select-class';

/** Typing pauses this long before the search is sent. */
const SEARCH_PAUSE_MS = 300;

/** The library, searched and filtered by kind, a page at a time. */
export function MediaList({ initialSearch = '' }: { initialSearch?: string }) {
  const [typed, setTyped] = useState(initialSearch);
  const [search, setSearch] = useState(initialSearch);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [kind, setKind] = useState<MediaKind | ''>('');
  const [offset, setOffset] = useState(0);
  const list = useMediaList({ search, kind, offset });

  // A new search starts at its first page; the page staff turned to stays until the words change.
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => {
      setSearch(typed);
      setOffset(0);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, search]);

  const total = list.data?.total ?? 0;
  const shown = list.data?.items.length ?? 0;
  const filtered = search.trim() !== '' || kind !== '';
  // The last item of the last page was deleted: the page before it is shown instead.
  if (list.data && !list.isPlaceholderData && shown === 0 && offset > 0)
    setOffset(Math.max(0, offset - PAGE_SIZE));

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[1fr_14rem]" role="search" aria-label="Library search">
        <div className="space-y-1">
          <Label htmlFor="library-search">Search</Label>
          <Input
            id="library-search"
            type="search"
            placeholder="Title, artist or album"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="library-kind">Kind</Label>
          <select
            id="library-kind"
            className={SELECT_CLASS}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as MediaKind | '');
              setOffset(0);
            }}
          >
            <option value="">All kinds</option>
            {MEDIA_KINDS.map((k) => (
              <option key={k} value={k}>
                {MEDIA_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.isPending && (
        <div className="space-y-3">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
      )}
      {list.isError && !list.data && (
        <p role="alert" className="text-sm text-red-700">
          The library could not be loaded.
        </p>
      )}
      {list.data && (
        <p className="text-sm text-slate-600" aria-live="polite">
          {total === 0
            ? filtered
              ? 'Nothing in the library matches.'
              : 'The library is empty: upload audio above.'
            : shown < total
              ? `${offset + 1}–${offset + shown} of ${countOf(total, 'item')}`
              : countOf(total, 'item')}
        </p>
      )}
      {list.data && shown > 1 && !bulkOpen && (
        <Button variant="outline" size="sm" onClick={() => setBulkOpen(true)}>
          {`Change all ${shown} shown`}
        </Button>
      )}
      {list.data && shown > 1 && bulkOpen && (
        <BulkEditForm items={list.data.items} onDone={() => setBulkOpen(false)} />
      )}
      {list.data && shown > 0 && (
        <ul className="space-y-3" aria-label="Library items">
          {list.data.items.map((item) => (
            <MediaRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {total > PAGE_SIZE && (
        <nav className="flex justify-between gap-2" aria-label="Library pages">
          <Button
            variant="outline"
            size="sm"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={offset + PAGE_SIZE >= total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      )}
    </div>
  );
}
