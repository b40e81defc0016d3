-- Demo seasons and long-term prices (issue 42, docs/adr/0046-seasons-and-long-term-prices.md):
-- the summer season 2027 (1 April to 31 October) and the winter 2027/28, and a price list per
-- season kind valid since 1 January 2026 (gross cents, VAT included, PAngV § 3). Inserted as the
-- owner, past the admin functions' rule that a change applies from a later day.
insert into public.seasons (name, name_en, kind, starts_on, ends_on) values
  ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31'),
  ('Winter 2027/28', 'Winter 2027/28', 'winter', '2027-11-01', '2028-03-31');

insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from) values
  ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01'),
  ('winter', 'square_metre', 1200, 19, 8000, 19, '2026-01-01'),
  ('year_round', 'running_metre', 15000, 19, 18000, 19, '2026-01-01');
