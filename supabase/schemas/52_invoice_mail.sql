-- Invoice documents travel with the e-mail about what issued them (issue 21 item 8): the
-- payment receipt carries the invoice, the cancellation, change and refund e-mails the
-- cancellation invoice, the new invoice or the credit note. The outbox keeps a reference
-- ({invoice_id, filename, content_type}); send-mail renders the PDF when it sends the message
-- (supabase/functions/_shared/invoice-pdf.ts), so no PDF is stored in the database.
--
-- The mail and the documents of one change are written by one statement (one API call), in
-- either order (the receipt is queued before the payment marks the order paid; a cancellation's
-- documents are issued before the guest is told), so each side notes itself in a
-- transaction-local setting stamped with the statement's start, and looks for the other there:
-- a document issued attaches itself to the order's mails queued by the same statement, and a
-- mail queued takes the order's documents issued by the same statement. Mails and documents of
-- earlier statements of the same transaction are not matched.

create function private.invoice_mail_attachment(p_doc public.invoices, p_locale text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'invoice_id', p_doc.id,
    'filename', case p_doc.kind
        when 'cancellation' then case when p_locale = 'en' then 'Cancellation-invoice-' else 'Stornorechnung-' end
        when 'credit_note' then case when p_locale = 'en' then 'Credit-note-' else 'Rechnungskorrektur-' end
        else case when p_locale = 'en' then 'Invoice-' else 'Rechnung-' end
      end || p_doc.invoice_number || '.pdf',
    'content_type', 'application/pdf')
$$;
comment on function private.invoice_mail_attachment(public.invoices, text) is 'The outbox attachment entry that names an invoice document; send-mail renders its PDF when sending.';
revoke execute on function private.invoice_mail_attachment(public.invoices, text) from public;

create function private.invoice_mail_kinds()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['payment_receipt', 'booking_changed', 'booking_cancelled', 'refund_notice']
$$;
comment on function private.invoice_mail_kinds() is 'The e-mails that carry the invoice documents issued with them.';
revoke execute on function private.invoice_mail_kinds() from public;

-- The ids noted under `p_name` by the current statement (an empty list once another statement runs).
create function private.statement_noted(p_name text)
returns text[]
language sql
stable
set search_path = ''
as $$
  select case when split_part(v, '|', 1) = pg_catalog.statement_timestamp()::text
              then pg_catalog.string_to_array(nullif(pg_catalog.btrim(split_part(v, '|', 2)), ''), ' ')
              else '{}'::text[] end
    from (select coalesce(pg_catalog.current_setting(p_name, true), '') as v) s
$$;
comment on function private.statement_noted(text) is 'The ids a trigger noted under a transaction-local setting during the current statement.';
revoke execute on function private.statement_noted(text) from public;

create function private.statement_note(p_name text, p_id text)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_catalog.set_config(p_name,
    pg_catalog.statement_timestamp()::text || '|' || pg_catalog.array_to_string(private.statement_noted(p_name) || p_id, ' '), true)
$$;
comment on function private.statement_note(text, text) is 'Notes an id under a transaction-local setting for the rest of the current statement.';
revoke execute on function private.statement_note(text, text) from public;

create function private.invoices_attach_to_mail()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.statement_note('app.invoice_mail_documents', new.id::text);
  update public.outbox o
     set attachments = o.attachments || private.invoice_mail_attachment(new, o.locale)
   where o.id::text = any (private.statement_noted('app.invoice_mail_messages'))
     and o.order_id = new.order_id
     and o.status = 'pending'
     and not o.attachments @> jsonb_build_array(jsonb_build_object('invoice_id', new.id));
  return null;
end
$$;
comment on function private.invoices_attach_to_mail() is 'After insert on invoices: attaches the new document (by reference) to the order''s e-mails queued by the same statement, and notes it for those queued after it.';
revoke execute on function private.invoices_attach_to_mail() from public;

create trigger invoices_attach_to_mail after insert on public.invoices
  for each row execute function private.invoices_attach_to_mail();

create function private.outbox_attach_invoices()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.order_id is null or not (new.kind = any (private.invoice_mail_kinds())) then
    return new;
  end if;
  perform private.statement_note('app.invoice_mail_messages', new.id::text);
  new.attachments := new.attachments || coalesce((
    select jsonb_agg(private.invoice_mail_attachment(i, new.locale) order by i.year, i.number)
      from public.invoices i
     where i.id::text = any (private.statement_noted('app.invoice_mail_documents'))
       and i.order_id = new.order_id
       and not new.attachments @> jsonb_build_array(jsonb_build_object('invoice_id', i.id))), '[]'::jsonb);
  return new;
end
$$;
comment on function private.outbox_attach_invoices() is 'Before insert on outbox: an e-mail about an order (receipt, change, cancellation, refund) takes the invoice documents issued for it earlier in the same statement (by reference), and is noted for those issued after it.';
revoke execute on function private.outbox_attach_invoices() from public;

create trigger outbox_attach_invoices before insert on public.outbox
  for each row execute function private.outbox_attach_invoices();
