import type { ReactNode } from 'react';
import { Link, type LinkProps, type RegisteredRouter, type ValidateLinkOptions } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { PathLink } from '@/components/layout/path-link';
import { Button, buttonVariants } from '@/components/ui/button';

type RowActionsProps<TRouter extends RegisteredRouter, TOptions> = {
  /** The row's name, for the accessible names "… bearbeiten" and "… löschen". */
  name: string;
  /** The edit page as a plain internal path (PathLink) ... */
  editPath?: string;
  /** ... or as typed router link options (Link, preloads on intent). */
  edit?: ValidateLinkOptions<TRouter, TOptions>;
  /** Opens the page's confirmation for this row; no delete button without it. */
  onDelete?: () => void;
  /** More actions after the edit link (e.g. the berth's calendar). */
  children?: ReactNode;
};

/**
 * The actions cell of an admin list row: "Bearbeiten" (link), further links, and "Löschen",
 * which only asks: the page holds the one ConfirmDialog and what it deletes.
 */
export function RowActions<TRouter extends RegisteredRouter, TOptions>(props: RowActionsProps<TRouter, TOptions>): ReactNode;
export function RowActions(props: RowActionsProps<RegisteredRouter, unknown>) {
  const { t } = useLingui();
  const editLink = {
    className: buttonVariants({ variant: 'outline', size: 'sm' }),
    'aria-label': t`${props.name} bearbeiten`,
    children: <Trans>Bearbeiten</Trans>,
  };
  return (
    <div className="flex flex-wrap gap-2">
      {props.editPath !== undefined ? (
        <PathLink path={props.editPath} {...editLink} />
      ) : (
        props.edit && <Link {...(props.edit as LinkProps)} {...editLink} />
      )}
      {props.children}
      {props.onDelete && (
        <Button type="button" variant="destructive" size="sm" aria-label={t`${props.name} löschen`} onClick={props.onDelete}>
          <Trans>Löschen</Trans>
        </Button>
      )}
    </div>
  );
}
