import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Textarea } from '@/components/ui/input';
import { identityQueryOptions, isAdmin } from '@/lib/auth';
import { formatBerlinDateTime, formatDay } from '@/lib/dates';
import { harbourKeys } from '@/features/harbour/shared/keys';
import {
  inboxApplicationsQueryOptions,
  inboxKeys,
  inboxQueryOptions,
  replyToApplication,
  replyToMessage,
  setMessageDone,
  type InboxApplication,
  type InboxMessage,
  type MessageReply,
} from '@/features/harbour/inbox/api/inbox';
import { replySchema, type ReplyValues } from '@/features/harbour/inbox/schemas/reply';
import { useInboxRealtime } from '@/features/harbour/inbox/hooks/use-inbox-realtime';
import { AcceptRequestForm } from '@/features/harbour/inbox/components/accept-request-form';
import { useMessageKindLabel } from '@/features/harbour/inbox/components/inbox-labels';
import { FormAlert } from '@/components/form-alert';

/** Who an answer goes to: the sender of a message or the applicant. */
interface Correspondent {
  name: string;
  email: string;
  locale: string;
  replies: MessageReply[];
  send(body: string): Promise<void>;
}

/** The answers sent so far, oldest first, and the form for the next one. */
function Thread({ message }: { message: Correspondent }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const headingId = useId();
  const form = useForm<ReplyValues>({ resolver: zodResolver(replySchema), defaultValues: { body: '' } });
  const onSubmit = form.handleSubmit(async ({ body }) => {
    setError(null);
    setSent(false);
    try {
      await message.send(body);
      form.reset({ body: '' });
      setOpen(false);
      setSent(true);
      await queryClient.invalidateQueries({ queryKey: inboxKeys.all });
    } catch {
      // The text stays in the field: nothing typed is lost.
      setError(t`Die Antwort konnte nicht gesendet werden. Bitte erneut versuchen.`);
    }
  });
  const replies = message.replies;
  const language = message.locale === 'en' ? t`Englisch` : t`Deutsch`;
  return (
    <div className="mt-3 grid gap-2">
      {replies.length > 0 && (
        <section aria-labelledby={headingId} className="grid gap-2 border-l-2 border-primary/40 pl-3">
          <h3 id={headingId} className="text-sm font-semibold">
            <Trans>Antworten ({replies.length})</Trans>
          </h3>
          <ol className="grid gap-2">
            {replies.map((r) => {
              const author = r.author_name ?? t`Hafenteam`;
              const at = formatBerlinDateTime(r.created_at, locale);
              return (
                <li key={r.id} className="text-sm">
                  <p className="text-xs text-slate-600">
                    <Trans>
                      {author} am {at}
                    </Trans>
                  </p>
                  <p className="whitespace-pre-line">{r.body}</p>
                </li>
              );
            })}
          </ol>
        </section>
      )}
      {sent && (
        <p role="status" className="text-sm text-green-800">
          <Trans>Antwort an {message.email} gesendet.</Trans>
        </p>
      )}
      {open ? (
        <Form {...form}>
          <form noValidate onSubmit={onSubmit} aria-label={t`Antwort an ${message.name}`} className="grid gap-2">
            <FormField
              control={form.control}
              name="body"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>
                      Antwort (geht per E-Mail an {message.email}, auf {language})
                    </Trans>
                  </FormLabel>
                  <FormControl>
                    <Textarea rows={5} maxLength={5000} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            {error && <FormAlert className="text-sm">{error}</FormAlert>}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" size="sm" disabled={form.formState.isSubmitting}>
                <Trans>Antwort senden</Trans>
              </Button>
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => {
                  setOpen(false);
                  setError(null);
                }}
              >
                <Trans>Abbrechen</Trans>
              </Button>
            </div>
          </form>
        </Form>
      ) : (
        <div>
          <Button
            type="button"
            size="sm"
            variant="outline"
            onClick={() => {
              setOpen(true);
              setSent(false);
            }}
          >
            <Trans>Antworten</Trans>
          </Button>
        </div>
      )}
    </div>
  );
}

