import { useEffect } from 'react';
import { Breadcrumb } from '../components/layout/breadcrumb';
import { Footer } from '../components/layout/footer';
import { Header } from '../components/layout/header';
import { buttonVariants } from '../components/ui/button';
import { getStation } from '../lib/station';

/** Any route other than / and /dashboard-mgmt (the server answers these with HTTP 404). */
export function NotFoundPage() {
  useEffect(() => {
    document.title = `Page Not Found - ${getStation().name}`;
  }, []);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <Header />
      <Breadcrumb items={[{ label: 'Radio Ministry', href: '/' }, { label: 'Page Not Found' }]} />
      <main
        id="main"
        className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-20 text-center"
      >
        <p className="text-6xl font-extrabold text-amber-600" aria-hidden="true">
          404
        </p>
        <h2 className="mt-4 text-3xl font-bold text-blue-950">Page Not Found</h2>
        <p className="mt-3 text-slate-700">The page you are looking for does not exist or has moved.</p>
        <a href="/" className={buttonVariants({ className: 'mt-8' })}>
          Back to the live radio
        </a>
      </main>
      <Footer />
    </div>
  );
}
