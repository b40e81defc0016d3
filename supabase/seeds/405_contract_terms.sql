-- The demo harbour's berth contract terms (issue 42, docs/adr/0052-renewal-and-notice.md):
-- version 2 of the schema's placeholder, under which a contract renews for the next season of
-- its kind unless the holder gives notice by the notice deadline named in the contract, as most
-- German harbours' seasonal contracts do (contract_terms.renews_automatically). The schema's
-- version 1 says contracts end with their season; a harbour whose terms say so publishes them
-- with the flag off, and the renewal run then renews none of them. Inserted as the owner, as a
-- harbour's admin would publish them (public.publish_contract_terms).
insert into public.contract_terms (version, body_de, body_en, published_at, renews_automatically)
select 2,
       replace(t.body_de, 'Sie verlängern sich nicht automatisch.',
               'Wird der Vertrag nicht bis zur Kündigungsfrist gekündigt, die der Vertrag nennt, verlängert er sich um die nächste Saison gleicher Art zum dann gültigen Preis.'),
       replace(t.body_en, 'They are not renewed automatically.',
               'Unless notice is given by the notice deadline named in the contract, a contract renews for the next season of the same kind at the price then in force.'),
       '2026-12-07 12:00+01', true
from public.contract_terms t
where t.version = 1
on conflict (version) do nothing;
