import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Textarea } from '@/components/ui/input';
import { formatBerlinDateTime, formatDay } from '@/lib/dates';
import { harbourKeys } from '../api/keys';
import { inboxKeys, inboxQueryOptions, replyToMessage, setMessageDone, type InboxMessage } from '../api/inbox';
import { replySchema, type ReplyValues } from '../schemas/reply';
import { useInboxRealtime } from '../hooks/use-inbox-realtime';
import { AcceptRequestForm } from './accept-request-form';
import { useMessageKindLabel } from './inbox-labels';

/** The answers sent so far, oldest first, and the form for the next one. */
function Thread({ message }: { message: InboxMessage }) {
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
      await replyToMessage(message.id, body);
      form.reset({ body: '' });
      setOpen(false);
      setSent(true);
      await queryClient.invalidateQueries({ queryKey: inboxKeys.all });
    } catch {
      // The text stays in the field: nothing typed is lost.
      setError(t`Die Antwort konnte nicht gesendet werden. Bitte erneut versuchen.`);
    }
  });
  const replies = message.message_replies;
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
                  <p className="text-xs text-slate-600"><Trans>{author} am {at}</Trans></p>
                  <p className="whitespace-pre-line">{r.body}</p>
                </li>
              );
            })}
          </ol>
        </section>
      )}
      {sent && <p role="status" className="text-sm text-green-800"><Trans>Antwort an {message.email} gesendet.</Trans></p>}
      {open ? (
        <Form {...form}>
          <form noValidate onSubmit={onSubmit} aria-label={t`Antwort an ${message.name}`} className="grid gap-2">
            <FormField control={form.control} name="body" render={({ field }) => (
              <FormItem>
                <FormLabel><Trans>Antwort (geht per E-Mail an {message.email}, auf {language})</Trans></FormLabel>
                <FormControl><Textarea rows={5} maxLength={5000} {...field} /></FormControl>
                <FormMessage />
              </FormItem>
            )} />
            {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" size="sm" disabled={form.formState.isSubmitting}><Trans>Antwort senden</Trans></Button>
              <Button type="button" size="sm" variant="outline" onClick={() => { setOpen(false); setError(null); }}><Trans>Abbrechen</Trans></Button>
            </div>
          </form>
        </Form>
      ) : (
        <div><Button type="button" size="sm" variant="outline" onClick={() => { setOpen(true); setSent(false); }}><Trans>Antworten</Trans></Button></div>
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
    <li aria-label={`${kindLabel} – ${message.name}`} className={`rounded-lg border p-3 ${done ? 'border-slate-200 bg-slate-50 text-slate-700' : 'border-primary/40 bg-white'}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-800">{kindLabel}</span>
          {message.name}
        </p>
        <span className="text-sm text-slate-600">{formatBerlinDateTime(message.created_at, locale)}</span>
      </div>
      <p className="mt-1 text-sm">
        <a className="text-primary-dark underline" href={`mailto:${message.email}`}>{message.email}</a>
        {message.phone && <> · <a className="text-primary-dark underline" href={`tel:${message.phone.replace(/[^\d+]/g, '')}`}>{message.phone}</a></>}
        {message.preferred_date && <> · <Trans>Wunschtermin: {formatDay(message.preferred_date, locale)}</Trans></>}
        {message.boat?.name && <> · <Trans>Boot/Platz: {message.boat.name}</Trans></>}
        {' · '}{message.locale === 'en' ? t`schreibt Englisch` : t`schreibt Deutsch`}
      </p>
      <p className="mt-2 text-sm whitespace-pre-line">{message.message}</p>
      <Thread message={message} />
      <div className="mt-2 flex items-center gap-3">
        <Button size="sm" variant={done ? 'outline' : 'default'} disabled={busy} onClick={onToggle}>
          {done ? <Trans>Wieder öffnen</Trans> : <Trans>Erledigt</Trans>}
        </Button>
        {done && message.done_at && <span className="text-xs text-slate-600"><Trans>erledigt am {formatBerlinDateTime(message.done_at, locale)}</Trans></span>}
      </div>
      {!done && message.kind === 'service_request' && <AcceptRequestForm message={message} />}
    </li>
  );
}

/** /account/admin/inbox: contact messages and service requests, open ones first, newest first; mark done or open again (live). */
export function InboxPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
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
  if (error) return <Page title={t`Posteingang`}><p role="alert" className="text-red-700"><Trans>Der Posteingang konnte nicht geladen werden.</Trans></p></Page>;
  if (isPending) return <Page title={t`Posteingang`}><p><Trans>Lädt…</Trans></p></Page>;
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
    <Page title={t`Posteingang`} lead={t`Nachrichten über das Kontaktformular und Serviceanfragen. Antworten gehen per E-Mail an den Absender und bleiben bei der Nachricht.`}>
      {failed && <p role="alert" className="text-red-700"><Trans>Das hat nicht geklappt. Bitte erneut versuchen.</Trans></p>}
      <Section aria-label={t`Offen`} title={<>{t`Offen`} <span className="text-slate-500">({open.length})</span></>}>
        {list(open, t`Keine offenen Nachrichten.`)}
      </Section>
      <Section aria-label={t`Erledigt`} title={<>{t`Erledigt`} <span className="text-slate-500">({done.length})</span></>}>
        {list(done, t`Noch nichts erledigt.`)}
      </Section>
    </Page>
  );
}
