import { useEffect, type ReactNode } from 'react';
import { Breadcrumb } from '../../components/layout/breadcrumb';
import { Header } from '../../components/layout/header';
import { getStation } from '../../lib/station';

/** SPEC.md section 2: the header is on every page, the admin panel's included. */
export function AdminLayout({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.title = `Admin Panel - ${getStation().name}`;
  }, []);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <Header />
      <Breadcrumb items={[{ label: 'Radio Ministry', href: '/' }, { label: 'Admin Panel' }]} />
      <div className="flex-1">{children}</div>
    </div>
  );
}
