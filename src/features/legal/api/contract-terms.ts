import { queryOptions } from '@tanstack/react-query';
import { env } from '@/lib/env';

/** A version of the berth contract terms (public.contract_terms, docs/adr/0047-offers-and-contracts.md). */
export interface ContractTerms {
  version: number;
  body_de: string;
  body_en: string;
  published_at: string;
}

/** The terms in force: the highest version. A plain GET with the publishable key (no supabase-js on a public page). */
async function fetchCurrentTerms(): Promise<ContractTerms | null> {
  const response = await fetch(
    `${env.supabaseUrl}/rest/v1/contract_terms?select=version,body_de,body_en,published_at&order=version.desc&limit=1`,
    { headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' } },
  );
  if (!response.ok) throw new Error(`contract_terms: HTTP ${response.status}`);
  const rows = (await response.json()) as ContractTerms[];
  return rows[0] ?? null;
}

export const contractTermsKeys = { current: ['contract-terms', 'current'] as const };

export const currentContractTermsQueryOptions = queryOptions({
  queryKey: contractTermsKeys.current,
  queryFn: fetchCurrentTerms,
  staleTime: 60_000,
});

/** The terms' plain text as sections: a line "## Title" starts one, blank lines separate paragraphs. */
export function termsSections(body: string): { title: string; paragraphs: string[] }[] {
  const sections: { title: string; paragraphs: string[] }[] = [];
  for (const block of body.replace(/\r\n/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    if (lines[0].startsWith('## ')) {
      sections.push({
        title: lines[0].slice(3).trim(),
        paragraphs: lines.slice(1).join('\n').trim() ? [lines.slice(1).join('\n').trim()] : [],
      });
    } else if (block.trim()) {
      if (sections.length === 0) sections.push({ title: '', paragraphs: [] });
      sections[sections.length - 1].paragraphs.push(block.trim());
    }
  }
  return sections;
}
