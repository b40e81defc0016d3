/**
 * lucide-react's `createLucideIcon`, as small as the app needs it: every lucide icon module the
 * build bundles calls this one in place of the package's own (scripts/lib/slim-lucide.ts,
 * `hafen:slim-lucide`), and its `key`s are stripped from the icon data. The markup is the
 * package's, attribute for attribute (tests/unit/lucide-icon.test.ts renders every icon the app
 * imports both ways); what is left out is lucide's React context (`LucideProvider`, which the app
 * does not use) and the forwardRef wrapper (React 19 passes `ref` as a prop). It saves ~1.3 KB
 * gzip on every first download (docs/adr/0043-first-load-budgets.md, "lucide icons without their runtime").
 */
import { createElement, type ReactNode, type Ref, type SVGProps } from 'react';

type IconNode = [tag: string, attrs: Record<string, string | number>][];
interface IconData {
  name?: string;
  size?: number;
  node: IconNode;
  aliases?: unknown[];
}
type IconProps = Omit<SVGProps<SVGSVGElement>, 'ref'> & {
  ref?: Ref<SVGSVGElement>;
  size?: string | number;
  absoluteStrokeWidth?: boolean;
  nonScalingStroke?: boolean;
  children?: ReactNode;
};

/** lucide's rule: any aria-* attribute, a role or a title names the icon; otherwise it is hidden. */
const names = (props: object) =>
  Object.entries(props).some(([prop, value]) => value != null && (prop.startsWith('aria-') || prop === 'role' || prop === 'title'));

export default function createLucideIcon(icon: IconData) {
  const box = icon.size ?? 24;
  const classes = [
    'lucide',
    ...[icon.name, ...(icon.aliases ?? [])]
      .filter((name) => typeof name === 'string' && name.trim())
      .map((name) => `lucide-${name as string}`),
  ];
  return function LucideIcon({
    color,
    size,
    width,
    height,
    strokeWidth = 2,
    absoluteStrokeWidth,
    nonScalingStroke,
    className = '',
    children,
    ...rest
  }: IconProps) {
    const w = width ?? size ?? 24;
    return createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: w,
        height: height ?? size ?? 24,
        viewBox: `0 0 ${box} ${box}`,
        fill: 'none',
        stroke: color || 'currentColor',
        strokeWidth: absoluteStrokeWidth ? (Number(strokeWidth) * box) / Number(w) : strokeWidth,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: [...new Set([...classes, ...className.split(/\s+/)])].filter(Boolean).join(' '),
        ...(children || names(rest) ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...icon.node.map(([tag, attrs]) => createElement(tag, nonScalingStroke ? { vectorEffect: 'non-scaling-stroke', ...attrs } : attrs)),
      children,
    );
  };
}
