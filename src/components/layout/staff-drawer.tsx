import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Menu } from 'lucide-react';
import type { Roles } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { PathLink } from '@/components/layout/path-link';
import { useActiveStaffPath, useStaffNav } from '@/components/layout/staff-nav';

/**
 * The back-office menu on public pages (any width) for staff: the harbour-team block for all
 * staff, and the admin block for admins. In the back office the sidebar takes its place.
 */
export function StaffDrawer({ roles }: { roles: Roles }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const blocks = useStaffNav(roles);
  const active = useActiveStaffPath(blocks);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t`Menü öffnen`}>
          <Menu className="size-6" aria-hidden />
        </Button>
      </SheetTrigger>
      <SheetContent side="left">
        <SheetTitle>
          <Trans>Hafenverwaltung</Trans>
        </SheetTitle>
        <SheetDescription className="sr-only">
          <Trans>Bereiche für Admins und das Hafenteam</Trans>
        </SheetDescription>
        {blocks.map((block) => (
          <nav key={block.id} aria-label={block.title}>
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{block.title}</h3>
            <ul className="grid gap-0.5">
              {block.items.map((item) => (
                <li key={item.path}>
                  <PathLink
                    path={item.path}
                    onClick={() => setOpen(false)}
                    aria-current={item.path === active ? 'page' : undefined}
                    className={cn(
                      'block rounded-md px-3 py-2 hover:bg-slate-100',
                      item.path === active && 'bg-primary-light font-semibold text-primary-darker',
                    )}
                  >
                    {item.label}
                  </PathLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </SheetContent>
    </Sheet>
  );
}
