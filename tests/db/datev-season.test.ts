/**
 * The DATEV file of the seeded demo season (supabase/seed.sql, seeds/100_operations.sql) on the
 * local stack (PGlite): the harbour desk takes the money of every open stay, then the admin
 * exports the year as the app does (public.datev_postings in pages past max_rows, the EXTF
 * builder of src/features/admin/datev). The file passes a structural check (header, 125 fields
 * per line, CR LF, Windows-1252) and its sums per account equal the revenue report
 * (public.report_revenue) to the cent: gross on the 19 % revenue account, and the net and VAT
 * DATEV takes out of it on that automatic account; the money accounts hold the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import { fetchAll } from '@/lib/fetch-all';
import { buildExtf, COLUMNS, type DatevPosting } from '@/features/admin/datev/lib/extf';
import { signInWithPassword } from '../../supabase/local/test/harness/demo-staff.ts';

const YEAR = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' }).slice(0, 4);

describe('DATEV export of the seeded season (pglite)', () => {
  let stack: Stack;
  const login = async (email: string, password: string): Promise<SupabaseClient> => {
    const sb = createClient(stack.url, stack.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const { error } = await signInWithPassword(sb, { email, password });
    if (error) throw new Error(`${email}: ${error.message}`);
    return sb;
  };

  beforeAll(async () => {
    stack = await startTestStack({ engine: 'pglite', workdir: 'supabase' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("the seeded season keeps the berths' rules: day-guest berths (one_day) have day stays only, the others none", async () => {
    const { rows } = await stack.db.query<{ name: string; kind: string; n: number }>(
      `select p.name, o.kind::text, count(*)::int as n from public.orders o join public.places p on p.id = o.place_id
        where p.one_day <> (o.kind = 'day') group by 1, 2 order by 1, 2`,
    );
    expect(rows).toEqual([]);
    const { rows: day } = await stack.db.query<{ n: number }>(`select count(*)::int as n from public.orders where kind = 'day'`);
    expect(day[0].n, 'the season has day stays').toBeGreaterThan(10);
  });

  it('staff and customers are refused, the admin gets the year; its sums equal the revenue report to the cent', async () => {
    const harbour = await login('hafen@hafen.test', 'Hafen1234');
    const kunde = await login('kunde@hafen.test', 'Kunde1234');
    const admin = await login('admin@hafen.test', 'Admin1234');
    for (const sb of [harbour, kunde]) {
      const refused = await sb.rpc('datev_postings', { p_from: `${YEAR}-01-01`, p_to: `${YEAR}-12-31` });
      expect(refused.error?.code).toBe('42501');
    }
    const reversed = await admin.rpc('datev_postings', { p_from: `${YEAR}-12-31`, p_to: `${YEAR}-01-01` });
    expect(reversed.error?.message).toBe('invalid_range');
    const twoYears = await admin.rpc('datev_postings', { p_from: `${YEAR}-01-01`, p_to: `${Number(YEAR) + 1}-01-31` });
    expect(twoYears.error?.message).toBe('datev_range_fiscal_year');

    // The desk takes the money of every stay the report counts but nobody has paid yet.
    const { rows: open } = await stack.db.query<{ id: string }>(
      `select id from public.orders where status in ('confirmed', 'checked_in', 'completed') and payment_status = 'pending' order by id`,
    );
    expect(open.length).toBeGreaterThan(10);
    for (const o of open) {
      const paid = await harbour.rpc('record_desk_payment', { p_order_id: o.id, p_method: 'card_terminal' });
      expect(paid.error).toBeNull();
    }

    const rows = await fetchAll((a, b) =>
      admin
        .rpc('datev_postings', { p_from: `${YEAR}-01-01`, p_to: `${YEAR}-12-31` })
        .order('line_no')
        .range(a, b),
    );
    expect(rows.length).toBeGreaterThan(1000); // past max_rows: fetched in pages
    expect(rows.map((r) => r.line_no)).toEqual(rows.map((_, i) => i + 1));

    const settings = (await admin.rpc('datev_settings')).data as {
      consultant_number: string;
      client_number: string;
      fiscal_year_start: string;
      account_length: number;
    };
    const bytes = buildExtf({
      settings: { ...settings, account_length: Number(settings.account_length) },
      from: `${YEAR}-01-01`,
      to: `${YEAR}-12-31`,
      createdAt: `${YEAR}1231235959000`,
      label: 'Saison',
      postings: rows.map((r) => ({ ...r, side: r.side as DatevPosting['side'], amount_cents: Number(r.amount_cents) })),
    });

    // Structure: one byte per character, CR LF, header and 125 fields per line.
    const text = new TextDecoder('windows-1252').decode(bytes);
    expect(bytes.length).toBe(Array.from(text).length);
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(rows.length + 2);
    expect(lines[0]).toMatch(
      new RegExp(`^"EXTF";700;21;"Buchungsstapel";13;\\d{17};;"RE";"";"";1001;1;${YEAR}0101;4;${YEAR}0101;${YEAR}1231;"Saison";`),
    );
    expect(lines[0].split(';')).toHaveLength(31);
    expect(lines[1]).toBe(COLUMNS.join(';'));
    const perAccount = new Map<string, number>();
    let vatFromFile = 0;
    for (const line of lines.slice(2)) {
      const f = line.split(';'); // the seeded texts hold no ";"
      expect(f).toHaveLength(125);
      expect(f[0]).toMatch(/^\d{1,10},\d{2}$/);
      expect(f[9]).toMatch(/^(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])$/);
      const cents = Number(f[0].replace(',', ''));
      const signed = f[1] === '"S"' ? cents : -cents;
      // Konto gets the side, Gegenkonto the other.
      perAccount.set(f[6], (perAccount.get(f[6]) ?? 0) + signed);
      perAccount.set(f[7], (perAccount.get(f[7]) ?? 0) - signed);
      // On the automatic account DATEV takes 19 % VAT out of each line's gross.
      if (f[7] === '8400') vatFromFile += Math.sign(signed) * Math.round((cents * 19) / 119);
    }

    // The revenue report over every arrival of these documents.
    const report = await admin.rpc('report_revenue', { p_from: `${Number(YEAR) - 1}-01-01`, p_to: `${Number(YEAR) + 1}-12-31` });
    expect(report.error).toBeNull();
    const total = (k: 'net_cents' | 'vat_cents' | 'gross_cents') => report.data!.reduce((s, r) => s + Number(r[k]), 0);
    expect(total('gross_cents')).toBeGreaterThan(100_000_00);

    // Revenue is credited: 8400 holds minus the gross; net and VAT as DATEV splits it.
    expect(-perAccount.get('8400')!).toBe(total('gross_cents'));
    expect(vatFromFile).toBe(total('vat_cents'));
    expect(-perAccount.get('8400')! - vatFromFile).toBe(total('net_cents'));
    // The rows' own net and VAT (the documents' figures) agree.
    const docs = rows.filter((r) => r.contra_account === '8400');
    expect(docs.reduce((s, r) => s + Number(r.net_cents), 0)).toBe(total('net_cents'));
    expect(docs.reduce((s, r) => s + Number(r.vat_cents), 0)).toBe(total('vat_cents'));
    // Money: Kasse and Geldtransit hold what the ledger took this year; the debtor is settled.
    const {
      rows: [ledger],
    } = await stack.db.query<{ cash: string; card: string }>(
      `select coalesce(sum(amount_cents) filter (where method = 'cash'), 0) as cash, coalesce(sum(amount_cents) filter (where method = 'card_terminal'), 0) as card
         from public.payments where kind = 'payment' and extract(year from recorded_at at time zone 'Europe/Berlin') = ${YEAR}`,
    );
    expect(perAccount.get('1000')).toBe(Number(ledger.cash));
    expect(perAccount.get('1360')).toBe(Number(ledger.card));
    expect(perAccount.get('10000')).toBe(0);
  });
});
