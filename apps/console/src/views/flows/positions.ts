// The positions a flow can name: titles for the flows list, choices for the editor.
import { useQuery } from '@tanstack/react-query';
import { recruiting } from '../../trpc.js';

/** The first 100 positions, newest first: enough to pick from; older ones show their id. */
export const positionChoices = () => recruiting.positions.list.queryOptions({ limit: 100 });

/** A position's title when it is among the choices, else its id (a failed load leaves ids). */
export function usePositionTitles(): (id: string) => string {
  const positions = useQuery(positionChoices());
  return (id) => positions.data?.items.find((p) => p.id === id)?.title ?? id;
}
