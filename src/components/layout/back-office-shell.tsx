import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Menu } from 'lucide-react';
import type { Roles } from '@/lib/auth';
import {
  Sidebar,
  SidebarContent,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from '@/components/ui/sidebar';
import { PathLink } from './path-link';
import { useActiveStaffPath, useStaffNav } from './staff-nav';

/** The back office's menu: a persistent sidebar from `lg`, a sheet below (opened from the top bar). */
function StaffSidebar({ roles }: { roles: Roles }) {
  const { t } = useLingui();
  const { setOpenMobile } = useSidebar();
  const blocks = useStaffNav(roles);
  const active = useActiveStaffPath(blocks);
  return (
    <Sidebar title={t`Hafenverwaltung`} description={t`Bereiche für Admins und das Hafenteam`} aria-label={t`Hafenverwaltung`}>
      <SidebarHeader className="h-14 flex-row items-center border-b border-slate-200">
        <Link to="/{-$locale}/account/admin/overview" onClick={() => setOpenMobile(false)} className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-slate-900">
          <img src="/logo.svg" alt="" width={28} height={28} className="size-7" />
          <span className="text-sm leading-tight"><Trans>Hafenverwaltung</Trans></span>
        </Link>
      </SidebarHeader>
      <SidebarContent className="py-2">
        {blocks.map((block) => (
          <SidebarGroup key={block.id} asChild>
            <nav aria-label={block.title}>
              <SidebarGroupLabel>{block.title}</SidebarGroupLabel>
              <SidebarMenu>
                {block.items.map((item) => (
                  <SidebarMenuItem key={item.path}>
                    <SidebarMenuButton asChild isActive={item.path === active}>
                      <PathLink path={item.path} aria-current={item.path === active ? 'page' : undefined} onClick={() => setOpenMobile(false)}>
                        {item.label}
                      </PathLink>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                ))}
              </SidebarMenu>
            </nav>
          </SidebarGroup>
        ))}
      </SidebarContent>
    </Sidebar>
  );
}

/** The top bar's menu button in the back office (below `lg`; from `lg` the sidebar is always there). */
export function BackOfficeMenuTrigger() {
  const { t } = useLingui();
  return (
    <SidebarTrigger aria-label={t`Menü öffnen`}>
      <Menu className="size-6" aria-hidden />
    </SidebarTrigger>
  );
}

/** The back office (staff and admin routes): sidebar and the full-width page beside it. */
export function BackOfficeShell({ roles, children }: { roles: Roles; children: ReactNode }) {
  return (
    <SidebarProvider>
      <StaffSidebar roles={roles} />
      <SidebarInset>{children}</SidebarInset>
    </SidebarProvider>
  );
}
