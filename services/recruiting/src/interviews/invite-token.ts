import { createHash, createHmac, hkdfSync } from 'node:crypto';

/**
 * Invite tokens: HMAC-SHA256 of the interview id under a key derived from the platform secret
 * (256 bits, unguessable without the secret). Only SHA-256 of the token is stored, for look-up;
 * the token itself is recomputed when the interview is shown to its organization.
 */
export class InviteTokens {
  private readonly key: Buffer;
  constructor(
    secret: string,
    private readonly publicBaseUrl: string,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'hireloop', 'interview-invite-token', 32));
  }

  tokenFor(interviewId: string): string {
    return createHmac('sha256', this.key).update(interviewId).digest('base64url');
  }

  urlFor(interviewId: string): string {
    return `${this.publicBaseUrl}/i/${this.tokenFor(interviewId)}`;
  }

  static hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}
