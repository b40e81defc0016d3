import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Globe, LogOut, Menu } from 'lucide-react';
import { getSupabase, type Roles } from '@/lib/auth';
import { localeFromPath, withLocale } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
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
import { LanguageSwitch } from '@/components/layout/language-switch';
import { PathLink } from '@/components/layout/path-link';
import { useActiveStaffPath, useStaffNav } from '@/components/layout/staff-nav';

/** Signs out and leaves the back office for the public start page. */
function useSignOut() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return async () => {
    const supabase = await getSupabase();
    await supabase.auth.signOut();
    queryClient.clear();
    await router.navigate({ href: withLocale('/start', localeFromPath(router.state.location.pathname)) });
  };
}

/** The back office's menu: a persistent sidebar from `lg`, a sheet below (opened from the top bar). */
function StaffSidebar({ roles }: { roles: Roles }) {
  const { t } = useLingui();
  const { setOpenMobile } = useSidebar();
  const blocks = useStaffNav(roles);
  const active = useActiveStaffPath(blocks);
  const close = () => setOpenMobile(false);
  return (
    <Sidebar title={t`Hafenverwaltung`} description={t`Bereiche für Admins und das Hafenteam`} aria-label={t`Hafenverwaltung`}>
      <SidebarHeader className="h-14 flex-row items-center border-b border-slate-200">
        <Link
          to="/{-$locale}/account/admin/overview"
          onClick={close}
          className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-slate-900"
        >
          <img src="/logo.svg" alt="" width={28} height={28} className="size-7" />
          <span className="text-sm leading-tight">
            <Trans>Hafenverwaltung</Trans>
          </span>
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
                      <PathLink path={item.path} aria-current={item.path === active ? 'page' : undefined} onClick={close}>
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
      <SidebarFooter className="border-t border-slate-200 text-sm">
        <PathLink path="/account/profile" onClick={close} className="rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-100">
          <Trans>Mein Profil</Trans>
        </PathLink>
      </SidebarFooter>
    </Sidebar>
  );
}

/**
 * The back office's own top bar (no guest navigation): the menu button (below `lg`), the name,
 * a link to the public site, the language switch and sign-out.
 */
function BackOfficeTopBar() {
  const { t } = useLingui();
  const signOut = useSignOut();
  return (
    <header data-testid="back-office-bar" className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur print:hidden">
      <div className="flex h-14 items-center gap-1 px-2 md:gap-2 md:px-6">
        <SidebarTrigger aria-label={t`Menü öffnen`}>
          <Menu className="size-6" aria-hidden />
        </SidebarTrigger>
        <Link
          to="/{-$locale}/account/admin/overview"
          className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-slate-900 lg:hidden"
        >
          <img src="/logo.svg" alt="" width={28} height={28} className="size-7" />
          <span className="truncate text-sm">
            <Trans>Hafenverwaltung</Trans>
          </span>
        </Link>
        <div className="ml-auto flex shrink-0 items-center gap-1 md:gap-2">
          <PathLink
            path="/start"
            aria-label={t`Zur Website`}
            className="flex items-center gap-1.5 rounded-md p-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            <Globe className="size-5" aria-hidden />
            <span className="hidden sm:inline">
              <Trans>Zur Website</Trans>
            </span>
          </PathLink>
          <LanguageSwitch />
          <Button variant="ghost" onClick={() => void signOut()} aria-label={t`Abmelden`} className="px-2">
            <LogOut className="size-5" aria-hidden />
            <span className="hidden sm:inline">
              <Trans>Abmelden</Trans>
            </span>
          </Button>
        </div>
      </div>
    </header>
  );
}

/**
 * The back office (staff and admin routes): the sidebar, its own top bar and the full-width page
 * beside it. No guest top bar, bottom tabs or footer.
 */
export function BackOfficeShell({ roles, children }: { roles: Roles; children: ReactNode }) {
  return (
    <SidebarProvider>
      <StaffSidebar roles={roles} />
      <SidebarInset>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
        >
          <Trans>Zum Inhalt springen</Trans>
        </a>
        <BackOfficeTopBar />
        <main id="main" className="w-full flex-1 px-4 py-4 md:px-6 md:py-6">
          {children}
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}
