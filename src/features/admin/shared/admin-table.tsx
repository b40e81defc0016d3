import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** A plain, accessible data table for the admin lists: a caption, header cells, rows. */
export function AdminTable({
  caption,
  head,
  children,
  className,
  ...props
}: ComponentProps<'table'> & { caption: string; head: ReactNode[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className={cn('w-full text-left text-sm', className)} {...props}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {head.map((h, i) => (
              <th key={i} scope="col" className="px-3 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}

export function Cell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-2 align-top', className)} {...props} />;
}
