/**
 * Interpolated values stay literal text (docs/adr/0039-i18n-catalogues.md, "Values stay literal").
 *
 * Lingui 5 puts string values into the message before it looks at the result:
 * - `<Trans>` (@lingui/react) runs `formatElements` over the translated string, which turns
 *   every `<name>…</name>` or `<name/>` into a component: a guest named `<b>x</b>` showed as "x",
 *   and `<0>y</0>` landed in the message's own component 0. Only values that are neither string
 *   nor number are safe: Trans moves them into its components and puts `<N/>` in their place.
 * - `i18n._` / `t` (@lingui/core) decode `\uXXXX` and `\xXX` in the whole interpolated string,
 *   and a plural branch replaces `%__lingui_octothorpe__%` with its number, so a name typed as
 *   `\u0041` showed as "A".
 *
 * `Trans` below is what the `<Trans>` macro compiles to (lingui.config.ts `runtimeConfigModule`):
 * it hands every string value holding a `<` to Lingui as an element, so it is rendered as a text
 * node and never parsed. `keepValuesLiteral` wraps the instance's `_` and `t`: values holding a
 * backslash, the octothorpe placeholder or the marker character are swapped for markers before
 * the message is formatted and put back afterwards. Values without those characters pass through
 * untouched (a `select` still sees its string).
 */
import { createElement, Fragment, type ReactNode } from 'react';
import type { I18n, MessageDescriptor, MessageOptions } from '@lingui/core';
import { Trans as LinguiTrans, type TransProps } from '@lingui/react';

type Values = Record<string, unknown>;

/** `<Trans>` whose string values are shown as typed. */
export function Trans(props: TransProps): ReactNode {
  const values = props.values;
  if (!values) return createElement(LinguiTrans, props);
  let literal: Values | undefined;
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.includes('<')) {
      literal ??= { ...values };
      // an element: Lingui renders it as component <N/>, its text a React text node
      literal[key] = createElement(Fragment, null, value);
    }
  }
  return createElement(LinguiTrans, literal ? { ...props, values: literal } : props);
}

const MARK = '\uE000'; // private use: never in a message of ours
const SHIELD = /[\\\uE000]|%__lingui_octothorpe__%/;
const MARKED = /\uE000(\d+)\uE000/g;

/** Makes `i18n._` and `i18n.t` put string values into the result exactly as given. */
export function keepValuesLiteral(i18n: I18n) {
  const translate = i18n._.bind(i18n) as (id: string | MessageDescriptor, values?: Values, options?: MessageOptions) => string;
  const literal = (id: string | MessageDescriptor, values?: Values, options?: MessageOptions): string => {
    const given = typeof id === 'object' && id !== null ? (id.values ?? values) : values;
    if (!given) return translate(id, values, options);
    const originals: string[] = [];
    const swapped: Values = {};
    for (const [key, value] of Object.entries(given)) {
      if (typeof value === 'string' && SHIELD.test(value)) {
        swapped[key] = `${MARK}${originals.length}${MARK}`;
        originals.push(value);
      } else {
        swapped[key] = value;
      }
    }
    if (!originals.length) return translate(id, values, options);
    const result =
      typeof id === 'object' && id !== null ? translate({ ...id, values: swapped }, swapped, options) : translate(id, swapped, options);
    return result.replace(MARKED, (marker: string, index: string) => originals[Number(index)] ?? marker);
  };
  i18n._ = literal as I18n['_'];
  i18n.t = literal as I18n['_'];
  return i18n;
}
