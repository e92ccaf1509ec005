import ChevronRight from 'lucide-react/icons/chevron-right';
import { Fragment } from 'react';
import { getStation, networkLink } from '../../lib/station';

export interface BreadcrumbItem {
  label: string;
  href?: string;
  external?: boolean;
}

const linkClass =
  'rounded text-blue-800 hover:text-blue-950 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500';

/** SPEC.md section 2: the network site first, then the items; the last item is the current page. */
export function Breadcrumb({ items }: { items: BreadcrumbItem[] }) {
  const station = getStation();
  return (
    <nav aria-label="Breadcrumb" className="border-b border-amber-200 bg-amber-50">
      <ol className="mx-auto flex max-w-6xl flex-wrap items-center gap-1.5 px-4 py-2 text-sm">
        <li>
          <a href={networkLink('', station)} target="_blank" rel="noopener noreferrer" className={linkClass}>
            {station.networkName}
          </a>
        </li>
        {items.map((item, index) => {
          const isLast = index === items.length - 1;
          return (
            <Fragment key={`${item.label}-${index}`}>
              <li aria-hidden="true" className="text-slate-500">
                <ChevronRight className="h-4 w-4" />
              </li>
              <li>
                {isLast ? (
                  <span aria-current="page" className="font-semibold text-amber-800">
                    {item.label}
                  </span>
                ) : item.href ? (
                  <a
                    href={item.href}
                    className={linkClass}
                    {...(item.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  >
                    {item.label}
                  </a>
                ) : (
                  <span className="text-slate-700">{item.label}</span>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
