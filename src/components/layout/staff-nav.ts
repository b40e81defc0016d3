import { useLingui } from '@lingui/react/macro';
import { useRouterState } from '@tanstack/react-router';
import { stripLocale } from '@/lib/i18n';
import type { Roles } from '@/lib/auth';

export interface StaffNavItem {
  path: string;
  label: string;
}

export interface StaffNavBlock {
  id: 'harbour' | 'admin';
  title: string;
  items: StaffNavItem[];
}

/** The back-office menu (drawer and sidebar): the harbour-team block for all staff, the admin block for admins. */
export function useStaffNav(roles: Roles): StaffNavBlock[] {
  const { t } = useLingui();
  const harbour: StaffNavBlock = {
    id: 'harbour',
    title: t`Hafenteam`,
    items: [
      { path: '/account/admin/overview', label: t`Übersicht` },
      { path: '/account/admin/calendar', label: t`Kalender` },
      { path: '/account/admin/orders', label: t`Bestellungen` },
      { path: '/account/admin/orders/new', label: t`Neue Buchung` },
      { path: '/account/admin/inbox', label: t`Posteingang` },
      { path: '/account/admin/map', label: t`Hafenplan` },
      { path: '/account/admin/cash', label: t`Kassenbuch` },
      { path: '/account/admin/fees', label: t`Liegeplatzgebühren` },
      { path: '/account/admin/desk-sale', label: t`Verkauf am Hafenbüro` },
      { path: '/account/admin/hours', label: t`Arbeitsstunden` },
    ],
  };
  const admin: StaffNavBlock = {
    id: 'admin',
    title: t`Admin`,
    items: [
      { path: '/account/admin/places', label: t`Liegeplätze` },
      { path: '/account/admin/news', label: t`News` },
      { path: '/account/admin/users', label: t`Benutzer` },
      { path: '/account/admin/applications', label: t`Bewerbungen` },
      { path: '/account/admin/offers', label: t`Angebote und Verträge` },
      { path: '/account/admin/sale-codes', label: t`Codes` },
      { path: '/account/admin/extras', label: t`Extras` },
      { path: '/account/admin/seasons', label: t`Saisons und Langzeitpreise` },
      { path: '/account/admin/settings', label: t`Einstellungen` },
      { path: '/account/admin/reports', label: t`Berichte` },
      { path: '/account/admin/datev', label: t`DATEV-Export` },
      { path: '/account/admin/audit', label: t`Änderungsprotokoll` },
    ],
  };
  return roles.admin ? [harbour, admin] : [harbour];
}

/** The item the current page belongs to: the longest item path that is the page's path or a parent of it. */
export function useActiveStaffPath(blocks: StaffNavBlock[]): string | undefined {
  const pathname = useRouterState({ select: (s) => stripLocale(s.location.pathname) });
  let best: string | undefined;
  for (const block of blocks) {
    for (const { path } of block.items) {
      if ((pathname === path || pathname.startsWith(`${path}/`)) && (!best || path.length > best.length)) best = path;
    }
  }
  return best;
}
