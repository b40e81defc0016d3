import { useLingui } from '@lingui/react/macro';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { activateLocale, localeFromPath, locales, persistLocale, stripLocale, withLocale, type Locale } from '@/lib/i18n';
import { getSupabase, hasStoredSession } from '@/lib/auth';
import { clsx } from 'clsx';

async function saveToProfile(locale: Locale) {
  if (!hasStoredSession()) return;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  const user = data.session?.user;
  if (!user || user.is_anonymous) return;
  // Best effort: the choice is already stored on the device.
  await supabase.from('profiles').update({ locale }).eq('id', user.id);
}

/** de | en: switches the language and stays on the same page. */
export function LanguageSwitch() {
  const { i18n, t } = useLingui();
  const router = useRouter();
  const location = useRouterState({ select: (s) => s.location });
  const switchTo = async (locale: Locale) => {
    persistLocale(locale);
    void saveToProfile(locale).catch(() => undefined);
    if (localeFromPath(location.pathname)) {
      const href =
        withLocale(stripLocale(location.pathname), locale) + (location.searchStr ?? '') + (location.hash ? `#${location.hash}` : '');
      await router.navigate({ href, replace: true });
    } else {
      await activateLocale(locale);
    }
  };
  return (
    <div role="group" aria-label={t`Sprache`} className="flex rounded-md border border-slate-300 bg-white p-0.5 text-sm">
      {locales.map((locale) => (
        <button
          key={locale}
          type="button"
          lang={locale}
          aria-pressed={i18n.locale === locale}
          aria-label={locale === 'de' ? 'Deutsch' : 'English'}
          onClick={() => void switchTo(locale)}
          className={clsx(
            'min-w-9 rounded px-2 py-1 font-semibold uppercase',
            i18n.locale === locale ? 'bg-primary-dark text-white' : 'text-slate-700 hover:bg-slate-100',
          )}
        >
          {locale}
        </button>
      ))}
    </div>
  );
}
