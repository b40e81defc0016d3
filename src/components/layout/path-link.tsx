import type { ComponentProps, MouseEvent } from 'react';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { localeFromPath, withLocale } from '@/lib/i18n';

/** The locale prefix of the current URL (undefined when the URL has none). */
export function useUrlLocale() {
  return useRouterState({ select: (s) => localeFromPath(s.location.pathname) });
}

/** Builds an href for an unprefixed internal path, keeping the current URL's locale prefix. */
export function useLocalizedHref() {
  const locale = useUrlLocale();
  return (path: string) => withLocale(path, locale);
}

/**
 * A link to an internal path given as a string (drawer entries, stored tab histories), with
 * the current locale prefix; plain left clicks navigate in the app.
 */
export function PathLink({ path, onClick, replace, ...props }: Omit<ComponentProps<'a'>, 'href'> & { path: string; replace?: boolean }) {
  const router = useRouter();
  const href = useLocalizedHref()(path);
  return (
    <a
      href={href}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        void router.navigate({ href, replace });
      }}
      {...props}
    />
  );
}
