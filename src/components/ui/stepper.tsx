import { Check } from 'lucide-react';
import { clsx } from 'clsx';

/**
 * A numbered step indicator; the current step carries aria-current="step". Its classes never
 * conflict, so it joins them with clsx (no tailwind-merge in /start/booking's first download).
 */
export function Stepper({ steps, current, label }: { steps: string[]; current: number; label: string }) {
  return (
    <nav aria-label={label}>
      {/* On a phone the numbers only, in one row (the section below names the current step), so
          five steps never wrap (issue 40 item 13); from 640 px each with its title. */}
      <ol className="flex gap-x-4 gap-y-2 text-sm max-sm:justify-between sm:flex-wrap">
        {steps.map((title, i) => {
          const n = i + 1;
          const done = n < current;
          const active = n === current;
          return (
            <li
              key={title}
              aria-current={active ? 'step' : undefined}
              className={clsx('flex items-center gap-2', active ? 'font-semibold text-slate-900' : 'text-slate-600')}
            >
              <span
                className={clsx(
                  'flex size-7 items-center justify-center rounded-full border text-xs',
                  active && 'border-primary-dark bg-primary-dark text-white',
                  done && 'border-primary-dark text-primary-dark',
                  !active && !done && 'border-slate-300',
                )}
                aria-hidden
              >
                {done ? <Check className="size-4" /> : n}
              </span>
              <span className="max-sm:sr-only">{title}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
