import type { Page } from '@playwright/test';
import { expect } from '../helpers/app-test';
import { personas } from '../helpers/personas';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, formClient, personaToken } from './booking-helpers.ts';
import { adminToken, createBerth, rest } from './admin-helpers.ts';

/**
 * Long-term contracts made over REST as the real path makes them (application, offer,
 * acceptance with the hash of the text shown), for the journeys that start from a contract
 * (renewal and notice, the back office's balance and reports).
 */
export type ContractPersona = 'customer' | 'customerEn';

/** A fresh berth held by the persona in the season: its contract number (two instalments by bank transfer). */
export async function holdBerth(who: ContractPersona, berth: string, seasonId: string, boat: { length: number; width: number }) {
  const placeId = await createBerth(berth);
  const email = personas[who].email;
  const applied = await fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json', ...formClient() },
    body: JSON.stringify({
      p_email: email,
      p_first_name: who === 'customer' ? 'Klaus' : 'Jan',
      p_last_name: 'Seemann',
      p_boat: { name: `Boot ${berth}`, ...boat },
      p_place_id: placeId,
      p_locale: who === 'customer' ? 'de' : 'en',
    }),
  });
  expect(applied.status, await applied.clone().text()).toBe(200);
  const admin = await adminToken();
  const app = await rest(admin, `long_term_applications?select=id&email=eq.${email}&place_id=eq.${placeId}`);
  const sent = await rest(admin, 'rpc/send_offer', {
    method: 'POST',
    body: { p_application_id: (app.body as { id: string }[])[0].id, p_place_id: placeId, p_season_id: seasonId },
  });
  expect(sent.status).toBe(200);
  const offerId = (sent.body as { id: string }).id;
  const holder = await personaToken(personas[who].email, personas[who].password);
  const shown = await rest(holder, 'rpc/offer_contract', {
    method: 'POST',
    body: { p_offer_id: offerId, p_payment_plan: 2, p_payment_method: 'bank_transfer' },
  });
  const accepted = await rest(holder, 'rpc/accept_offer', {
    method: 'POST',
    body: {
      p_offer_id: offerId,
      p_payment_plan: 2,
      p_payment_method: 'bank_transfer',
      p_contract_sha256: (shown.body as { contract_sha256: string }[])[0].contract_sha256,
    },
  });
  expect(accepted.status).toBe(200);
  return (accepted.body as { contract_number: string }).contract_number;
}

/** Adds a season as the admin (add_season): its id. */
export async function addSeason(name: string, kind: string, starts: string, ends: string): Promise<string> {
  const res = await rest(await adminToken(), 'rpc/add_season', {
    method: 'POST',
    body: { p_name: name, p_kind: kind, p_starts_on: starts, p_ends_on: ends },
  });
  if (res.status !== 200) throw new Error(`season not added: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as string;
}

/** The back office's row of a fee on /account/admin/fees, turning the table's pages until it shows. */
export async function staffFeeRow(page: Page, feeId: string, next: string) {
  await expect(page.locator('tr[data-fee]').first()).toBeVisible();
  const row = page.locator(`tr[data-fee="${feeId}"]`);
  const button = page.getByRole('button', { name: next });
  for (let i = 0; i < 20 && (await row.count()) === 0 && (await button.count()) === 1 && (await button.isEnabled()); i++) {
    await button.click();
  }
  return row;
}
