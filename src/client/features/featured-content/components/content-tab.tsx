import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useQuery } from '@tanstack/react-query';
import { featuredContentQuery } from '../api/featured-content';
import { ContentForm } from './content-form';
import { ContentRow } from './content-row';

/** SPEC.md section 2, Content tab: the featured list with in-place edit and delete, and the add form. */
export function ContentTab() {
  // Read afresh whenever the tab opens: a transcript finished meanwhile shows on its sermon's row.
  const list = useQuery({ ...featuredContentQuery(), staleTime: 0 });
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Add Featured Content</CardTitle>
          <CardDescription>
            Sermons, devotions, music and announcements shown on the home page.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ContentForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Featured Content</CardTitle>
          <CardDescription>
            {list.data ? `${list.data.length} item${list.data.length === 1 ? '' : 's'}` : ' '}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {list.isPending && (
            <div className="space-y-3">
              <Skeleton className="h-20" />
              <Skeleton className="h-20" />
            </div>
          )}
          {list.isError && <p className="text-sm text-red-700">The featured content could not be loaded.</p>}
          {list.data?.length === 0 && <p className="text-sm text-slate-600">No featured content yet.</p>}
          {list.data && list.data.length > 0 && (
            <ul className="space-y-3" aria-label="Featured content">
              {list.data.map((item) => (
                <ContentRow key={item.id} item={item} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
