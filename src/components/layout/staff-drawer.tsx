import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Menu } from 'lucide-react';
import type { Roles } from '@/lib/auth';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { PathLink } from './path-link';

/** The back-office menu: the harbour-team block for all staff, and the admin block for admins. */
export function StaffDrawer({ roles }: { roles: Roles }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const harbour = [
    { path: '/account/admin/overview', label: t`Übersicht` },
    { path: '/account/admin/calendar', label: t`Kalender` },
    { path: '/account/admin/orders', label: t`Bestellungen` },
    { path: '/account/admin/orders/new', label: t`Neue Buchung` },
    { path: '/account/admin/inbox', label: t`Posteingang` },
    { path: '/account/admin/map', label: t`Hafenplan` },
    { path: '/account/admin/cash', label: t`Kassenbuch` },
    { path: '/account/admin/desk-sale', label: t`Verkauf am Hafenbüro` },
    { path: '/account/admin/hours', label: t`Arbeitsstunden` },
  ];
  const admin = [
    { path: '/account/admin/places', label: t`Stellplätze` },
    { path: '/account/admin/news', label: t`News` },
    { path: '/account/admin/users', label: t`Benutzer` },
    { path: '/account/admin/sale-codes', label: t`Codes` },
    { path: '/account/admin/extras', label: t`Extras` },
    { path: '/account/admin/settings', label: t`Einstellungen` },
    { path: '/account/admin/reports', label: t`Berichte` },
    { path: '/account/admin/datev', label: t`DATEV-Export` },
    { path: '/account/admin/audit', label: t`Änderungsprotokoll` },
  ];
  const block = (title: string, items: { path: string; label: string }[]) => (
    <nav aria-label={title}>
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h3>
      <ul className="grid gap-0.5">
        {items.map((item) => (
          <li key={item.path}>
            <PathLink path={item.path} onClick={() => setOpen(false)} className="block rounded-md px-3 py-2 hover:bg-slate-100">
              {item.label}
            </PathLink>
          </li>
        ))}
      </ul>
    </nav>
  );
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
        {block(t`Hafenteam`, harbour)}
        {roles.admin && block(t`Admin`, admin)}
      </SheetContent>
    </Sheet>
  );
}