function MessageCard({ message, onToggle, busy }: { message: InboxMessage; onToggle: () => void; busy: boolean }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const kindLabel = useMessageKindLabel()(message);
  const done = message.status === 'done';
  return (
    <li
      aria-label={`${kindLabel} – ${message.name}`}
      className={`rounded-lg border p-3 ${done ? 'border-slate-200 bg-slate-50 text-slate-700' : 'border-primary/40 bg-white'}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-800">{kindLabel}</span>
          {message.name}
        </p>
        <span className="text-sm text-slate-600">{formatBerlinDateTime(message.created_at, locale)}</span>
      </div>
      <p className="mt-1 text-sm">
        <a className="text-primary-dark underline" href={`mailto:${message.email}`}>
          {message.email}
        </a>
        {message.phone && (
          <>
            {' '}
            ·{' '}
            <a className="text-primary-dark underline" href={`tel:${message.phone.replace(/[^\d+]/g, '')}`}>
              {message.phone}
            </a>
          </>
        )}
        {message.preferred_date && (
          <>
            {' '}
            · <Trans>Wunschtermin: {formatDay(message.preferred_date, locale)}</Trans>
          </>
        )}
        {message.boat?.name && (
          <>
            {' '}
            · <Trans>Boot/Platz: {message.boat.name}</Trans>
          </>
        )}
        {' · '}
        {message.locale === 'en' ? t`schreibt Englisch` : t`schreibt Deutsch`}
      </p>
      <p className="mt-2 text-sm whitespace-pre-line">{message.message}</p>
      <Thread
        message={{
          name: message.name,
          email: message.email,
          locale: message.locale,
          replies: message.message_replies,
          send: (body) => replyToMessage(message.id, body),
        }}
      />
      <div className="mt-2 flex items-center gap-3">
        <Button size="sm" variant={done ? 'outline' : 'default'} disabled={busy} onClick={onToggle}>
          {done ? <Trans>Wieder öffnen</Trans> : <Trans>Erledigt</Trans>}
        </Button>
        {done && message.done_at && (
          <span className="text-xs text-slate-600">
            <Trans>erledigt am {formatBerlinDateTime(message.done_at, locale)}</Trans>
          </span>
        )}
      </div>
      {!done && message.kind === 'service_request' && <AcceptRequestForm message={message} />}
    </li>
  );
}

function ApplicationCard({ application: a }: { application: InboxApplication }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const name = `${a.first_name} ${a.last_name}`;
  const metres = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE', { maximumFractionDigits: 2 });
  const size = a.boat?.length && a.boat.width ? `${metres.format(a.boat.length)} × ${metres.format(a.boat.width)} m` : null;
  return (
    <li aria-label={t`Bewerbung – ${name}`} className="rounded-lg border border-primary/40 bg-white p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-800">
            <Trans>Bewerbung Nr. {a.queue_number}</Trans>
          </span>
          {name}
        </p>
        <span className="text-sm text-slate-600">{formatBerlinDateTime(a.created_at, locale)}</span>
      </div>
      <p className="mt-1 text-sm">
        <a className="text-primary-dark underline" href={`mailto:${a.email}`}>
          {a.email}
        </a>
        {a.phone && (
          <>
            {' '}
            ·{' '}
            <a className="text-primary-dark underline" href={`tel:${a.phone.replace(/[^\d+]/g, '')}`}>
              {a.phone}
            </a>
          </>
        )}
        {a.boat?.name && (
          <>
            {' '}
            · <Trans>Boot: {a.boat.name}</Trans>
          </>
        )}
        {size && <> · {size}</>}
        {a.desired_start && (
          <>
            {' '}
            · <Trans>ab {formatDay(a.desired_start, locale)}</Trans>
          </>
        )}
        {' · '}
        {a.locale === 'en' ? t`schreibt Englisch` : t`schreibt Deutsch`}
      </p>
      {a.message && <p className="mt-2 text-sm whitespace-pre-line">{a.message}</p>}
      <Thread
        message={{ name, email: a.email, locale: a.locale, replies: a.message_replies, send: (body) => replyToApplication(a.id, body) }}
      />
    </li>
  );
}

/** Admins: the open long-term applications, to answer a question without deciding (the decision is made with the berth's holder). */
function ApplicationsSection() {
  const { t } = useLingui();
  const { data, error } = useQuery(inboxApplicationsQueryOptions());
  return (
    <Section
      aria-label={t`Offene Bewerbungen um einen Langzeitliegeplatz`}
      title={
        <>
          {t`Offene Bewerbungen um einen Langzeitliegeplatz`} {data && <span className="text-slate-500">({data.length})</span>}
        </>
      }
    >
      {error && (
        <FormAlert className="text-sm">
          <Trans>Die Bewerbungen konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
      {data?.length === 0 && (
        <p className="text-sm text-slate-600">
          <Trans>Keine offenen Bewerbungen.</Trans>
        </p>
      )}
      {!!data?.length && (
        <ul className="grid gap-2">
          {data.map((a) => (
            <ApplicationCard key={a.id} application={a} />
          ))}
        </ul>
      )}
    </Section>
  );
}

/** /account/admin/inbox: contact messages and service requests, open ones first, newest first; mark done or open again (live). */
export function InboxPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { data: identity } = useQuery(identityQueryOptions);
  useInboxRealtime();
  const { data, error, isPending } = useQuery(inboxQueryOptions());
  const [failed, setFailed] = useState(false);
  const toggle = useMutation({
    mutationFn: (m: InboxMessage) => setMessageDone(m.id, m.status !== 'done'),
    onMutate: () => setFailed(false),
    onError: () => setFailed(true),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: inboxKeys.all });
      await queryClient.invalidateQueries({ queryKey: harbourKeys.overview() });
    },
  });
  if (error)
    return (
      <Page title={t`Posteingang`}>
        <FormAlert>
          <Trans>Der Posteingang konnte nicht geladen werden.</Trans>
        </FormAlert>
      </Page>
    );
  if (isPending)
    return (
      <Page title={t`Posteingang`}>
        <p>
          <Trans>Lädt…</Trans>
        </p>
      </Page>
    );
  const open = data.filter((m) => m.status === 'open');
  const done = data.filter((m) => m.status === 'done');
  const list = (items: InboxMessage[], empty: string) =>
    items.length === 0 ? (
      <p className="text-sm text-slate-600">{empty}</p>
    ) : (
      <ul className="grid gap-2">
        {items.map((m) => (
          <MessageCard key={m.id} message={m} busy={toggle.isPending && toggle.variables?.id === m.id} onToggle={() => toggle.mutate(m)} />
        ))}
      </ul>
    );
  return (
    <Page
      title={t`Posteingang`}
      lead={t`Nachrichten über das Kontaktformular und Serviceanfragen. Antworten gehen per E-Mail an den Absender und bleiben bei der Nachricht.`}
    >
      {failed && (
        <FormAlert>
          <Trans>Das hat nicht geklappt. Bitte erneut versuchen.</Trans>
        </FormAlert>
      )}
      <Section
        aria-label={t`Offen`}
        title={
          <>
            {t`Offen`} <span className="text-slate-500">({open.length})</span>
          </>
        }
      >
        {list(open, t`Keine offenen Nachrichten.`)}
      </Section>
      <Section
        aria-label={t`Erledigt`}
        title={
          <>
            {t`Erledigt`} <span className="text-slate-500">({done.length})</span>
          </>
        }
      >
        {list(done, t`Noch nichts erledigt.`)}
      </Section>
      {isAdmin(identity) && <ApplicationsSection />}
    </Page>
  );
}
