-- The demo till (after seed.sql and 100_operations.sql): the seeded stays were paid in cash
-- and their payments are in the cash book (the ledger trigger booked them). A harbour office
-- takes that money to the bank; so the demo book's open day starts with a Geldtransit of all
-- but a float of EUR 150, booked by the harbour persona (Heinz Poller), like any deposit.
select private.cash_book_book('bank_deposit', -(b.balance_cents - 15000)::integer, 'movement', null, null,
                              'Geldtransit zur Bank: Bareinnahmen der Vorwochen (Demo)',
                              'a0000000-0000-4000-8000-000000000002'::uuid, private.now())
from (select e.balance_cents from public.cash_book_entries e order by e.entry_no desc limit 1) b
where b.balance_cents > 15000;
