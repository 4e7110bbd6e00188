import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { recruiting } from '../../trpc.js';

/**
 * A link to a position, named by its title once loaded (lists that hold only a positionId; the
 * reads of one page go out in one batched request and are cached per position).
 */
export function PositionTitle({ id }: { id: string }) {
  const position = useQuery(recruiting.positions.get.queryOptions({ id }));
  return <Link to={`/positions/${id}`}>{position.data?.title ?? <code>{id}</code>}</Link>;
}
