-- The setting fee_reminder_days (63_long_term_fees.sql, "days after the due day before a
-- reminder") was never read: the reminders read fee_reminder_first_days (days after the
-- expected payment day before the first, friendly reminder) and fee_reminder_second_days (days
-- after the first before the second), 65_fee_reminders.sql. It said the same as the first of the
-- two with another value, so it goes (docs/adr/0051-fee-reminders-and-door-code.md).
delete from private.app_settings where key = 'fee_reminder_days';
