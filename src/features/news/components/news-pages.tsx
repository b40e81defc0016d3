import { Link } from '@tanstack/react-router';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, CalendarDays } from 'lucide-react';
import { Page, Prose } from '@/components/page';
import { formatDay } from '@/lib/dates';
import { newsImageUrl, newsItemQueryOptions, newsListQueryOptions, newsText, type NewsArticle } from '@/features/news/api/news';

/** The event days of an item ("dates"), in order, for people. */
function EventDays({ item }: { item: NewsArticle }) {
  const { t, i18n } = useLingui();
  if (!item.dates.length) return null;
  const days = [...item.dates].sort().map((day) => formatDay(day, i18n.locale));
  return (
    <p className="flex items-start gap-2 text-sm text-slate-700">
      <CalendarDays className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        <span className="sr-only">{t`Termine:`} </span>
        {days.join(' · ')}
      </span>
    </p>
  );
}

function TitleImage({ item, className }: { item: NewsArticle; className?: string }) {
  if (!item.image_path) return null;
  // Decorative beside the title it illustrates: the title says what the item is about.
  return <img src={newsImageUrl(item.image_path)} alt="" loading="lazy" decoding="async" width={1280} height={720} className={className} />;
}

/** /news: every active news item with its image, short text and a link to the whole item. */
export function NewsListPage() {
  const { t, i18n } = useLingui();
  const { data: items } = useSuspenseQuery(newsListQueryOptions);
  return (
    <Page title={t`Neuigkeiten`} lead={t`Was im Hafen los ist: Veranstaltungen, Messen und Neues für Gäste und Liegeplatzinhaber.`}>
      {items.length === 0 ? (
        <p className="text-slate-700">
          <Trans>Zurzeit gibt es keine Neuigkeiten aus dem Hafen.</Trans>
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label={t`Aktuelle News`}>
          {items.map((item) => {
            const text = newsText(item, i18n.locale);
            return (
              <li key={item.id} className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
                <TitleImage item={item} className="aspect-[16/9] w-full object-cover" />
                <div className="flex flex-1 flex-col gap-2 p-4">
                  <h2 className="text-lg font-semibold text-slate-900 [overflow-wrap:anywhere]">
                    <Link to="/{-$locale}/news/$id" params={{ id: item.id }} className="hover:underline focus-visible:underline">
                      {text.title}
                    </Link>
                  </h2>
                  <EventDays item={item} />
                  {text.short && <p className="text-slate-700 [overflow-wrap:anywhere]">{text.short}</p>}
                  <p className="mt-auto pt-1">
                    <Link
                      to="/{-$locale}/news/$id"
                      params={{ id: item.id }}
                      aria-label={t`Weiterlesen: ${text.title}`}
                      className="text-primary-dark underline underline-offset-4"
                    >
                      <Trans>Weiterlesen</Trans>
                    </Link>
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Page>
  );
}

/** /news/{id}: one news item in full (long text in paragraphs, title image, event days). */
export function NewsItemPage({ id }: { id: string }) {
  const { i18n } = useLingui();
  const { data: item } = useSuspenseQuery(newsItemQueryOptions(id));
  // The route's loader answers 404 for a missing item; this only narrows the type.
  if (!item) return null;
  const text = newsText(item, i18n.locale);
  const paragraphs = text.description
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <Page title={text.title} lead={text.short || undefined}>
      <EventDays item={item} />
      <TitleImage item={item} className="aspect-[16/9] w-full max-w-3xl rounded-xl border border-slate-200 object-cover" />
      {paragraphs.length > 0 && (
        <Prose>
          {paragraphs.map((p, i) => (
            <p key={i} className="whitespace-pre-line [overflow-wrap:anywhere]">
              {p}
            </p>
          ))}
        </Prose>
      )}
      <p>
        <Link to="/{-$locale}/news" className="inline-flex items-center gap-1 text-primary-dark underline underline-offset-4">
          <ArrowLeft className="size-4" aria-hidden />
          <Trans>Alle Neuigkeiten</Trans>
        </Link>
      </p>
    </Page>
  );
}
