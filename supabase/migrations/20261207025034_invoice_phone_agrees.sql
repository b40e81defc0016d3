-- Issue 40 item 12: the demo harbour's invoices gave +49 211 0000000 as the seller's phone while
-- the site and the start page give the office's +49 211 1234560 (harbour_settings.contact_phone).
-- The placeholder becomes the office's number; a phone an operator has set is left alone.
update private.app_settings
set value = '+49 211 1234560'
where key = 'invoice_phone' and value = '+49 211 0000000';
