import { text } from './common.js';

/**
 * Credentials a browser holds that the gateway hands to a service: the console's session cookie
 * (to identity) and the candidate's invite token (to recruiting). The service takes them with these
 * schemas, and the gateway checks them with the same ones before the call, so no client-supplied
 * value reaches a service's URL or headers unchecked (issue 18 item 4: a 16 000-character token
 * overflowed the internal call's header limit, a 503).
 */
export const SessionToken = text().min(1).max(200);
/** 256 random bits, base64url (43 characters); older tokens were HMACs of the same length. */
export const InviteToken = text().min(20).max(100);
