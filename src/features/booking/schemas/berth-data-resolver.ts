import { zodResolver } from '@hookform/resolvers/zod';
import { berthDataSchema } from './berth-data';

/**
 * Step 1's resolver (react-hook-form + zod), loaded when the form is first used: zod and the
 * resolver are not part of /start/booking's first download (step-berth-data.tsx).
 */
export const berthDataResolver = zodResolver(berthDataSchema());
