/**
 * The slot of the audit trail in the candidate profile: the `audit` area's AuditTrail component
 * goes here (`<AuditTrail resource={{ type: 'candidate', id: candidateId }} />`) once it exists.
 */
export function CandidateAudit({ candidateId }: { candidateId: string }) {
  return (
    <section className="card" aria-labelledby="candidate-audit-title" data-candidate={candidateId}>
      <h2 id="candidate-audit-title">Audit trail</h2>
      <p className="muted">Who changed this candidate, and when, will be shown here.</p>
    </section>
  );
}
