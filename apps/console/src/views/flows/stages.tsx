// Stage kinds as people read them (PRODUCT.md §7 Hiring flow).
import type { HiringFlow, StageKind } from '@hireloop/contracts';

export const STAGE_KINDS: Array<{ value: StageKind; label: string }> = [
  { value: 'screen', label: 'Screen' },
  { value: 'ai_interview', label: 'AI interview' },
  { value: 'review', label: 'Review' },
  { value: 'offer', label: 'Offer' },
];

export const kindLabel = (kind: StageKind): string => STAGE_KINDS.find((k) => k.value === kind)?.label ?? kind;

/** A flow's stages in their order. */
export const orderedStages = (flow: Pick<HiringFlow, 'stages'>): HiringFlow['stages'] => [...flow.stages].sort((a, b) => a.position - b.position);

/** The stages as chips: name and kind. */
export function StageChips({ stages }: { stages: HiringFlow['stages'] }) {
  return (
    <ol className="chips" aria-label={`${stages.length} stages`}>
      {orderedStages({ stages }).map((s) => (
        <li key={s.id} className={`chip chip-${s.kind}`}>
          <span>{s.name}</span> <span className="hint">{kindLabel(s.kind)}</span>
        </li>
      ))}
    </ol>
  );
}
