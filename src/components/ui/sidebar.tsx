import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
  type ComponentProps,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { Slot } from 'radix-ui';
import { PanelLeft } from 'lucide-react';
import { cn } from '@/lib/utils';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';

/**
 * shadcn's sidebar, trimmed to what the back office uses: from `lg` a persistent panel beside
 * the page (SidebarInset), below `lg` the same content in a sheet opened by SidebarTrigger.
 * No collapsed/icon mode (so no tooltip, no cookie).
 */
const SIDEBAR_WIDTH = '12rem';
const MOBILE_QUERY = '(max-width: 1279.98px)';

function subscribeMobile(listener: () => void) {
  const query = window.matchMedia(MOBILE_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** Below `lg` (1280 px, the design card's breakpoint) the sidebar is a sheet. */
export function useIsMobile() {
  return useSyncExternalStore(
    subscribeMobile,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}

interface SidebarContextValue {
  isMobile: boolean;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  toggleSidebar: () => void;
}

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebar() {
  const context = useContext(SidebarContext);
  if (!context) throw new Error('useSidebar must be used within a SidebarProvider.');
  return context;
}

export function SidebarProvider({ className, style, children, ...props }: ComponentProps<'div'>) {
  const isMobile = useIsMobile();
  const [openMobile, setOpenMobile] = useState(false);
  const toggleSidebar = useCallback(() => setOpenMobile((open) => !open), []);
  const value = useMemo(() => ({ isMobile, openMobile, setOpenMobile, toggleSidebar }), [isMobile, openMobile, toggleSidebar]);
  return (
    <SidebarContext.Provider value={value}>
      <div
        data-slot="sidebar-wrapper"
        style={{ '--sidebar-width': SIDEBAR_WIDTH, ...style } as CSSProperties}
        className={cn('flex min-h-dvh w-full', className)}
        {...props}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  );
}

/**
 * The panel. From `lg`: a fixed column at the left with a gap of its width in the flow (so the
 * inset never slides under it). Below `lg`: a sheet, titled `title` for screen readers.
 */
export function Sidebar({
  title,
  description,
  className,
  children,
  ...props
}: ComponentProps<'div'> & { title: string; description?: string }) {
  const { isMobile, openMobile, setOpenMobile } = useSidebar();
  return (
    <>
      <div data-slot="sidebar" className="hidden shrink-0 lg:block print:hidden">
        <div data-slot="sidebar-gap" className="w-(--sidebar-width)" />
        <div
          data-slot="sidebar-container"
          className={cn(
            'fixed inset-y-0 left-0 z-30 flex h-svh w-(--sidebar-width) flex-col border-r border-slate-200 bg-slate-50',
            className,
          )}
          {...props}
        >
          {children}
        </div>
      </div>
      {isMobile && (
        <Sheet open={openMobile} onOpenChange={setOpenMobile}>
          <SheetContent side="left" className="gap-2 p-0">
            <SheetTitle className="sr-only">{title}</SheetTitle>
            <SheetDescription className="sr-only">{description}</SheetDescription>
            <div data-slot="sidebar" className="flex h-full flex-col">
              {children}
            </div>
          </SheetContent>
        </Sheet>
      )}
    </>
  );
}

export function SidebarTrigger({ className, onClick, children, ...props }: ComponentProps<typeof Button>) {
  const { toggleSidebar } = useSidebar();
  return (
    <Button
      data-slot="sidebar-trigger"
      variant="ghost"
      size="icon"
      className={cn('lg:hidden', className)}
      onClick={(event) => {
        onClick?.(event);
        toggleSidebar();
      }}
      {...props}
    >
      {children ?? <PanelLeft className="size-6" aria-hidden />}
    </Button>
  );
}

/** The page beside the sidebar. */
export function SidebarInset({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-inset" className={cn('flex min-w-0 flex-1 flex-col', className)} {...props} />;
}

export function SidebarHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-header" className={cn('flex flex-col gap-2 p-3', className)} {...props} />;
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-footer" className={cn('flex flex-col gap-2 p-3', className)} {...props} />;
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-content" className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto', className)} {...props} />;
}

/** A group of entries; `asChild` lets it be a `nav` with its own label. */
export function SidebarGroup({ className, asChild, ...props }: ComponentProps<'div'> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : 'div';
  return <Comp data-slot="sidebar-group" className={cn('flex w-full min-w-0 flex-col px-2 py-1', className)} {...props} />;
}

export function SidebarGroupLabel({ className, ...props }: ComponentProps<'h2'>) {
  return (
    <h2
      data-slot="sidebar-group-label"
      className={cn('px-2 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase', className)}
      {...props}
    />
  );
}

export function SidebarMenu({ className, ...props }: ComponentProps<'ul'>) {
  return <ul data-slot="sidebar-menu" className={cn('flex w-full min-w-0 flex-col gap-0.5', className)} {...props} />;
}

export function SidebarMenuItem({ className, ...props }: ComponentProps<'li'>) {
  return <li data-slot="sidebar-menu-item" className={cn('relative', className)} {...props} />;
}

/** An entry; `isActive` marks the current page (style only: the link itself carries aria-current). */
export function SidebarMenuButton({
  asChild,
  isActive,
  className,
  children,
  ...props
}: ComponentProps<'button'> & { asChild?: boolean; isActive?: boolean; children?: ReactNode }) {
  const Comp = asChild ? Slot.Root : 'button';
  return (
    <Comp
      data-slot="sidebar-menu-button"
      data-active={isActive || undefined}
      className={cn(
        'flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm text-slate-800 outline-none hover:bg-slate-200/70 focus-visible:ring-2 focus-visible:ring-primary',
        'data-[active]:bg-primary-light data-[active]:font-semibold data-[active]:text-primary-darker',
        className,
      )}
      {...props}
    >
      {children}
    </Comp>
  );
}
