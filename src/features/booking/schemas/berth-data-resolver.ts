import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { bookingRules } from '@/features/booking/api/booking-rules';
import { berthDataSchema, type BerthDataValues, type StayRules } from '@/features/booking/schemas/berth-data';

let rules: StayRules = {};
const resolve = zodResolver(
  berthDataSchema(
    () => new Date(),
    () => rules,
  ),
);

/**
 * Step 1's resolver (react-hook-form + zod), loaded when the form is first used: zod and the
 * resolver are not part of /start/booking's first download (step-berth-data.tsx). It waits for
 * the fair periods and the booking horizon (one request, shared with the form's calendar), so
 * the schema checks them before step 2; when they cannot be loaded the database still refuses.
 */
export const berthDataResolver: Resolver<BerthDataValues> = async (values, context, options) => {
  // At most 3 s: a slow network does not hold the form up (the database checks the same).
  rules = await Promise.race([bookingRules().catch(() => ({})), new Promise<StayRules>((resolve) => setTimeout(() => resolve({}), 3000))]);
  return resolve(values, context, options);
};
