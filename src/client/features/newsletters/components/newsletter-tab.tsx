import { Skeleton } from '../../../components/ui/skeleton';
import { useNewsletters } from '../api';
import { NewsletterComposer } from './newsletter-composer';
import { NewsletterHistory } from './newsletter-history';

/** Issue 42: write to the confirmed subscribers, and what was sent to them. */
export function NewsletterTab() {
  const list = useNewsletters();
  if (list.isPending) return <Skeleton className="h-64" />;
  if (list.isError) return <p className="text-sm text-red-700">The newsletters could not be loaded.</p>;
  return (
    <div className="grid gap-6">
      <NewsletterComposer canSend={list.data.canSend} />
      <NewsletterHistory newsletters={list.data.newsletters} />
    </div>
  );
}
